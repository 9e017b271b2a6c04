package pyrunner

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
)

// In the jail /work is a tmpfs of work_mb (so the quota holds while the
// run goes on, against one big file and many small ones alike) and the
// inputs are bound read-only at inTarget. collectScript is the jail's
// program: it copies the inputs in, runs the interpreter (its arguments)
// without fd 5, stops whatever the run left behind (kill -1 spares only
// itself and the jail's init), streams /work as a tar to fd 5, and exits
// with the interpreter's status. A process of the run could write into
// that stream too; collect caps and checks what it extracts, so it gains
// nothing it could not write to /work itself.
const collectScript = `cp -a /in/. /work/ || exit 125
"$@" 5>&-
status=$?
kill -9 -1 2>/dev/null
tar -C /work -cf - . 2>/dev/null >&5
exit $status`

const inTarget = "/in"

// errOverQuota is collect's finding that the work dir held more than the
// quota.
var errOverQuota = errors.New("the work directory outgrew its quota")

// collect extracts the tar stream of the jail's work dir into dir: regular
// files (with their time stamps, so unchanged inputs are recognised),
// directories and hard links to files already extracted; symlinks, FIFOs
// and devices are left out. Names are kept inside dir (os.Root). It stops
// with errOverQuota once the files come to more than max bytes together.
func collect(stream io.Reader, dir string, max int64) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	tr := tar.NewReader(stream)
	files := map[string]int64{} // extracted regular files and their sizes
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if name == "." {
			continue
		}
		if !fs.ValidPath(name) {
			return fmt.Errorf("bad name %q in the work directory's stream", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = root.MkdirAll(name, 0o755)
		case tar.TypeReg:
			if total += h.Size; total > max {
				return errOverQuota
			}
			err = extractFile(root, name, tr, h)
			files[name] = h.Size
		case tar.TypeLink:
			target := path.Clean(h.Linkname)
			size, ok := files[target]
			if !ok {
				continue
			}
			if total += size; total > max {
				return errOverQuota
			}
			if err = root.MkdirAll(path.Dir(name), 0o755); err == nil {
				err = root.Link(target, name)
			}
			files[name] = size
		}
		if err != nil {
			return err
		}
	}
}

func extractFile(root *os.Root, name string, tr io.Reader, h *tar.Header) error {
	if err := root.MkdirAll(path.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.CopyN(f, tr, h.Size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return root.Chtimes(name, h.ModTime, h.ModTime)
}
