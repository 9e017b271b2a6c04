package gifmaker

import (
	"bytes"
	"encoding/json"
	"image/color"
	"image/gif"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func newTool(t *testing.T, section string) (tool.Tool, *tool.Deps) {
	t.Helper()
	return tooltest.WithSection(t, New, "gif_maker", section)
}

// writePNG writes a w×h image filled by px into the workspace.
func writePNG(t *testing.T, d *tool.Deps, name string, w, h int, px func(x, y int) color.NRGBA) string {
	t.Helper()
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), name), tooltest.Paint(w, h, px))
	return name
}

func solid(c color.NRGBA) func(x, y int) color.NRGBA { return func(int, int) color.NRGBA { return c } }

func decodeGIF(t *testing.T, path string) *gif.GIF {
	t.Helper()
	raw := tooltest.ReadFile(t, path)
	g, err := gif.DecodeAll(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("image/gif cannot decode %s: %v", path, err)
	}
	return g
}

// ffprobeGIF reads width, height, decoded frame count and duration with the
// host's ffprobe, outside the tool.
func ffprobeGIF(t *testing.T, path string) (w, h, frames int, dur float64) {
	t.Helper()
	tooltest.NeedProgram(t, "ffprobe")
	out, err := exec.Command("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
		"-show_entries", "stream=width,height,nb_read_frames:format=duration", "-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var p struct {
		Streams []struct {
			Width, Height int
			NbReadFrames  string `json:"nb_read_frames"`
		}
		Format struct{ Duration string }
	}
	if err := json.Unmarshal(out, &p); err != nil || len(p.Streams) == 0 {
		t.Fatalf("ffprobe output %s: %v", out, err)
	}
	frames, _ = strconv.Atoi(p.Streams[0].NbReadFrames)
	dur, _ = strconv.ParseFloat(p.Format.Duration, 64)
	return p.Streams[0].Width, p.Streams[0].Height, frames, dur
}

// TestGIF_FromImagesOrderDelaysLoop: frames come in the order given with
// their own delays and the loop count asked for, as image/gif and ffprobe
// both read them; the size report matches the file.
func TestGIF_FromImagesOrderDelaysLoop(t *testing.T) {
	tl, d := newTool(t, "")
	cols := []color.NRGBA{{255, 0, 0, 255}, {0, 160, 0, 255}, {0, 0, 255, 255}}
	var paths []any
	for i, c := range []int{2, 0, 1} { // order: blue, red, green
		paths = append(paths, writePNG(t, d, "f"+strconv.Itoa(i)+".png", 80, 60, solid(cols[c])))
	}
	res := tooltest.OK(t, tl, map[string]any{"action": "from_images", "paths": paths, "delays_ms": []any{100, 200, 500}, "loop": 3, "output": "anim.gif"})
	p := tooltest.OnlyFile(t, res)
	g := decodeGIF(t, p)
	if len(g.Image) != 3 || g.Config.Width != 80 || g.Config.Height != 60 {
		t.Fatalf("frames %d, %d×%d", len(g.Image), g.Config.Width, g.Config.Height)
	}
	for i, want := range []int{10, 20, 50} {
		if g.Delay[i] != want {
			t.Errorf("delay %d = %d cs, want %d", i, g.Delay[i], want)
		}
	}
	if g.LoopCount != 2 { // plays 3 times: the first play and 2 repeats
		t.Errorf("LoopCount %d, want 2", g.LoopCount)
	}
	for i, c := range []int{2, 0, 1} {
		r, gr, b, _ := g.Image[i].At(40, 30).RGBA()
		got := color.NRGBA{uint8(r >> 8), uint8(gr >> 8), uint8(b >> 8), 255}
		if got != cols[c] {
			t.Errorf("frame %d colour %v, want %v", i, got, cols[c])
		}
	}
	w, h, frames, dur := ffprobeGIF(t, p)
	if w != 80 || h != 60 || frames != 3 || dur < 0.79 || dur > 0.81 {
		t.Errorf("ffprobe: %d×%d, %d frames, %.3f s; want 80×60, 3, 0.8", w, h, frames, dur)
	}
	rep := res.Data.(map[string]any)["gif"].(Report)
	fi, _ := os.Stat(p)
	if rep.Bytes != int(fi.Size()) || rep.Frames != 3 || rep.TotalMS != 800 || rep.Loop != 3 || rep.Path != "anim.gif" {
		t.Errorf("report %+v (file %d bytes)", rep, fi.Size())
	}
}

