package speech

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// fixture copies testdata/name into the workspace, keeping its first n
// bytes when n > 0.
func fixture(t *testing.T, d *tool.Deps, name, as string, n int) string {
	t.Helper()
	raw := tooltest.ReadFile(t, filepath.Join("testdata", name))
	if n > 0 {
		raw = raw[:n]
	}
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), as), raw)
	return as
}

// loudest is the largest absolute sample of a 16-bit PCM WAV file.
func loudest(t *testing.T, path string) int {
	t.Helper()
	raw := tooltest.ReadFile(t, path)
	i := strings.Index(string(raw), "data")
	if i < 0 {
		t.Fatalf("%s has no data chunk", path)
	}
	peak := 0
	for p := i + 8; p+1 < len(raw); p += 2 {
		peak = max(peak, int(math.Abs(float64(int16(binary.LittleEndian.Uint16(raw[p:]))))))
	}
	return peak
}

func noOutputs(t *testing.T, d *tool.Deps) {
	t.Helper()
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Errorf("refused calls left files: %v", ents)
	}
}

// TestSpeech_Convert32BitFLAC: a valid FLAC of 32 bits a sample (from the
// FLAC test suite), of which ffmpeg 5.1 decodes nothing, converts to WAV,
// MP3 and FLAC of its full second of sound, as ffprobe reads them.
func TestSpeech_Convert32BitFLAC(t *testing.T) {
	tl, d := newTool(t, "")
	tooltest.NeedProgram(t, "flac")
	in := fixture(t, d, "32bps.flac", "32bps.flac", 0)
	for _, f := range []string{"wav", "mp3", "flac"} {
		res, err := tooltest.Run(t, tl, map[string]any{"action": "convert", "path": in, "format": f})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p := tooltest.OnlyFile(t, res)
		codec, rate, ch, dur := ffprobe(t, p)
		if rate != 44100 || ch != 2 || dur < 0.99 || dur > 1.06 {
			t.Errorf("%s: %s %d Hz %d ch %.3f s; want 44100 Hz, 2 ch, 1 s", f, codec, rate, ch, dur)
		}
		if f == "wav" {
			if peak := loudest(t, p); codec != "pcm_s16le" || peak < 1000 {
				t.Errorf("wav: %s, loudest sample %d: silence", codec, peak)
			}
		}
	}
}

// TestSpeech_NothingDecoded: a damaged FLAC of which no sample decodes
// (ffmpeg exits 0 with an empty WAV) is a clear error, not a 0 s file.
func TestSpeech_NothingDecoded(t *testing.T) {
	tl, d := newTool(t, "")
	in := fixture(t, d, "bad-metadata-length.flac", "bad.flac", 0)
	for _, f := range []string{"wav", "mp3"} { // an MP3 of no frame is no file ffprobe reads
		_, err := tooltest.Run(t, tl, map[string]any{"action": "convert", "path": in, "format": f})
		if e := tooltest.ToolError(t, err, tool.CodeFailed); !strings.Contains(e.Message, "no audio could be decoded") {
			t.Errorf("%s: %q", f, e.Message)
		}
	}
	noOutputs(t, d)
}

// TestSpeech_TruncatedMP3: the first half of a real MP3, whose header
// still says 10 s, is refused naming what decodes; trimming to that part
// works, and the whole file converts to its full length.
func TestSpeech_TruncatedMP3(t *testing.T) {
	tl, d := newTool(t, "")
	whole, err := os.Stat(filepath.Join("testdata", "test1.mp3"))
	if err != nil {
		t.Fatal(err)
	}
	cut := fixture(t, d, "test1.mp3", "cut.mp3", int(whole.Size()/2))
	for _, f := range []string{"wav", "mp3"} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": "convert", "path": cut, "format": f})
		e := tooltest.ToolError(t, err, tool.CodeFailed)
		if !strings.Contains(e.Message, "of the 10.04 s") || !strings.Contains(e.Hint, "truncated") {
			t.Errorf("%s: %q (%s)", f, e.Message, e.Hint)
		}
		t.Logf("%s: %s (%s)", f, e.Message, e.Hint)
	}
	noOutputs(t, d)
	if _, _, _, dur := runProbe(t, tl, map[string]any{"action": "trim", "path": cut, "duration": 4, "format": "wav"}); math.Abs(dur-4) > 0.01 {
		t.Errorf("trimmed to %.3f s, want 4", dur)
	}
	full := fixture(t, d, "test1.mp3", "full.mp3", 0)
	if _, _, _, dur := runProbe(t, tl, map[string]any{"action": "convert", "path": full, "format": "wav"}); math.Abs(dur-10.01) > 0.05 {
		t.Errorf("converted to %.3f s, want 10.0", dur)
	}
}

// TestSpeech_FLACConvertsWhole: an ordinary FLAC (CC0 recording) converts
// to every format at its own length.
func TestSpeech_FLACConvertsWhole(t *testing.T) {
	tl, d := newTool(t, "")
	in := fixture(t, d, "19875.flac", "rec.flac", 0)
	for _, f := range formatNames() {
		if _, _, ch, dur := runProbe(t, tl, map[string]any{"action": "convert", "path": in, "format": f, "overwrite": true}); ch != 1 || math.Abs(dur-1.03) > 0.06 {
			t.Errorf("%s: %d ch, %.3f s; want 1 ch, 1.03 s", f, ch, dur)
		}
	}
}

// TestSpeech_SoundShorterThanPicture: a video whose picture runs 5 s and
// whose sound (a CC0 recording) 1.03 s converts to the sound's length: the
// check is on the audio stream's duration, not the container's.
func TestSpeech_SoundShorterThanPicture(t *testing.T) {
	tl, d := newTool(t, "")
	in := filepath.Join(d.Sandbox.Root(), fixture(t, d, "19875.flac", "rec.flac", 0))
	if o, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=64x48:d=5", "-i", in,
		"-c:v", "libx264", "-c:a", "aac", filepath.Join(d.Sandbox.Root(), "talk.mp4")).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, o)
	}
	if _, _, _, dur := runProbe(t, tl, map[string]any{"action": "convert", "path": "talk.mp4", "format": "wav"}); math.Abs(dur-1.03) > 0.06 {
		t.Errorf("%.3f s, want 1.03", dur)
	}
}

// TestSpeech_FIFOInput: a named pipe given as the audio path is refused at
// once for every action that reads it.
func TestSpeech_FIFOInput(t *testing.T) {
	tl, d := newTool(t, "transcribe_url: http://127.0.0.1:9/v1")
	if err := syscall.Mkfifo(filepath.Join(d.Sandbox.Root(), "pipe.wav"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, action := range []string{"info", "convert", "trim", "transcribe"} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": action, "path": "pipe.wav"})
		if e := tooltest.ToolError(t, err, tool.CodeInvalid); !strings.Contains(e.Message, "not a regular file") {
			t.Errorf("%s: %q", action, e.Message)
		}
	}
	noOutputs(t, d)
}
