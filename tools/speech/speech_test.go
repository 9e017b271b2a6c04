package speech

import (
	"encoding/json"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func newTool(t *testing.T, section string, hosts ...string) (tool.Tool, *tool.Deps) {
	t.Helper()
	for _, p := range []string{"espeak-ng", "ffmpeg", "ffprobe", "bwrap"} {
		tooltest.NeedProgram(t, p)
	}
	return tooltest.WithSection(t, New, "speech", section, hosts...)
}

// ffprobe reads a file's codec, sample rate, channels and duration with the
// host's ffprobe, outside the tool.
func ffprobe(t *testing.T, path string) (codec string, rate, channels int, dur float64) {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels:format=duration,format_name", "-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var p struct {
		Streams []struct {
			CodecName  string `json:"codec_name"`
			SampleRate string `json:"sample_rate"`
			Channels   int    `json:"channels"`
		}
		Format struct{ Duration string }
	}
	json.Unmarshal(out, &p)
	rate, _ = strconv.Atoi(p.Streams[0].SampleRate)
	dur, _ = strconv.ParseFloat(p.Format.Duration, 64)
	return p.Streams[0].CodecName, rate, p.Streams[0].Channels, dur
}

// runProbe runs args and reads the one file made with ffprobe.
func runProbe(t *testing.T, tl tool.Tool, args map[string]any) (codec string, rate, channels int, dur float64) {
	t.Helper()
	res, err := tooltest.Run(t, tl, args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return ffprobe(t, tooltest.OnlyFile(t, res))
}

// TestSpeech_SynthesizeVoicesAndChunks: Mandarin and English text become
// 16-bit PCM WAV files (checked with ffprobe); a long text is spoken in
// several chunks joined into one file as long as its parts.
func TestSpeech_SynthesizeVoicesAndChunks(t *testing.T) {
	tl, d := newTool(t, "")
	var durs []float64
	for _, tc := range []struct{ text, voice string }{{"你好，世界。今天天气很好。", "cmn"}, {"Hello world, this is a test.", "en"}} {
		res := tooltest.OK(t, tl, map[string]any{"action": "synthesize", "text": tc.text})
		if v := res.Data.(map[string]any)["voice"]; v != tc.voice {
			t.Errorf("voice %v, want %s", v, tc.voice)
		}
		codec, rate, ch, dur := ffprobe(t, tooltest.OnlyFile(t, res))
		if codec != "pcm_s16le" || rate != 22050 || ch != 1 || dur < 1 || dur > 10 {
			t.Errorf("%s: %s %d Hz %d ch %.2f s", tc.voice, codec, rate, ch, dur)
		}
		durs = append(durs, dur)
	}
	sentence := "This sentence is repeated to make a long text. "
	long := strings.Repeat(sentence, 50) // about 2,400 characters: three chunks
	res := tooltest.OK(t, tl, map[string]any{"action": "synthesize", "text": long, "rate": 300, "output": "long.wav"})
	if n := res.Data.(map[string]any)["chunks"]; n != 3 {
		t.Errorf("chunks %v, want 3", n)
	}
	_, _, _, dur := ffprobe(t, filepath.Join(d.Sandbox.Root(), "long.wav"))
	_, _, _, unit := runProbe(t, tl, map[string]any{"action": "synthesize", "text": sentence, "rate": 300})
	if dur < unit*40 || dur > unit*55 {
		t.Errorf("long text %.2f s, one sentence %.2f s: not about 50 of them", dur, unit)
	}
	// A faster rate is shorter.
	if _, _, _, f := runProbe(t, tl, map[string]any{"action": "synthesize", "text": "Hello world, this is a test.", "rate": 400}); f >= durs[1] {
		t.Errorf("rate 400 gave %.2f s, not shorter than %.2f s", f, durs[1])
	}
}

// TestSpeech_ConvertTrimInfo: a synthesized clip converted to 16 kHz mono
// FLAC and mp3 has that format (ffprobe), and a trim of start 0.5 s,
// duration 1.25 s lasts 1.25 s within 10 ms; info reports the same.
func TestSpeech_ConvertTrimInfo(t *testing.T) {
	tl, d := newTool(t, "")
	if _, err := tooltest.Run(t, tl, map[string]any{"action": "synthesize", "text": "One two three four five six seven eight nine ten.", "output": "clip.wav"}); err != nil {
		t.Fatal(err)
	}
	if codec, rate, ch, _ := runProbe(t, tl, map[string]any{"action": "convert", "path": "clip.wav", "format": "flac", "sample_rate": 16000, "channels": 2}); codec != "flac" || rate != 16000 || ch != 2 {
		t.Errorf("convert: %s %d %d", codec, rate, ch)
	}
	res := tooltest.OK(t, tl, map[string]any{"action": "trim", "path": "clip.wav", "start": 0.5, "duration": 1.25})
	trimmed := tooltest.OnlyFile(t, res)
	if codec, _, _, dur := ffprobe(t, trimmed); codec != "pcm_s16le" || math.Abs(dur-1.25) > 0.010 {
		t.Errorf("trimmed %s %.4f s, want 1.25 s ± 10 ms", codec, dur)
	}
	rel, _ := filepath.Rel(d.Sandbox.Root(), trimmed)
	res = tooltest.OK(t, tl, map[string]any{"action": "info", "path": rel})
	if info := res.Data.(Info); math.Abs(info.Duration-1.25) > 0.010 || info.SampleRate != 22050 || info.Channels != 1 {
		t.Errorf("info %+v", info)
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "trim", "path": "clip.wav", "start": 999})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

// TestSpeech_BigInputsRefusedFirst: text over max_text_chars, a file over
// max_input_mb and audio over max_duration_seconds are refused as too_large
// before any output is written.
func TestSpeech_BigInputsRefusedFirst(t *testing.T) {
	tl, d := newTool(t, "max_text_chars: 10\nmax_duration_seconds: 1")
	_, err := tooltest.Run(t, tl, map[string]any{"action": "synthesize", "text": "this is longer than ten"})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
	big, _ := New(d) // same limits; make a 3 s clip with the host ffmpeg
	wav := filepath.Join(d.Sandbox.Root(), "tone.wav")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", wav).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	_, err = tooltest.Run(t, big, map[string]any{"action": "convert", "path": "tone.wav", "format": "mp3"})
	if te := tooltest.ToolError(t, err, tool.CodeTooLarge); !strings.Contains(te.Message, "max_duration_seconds") {
		t.Errorf("%v", te)
	}
	tooltest.ConfigSection(t, d, "speech", "max_input_mb: 1")
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), "huge.wav"), make([]byte, 2<<20))
	small, _ := New(d)
	_, err = tooltest.Run(t, small, map[string]any{"action": "info", "path": "huge.wav"})
	tooltest.ToolError(t, err, tool.CodeTooLarge)
	_, err = tooltest.Run(t, small, map[string]any{"action": "info", "path": "../x.wav"})
	tooltest.ToolError(t, err, tool.CodeDenied)
}

