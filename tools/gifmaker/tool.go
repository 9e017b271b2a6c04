// Package gifmaker is the `gif_maker` tool: animated GIFs from workspace
// images (in the order given, per-frame delays, loop count, resize, a
// median-cut palette global or per frame, Floyd–Steinberg dithering on or
// off) encoded in Go, and from a video clip (start, duration, fps, width)
// through ffmpeg's palettegen/paletteuse, run in internal/jail. Every result
// is decoded again to report its bytes, frames, size and delays. Limits
// (frames, pixels, clip length, output size) are checked before work, on a
// video's frames as shown (after its rotation and sample aspect ratio) and
// made at exactly that size; the output size again before anything is
// written. Transparency is not kept:
// frames are drawn on the background colour.
package gifmaker

import (
	"errors"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: gif_maker: ...).
type Section struct {
	MaxFrames int `yaml:"max_frames"`
	// MaxFramePixels caps the output frame size (width × height).
	MaxFramePixels int `yaml:"max_frame_pixels"`
	// MaxTotalPixels caps frames × frame pixels: the frames are held in
	// memory (4 bytes a pixel) while the palette is built.
	MaxTotalPixels int `yaml:"max_total_pixels"`
	// MaxInputPixels caps one input image before it is decoded.
	MaxInputPixels int `yaml:"max_input_pixels"`
	MaxOutputMB    int `yaml:"max_output_mb"`
	// MaxVideoMB and MaxClipSeconds cap a video input and the clip taken.
	MaxVideoMB     int `yaml:"max_video_mb"`
	MaxClipSeconds int `yaml:"max_clip_seconds"`
}

// DefaultSection is the section's defaults.
func DefaultSection() Section {
	return Section{MaxFrames: 300, MaxFramePixels: 2_000_000, MaxTotalPixels: 60_000_000, MaxInputPixels: 40_000_000, MaxOutputMB: 20, MaxVideoMB: 500, MaxClipSeconds: 60}
}

// Validate refuses limits below one.
func (s *Section) Validate() error {
	return errors.Join(config.AtLeast("max_frames", s.MaxFrames, 1), config.AtLeast("max_frame_pixels", s.MaxFramePixels, 1), config.AtLeast("max_total_pixels", s.MaxTotalPixels, 1),
		config.AtLeast("max_input_pixels", s.MaxInputPixels, 1), config.AtLeast("max_output_mb", s.MaxOutputMB, 1),
		config.AtLeast("max_video_mb", s.MaxVideoMB, 1), config.AtLeast("max_clip_seconds", s.MaxClipSeconds, 1))
}

type gifMaker struct {
	d   *tool.Deps
	cfg Section
}

// New builds the gif_maker tool from the tools.gif_maker section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Section]{Name: "gif_maker", Defaults: DefaultSection, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Section) (tool.Tool, error) {
	g := &gifMaker{d: d, cfg: cfg}
	loop := tool.Param{Name: "loop", Type: tool.Integer, Default: 0, Min: tool.Ptr(0), Max: tool.Ptr(65535), Description: "Plays: 0 forever, N times."}
	colors := tool.Param{Name: "colors", Type: tool.Integer, Default: 256, Min: tool.Ptr(2), Max: tool.Ptr(256), Description: "Palette size."}
	dither := tool.Param{Name: "dither", Type: tool.Boolean, Default: true, Description: "Smoother gradients, larger file."}
	width := tool.Param{Name: "width", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(4096), Description: "Pixels (height keeps the aspect)."}
	output := tool.OutputParam("Default outputs/<name>.gif.")
	return tool.Tool{
		Name:        "gif_maker",
		Title:       "GIF maker",
		Description: "Animated GIFs from images (frame delays, loop, resize, palette) or from a video clip, with a size report.",
		Actions: []tool.Action{
			{Name: "from_images", Description: "frames from images, in order", Level: tool.Write, Timeout: tool.Slow, Handler: g.fromImages, Params: []tool.Param{
				{Name: "paths", Type: tool.Array, Required: true, Items: &tool.Param{Type: tool.String}, Description: "Images (png, jpeg, gif, bmp, tiff, webp)."},
				{Name: "delay_ms", Type: tool.Integer, Default: 100, Min: tool.Ptr(20), Max: tool.Ptr(655350), Description: "Frame delay (10 ms steps)."},
				{Name: "delays_ms", Type: tool.Array, Items: &tool.Param{Type: tool.Integer}, Description: "One per image; overrides delay_ms."},
				width,
				{Name: "height", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(4096), Description: "Pixels (default: the first image's, or from width)."},
				{Name: "palette", Type: tool.String, Enum: []string{"global", "per_frame"}, Default: "global", Description: "global is smaller, per_frame truer."},
				colors, dither, loop,
				{Name: "background", Type: tool.String, Default: "#ffffff", Description: "Behind transparency and around other aspects (#rrggbb)."},
				output, tool.Overwrite}},
			{Name: "from_video", Description: "a clip of a video (ffmpeg)", Level: tool.Write, Timeout: tool.Slow, Handler: g.fromVideo, Params: []tool.Param{
				{Name: "path", Type: tool.String, Required: true, Description: "Video file."},
				{Name: "start", Type: tool.Number, Default: 0, Min: tool.Ptr(0), Description: "Start in seconds."},
				{Name: "duration", Type: tool.Number, Min: tool.Ptr(0.05), Description: "Seconds (default: to the end, within max_clip_seconds)."},
				{Name: "fps", Type: tool.Integer, Default: 10, Min: tool.Ptr(1), Max: tool.Ptr(50), Description: "Frames per second."},
				{Name: "width", Type: tool.Integer, Default: 480, Min: tool.Ptr(16), Max: tool.Ptr(4096), Description: "Pixels (height keeps the aspect)."},
				colors, dither, loop, output, tool.Overwrite}},
		},
		Programs: tool.ProgramsOf("ffmpeg", "ffprobe"),
		Examples: []string{
			"turn these frames into an animated gif",
			"make a gif from the video between 0:10 and 0:15",
			"create a looping animation from screenshots",
			"shrink the gif size",
			"把这几张图做成动图",
			"视频转GIF",
			"制作一个循环播放的动画",
			"把录屏片段转成动图",
		},
	}, nil
}
