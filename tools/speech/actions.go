package speech

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// chunkRunes is the most text one espeak-ng run speaks; longer text is
// cut at sentence ends (else at spaces) and the pieces joined.
const chunkRunes = 1000

func (s *speech) synthesize(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	text := strings.TrimSpace(c.Args.String("text"))
	if text == "" {
		return nil, tool.Invalid("text", "text is empty", "give the text to speak")
	}
	if n := utf8.RuneCountInString(text); n > s.cfg.MaxTextChars {
		return nil, tool.Errorf(tool.CodeTooLarge, "split the text into several calls or raise tools.speech.max_text_chars", "text has %d characters, above the %d limit (tools.speech.max_text_chars)", n, s.cfg.MaxTextChars)
	}
	voice := c.Args.StringOr("voice", "auto")
	switch voice {
	case "auto":
		voice = "en"
		if strings.IndexFunc(text, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			voice = "cmn"
		}
	case "zh":
		voice = "cmn"
	}
	out, err := tool.PlanOutput(s.d.Sandbox, c.Args, tool.Output{Stem: "speech", Exts: []string{".wav"}})
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "clawbridge-speech-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	in := filepath.Join(tmp, "in")
	work := filepath.Join(tmp, "out")
	if err := os.MkdirAll(in, 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o777); err != nil {
		return nil, err
	}
	chunks := chunk(text, chunkRunes)
	var list strings.Builder
	for i, ch := range chunks {
		c.Progress(float64(i), float64(len(chunks)+1), fmt.Sprintf("chunk %d of %d", i+1, len(chunks)))
		name := fmt.Sprintf("chunk-%04d", i)
		if err := os.WriteFile(filepath.Join(in, name+".txt"), []byte(ch), 0o644); err != nil {
			return nil, err
		}
		if _, err := s.run(ctx, "espeak-ng", []string{"-v", voice, "-s", strconv.Itoa(c.Args.Int("rate", 175)), "-p", strconv.Itoa(c.Args.Int("pitch", 50)),
			"-f", jailIn + "in/" + name + ".txt", "-w", jailOut + "/" + name + ".wav"}, []string{in}, work); err != nil {
			return nil, err
		}
		fmt.Fprintf(&list, "file '%s.wav'\n", name)
	}
	result := filepath.Join(work, "speech.wav")
	if len(chunks) == 1 {
		result = filepath.Join(work, "chunk-0000.wav")
	} else {
		c.Progress(float64(len(chunks)), float64(len(chunks)+1), "joining")
		if err := os.WriteFile(filepath.Join(work, "list.txt"), []byte(list.String()), 0o644); err != nil {
			return nil, err
		}
		if _, err := s.run(ctx, "ffmpeg", []string{"-nostdin", "-v", "error", "-f", "concat", "-safe", "0", "-i", jailOut + "/list.txt", "-c", "copy", jailOut + "/speech.wav"}, nil, work); err != nil {
			return nil, err
		}
	}
	got, err := s.produced(ctx, result)
	if err != nil {
		return nil, err
	}
	if !(got.Duration > 0) {
		return nil, tool.Errorf(tool.CodeFailed, "try other text or another voice", "espeak-ng produced no audio")
	}
	return s.save(out, ".wav", result, got, fmt.Sprintf("synthesized %s with voice %s", plural(len(chunks), "chunk"), voice), map[string]any{"voice": voice, "chunks": len(chunks)})
}

// chunk cuts text into pieces of at most n runes, at the last sentence end
// (else space, else anywhere) within each window.
func chunk(text string, n int) []string {
	var out []string
	r := []rune(text)
	for len(r) > n {
		cut := -1
		for i := n; i > n/2; i-- {
			if strings.ContainsRune("。！？；.!?;\n", r[i-1]) {
				cut = i
				break
			}
		}
		if cut < 0 {
			for i := n; i > n/2; i-- {
				if unicode.IsSpace(r[i-1]) || r[i-1] == '，' || r[i-1] == ',' {
					cut = i
					break
				}
			}
		}
		if cut < 0 {
			cut = n
		}
		if p := strings.TrimSpace(string(r[:cut])); p != "" {
			out = append(out, p)
		}
		r = r[cut:]
	}
	if p := strings.TrimSpace(string(r)); p != "" {
		out = append(out, p)
	}
	return out
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return strconv.Itoa(n) + " " + w + "s"
}

// outFormat is the format asked for, else the input's extension if known.
func outFormat(c *tool.Call, abs string) string {
	if f := c.Args.String("format"); f != "" {
		return f
	}
	if e := strings.TrimPrefix(strings.ToLower(filepath.Ext(abs)), "."); formats[e] != nil {
		return e
	}
	return "wav"
}

func (s *speech) convert(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	return s.ffmpeg(ctx, c, "_converted", func(info Info) (clip, error) {
		return clip{want: info.Duration}, nil
	})
}

func (s *speech) trim(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	start := c.Args.Float("start", 0)
	return s.ffmpeg(ctx, c, "_trimmed", func(info Info) (clip, error) {
		if info.Duration > 0 && start >= info.Duration {
			return clip{}, tool.Invalid("start", fmt.Sprintf("start %.3f s is past the end (%.3f s)", start, info.Duration), "give a start within the audio")
		}
		cl := clip{start: start, want: info.Duration - start}
		if c.Args.Has("duration") {
			cl.length = c.Args.Float("duration", 0)
			if info.Duration <= 0 || cl.length < cl.want {
				cl.want = cl.length
			}
		}
		return cl, nil
	})
}

// clip is the part of the input an action takes: from start, length
// seconds (0: to the end), and the seconds the result should last (0:
// unknown).
type clip struct{ start, length, want float64 }