// TestSpeech_TranscribeEndpoint: transcribe posts OpenAI's multipart
// request (file, model, language, response_format verbose_json, segment
// timestamps, bearer key from the configured variable) and returns the text
// and timed segments of the verbose_json answer.
func TestSpeech_TranscribeEndpoint(t *testing.T) {
	var problems []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		check := func(ok bool, what string) {
			if !ok {
				problems = append(problems, what)
			}
		}
		check(r.Method == http.MethodPost && r.URL.Path == "/v1/audio/transcriptions", "method/path "+r.Method+" "+r.URL.Path)
		check(r.Header.Get("Authorization") == "Bearer sk-test", "authorization")
		mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		check(mt == "multipart/form-data", "content type "+mt)
		mr := multipart.NewReader(r.Body, params["boundary"])
		got := map[string]string{}
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			b, _ := io.ReadAll(p)
			if p.FormName() == "file" {
				check(p.FileName() == "clip.wav" && string(b[:4]) == "RIFF", "file part")
				continue
			}
			got[p.FormName()] = string(b)
		}
		check(got["model"] == "whisper-1" && got["language"] == "zh" && got["response_format"] == "verbose_json" && got["timestamp_granularities[]"] == "segment", "fields "+strings.Join([]string{got["model"], got["language"], got["response_format"], got["timestamp_granularities[]"]}, ","))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"task":"transcribe","language":"chinese","duration":2.5,"text":"你好，世界。今天天气很好。","segments":[{"id":0,"seek":0,"start":0.0,"end":1.2,"text":" 你好，世界。","tokens":[50364,2166],"temperature":0.0,"avg_logprob":-0.2,"compression_ratio":0.9,"no_speech_prob":0.01},{"id":1,"seek":0,"start":1.2,"end":2.5,"text":" 今天天气很好。","tokens":[50424],"temperature":0.0,"avg_logprob":-0.3,"compression_ratio":0.9,"no_speech_prob":0.02}]}`)
	}))
	defer srv.Close()
	t.Setenv("TEST_WHISPER_KEY", "sk-test")
	tl, _ := newTool(t, "transcribe_url: "+srv.URL+"/v1\napi_key_env: TEST_WHISPER_KEY", "127.0.0.1")
	if _, err := tooltest.Run(t, tl, map[string]any{"action": "synthesize", "text": "你好，世界。", "output": "clip.wav"}); err != nil {
		t.Fatal(err)
	}
	res := tooltest.OK(t, tl, map[string]any{"action": "transcribe", "path": "clip.wav", "language": "zh"})
	if len(problems) > 0 {
		t.Fatalf("request: %v", problems)
	}
	data := res.Data.(map[string]any)
	segs := data["segments"].([]Segment)
	if data["text"] != "你好，世界。今天天气很好。" || len(segs) != 2 || segs[1] != (Segment{1.2, 2.5, "今天天气很好。"}) {
		t.Errorf("data %+v", data)
	}
	if strings.Contains(res.Summary+strings.Join(problems, ""), "sk-test") {
		t.Error("the key reached the result")
	}
}

// TestSpeech_TranscribeRefusedKey: an endpoint that refuses the key answers
// permission_denied with what to check, and the key it echoes back never
// reaches the error.
func TestSpeech_TranscribeRefusedKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+`","type":"invalid_request_error"}}`)
	}))
	defer srv.Close()
	t.Setenv("TEST_WHISPER_KEY", "sk-test-secret")
	tl, _ := newTool(t, "transcribe_url: "+srv.URL+"/v1\napi_key_env: TEST_WHISPER_KEY", "127.0.0.1")
	if _, err := tooltest.Run(t, tl, map[string]any{"action": "synthesize", "text": "你好。", "output": "clip.wav"}); err != nil {
		t.Fatal(err)
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "transcribe", "path": "clip.wav"})
	te := tooltest.ToolError(t, err, tool.CodeDenied)
	if strings.Contains(te.Message+te.Hint, "sk-test-secret") || !strings.Contains(te.Message, "[redacted]") || !strings.Contains(te.Hint, "tools.speech.api_key_env") {
		t.Errorf("%+v", te)
	}
}

// TestSpeech_TranscribeNotConfigured: without an endpoint transcribe says
// what to configure.
func TestSpeech_TranscribeNotConfigured(t *testing.T) {
	tl, _ := newTool(t, "")
	_, err := tooltest.Run(t, tl, map[string]any{"action": "transcribe", "path": "a.wav"})
	if te := tooltest.ToolError(t, err, tool.CodeUnavailable); !strings.Contains(te.Hint, "transcribe_url") {
		t.Errorf("%v", te)
	}
}

// TestSpeech_Chunk: long text is cut at sentence ends within the window.
func TestSpeech_Chunk(t *testing.T) {
	got := chunk("一二三。四五六。七八九", 5)
	if strings.Join(got, "|") != "一二三。|四五六。|七八九" {
		t.Errorf("%q", got)
	}
}
