package gifmaker

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"clawbridge/internal/jail"
	"clawbridge/tools/tool"
)

const (
	jailIn     = jail.FilesIn
	jailOut    = jail.FilesOut
	runTimeout = 10 * time.Minute
)

// run runs prog in the jail with input bound read-only under /tmp/in and
// outDir (if any) writable at /tmp/out; args refer to those.
func (g *gifMaker) run(ctx context.Context, prog string, args []string, input, outDir string) (string, error) {
	bin, err := exec.LookPath(prog)
	if err != nil {
		return "", tool.Missing(prog, "ffmpeg")
	}
	var protected []string
	if g.d.Config != nil && g.d.Config.DataDir != "" {
		protected = []string{g.d.Config.DataDir}
	}
	return jail.RunOnFiles(ctx, jail.FilesRun{Argv: append([]string{bin}, args...), Inputs: []string{input}, OutDir: outDir,
		Protected: protected, Timeout: runTimeout, StdoutCap: 1 << 20,
		SlowHint: "use a shorter clip", FailHint: "check that the file is a video ffmpeg reads"})
}

// video is what ffprobe says of a video input.
type video struct {
	width, height int
	duration      float64
}

func (g *gifMaker) probe(ctx context.Context, abs, path string) (video, error) {
	out, err := g.run(ctx, "ffprobe", []string{"-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height:format=duration", "-of", "json", jailIn + filepath.Base(abs)}, abs, "")
	if err != nil {
		return video{}, err
	}
	var p struct {
		Streams []struct{ Width, Height int }
		Format  struct{ Duration string }
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		return video{}, fmt.Errorf("ffprobe output: %w", err)
	}
	if len(p.Streams) == 0 || p.Streams[0].Width <= 0 || p.Streams[0].Height <= 0 {
		return video{}, tool.Invalid("path", path+" has no video stream", "give a video file (mp4, webm, mkv, mov, avi...)")
	}
	v := video{width: p.Streams[0].Width, height: p.Streams[0].Height}
	v.duration, _ = strconv.ParseFloat(p.Format.Duration, 64)
	return v, nil
}

func (g *gifMaker) fromVideo(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	path := c.Args.String("path")
	abs, err := g.d.Sandbox.Resolve(path)
	if err != nil {
		return nil, tool.PathError("path", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil || fi.IsDir() {
		return nil, &tool.Error{Code: tool.CodeNotFound, Field: "path", Message: path + " is not a file in the workspace", Hint: "give a video file (relative to the workspace root)"}
	}
	if fi.Size() > int64(g.cfg.MaxVideoMB)<<20 {
		return nil, tool.Errorf(tool.CodeTooLarge, "use a smaller file or raise tools.gif_maker.max_video_mb", "%s is %d MB, above the %d MB limit (tools.gif_maker.max_video_mb)", path, fi.Size()>>20, g.cfg.MaxVideoMB)
	}
	v, err := g.probe(ctx, abs, path)
	if err != nil {
		return nil, err
	}
	start := c.Args.Float("start", 0)
	if v.duration > 0 && start >= v.duration {
		return nil, tool.Invalid("start", fmt.Sprintf("start %.2f s is past the end (%.2f s)", start, v.duration), "give a start within the video")
	}
	clip := v.duration - start
	if c.Args.Has("duration") {
		clip = math.Min(c.Args.Float("duration", 0), clip)
	}
	if clip > float64(g.cfg.MaxClipSeconds) || clip <= 0 {
		return nil, tool.Errorf(tool.CodeTooLarge, fmt.Sprintf("give a duration of at most %d s, or raise tools.gif_maker.max_clip_seconds", g.cfg.MaxClipSeconds),
			"the clip is %.1f s long, above the %d s limit (tools.gif_maker.max_clip_seconds)", clip, g.cfg.MaxClipSeconds)
	}
	fps, width := c.Args.Int("fps", 10), c.Args.Int("width", 480)
	height := 2 * int(math.Round(float64(width)*float64(v.height)/float64(v.width)/2)) // scale=W:-2 keeps it even
	if err := g.checkFrames(int(math.Ceil(clip*float64(fps))), width, max(height, 2)); err != nil {
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
	filter := fmt.Sprintf("fps=%d,scale=%d:-2:flags=lanczos,split[a][b];[a]palettegen=max_colors=%d:stats_mode=diff[p];[b][p]paletteuse=dither=%s:diff_mode=rectangle",
		fps, width, colors, dither)
	// ffmpeg's -loop is image/gif's LoopCount: 0 forever, -1 once, n repeats.
	args := []string{"-nostdin", "-v", "error", "-ss", ffTime(start), "-t", ffTime(clip), "-i", jailIn + filepath.Base(abs),
		"-filter_complex", filter, "-an", "-loop", strconv.Itoa(loopCount(c.Args.Int("loop", 0))), "-fs", strconv.Itoa(g.cfg.MaxOutputMB<<20 + 1), jailOut + "/result.gif"}
	c.Progress(0, 1, "ffmpeg palettegen/paletteuse")
	if _, err := g.run(ctx, "ffmpeg", args, abs, work); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(work, "result.gif"))
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "check start and duration", "ffmpeg produced no GIF: %v", err)
	}
	return g.save(out, data, map[string]any{"start": start, "duration": clip, "fps": fps, "colors": colors, "dither": dither != "none",
		"input": map[string]any{"path": g.d.Sandbox.Rel(abs), "width": v.width, "height": v.height, "duration_seconds": v.duration}})
}

func ffTime(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }
