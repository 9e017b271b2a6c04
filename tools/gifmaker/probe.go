package gifmaker

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// video is what ffprobe says of a video input: its coded size, the size it
// is shown at (sample aspect ratio applied, then rotation), and its
// duration (0: unknown).
type video struct {
	width, height  int
	shownW, shownH float64
	duration       float64
}

// probe reads the first video stream with ffprobe's JSON output.
func (g *gifMaker) probe(ctx context.Context, abs, path string) (video, error) {
	out, err := g.run(ctx, "ffprobe", []string{"-v", "error", "-select_streams", "v:0",
		"-show_entries", "stream=width,height,sample_aspect_ratio:stream_side_data=rotation:format=duration", "-of", "json", jailIn + filepath.Base(abs)}, abs, "")
	if te, ok := tool.AsError(err); ok && te.Code == tool.CodeFailed {
		// ffprobe exits non-zero on a file it cannot read: the input is
		// not a video, which is about the argument, not the server.
		te.Code, te.Field = tool.CodeInvalid, "path"
	}
	if err != nil {
		return video{}, err
	}
	var p struct {
		Streams []struct {
			Width        int    `json:"width"`
			Height       int    `json:"height"`
			SampleAspect string `json:"sample_aspect_ratio"`
			SideData     []struct {
				Rotation *float64 `json:"rotation"`
			} `json:"side_data_list"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		return video{}, fmt.Errorf("ffprobe output: %w", err)
	}
	if len(p.Streams) == 0 || p.Streams[0].Width <= 0 || p.Streams[0].Height <= 0 {
		return video{}, tool.Invalid("path", path+" has no video stream", "give a video file (mp4, webm, mkv, mov, avi...)")
	}
	st := p.Streams[0]
	v := video{width: st.Width, height: st.Height}
	v.shownW, v.shownH = float64(st.Width)*aspect(st.SampleAspect), float64(st.Height)
	for _, sd := range st.SideData {
		if sd.Rotation != nil && quarterTurn(*sd.Rotation) {
			v.shownW, v.shownH = v.shownH, v.shownW
		}
	}
	if d, err := strconv.ParseFloat(p.Format.Duration, 64); err == nil && d > 0 && !math.IsInf(d, 0) {
		v.duration = d
	}
	return v, nil
}

// aspect is a sample aspect ratio "num:den" as a number; 1 when it is
// absent, unknown ("0:1") or not a ratio.
func aspect(sar string) float64 {
	n, d, ok := strings.Cut(sar, ":")
	if !ok {
		return 1
	}
	num, err1 := strconv.ParseFloat(n, 64)
	den, err2 := strconv.ParseFloat(d, 64)
	if err1 != nil || err2 != nil || !(num > 0) || !(den > 0) || math.IsInf(num/den, 0) {
		return 1
	}
	return num / den
}

// quarterTurn says whether a display rotation in degrees swaps width and
// height, as ffmpeg's autorotate decides it (within a degree of 90 or 270).
func quarterTurn(deg float64) bool {
	a := math.Mod(math.Abs(deg), 180)
	return math.Abs(a-90) < 1
}
