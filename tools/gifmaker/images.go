package gifmaker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"math"
	"strconv"
	"strings"

	// Decoders of the inputs this tool reads.
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/bmp"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Report is what a produced GIF holds, read back by decoding it.
type Report struct {
	Path     string `json:"path"`
	Bytes    int    `json:"bytes"`
	Frames   int    `json:"frames"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	DelaysMS []int  `json:"delays_ms"`
	TotalMS  int    `json:"total_ms"`
	// Loop is the times it plays, 0 forever.
	Loop int `json:"loop"`
}

// describe decodes data as a GIF and reports it.
func describe(data []byte) (Report, error) {
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		return Report{}, fmt.Errorf("the produced GIF does not decode: %w", err)
	}
	r := Report{Bytes: len(data), Frames: len(g.Image), Width: g.Config.Width, Height: g.Config.Height}
	for _, d := range g.Delay {
		r.DelaysMS = append(r.DelaysMS, d*10)
		r.TotalMS += d * 10
	}
	switch {
	case g.LoopCount == 0:
		r.Loop = 0
	case g.LoopCount < 0:
		r.Loop = 1
	default:
		r.Loop = g.LoopCount + 1
	}
	return r, nil
}

// loopCount turns "plays N times" (0 forever) into image/gif's LoopCount
// (0 forever, -1 once, n: n repeats after the first play).
func loopCount(plays int) int {
	switch plays {
	case 0:
		return 0
	case 1:
		return -1
	}
	return plays - 1
}

// frameInput is one input image, checked before it is decoded.
type frameInput struct {
	path string
	raw  []byte
	cfg  image.Config
}

func (g *gifMaker) fromImages(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	paths := c.Args.Strings("paths")
	if len(paths) == 0 {
		return nil, tool.Invalid("paths", "paths is empty", "give the frame images in order")
	}
	if len(paths) > g.cfg.MaxFrames {
		return nil, tool.Errorf(tool.CodeTooLarge, "use fewer images or raise tools.gif_maker.max_frames", "%d frames, above the %d frame limit (tools.gif_maker.max_frames)", len(paths), g.cfg.MaxFrames)
	}
	delays, err := frameDelays(c, len(paths))
	if err != nil {
		return nil, err
	}
	bg, err := parseColor(c.Args.StringOr("background", "#ffffff"))
	if err != nil {
		return nil, tool.Invalid("background", err.Error(), "give a colour as #rrggbb")
	}
	inputs := make([]frameInput, len(paths))
	for i, p := range paths {
		raw, err := g.d.LoadImage(g.d.Sandbox.Root(), p)
		if err != nil {
			return nil, tool.PathError("paths", p, err)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
		if err != nil {
			return nil, tool.Invalid("paths", fmt.Sprintf("%s is not an image this tool reads: %v", p, err), "give png, jpeg, gif, bmp, tiff or webp images")
		}
		if px := cfg.Width * cfg.Height; px > g.cfg.MaxInputPixels || cfg.Width <= 0 || cfg.Height <= 0 {
			return nil, tool.Errorf(tool.CodeTooLarge, "shrink the image or raise tools.gif_maker.max_input_pixels",
				"image %s is %d×%d = %d pixels, above the %d pixel limit (tools.gif_maker.max_input_pixels)", p, cfg.Width, cfg.Height, px, g.cfg.MaxInputPixels)
		}
		inputs[i] = frameInput{path: p, raw: raw, cfg: cfg}
	}
	w, h := outputSize(inputs[0].cfg.Width, inputs[0].cfg.Height, c.Args.Int("width", 0), c.Args.Int("height", 0))
	if err := g.checkFrames(len(inputs), w, h); err != nil {
		return nil, err
	}
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: tool.StemOf(paths[0]) + "_anim", Exts: []string{".gif"}})
	if err != nil {
		return nil, err
	}
	frames := make([]*image.NRGBA, len(inputs))
	for i, in := range inputs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.Progress(float64(i), float64(len(inputs)+1), fmt.Sprintf("frame %d of %d", i+1, len(inputs)))
		img, _, err := image.Decode(bytes.NewReader(in.raw))
		if err != nil {
			return nil, tool.Invalid("paths", fmt.Sprintf("%s cannot be decoded: %v", in.path, err), "give a valid image")
		}
		frames[i] = fit(img, w, h, bg)
		inputs[i].raw = nil
	}
	c.Progress(float64(len(inputs)), float64(len(inputs)+1), "encoding")
	perFrame := c.Args.StringOr("palette", "global") == "per_frame"
	colors, dither := c.Args.Int("colors", 256), c.Args.Bool("dither", true)
	anim := &gif.GIF{Delay: delays, LoopCount: loopCount(c.Args.Int("loop", 0)), Config: image.Config{Width: w, Height: h}}
	var m *mapper
	if !perFrame {
		m = newMapper(medianCut(frames, colors))
		anim.Config.ColorModel = m.pal // frames share it: no local colour tables
	}
	for _, f := range frames {
		fm := m
		if perFrame {
			fm = newMapper(medianCut([]*image.NRGBA{f}, colors))
		}
		anim.Image = append(anim.Image, quantize(f, fm, dither))
	}
	data, err := g.encode(anim)
	if err != nil {
		return nil, err
	}
	return g.save(out, data, map[string]any{"palette": c.Args.StringOr("palette", "global"), "colors": colors, "dither": dither})
}

// frameDelays is one delay per frame in GIF centiseconds, from delays_ms
// or delay_ms.
func frameDelays(c *tool.Call, n int) ([]int, error) {
	ms := make([]int, n)
	if c.Args.Has("delays_ms") {
		if err := c.Args.Decode("delays_ms", &ms); err != nil {
			return nil, tool.Invalid("delays_ms", "delays_ms must be a list of whole milliseconds", "give one delay per image, e.g. [100, 100, 500]")
		}
		if len(ms) != n {
			return nil, tool.Invalid("delays_ms", fmt.Sprintf("delays_ms has %d delays for %d images", len(ms), n), "give exactly one delay per image, or use delay_ms for all")
		}
	} else {
		for i := range ms {
			ms[i] = c.Args.Int("delay_ms", 100)
		}
	}
	cs := make([]int, n)
	for i, d := range ms {
		if d < 20 || d > 655350 {
			return nil, tool.Invalid("delays_ms", fmt.Sprintf("delay %d ms (frame %d) is outside 20..655350 ms", d, i+1), "browsers play delays under 20 ms slowly; give 20 ms or more")
		}
		cs[i] = (d + 5) / 10
	}
	return cs, nil
}

// outputSize is the frame size: the first image's, scaled to the width or
// height given (keeping its aspect), or exactly both when both are given.
func outputSize(w0, h0, w, h int) (int, int) {
	switch {
	case w > 0 && h > 0:
		return w, h
	case w > 0:
		return w, max(1, int(math.Round(float64(w)*float64(h0)/float64(w0))))
	case h > 0:
		return max(1, int(math.Round(float64(h)*float64(w0)/float64(h0)))), h
	}
	return w0, h0
}

// checkFrames refuses an animation over the frame and pixel limits before
// any decoding.
func (g *gifMaker) checkFrames(n, w, h int) error {
	if n > g.cfg.MaxFrames {
		return tool.Errorf(tool.CodeTooLarge, "use a shorter clip, a lower fps, or raise tools.gif_maker.max_frames", "%d frames, above the %d frame limit (tools.gif_maker.max_frames)", n, g.cfg.MaxFrames)
	}
	if w*h > g.cfg.MaxFramePixels {
		return tool.Errorf(tool.CodeTooLarge, "give a smaller width or raise tools.gif_maker.max_frame_pixels", "frames of %d×%d = %d pixels, above the %d pixel limit (tools.gif_maker.max_frame_pixels)", w, h, w*h, g.cfg.MaxFramePixels)
	}
	if n*w*h > g.cfg.MaxTotalPixels {
		return tool.Errorf(tool.CodeTooLarge, "use fewer frames, a smaller width, or raise tools.gif_maker.max_total_pixels", "%d frames of %d×%d = %d pixels, above the %d pixel limit (tools.gif_maker.max_total_pixels)", n, w, h, n*w*h, g.cfg.MaxTotalPixels)
	}
	return nil
}

// fit scales img to fit w×h keeping its aspect, centred on bg.
func fit(img image.Image, w, h int, bg color.NRGBA) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	b := img.Bounds()
	s := math.Min(float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy()))
	fw, fh := max(1, int(math.Round(float64(b.Dx())*s))), max(1, int(math.Round(float64(b.Dy())*s)))
	r := image.Rect((w-fw)/2, (h-fh)/2, (w-fw)/2+fw, (h-fh)/2+fh)
	if fw == b.Dx() && fh == b.Dy() {
		draw.Draw(dst, r, img, b.Min, draw.Over)
	} else {
		draw.CatmullRom.Scale(dst, r, img, b, draw.Over, nil)
	}
	return dst
}

func parseColor(s string) (color.NRGBA, error) {
	h := strings.TrimPrefix(s, "#")
	v, err := strconv.ParseUint(h, 16, 32)
	if len(h) != 6 || err != nil {
		return color.NRGBA{}, fmt.Errorf("colour %q is not #rrggbb", s)
	}
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}, nil
}

// errOutputCap stops an encoding that passed the output limit.
var errOutputCap = errors.New("output cap")

type capWriter struct {
	buf bytes.Buffer
	cap int
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.cap {
		return 0, errOutputCap
	}
	return w.buf.Write(p)
}

// encode writes anim into memory, stopping at the output limit.
func (g *gifMaker) encode(anim *gif.GIF) ([]byte, error) {
	w := &capWriter{cap: g.cfg.MaxOutputMB << 20}
	if err := gif.EncodeAll(w, anim); err != nil {
		if errors.Is(err, errOutputCap) {
			return nil, g.tooBig()
		}
		return nil, err
	}
	return w.buf.Bytes(), nil
}

func (g *gifMaker) tooBig() error {
	return tool.Errorf(tool.CodeTooLarge, "use fewer frames, a smaller width, fewer colors or dither false, or raise tools.gif_maker.max_output_mb",
		"the GIF would be over the %d MB output limit (tools.gif_maker.max_output_mb)", g.cfg.MaxOutputMB)
}

// save writes data atomically into its planned output and reports it as
// decoded again.
func (g *gifMaker) save(out *tool.Outputs, data []byte, extra map[string]any) (*tool.Result, error) {
	if len(data) > g.cfg.MaxOutputMB<<20 {
		return nil, g.tooBig()
	}
	rep, err := describe(data)
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "try other settings", "%v", err)
	}
	f, err := out.Write(".gif", data)
	if err != nil {
		return nil, err
	}
	rep.Path = g.d.Sandbox.Rel(f.Path)
	extra["gif"] = rep
	return &tool.Result{
		Summary: fmt.Sprintf("wrote %s: %s, %d×%d, %.1f s, %s", rep.Path, wording.Count(rep.Frames, "frame", "frames"), rep.Width, rep.Height, float64(rep.TotalMS)/1000, sizeText(rep.Bytes)),
		Data:    extra, Files: []tool.File{f},
	}, nil
}

func sizeText(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.2f MB", float64(n)/(1<<20))
}
