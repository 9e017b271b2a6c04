package trash

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/clawbridge/clawbridge/internal/sandbox"
)

// CopyFile copies one regular file with its permission bits; dst must not
// exist.
func CopyFile(ctx context.Context, src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, ctxReader{ctx, in}); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// CopyTree copies src (a file or directory) to dst, which must not exist.
// keepLinks recreates symlinks as links (used for the trash, where fidelity
// matters); otherwise they are skipped and listed, so a copy never reads
// through a link. Devices, sockets and pipes are always skipped.
func CopyTree(ctx context.Context, sb *sandbox.Sandbox, src, dst string, keepLinks bool, onFile func()) (skipped []string, err error) {
	err = sb.WalkDir(src, func(p string, e fs.DirEntry, werr error) error {
		if werr != nil {
			return werr
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := e.Info()
		if err != nil {
			return err
		}
		switch {
		case info.IsDir():
			return os.Mkdir(target, info.Mode().Perm()|0o700)
		case info.Mode().IsRegular():
			if onFile != nil {
				onFile()
			}
			return CopyFile(ctx, p, target, info.Mode().Perm())
		case info.Mode()&fs.ModeSymlink != 0 && keepLinks:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		default:
			skipped = append(skipped, rel)
			return nil
		}
	})
	return skipped, err
}

// Move renames src to dst, falling back to copy-and-remove across
// filesystems (workspace roots may live on different devices).
func Move(ctx context.Context, sb *sandbox.Sandbox, src, dst string) error {
	err := os.Rename(src, dst)
	if err == nil {
		return nil
	}
	var le *os.LinkError
	if !errors.As(err, &le) || !errors.Is(le.Err, syscall.EXDEV) {
		return err
	}
	if _, err := CopyTree(ctx, sb, src, dst, true, nil); err != nil {
		os.RemoveAll(dst)
		return fmt.Errorf("copy across devices: %w", err)
	}
	return os.RemoveAll(src)
}

// TypeOf names what a mode is: dir, symlink, file or other.
func TypeOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsRegular():
		return "file"
	default:
		return "other"
	}
}

// Cancellable reads r until ctx is done, so that a long copy stops when the
// call is cancelled.
func Cancellable(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
