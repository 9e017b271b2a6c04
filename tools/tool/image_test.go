package tool_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func TestLoadImage_OneCapFromConfig(t *testing.T) {
	d := tooltest.Deps(t)
	d.Config.Limits.ImageMB = 1
	root := d.Sandbox.Root()
	os.MkdirAll(filepath.Join(root, "docs", "img"), 0o755)
	os.WriteFile(filepath.Join(root, "docs", "img", "a.png"), []byte("png"), 0o644)
	os.WriteFile(filepath.Join(root, "big.png"), make([]byte, 1<<20+1), 0o644)
	if b, err := d.LoadImage(filepath.Join(root, "docs"), "img/a.png"); err != nil || string(b) != "png" {
		t.Fatalf("relative to the document: %q %v", b, err)
	}
	if _, err := d.LoadImage(root, "big.png"); err == nil {
		t.Fatal("an image over limits.image_mb was read")
	}
	d.Config.Limits.ImageMB = 2
	if _, err := d.LoadImage(root, "big.png"); err != nil {
		t.Fatalf("the cap does not follow the config: %v", err)
	}
	for _, ref := range []string{"https://example.com/a.png", "HTTP://x/a.png", "data:image/png;base64,AA", "//host/a.png"} {
		if _, err := d.LoadImage(root, ref); !errors.Is(err, tool.ErrRemoteImage) {
			t.Fatalf("%s: %v", ref, err)
		}
	}
	if _, err := d.LoadImage(root, "../../etc/passwd"); !errors.Is(err, sandbox.ErrOutside) {
		t.Fatalf("outside: %v", err)
	}
	if _, err := d.LoadImage(root, "missing.png"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}
