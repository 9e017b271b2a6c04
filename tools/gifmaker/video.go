package gifmaker

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

const (
	jailIn     = jail.FilesIn
	jailOut    = jail.FilesOut
	runTimeout = 10 * time.Minute
)

// run runs prog in the jail with input bound read-only under /tmp/in and
// outDir (if any) writable at /tmp/out; args refer to those.
func (g *gifMaker) run(ctx context.Context, prog string, args []string, input, outDir string) (string, error) {
	return g.d.RunOnFiles(ctx, jail.FilesRun{Argv: append([]string{prog}, args...), Inputs: []string{input}, OutDir: outDir,
		Timeout: runTimeout, StdoutCap: 1 << 20,
		SlowHint: "use a shorter clip", FailHint: "check that the file is a video ffmpeg reads"})
}

// videoInput resolves a video path and checks, on the opened file, that it
// is a regular file within max_video_mb: a FIFO handed to ffprobe would
// block the call until its timeout.
func (g *gifMaker) videoInput(path string) (string, error) {
	abs, err := g.d.Sandbox.Resolve(path)
	if err != nil {
		return "", tool.PathError("path", path, err)
	}
	f, _, err := sandbox.OpenRegular(abs, int64(g.cfg.MaxVideoMB)<<20)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", tool.NotFoundf("path", "give a video file (relative to the workspace root)", "%s is not a file in the workspace", path)
	case errors.Is(err, sandbox.ErrTooLarge):
		return "", tool.Errorf(tool.CodeTooLarge, "use a smaller file or raise tools.gif_maker.max_video_mb", "%s is above the %d MB limit (tools.gif_maker.max_video_mb)", path, g.cfg.MaxVideoMB)
	case err != nil:
		return "", tool.PathError("path", path, err)
	}
	f.Close()
	return abs, nil
}

func (g *gifMaker) fromVideo(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	path := c.Args.String("path")
	abs, err := g.videoInput(path)
	if err != nil {
		return nil, err
	}
	v, err := g.probe(ctx, abs, path)
	if err != nil {
		return nil, err
	}
	start := c.Args.Float("start", 0)
	clip := float64(g.cfg.MaxClipSeconds) // the length is unknown: -t still bounds the clip
	if v.duration > 0 {
		if start >= v.duration {
			return nil, tool.Invalid("start", fmt.Sprintf("start %.2f s is past the end (%.2f s)", start, v.duration), "give a start within the video")
		}
		clip = v.duration - start
	}
	if c.Args.Has("duration") {
		clip = math.Min(c.Args.Float("duration", 0), clip)
	}
	if clip > float64(g.cfg.MaxClipSeconds) || clip <= 0 {
		return nil, tool.Errorf(tool.CodeTooLarge, fmt.Sprintf("give a duration of at most %d s, or raise tools.gif_maker.max_clip_seconds", g.cfg.MaxClipSeconds),
			"the clip is %.1f s long, above the %d s limit (tools.gif_maker.max_clip_seconds)", clip, g.cfg.MaxClipSeconds)
	}
	fps, width := c.Args.Int("fps", 10), c.Args.Int("width", 480)
	height, err := g.frameHeight(v, width)
	if err != nil {
		return nil, err
	}
	if err := g.checkFrames(int(math.Ceil(clip*float64(fps))), width, height); err != nil {
		return nil, err
	}
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: tool.StemOf(abs), Exts: []string{".gif"}, Inputs: []string{abs}})
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "clawbridge-gif-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	if err := os.Chmod(work, 0o777); err != nil {
		return nil, err
	}
	dither := "sierra2_4a"
	if !c.Args.Bool("dither", true) {
		dither = "none"
	}
	colors := c.Args.Int("colors", 256)
	// The frames reach the filter already rotated (ffmpeg's autorotate);
	// scaling to the exact size checked above, square pixels, keeps the
	// checked size the size made, whatever the file says of itself.
	// eof_action=pass keeps the last frame of a clip shorter than one
	// frame interval (a one-frame video), which fps would otherwise drop.
	filter := fmt.Sprintf("fps=%d:eof_action=pass,scale=%d:%d:flags=lanczos,setsar=1,split[a][b];[a]palettegen=max_colors=%d:stats_mode=diff[p];[b][p]paletteuse=dither=%s:diff_mode=rectangle",
		fps, width, height, colors, dither)
	args := []string{"-nostdin", "-v", "error"}
	if start > 0 {
		// Only a real start seeks: an input -ss, even 0, makes the demuxer
		// seek, and where its index is coarse (FLV, AVI, MPEG-TS) it lands
		// past the first keyframe, so frames come out grey or are lost.
		args = append(args, "-ss", ffTime(start))
	}
	// ffmpeg's -loop is image/gif's LoopCount: 0 forever, -1 once, n repeats.
	args = append(args, "-t", ffTime(clip), "-i", jailIn+filepath.Base(abs),
		"-filter_complex", filter, "-an", "-loop", strconv.Itoa(loopCount(c.Args.Int("loop", 0))), "-fs", strconv.Itoa(g.cfg.MaxOutputMB<<20+1), jailOut+"/result.gif")
	c.Progress(0, 1, "ffmpeg palettegen/paletteuse")
	if _, err := g.run(ctx, "ffmpeg", args, abs, work); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(work, "result.gif"))
	if err != nil || len(data) == 0 {
		// ffmpeg writes nothing when no frame was decoded in the clip.
		return nil, tool.Errorf(tool.CodeFailed, "check start and duration, or that the video plays", "no frame of %s could be decoded between %.2f s and %.2f s", path, start, start+clip)
	}
	return g.save(out, data, map[string]any{"start": start, "duration": clip, "fps": fps, "colors": colors, "dither": dither != "none",
		"input": map[string]any{"path": g.d.Sandbox.Rel(abs), "width": v.width, "height": v.height, "display_width": int(math.Round(v.shownW)),
			"display_height": int(math.Round(v.shownH)), "duration_seconds": v.duration}})
}

// frameHeight is the height of width-wide frames that keeps the video's
// shown aspect, even (for yuv420p). It is computed in floating point and
// checked against max_frame_pixels before it becomes an int, so no aspect
// a file claims can overflow it.
func (g *gifMaker) frameHeight(v video, width int) (int, error) {
	h := 2 * math.Round(float64(width)*v.shownH/v.shownW/2)
	if !(h*float64(width) <= float64(g.cfg.MaxFramePixels)) {
		return 0, tool.Errorf(tool.CodeTooLarge, "give a smaller width or raise tools.gif_maker.max_frame_pixels",
			"the video is shown %.0f×%.0f, so frames %d wide are %.0f high: %.0f pixels, above the %d pixel limit (tools.gif_maker.max_frame_pixels)",
			v.shownW, v.shownH, width, h, h*float64(width), g.cfg.MaxFramePixels)
	}
	return max(int(h), 2), nil
}

func ffTime(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }
