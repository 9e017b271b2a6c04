package imagegen

import (
	"image"
	"path/filepath"
	"strings"
	"testing"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// url84 is an 84-character URL: version 8 at level H.
const url84 = "https://example.org/docs/getting-started/installation-guide?utm_source=qr&utm_medium"

// TestQR_RealLogoReadsWithZbar: gin's logo (a real transparent PNG whose
// gopher eyes zbar took for an alignment pattern) over an 84-character URL
// at level H, at every size: each code the tool answers with reads back
// exactly with zbarimg, and a logo it had to shrink is reported.
func TestQR_RealLogoReadsWithZbar(t *testing.T) {
	tooltest.NeedProgram(t, "zbarimg")
	if len(url84) != 84 {
		t.Fatalf("url84 has %d characters", len(url84))
	}
	tl, d := newTool(t)
	raw := tooltest.ReadFile(t, "testdata/gin-logo.png")
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "gin.png"), raw)
	for _, tc := range []struct {
		text  string
		level string
		size  int
	}{{url84, "H", 512}, {url84, "H", 300}, {url84, "Q", 1024}, {url84[:40], "H", 512}, {strings.Repeat("二维码", 30), "H", 700}} {
		res, err := tooltest.Run(t, tl, map[string]any{"action": "qr", "text": tc.text, "level": tc.level, "size": tc.size, "logo": "gin.png"})
		if err != nil {
			t.Fatalf("%d chars, level %s, size %d: %v", len(tc.text), tc.level, tc.size, err)
		}
		if got := zbar(t, res.Files[0].Path); got != tc.text {
			t.Errorf("%d chars, level %s, size %d: zbarimg read %q", len(tc.text), tc.level, tc.size, got)
		}
		data := res.Data.(map[string]any)
		side, _ := data["logo_px"].(int)
		if side < tc.size/10 || side > tc.size/5 {
			t.Errorf("logo side %d px on a %d px code", side, tc.size)
		}
		if shrunk := strings.Contains(res.Summary, "logo shrunk"); shrunk != (side < tc.size/5) {
			t.Errorf("summary %q for a logo of %d px", res.Summary, side)
		}
	}
}

// TestLogoFits: a box over the whole symbol leaves nothing to read, none
// leaves everything, and a middle box fits level H but not level L.
func TestLogoFits(t *testing.T) {
	for _, tc := range []struct {
		level qrcode.RecoveryLevel
		box   image.Rectangle
		want  bool
	}{
		{qrcode.Highest, image.Rect(0, 0, 0, 0), true},
		{qrcode.Highest, image.Rect(0, 0, 512, 512), false},
		{qrcode.Highest, image.Rect(206, 206, 306, 306), true},
		{qrcode.Low, image.Rect(206, 206, 306, 306), false},
	} {
		q, err := qrcode.New(url84, tc.level)
		if err != nil {
			t.Fatal(err)
		}
		if got := logoFits(q.Bitmap(), q.VersionNumber, 512, tc.box, url84); got != tc.want {
			t.Errorf("level %d, box %v: fits %v, want %v", tc.level, tc.box, got, tc.want)
		}
	}
}
