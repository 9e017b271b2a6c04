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
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// New builds the screen tool.
func New(d *tool.Deps) (tool.Tool, error) {
	s := &screenTool{d: d}
	return tool.Tool{
		Name:        "screen",
		Title:       "Screen capture",
		Description: "Capture the desktop of this machine's X display (full screen, one screen or a region) as a PNG; list shows the displays. On a headless server it says there is no display.",
		Actions: []tool.Action{
			{Name: "capture", Handler: s.capture, Description: "a screen or a region as PNG", Level: tool.Write, Timeout: tool.Normal,
				Params: []tool.Param{
					{Name: "display", Type: tool.String, Description: "X display, e.g. :0 (default $DISPLAY)."},
					{Name: "screen", Type: tool.Integer, Default: 0, Description: "On the display.", Min: tool.Ptr(0)},
					{Name: "x", Type: tool.Integer, Description: "Region left edge.", Min: tool.Ptr(0)},
					{Name: "y", Type: tool.Integer, Description: "Region top edge.", Min: tool.Ptr(0)},
					{Name: "width", Type: tool.Integer, Description: "Region width.", Min: tool.Ptr(1)},
					{Name: "height", Type: tool.Integer, Description: "Region height.", Min: tool.Ptr(1)},
					tool.OutputParam("Default outputs/screen.png."), tool.Overwrite,
				}},
			{Name: "list", Handler: s.list, Description: "X displays and their screens", Level: tool.Read, Timeout: tool.Fast, Idempotent: true},
		},
		// A headless server has no X display: a note, not a problem, since
		// only screen capture is affected.
		Checks: []tool.Check{{Name: "screen", Run: displayCheck}},
		Examples: []string{
			"take a screenshot of my desktop",
			"capture the top-left 800x600 region of the screen",
			"which displays are available?",
			"截个屏",
			"截取屏幕左上角区域",
		},
	}, nil
}

type screenTool struct{ d *tool.Deps }

var errNoDisplay = &tool.Error{Code: tool.CodeUnavailable,
	Message: "no X display is available on this server (it runs headless: DISPLAY is not set and no X server is running)",
	Hint:    "run clawbridge inside a desktop session, or start a virtual display (Xvfb :1) and set DISPLAY"}

// pickDisplay is the display a call uses: the one named, else $DISPLAY,
// else the one local display whose server answers (a socket left behind by
// an X server that is gone does not count).
func (s *screenTool) pickDisplay(want string) (string, error) {
	if want != "" {
		return want, nil
	}
	if d := os.Getenv("DISPLAY"); d != "" {
		return d, nil
	}
	var usable []string
	for _, di := range probe(localDisplays()) {
		if di.Error == "" {
			usable = append(usable, di.Display)
		}
	}
	switch len(usable) {
	case 0:
		return "", errNoDisplay
	case 1:
		return usable[0], nil
	}
	return "", tool.Invalid("display", fmt.Sprintf("several displays are running (%v) and DISPLAY is not set", usable), "name one with display")
}

// displayCheck is the doctor's line on the display a capture would use.
func displayCheck() (string, error) {
	disp, screens, err := Available()
	if err != nil {
		why := err.Error()
		if te, ok := tool.AsError(err); ok {
			why = te.Message
		}
		return fmt.Sprintf("no usable X display (%s) — screen capture answers unavailable; start one (Xvfb :1) and set DISPLAY=:1, or run clawbridge in a desktop session", strings.ReplaceAll(why, "\n", " ")), err
	}
	return "X display " + disp + ", " + screens, nil
}

// Available says whether a capture that names no display can work, as
// capture and list decide it: the display it would use and its screens
// ("1 screen: 1920x1080"), or why it cannot (for `clawbridge doctor`).
func Available() (display, screens string, err error) {
	disp, err := (&screenTool{}).pickDisplay("")
	if err != nil {
		return "", "", err
	}
	x, err := dialX(disp, 3*time.Second)
	if err != nil {
		return disp, "", err
	}
	defer x.Close()
	var sizes []string
	for _, sc := range x.screens {
		sizes = append(sizes, fmt.Sprintf("%dx%d", sc.Width, sc.Height))
	}
	return disp, fmt.Sprintf("%d screen(s): %s", len(sizes), strings.Join(sizes, ", ")), nil
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

// probe connects to each display and records its screens or why it failed.
func probe(names []string) []displayInfo {
	env := os.Getenv("DISPLAY")
	out := make([]displayInfo, 0, len(names))
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
	return out
}

// list shows the displays found and which of them answer. It agrees with
// capture: when no display can be used it fails as capture does.
func (s *screenTool) list(context.Context, *tool.Call) (*tool.Result, error) {
	names := localDisplays()
	env := os.Getenv("DISPLAY")
	if env != "" && !slices.Contains(names, env) {
		names = append([]string{env}, names...)
	}
	out := probe(names)
	usable := 0
	for _, di := range out {
		if di.Error == "" {
			usable++
		}
	}
	if usable == 0 {
		if len(out) == 0 {
			return nil, errNoDisplay
		}
		var why []string
		for _, di := range out {
			why = append(why, di.Display+": "+di.Error)
		}
		return nil, &tool.Error{Code: tool.CodeUnavailable, Hint: errNoDisplay.Hint,
			Message: "no X display can be used: " + strings.Join(why, "; ")}
	}
	summary := fmt.Sprintf("%d of %d display(s) usable.", usable, len(out))
	for _, di := range out {
		if di.Default && di.Error != "" {
			summary += fmt.Sprintf(" The default display (DISPLAY=%s) does not answer: name a usable one with display.", di.Display)
		}
	}
	if _, err := s.pickDisplay(""); err != nil {
		summary += " " + err.Error() + ": name one with display."
	}
	return &tool.Result{Summary: summary, Data: map[string]any{"displays": out, "usable": usable}}, nil
}
