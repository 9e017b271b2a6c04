package speech

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
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

// formats are the output formats and the ffmpeg codec arguments of each.
var formats = map[string][]string{
	"wav":  {"-c:a", "pcm_s16le"},
	"mp3":  {"-c:a", "libmp3lame", "-q:a", "4"},
	"ogg":  {"-c:a", "libvorbis", "-q:a", "4"},
	"flac": {"-c:a", "flac"},
	"m4a":  {"-c:a", "aac", "-b:a", "128k"},
	"opus": {"-c:a", "libopus", "-b:a", "64k"},
}

func formatNames() []string { return slices.Sorted(maps.Keys(formats)) }

// run runs prog in the jail with the input files bound read-only under
// /tmp/in and outDir (if any) writable at /tmp/out; args refer to those.
func (s *speech) run(ctx context.Context, prog string, args []string, inputs []string, outDir string) (string, error) {
	return s.d.RunOnFiles(ctx, jail.FilesRun{Argv: append([]string{prog}, args...), Inputs: inputs, OutDir: outDir,
		Timeout: runTimeout, StdoutCap: 4 << 20,
		SlowHint: "use a shorter input", FailHint: "check that the file is an audio file ffmpeg reads"})
}

// Info is what ffprobe reports of an audio file.
type Info struct {
	Path       string  `json:"path,omitempty"`
	Format     string  `json:"format"`
	Duration   float64 `json:"duration_seconds"`
	Codec      string  `json:"codec"`
	SampleRate int     `json:"sample_rate"`
	Channels   int     `json:"channels"`
	BitRate    int     `json:"bit_rate,omitempty"`
	Bytes      int64   `json:"bytes"`
}

// probe runs ffprobe on a host file.
func (s *speech) probe(ctx context.Context, abs string) (Info, error) {
	out, err := s.run(ctx, "ffprobe", []string{"-v", "error", "-show_format", "-show_streams", "-of", "json", jailIn + filepath.Base(abs)}, []string{abs}, "")
	if err != nil {
		return Info{}, err
	}
	var p struct {
		Streams []struct {
			CodecType  string `json:"codec_type"`
			CodecName  string `json:"codec_name"`
			SampleRate string `json:"sample_rate"`
			Channels   int    `json:"channels"`
			Duration   string `json:"duration"`
		} `json:"streams"`
		Format struct {
			FormatName string `json:"format_name"`
			Duration   string `json:"duration"`
			BitRate    string `json:"bit_rate"`
			Size       string `json:"size"`
		} `json:"format"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		return Info{}, fmt.Errorf("ffprobe output: %w", err)
	}
	info := Info{Format: p.Format.FormatName}
	info.Duration = seconds(p.Format.Duration)
	info.BitRate, _ = strconv.Atoi(p.Format.BitRate)
	info.Bytes, _ = strconv.ParseInt(p.Format.Size, 10, 64)
	for _, st := range p.Streams {
		if st.CodecType == "audio" {
			info.Codec, info.Channels = st.CodecName, st.Channels
			info.SampleRate, _ = strconv.Atoi(st.SampleRate)
			// The audio's own length where the container gives it: a
			// video's picture may run longer than its sound.
			if d := seconds(st.Duration); d > 0 {
				info.Duration = d
			}
			break
		}
	}
	if info.Codec == "" {
		return Info{}, tool.Invalid("path", "the file has no audio stream", "give an audio file (wav, mp3, ogg, flac, m4a, opus...)")
	}
	return info, nil
}

// seconds is a duration ffprobe printed; 0 when it is absent ("N/A") or
// not a finite positive number.
func seconds(s string) float64 {
	d, err := strconv.ParseFloat(s, 64)
	if err != nil || !(d > 0) || math.IsInf(d, 0) {
		return 0
	}
	return d
}

// input resolves an audio input and checks its size and duration before
// any work.
func (s *speech) input(ctx context.Context, c *tool.Call) (string, Info, error) {
	path := c.Args.String("path")
	abs, err := s.d.Sandbox.Resolve(path)
	if err != nil {
		return "", Info{}, tool.PathError("path", path, err)
	}
	// Checked on the opened file: a FIFO handed to ffprobe would block the
	// call until its timeout.
	f, _, err := sandbox.OpenRegular(abs, int64(s.cfg.MaxInputMB)<<20)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", Info{}, tool.NotFoundf("path", "give an audio file (relative to the workspace root)", "%s is not a file in the workspace", path)
	case errors.Is(err, sandbox.ErrTooLarge):
		return "", Info{}, tool.Errorf(tool.CodeTooLarge, "use a shorter file or raise tools.speech.max_input_mb", "%s is above the %d MB limit (tools.speech.max_input_mb)", path, s.cfg.MaxInputMB)
	case err != nil:
		return "", Info{}, tool.PathError("path", path, err)
	}
	f.Close()
	info, err := s.probe(ctx, abs)
	if err != nil {
		return "", Info{}, err
	}
	if info.Duration > float64(s.cfg.MaxDurationSecs) {
		return "", Info{}, tool.Errorf(tool.CodeTooLarge, "trim it first or raise tools.speech.max_duration_seconds", "%s lasts %.0f s, above the %d s limit (tools.speech.max_duration_seconds)", path, info.Duration, s.cfg.MaxDurationSecs)
	}
	info.Path = s.d.Sandbox.Rel(abs)
	return abs, info, nil
}
