package screen

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"clawbridge/tools/tool"
	"clawbridge/tools/tooltest"
)

// startXvfb runs a virtual display on a free number and returns ":N".
func startXvfb(t *testing.T) string {
	bin := tooltest.NeedProgram(t, "Xvfb")
	for n := 87; n < 120; n++ {
		if _, err := os.Stat(filepath.Join(socketDir, fmt.Sprintf("X%d", n))); err == nil {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			continue
		}
		cmd := exec.Command(bin, fmt.Sprintf(":%d", n), "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		sock := filepath.Join(socketDir, fmt.Sprintf("X%d", n))
		for i := 0; i < 100; i++ {
			if _, err := os.Stat(sock); err == nil {
				return fmt.Sprintf(":%d", n)
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("Xvfb :%d did not start", n)
	}
	t.Fatal("no free display number")
	return ""
}

func TestCaptureUnderXvfb(t *testing.T) {
	disp := startXvfb(t)
	t.Setenv("DISPLAY", disp)
	d := tooltest.Deps(t)
	tl := New(d)
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := tooltest.Run(t, tl, map[string]any{"action": "list"})
	if err != nil {
		t.Fatal(err)
	}
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
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tooltest.Run(t, tl, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(res.Files[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != tc.w || b.Dy() != tc.h {
				t.Fatalf("size %v, want %dx%d", b, tc.w, tc.h)
			}
			if len(res.Images) != 1 {
				t.Fatal("no inline image")
			}
		})
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "capture", "x": 600, "width": 100})
	if e, ok := tool.AsError(err); !ok || e.Code != tool.CodeInvalid {
		t.Fatalf("region outside: %v", err)
	}
}

func TestNoDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	old := socketDir
	socketDir = t.TempDir()
	defer func() { socketDir = old }()
	tl := New(tooltest.Deps(t))
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