// ffmpeg re-encodes the input (cut after the input, so -ss and -t cut
// sample exactly) into the planned output.
func (s *speech) ffmpeg(ctx context.Context, c *tool.Call, suffix string, cut func(Info) (clip, error)) (*tool.Result, error) {
	abs, info, err := s.input(ctx, c)
	if err != nil {
		return nil, err
	}
	cl, err := cut(info)
	if err != nil {
		return nil, err
	}
	fmtName := outFormat(c, abs)
	ext := "." + fmtName
	out, err := tool.PlanOutput(s.d.Sandbox, c.Args, tool.Output{Stem: tool.StemOf(abs) + suffix, Exts: []string{ext}, Inputs: []string{abs}})
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "clawbridge-speech-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	if err := os.Chmod(work, 0o777); err != nil {
		return nil, err
	}
	var args []string
	if cl.start > 0 {
		args = append(args, "-ss", strconv.FormatFloat(cl.start, 'f', 6, 64))
	}
	// The input's duration is what the file says of itself: -t bounds the
	// work by the limit whatever it says.
	length := float64(s.cfg.MaxDurationSecs)
	if cl.length > 0 {
		length = min(cl.length, length)
	}
	args = append(args, "-t", strconv.FormatFloat(length, 'f', 6, 64), "-vn", "-map_metadata", "-1")
	args = append(args, formats[fmtName]...)
	if c.Args.Has("sample_rate") {
		args = append(args, "-ar", strconv.Itoa(c.Args.Int("sample_rate", 0)))
	}
	if c.Args.Has("channels") {
		args = append(args, "-ac", strconv.Itoa(c.Args.Int("channels", 0)))
	}
	result := filepath.Join(work, "result"+ext)
	got, err := s.encode(ctx, jailIn+filepath.Base(abs), []string{abs}, args, work, result, cl.want, info)
	if te, ok := tool.AsError(err); ok && te.Code == tool.CodeFailed && info.Codec == "flac" {
		// ffmpeg (5.1) decodes no sample of some valid FLAC files (32 bits
		// a sample) and exits 0; the reference decoder reads them.
		if _, ferr := s.run(ctx, "flac", []string{"--decode", "--silent", "-o", jailOut + "/decoded.wav", jailIn + filepath.Base(abs)}, []string{abs}, work); ferr == nil {
			os.Remove(result)
			got, err = s.encode(ctx, jailOut+"/decoded.wav", nil, args, work, result, cl.want, info)
		}
	}
	if err != nil {
		return nil, err
	}
	return s.save(out, ext, result, got, fmt.Sprintf("wrote %s from %s", fmtName, info.Path), map[string]any{"input": info})
}

// encode runs ffmpeg from input (a jail path) to result with args and
// checks what it made: ffmpeg exits 0 having decoded nothing, or only the
// start of a truncated file.
func (s *speech) encode(ctx context.Context, input string, inputs, args []string, work, result string, want float64, in Info) (Info, error) {
	argv := append([]string{"-nostdin", "-v", "error", "-i", input}, args...)
	if _, err := s.run(ctx, "ffmpeg", append(argv, jailOut+"/"+filepath.Base(result)), inputs, work); err != nil {
		return Info{}, err
	}
	got, err := s.produced(ctx, result)
	if err != nil {
		return Info{}, err
	}
	if !(got.Duration > 0) {
		return Info{}, tool.Errorf(tool.CodeFailed, "check that the file plays; it may be damaged or a variant ffmpeg cannot decode",
			"no audio could be decoded from %s (%s, %s)", in.Path, in.Format, in.Codec)
	}
	if want > 0 && got.Duration < want-max(0.5, 0.05*want) {
		return Info{}, tool.Errorf(tool.CodeFailed, fmt.Sprintf("the file is truncated or damaged: trim it to about the first %.1f s, which decode, or repair it", got.Duration),
			"only %.2f s of the %.2f s expected from %s could be decoded", got.Duration, want, in.Path)
	}
	return got, nil
}

// produced describes a file a program made. One ffprobe cannot read or
// finds no audio in (an MP3 of no frame) is described as 0 s long.
func (s *speech) produced(ctx context.Context, path string) (Info, error) {
	if _, err := os.Stat(path); err != nil {
		return Info{}, tool.Errorf(tool.CodeFailed, "try again or another format", "no output was produced: %v", err)
	}
	info, err := s.probe(ctx, path)
	if te, ok := tool.AsError(err); ok && (te.Code == tool.CodeInvalid || te.Code == tool.CodeFailed) {
		return Info{}, nil
	}
	return info, err
}

// save copies a produced file, described by info, into its planned output
// atomically.
func (s *speech) save(out *tool.Outputs, ext, produced string, info Info, summary string, data map[string]any) (*tool.Result, error) {
	src, err := os.Open(produced)
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "try again or another format", "no output was produced: %v", err)
	}
	defer src.Close()
	f, err := out.WriteFrom(ext, func(w io.Writer) error { _, err := io.Copy(w, src); return err })
	if err != nil {
		return nil, err
	}
	info.Path = s.d.Sandbox.Rel(f.Path)
	data["output"] = info
	return &tool.Result{Summary: fmt.Sprintf("%s: %s, %.2f s", summary, info.Path, info.Duration), Data: data, Files: []tool.File{f}}, nil
}

func (s *speech) info(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	_, info, err := s.input(ctx, c)
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("%s: %s %d Hz, %d ch, %.2f s", info.Path, info.Codec, info.SampleRate, info.Channels, info.Duration), Data: info}, nil
}
