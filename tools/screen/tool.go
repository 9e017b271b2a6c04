// Package screen is the `screen` tool: capture an X display (whole screen or
// a region) and list displays, speaking the X11 protocol directly.
package screen

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"slices"
	"time"

	"clawbridge/tools/tool"
)

// New builds the screen tool.
func New(d *tool.Deps) tool.Tool {
	s := &screenTool{d: d}
	return tool.Tool{
		Name:        "screen",
		Title:       "Screen capture",
		Description: "Capture the desktop of this machine's X display (full screen, one screen or a region) as a PNG; list shows the displays. On a headless server it says there is no display.",
		Actions: []tool.Action{
			{Name: "capture", Handler: s.capture, Description: "Capture a screen or a region as PNG.", Level: tool.Read, Timeout: tool.Normal,
				Params: []tool.Param{
					{Name: "display", Type: tool.String, Description: "X display, e.g. :0 (default $DISPLAY)."},
					{Name: "screen", Type: tool.Integer, Default: 0, Description: "Screen number on the display.", Min: tool.Ptr(0)},
					{Name: "x", Type: tool.Integer, Description: "Region left edge in pixels.", Min: tool.Ptr(0)},
					{Name: "y", Type: tool.Integer, Description: "Region top edge in pixels.", Min: tool.Ptr(0)},
					{Name: "width", Type: tool.Integer, Description: "Region width.", Min: tool.Ptr(1)},
					{Name: "height", Type: tool.Integer, Description: "Region height.", Min: tool.Ptr(1)},
					{Name: "output", Type: tool.String, Description: "PNG path (default outputs/screen.png)."},
				}},
			{Name: "list", Handler: s.list, Description: "List X displays and their screens.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true},
		},
		Examples: []string{
			"take a screenshot of my desktop",
			"capture the top-left 800x600 region of the screen",
			"which displays are available?",
			"截个屏",
			"截取屏幕左上角区域",
		},
	}
}

type screenTool struct{ d *tool.Deps }

var errNoDisplay = &tool.Error{Code: tool.CodeUnavailable,
	Message: "no X display is available on this server (it runs headless: DISPLAY is not set and no X server is running)",
	Hint:    "run clawbridge inside a desktop session, or start a virtual display (Xvfb :1) and set DISPLAY"}

func (s *screenTool) pickDisplay(want string) (string, error) {
	if want != "" {
		return want, nil
	}
	if d := os.Getenv("DISPLAY"); d != "" {
		return d, nil
	}
	ds := localDisplays()
	switch len(ds) {
	case 0:
		return "", errNoDisplay
	case 1:
		return ds[0], nil
	}
	return "", tool.Invalid("display", fmt.Sprintf("several displays are running (%v) and DISPLAY is not set", ds), "name one with display")
}

func (s *screenTool) capture(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	disp, err := s.pickDisplay(c.Args.String("display"))
	if err != nil {
		return nil, err
	}
	x, err := dialX(disp, 10*time.Second)
	if err != nil {
		if c.Args.String("display") == "" && os.Getenv("DISPLAY") == "" {
			return nil, errNoDisplay
		}
		return nil, tool.Errorf(tool.CodeUnavailable, "check the display name with the list action", "%v", err)
	}
	defer x.Close()
	idx := c.Args.Int("screen", 0)
	if idx >= len(x.screens) {
		return nil, tool.Invalid("screen", fmt.Sprintf("display %s has %d screen(s)", disp, len(x.screens)), "screens are numbered from 0")
	}
	scr := x.screens[idx]
	full := image.Rect(0, 0, scr.Width, scr.Height)
	x0, y0 := c.Args.Int("x", 0), c.Args.Int("y", 0)
	r := image.Rect(x0, y0, x0+c.Args.Int("width", scr.Width-x0), y0+c.Args.Int("height", scr.Height-y0))
	if r.Empty() || !r.In(full) {
		return nil, tool.Invalid("width", fmt.Sprintf("region %v is outside the %dx%d screen", r, scr.Width, scr.Height), "keep x+width and y+height within the screen size (see list)")
	}
	img, err := x.getImage(scr, r)
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "", "capture %s: %v", disp, err)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("capture: encode png: %w", err)
	}
	out, err := tool.PlanOutput(s.d.Sandbox, c.Args, tool.Output{Stem: "screen", Exts: []string{".png"}})
	if err != nil {
		return nil, err
	}
	file, err := out.Write(".png", buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	path := file.Path
	res := &tool.Result{
		Summary: fmt.Sprintf("Captured %dx%d pixels of display %s screen %d to %s.", r.Dx(), r.Dy(), disp, idx, s.d.Sandbox.Rel(path)),
		Data: map[string]any{"display": disp, "screen": idx, "x": r.Min.X, "y": r.Min.Y, "width": r.Dx(), "height": r.Dy(),
			"path": path, "bytes": buf.Len()},
		Files: []tool.File{file},
	}
	// Inline only when small enough not to flood the client.
	if buf.Len() <= 2<<20 {
		res.Images = []tool.Image{{MIME: "image/png", Data: buf.Bytes()}}
	}
	return res, nil
}

type displayInfo struct {
	Display string    `json:"display"`
	Default bool      `json:"default,omitempty"`
	Screens []xScreen `json:"screens,omitempty"`
	Error   string    `json:"error,omitempty"`
}

func (s *screenTool) list(context.Context, *tool.Call) (*tool.Result, error) {
	names := localDisplays()
	env := os.Getenv("DISPLAY")
	if env != "" && !slices.Contains(names, env) {
		names = append([]string{env}, names...)
	}
	if len(names) == 0 {
		return nil, errNoDisplay
	}
	var out []displayInfo
	for _, n := range names {
		di := displayInfo{Display: n, Default: n == env}
		x, err := dialX(n, 3*time.Second)
		if err != nil {
			di.Error = err.Error()
		} else {
			di.Screens = x.screens
			x.Close()
		}
		out = append(out, di)
	}
	return &tool.Result{Summary: fmt.Sprintf("%d display(s).", len(out)), Data: map[string]any{"displays": out}}, nil
}
