package tool

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/sandbox"
)

// ErrRemoteImage is LoadImage's refusal of a URL: tools do not fetch
// images from the network.
var ErrRemoteImage = errors.New("remote and data: images are not fetched; save the image into the workspace first and use its path")

// LoadImage reads an image a document refers to: ref is a workspace path,
// relative to dir (the document's directory) unless absolute, read through
// the sandbox; a file over limits.image_mb is refused. The errors are
// plain (wrapping sandbox.ErrOutside or os.ErrNotExist where they apply):
// the caller names the field.
func (d *Deps) LoadImage(dir, ref string) ([]byte, error) {
	l := strings.ToLower(ref)
	if strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "data:") || strings.HasPrefix(l, "//") {
		return nil, ErrRemoteImage
	}
	p := strings.TrimPrefix(ref, "file://")
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	abs, err := d.Sandbox.Resolve(p)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (paths are relative to the document, or to the workspace root)", ref, os.ErrNotExist)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not an image", ref)
	}
	limit := d.Config.Limits.ImageMB
	if fi.Size() > int64(limit)<<20 {
		return nil, fmt.Errorf("image %s is %d MB, above the %d MB limit (limits.image_mb)", ref, fi.Size()>>20, limit)
	}
	// The checks above give the clear messages; ReadRegular makes them
	// hold on the file actually opened (a FIFO would block the call).
	b, err := sandbox.ReadRegular(abs, int64(limit)<<20)
	if errors.Is(err, sandbox.ErrNotRegular) {
		return nil, fmt.Errorf("%s is not a regular file, not an image", ref)
	}
	return b, err
}
