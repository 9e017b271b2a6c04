package screen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// startXvfb runs a virtual display for the test and returns ":N".
func startXvfb(t *testing.T) string { return tooltest.Xvfb(t, "640x480x24") }

// paintRoot paints rectangles of the root window of disp in known colours
// (0xRRGGBB on the 24-bit TrueColor screen Xvfb makes) over the X11
// connection the tool itself uses: it sets the root's background pixel and
// clears the rectangle to it, so no resource id is needed. A zero width or
// height reaches the window's edge. It returns after the server has done it.
func paintRoot(t *testing.T, disp string, rects []paint) {
	t.Helper()
	x, err := dialX(disp, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	root := x.screens[0].root
	le := binary.LittleEndian
	var req []byte
	for _, p := range rects {
		req = append(req, 2, 0) // ChangeWindowAttributes
		req = le.AppendUint16(req, 4)
		req = le.AppendUint32(req, root)
		req = le.AppendUint32(req, 0x2) // CWBackPixel
		req = le.AppendUint32(req, p.pixel)
		req = append(req, 61, 0) // ClearArea, no exposures
		req = le.AppendUint16(req, 4)
		req = le.AppendUint32(req, root)
		for _, v := range []int{p.r.Min.X, p.r.Min.Y, p.r.Dx(), p.r.Dy()} {
			req = le.AppendUint16(req, uint16(v))
		}
	}
	req = append(req, 43, 0, 1, 0) // GetInputFocus: its reply follows the work above
	if _, err := x.c.Write(req); err != nil {
		t.Fatal(err)
	}
	reply := make([]byte, 32)
	if _, err := io.ReadFull(x.r, reply); err != nil {
		t.Fatal(err)
	}
	if reply[0] != 1 {
		t.Fatalf("painting the root window: X error code %d (request %d)", reply[1], reply[10])
	}
}

type paint struct {
	r     image.Rectangle
	pixel uint32
}

// checkColours fails unless img (captured at offset) shows each painted
// rectangle's colour everywhere it overlaps the capture.
func checkColours(t *testing.T, img image.Image, offset image.Point, rects []paint) {
	t.Helper()
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			at := image.Pt(x, y).Add(offset)
			want := uint32(0)
			for _, p := range rects { // later paints cover earlier ones
				if at.In(p.r) {
					want = p.pixel
				}
			}
			r, g, b, _ := img.At(x, y).RGBA()
			if got := r>>8<<16 | g>>8<<8 | b>>8; got != want {
				t.Fatalf("screen pixel %v is #%06x, painted #%06x", at, got, want)
			}
		}
	}
}

func TestCaptureUnderXvfb(t *testing.T) {
	disp := startXvfb(t)
	t.Setenv("DISPLAY", disp)
	// Known content, so a capture of the wrong place, of nothing, or with
	// the channels swapped cannot pass: a blue screen with a red box at the
	// region captured below and a green box in the bottom-right corner.
	painted := []paint{
		{image.Rect(0, 0, 640, 480), 0x2040c0},
		{image.Rect(10, 20, 110, 70), 0xff0000},
		{image.Rect(600, 400, 640, 480), 0x00ff00},
		{image.Rect(300, 200, 301, 201), 0xfedcba}, // one odd pixel: the full capture is exact, not just close
	}
	paintRoot(t, disp, painted)
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, New, d)
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	res := tooltest.OK(t, tl, map[string]any{"action": "list"})
	found := false
	for _, di := range res.Data.(map[string]any)["displays"].([]displayInfo) {
		if di.Display == disp && len(di.Screens) == 1 && di.Screens[0].Width == 640 && di.Screens[0].Height == 480 {
			found = true
		}
	}
	if !found {
		t.Fatalf("list: %+v", res.Data)
	}
	cases := []struct {
		name string
		args map[string]any
		w, h int
	}{
		{"full", map[string]any{"action": "capture"}, 640, 480},
		{"region", map[string]any{"action": "capture", "display": disp, "x": 10, "y": 20, "width": 100, "height": 50}, 100, 50},
		{"to edge", map[string]any{"action": "capture", "x": 600, "y": 400}, 40, 80},
		{"around the box", map[string]any{"action": "capture", "x": 5, "y": 15, "width": 110, "height": 60}, 110, 60},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := tooltest.OK(t, tl, tc.args)
			data := tooltest.ReadFile(t, res.Files[0].Path)
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != tc.w || b.Dy() != tc.h {
				t.Fatalf("size %v, want %dx%d", b, tc.w, tc.h)
			}
			x, _ := tc.args["x"].(int)
			y, _ := tc.args["y"].(int)
			checkColours(t, img, image.Pt(x, y), painted)
			if len(res.Images) != 1 {
				t.Fatal("no inline image")
			}
			inline, err := png.Decode(bytes.NewReader(res.Images[0].Data))
			if err != nil {
				t.Fatalf("inline image: %v", err)
			}
			if inline.Bounds().Dx() == tc.w && inline.Bounds().Dy() == tc.h {
				checkColours(t, inline, image.Pt(x, y), painted)
			}
		})
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "capture", "x": 600, "width": 100})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeInvalid {
		t.Fatalf("region outside: %v", err)
	}
}

func TestNoDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	old := socketDir
	socketDir = t.TempDir()
	defer func() { socketDir = old }()
	tl := tooltest.Build(t, New, tooltest.Deps(t))
	for _, action := range []string{"capture", "list"} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": action})
		if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeUnavailable {
			t.Fatalf("%s: want unavailable, got %v", action, err)
		}
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "capture", "display": ":77"})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeUnavailable {
		t.Fatalf("missing display: %v", err)
	}
}

// staleSocket leaves an X socket file behind with no server on it, as a
// crashed X server does.
func staleSocket(t *testing.T, dir string, n int) {
	t.Helper()
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, fmt.Sprintf("X%d", n)), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close()
}

// TestScreen_ListAgreesWithCapture: sockets left behind by X servers that
// are gone are not usable displays — list fails as capture does, and
// Available (doctor's check) says so too; a live display is usable by all
// three.
func TestScreen_ListAgreesWithCapture(t *testing.T) {
	t.Setenv("DISPLAY", "")
	old := socketDir
	socketDir = t.TempDir()
	defer func() { socketDir = old }()
	staleSocket(t, socketDir, 3)
	staleSocket(t, socketDir, 4)
	tl := tooltest.Build(t, New, tooltest.Deps(t))
	for _, action := range []string{"capture", "list"} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": action})
		if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeUnavailable {
			t.Fatalf("%s with stale sockets only: want unavailable, got %v", action, err)
		}
	}
	if _, _, err := Available(); err == nil {
		t.Fatal("Available: a stale socket counted as a display")
	}
	socketDir = old

	disp := startXvfb(t)
	t.Setenv("DISPLAY", disp)
	res, err := tooltest.Run(t, tl, map[string]any{"action": "list"})
	if err != nil || !strings.Contains(res.Summary, "usable") {
		t.Fatalf("list with a live display: %v %v", err, res)
	}
	if _, err := tooltest.Run(t, tl, map[string]any{"action": "capture"}); err != nil {
		t.Fatalf("capture with a live display: %v", err)
	}
	if d, screens, err := Available(); err != nil || d != disp || !strings.Contains(screens, "640x480") {
		t.Fatalf("Available: %q %q %v", d, screens, err)
	}
}