// TestGIF_FromImagesResize: width alone keeps the first image's aspect;
// a frame of another aspect is fitted and centred on the background.
func TestGIF_FromImagesResize(t *testing.T) {
	tl, d := newTool(t, "")
	a := writePNG(t, d, "a.png", 200, 100, solid(color.NRGBA{255, 0, 0, 255}))
	b := writePNG(t, d, "b.png", 50, 100, solid(color.NRGBA{0, 0, 255, 255}))
	res := tooltest.OK(t, tl, map[string]any{"action": "from_images", "paths": []any{a, b}, "width": 100, "background": "#000000"})
	g := decodeGIF(t, tooltest.OnlyFile(t, res))
	if g.Config.Width != 100 || g.Config.Height != 50 {
		t.Fatalf("size %d×%d, want 100×50", g.Config.Width, g.Config.Height)
	}
	// b (1:2) fits as 25×50 in the middle; the sides are background.
	if r, _, bl, _ := g.Image[1].At(50, 25).RGBA(); bl>>8 < 200 || r>>8 > 50 {
		t.Errorf("centre of frame 2 is not blue")
	}
	if r, gr, bl, _ := g.Image[1].At(5, 25).RGBA(); r|gr|bl>>8 > 10 {
		t.Errorf("side of frame 2 is not the background")
	}
}

// TestGIF_PaletteGlobalAndPerFrame: a global palette is written once and
// shared by all frames; per_frame gives each frame its own palette, which
// for a red frame and a blue one differ.
func TestGIF_PaletteGlobalAndPerFrame(t *testing.T) {
	tl, d := newTool(t, "")
	red := writePNG(t, d, "red.png", 64, 16, func(x, y int) color.NRGBA { return color.NRGBA{uint8(x * 4), 0, 0, 255} })
	blue := writePNG(t, d, "blue.png", 64, 16, func(x, y int) color.NRGBA { return color.NRGBA{0, 0, uint8(x * 4), 255} })
	for _, mode := range []string{"global", "per_frame"} {
		res := tooltest.OK(t, tl, map[string]any{"action": "from_images", "paths": []any{red, blue}, "palette": mode, "colors": 16})
		g := decodeGIF(t, tooltest.OnlyFile(t, res))
		p0, p1 := g.Image[0].Palette, g.Image[1].Palette
		same := len(p0) == len(p1)
		for i := 0; same && i < len(p0); i++ {
			same = p0[i] == p1[i]
		}
		if mode == "global" && (!same || g.Config.ColorModel == nil) {
			t.Errorf("global: frames do not share the global palette")
		}
		if mode == "per_frame" && same {
			t.Errorf("per_frame: frames share one palette")
		}
		if len(p0) > 16 {
			t.Errorf("%s: palette of %d colours, asked for 16", mode, len(p0))
		}
	}
}

// TestGIF_Dithering: with few colours a gradient is dithered into mixed
// neighbouring indices; without dithering it is flat bands.
func TestGIF_Dithering(t *testing.T) {
	tl, d := newTool(t, "")
	grad := writePNG(t, d, "grad.png", 256, 32, func(x, y int) color.NRGBA { return color.NRGBA{uint8(x), uint8(x), uint8(x), 255} })
	changes := map[bool]int{}
	for _, dither := range []bool{true, false} {
		res := tooltest.OK(t, tl, map[string]any{"action": "from_images", "paths": []any{grad}, "colors": 4, "dither": dither})
		m := decodeGIF(t, tooltest.OnlyFile(t, res)).Image[0]
		for y := range 32 {
			for x := 1; x < 256; x++ {
				if m.ColorIndexAt(x, y) != m.ColorIndexAt(x-1, y) {
					changes[dither]++
				}
			}
		}
	}
	if changes[false] > 3*32 || changes[true] < 10*changes[false] {
		t.Errorf("index changes: dithered %d, flat %d", changes[true], changes[false])
	}
}

// TestGIF_Limits: too many frames, too large an input, too large a frame,
// a bad delays list and an output over max_output_mb are refused with
// clear errors, and nothing is written.
func TestGIF_Limits(t *testing.T) {
	tl, d := newTool(t, "max_frames: 2\nmax_input_pixels: 10000\nmax_output_mb: 1")
	small := writePNG(t, d, "s.png", 20, 20, solid(color.NRGBA{1, 2, 3, 255}))
	big := writePNG(t, d, "big.png", 200, 200, solid(color.NRGBA{1, 2, 3, 255}))
	cases := []struct {
		name string
		args map[string]any
		code string
	}{
		{"frames", map[string]any{"paths": []any{small, small, small}}, tool.CodeTooLarge},
		{"input pixels", map[string]any{"paths": []any{big}}, tool.CodeTooLarge},
		{"frame pixels", map[string]any{"paths": []any{small}, "width": 2000, "height": 2000}, tool.CodeTooLarge},
		{"delays count", map[string]any{"paths": []any{small, small}, "delays_ms": []any{100}}, tool.CodeInvalid},
		{"delay too short", map[string]any{"paths": []any{small}, "delays_ms": []any{5}}, tool.CodeInvalid},
		{"missing", map[string]any{"paths": []any{"nope.png"}}, tool.CodeInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.args["action"] = "from_images"
			_, err := tooltest.Run(t, tl, tc.args)
			tooltest.ToolError(t, err, tc.code)
		})
	}
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Errorf("refused calls left files: %v", ents)
	}
}

