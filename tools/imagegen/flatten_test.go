package imagegen

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// ffmpegPixel reads the pixel at x,y of an image file with ffmpeg, a
// reader nobody here wrote.
func ffmpegPixel(t *testing.T, path string, x, y int) [3]byte {
	t.Helper()
	tooltest.NeedProgram(t, "ffmpeg")
	cmd := exec.Command("ffmpeg", "-v", "error", "-i", path, "-vf", fmt.Sprintf("format=rgb24,crop=1:1:%d:%d", x, y), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || len(out) != 3 {
		t.Fatalf("ffmpeg %s: %v (%d bytes) %s", path, err, len(out), stderr.String())
	}
	return [3]byte{out[0], out[1], out[2]}
}

// TestTransform_TransparentToOpaqueFormats: gin's logo, a real PNG with
// transparent corners, converted to JPEG and GIF (and watermarked into a
// JPEG) has white corners, or the background asked for, while the logo
// itself keeps its colours; read back with ffmpeg.
func TestTransform_TransparentToOpaqueFormats(t *testing.T) {
	tl, d := newTool(t)
	raw := tooltest.ReadFile(t, "testdata/gin-logo.png")
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "gin.png"), raw)
	near := func(got [3]byte, want [3]int) bool {
		for i := range got {
			if d := int(got[i]) - want[i]; d < -12 || d > 12 {
				return false
			}
		}
		return true
	}
	for _, tc := range []struct {
		args   map[string]any
		corner [3]int
	}{
		{map[string]any{"action": "transform", "path": "gin.png", "format": "jpeg"}, [3]int{255, 255, 255}},
		{map[string]any{"action": "transform", "path": "gin.png", "format": "gif"}, [3]int{255, 255, 255}},
		{map[string]any{"action": "transform", "path": "gin.png", "format": "jpeg", "background": "#204080"}, [3]int{0x20, 0x40, 0x80}},
		{map[string]any{"action": "transform", "path": "gin.png", "width": 96, "format": "jpeg"}, [3]int{255, 255, 255}},
	} {
		res, err := tooltest.Run(t, tl, tc.args)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		p := res.Files[0].Path
		if got := ffmpegPixel(t, p, 2, 2); !near(got, tc.corner) {
			t.Errorf("%v: corner %v, want %v", tc.args, got, tc.corner)
		}
		// The middle of the logo is its light-blue glass, not the background.
		img, _, _ := tooltest.ReadImage(t, p)
		mid := img.Bounds().Dx() / 2
		if got := ffmpegPixel(t, p, mid, mid+mid/5); near(got, tc.corner) || near(got, [3]int{0, 0, 0}) {
			t.Errorf("%v: the logo's middle is %v", tc.args, got)
		}
	}
}