// TestGIF_LimitsOutputSize: a GIF that would pass max_output_mb is
// refused and nothing is written.
func TestGIF_LimitsOutputSize(t *testing.T) {
	tl, d := newTool(t, "max_output_mb: 1")
	rng := rand.New(rand.NewPCG(1, 2))
	noise := writePNG(t, d, "noise.png", 800, 700, func(x, y int) color.NRGBA {
		return color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
	})
	_, err := tooltest.Run(t, tl, map[string]any{"action": "from_images", "paths": []any{noise, noise}, "dither": false})
	if e := tooltest.ToolError(t, err, tool.CodeTooLarge); !strings.Contains(e.Message, "max_output_mb") {
		t.Errorf("message %q does not name the limit", e.Message)
	}
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Errorf("refused call left files: %v", ents)
	}
}

// testClip makes a 3 s 320×240 25 fps clip with ffmpeg's testsrc.
func testClip(t *testing.T, d *tool.Deps) string {
	t.Helper()
	tooltest.NeedProgram(t, "ffmpeg")
	tooltest.NeedProgram(t, "bwrap")
	p := filepath.Join(d.Sandbox.Root(), "clip.mp4")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=3",
		"-pix_fmt", "yuv420p", p).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg testsrc: %v %s", err, out)
	}
	return "clip.mp4"
}

// TestGIF_FromVideo: a 1 s cut at 10 fps and 160 px wide is 10 frames of
// 160×120 at 100 ms, as image/gif and ffprobe read it; loop 1 plays once.
func TestGIF_FromVideo(t *testing.T) {
	tl, d := newTool(t, "")
	clip := testClip(t, d)
	res := tooltest.OK(t, tl, map[string]any{"action": "from_video", "path": clip, "start": 1, "duration": 1, "fps": 10, "width": 160, "loop": 1})
	p := tooltest.OnlyFile(t, res)
	g := decodeGIF(t, p)
	if len(g.Image) != 10 || g.Config.Width != 160 || g.Config.Height != 120 {
		t.Fatalf("image/gif: %d frames, %d×%d; want 10, 160×120", len(g.Image), g.Config.Width, g.Config.Height)
	}
	for i, dl := range g.Delay {
		if dl != 10 {
			t.Errorf("frame %d delay %d cs, want 10", i, dl)
		}
	}
	if g.LoopCount != -1 {
		t.Errorf("LoopCount %d, want -1 (play once)", g.LoopCount)
	}
	w, h, frames, dur := ffprobeGIF(t, p)
	if w != 160 || h != 120 || frames != 10 || dur < 0.99 || dur > 1.01 {
		t.Errorf("ffprobe: %d×%d, %d frames, %.3f s; want 160×120, 10, 1.0", w, h, frames, dur)
	}
	if rep := res.Data.(map[string]any)["gif"].(Report); rep.Frames != 10 || rep.TotalMS != 1000 || rep.Loop != 1 {
		t.Errorf("report %+v", rep)
	}
}

// TestGIF_FromVideoLimits: a start past the end, a clip over
// max_clip_seconds and too many frames are refused before ffmpeg runs.
func TestGIF_FromVideoLimits(t *testing.T) {
	tl, d := newTool(t, "max_clip_seconds: 2\nmax_frames: 20")
	clip := testClip(t, d)
	for _, tc := range []struct {
		name string
		args map[string]any
		code string
	}{
		{"start past end", map[string]any{"start": 5}, tool.CodeInvalid},
		{"clip too long", map[string]any{}, tool.CodeTooLarge},
		{"frames", map[string]any{"duration": 2, "fps": 20}, tool.CodeTooLarge},
		{"not a video", map[string]any{"path": "notes.txt"}, tool.CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "notes.txt"), []byte("hello"))
			tc.args["action"] = "from_video"
			if _, ok := tc.args["path"]; !ok {
				tc.args["path"] = clip
			}
			_, err := tooltest.Run(t, tl, tc.args)
			tooltest.ToolError(t, err, tc.code)
		})
	}
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Errorf("refused calls left files: %v", ents)
	}
}
