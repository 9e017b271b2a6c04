// Package speech is the `speech` tool: text to WAV with espeak-ng (Mandarin
// `cmn` and English voices, rate, pitch; long text synthesized in chunks
// and joined), audio convert and trim with ffmpeg (a FLAC ffmpeg cannot
// decode, such as 32 bits a sample, through the reference decoder flac;
// a result with no sound, or shorter than the input says it lasts, is an
// error, not a file), info with ffprobe, and
// transcription through a configured Whisper-compatible HTTP endpoint
// (OpenAI's multipart /v1/audio/transcriptions, verbose_json with segment
// times). Every program runs in internal/jail, seeing only its input
// (read-only) and a scratch output dir; results are written atomically into
// the workspace. It has no local speech recogniser of its own: without an
// endpoint, transcribe says what to configure.
package speech

import (
	"errors"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: speech: ...).
type Section struct {
	// TranscribeURL is the base of a Whisper-compatible API, e.g.
	// https://api.openai.com/v1 (/audio/transcriptions is appended).
	TranscribeURL string `yaml:"transcribe_url"`
	// APIKeyEnv names the environment variable that holds its key.
	APIKeyEnv string `yaml:"api_key_env"`
	// Model is sent as the model field (default whisper-1).
	Model   string        `yaml:"model"`
	Timeout time.Duration `yaml:"timeout"`
	// Limits checked before any work.
	MaxInputMB      int `yaml:"max_input_mb"`
	MaxDurationSecs int `yaml:"max_duration_seconds"`
	MaxTextChars    int `yaml:"max_text_chars"`
}

// DefaultSection is the section's defaults: no transcription endpoint.
func DefaultSection() Section {
	return Section{Model: "whisper-1", Timeout: 5 * time.Minute, MaxInputMB: 200, MaxDurationSecs: 3 * 3600, MaxTextChars: 20000}
}

// Validate refuses limits below one and a key variable without an endpoint.
func (s *Section) Validate() error {
	var errs []error
	if s.APIKeyEnv != "" && s.TranscribeURL == "" {
		errs = append(errs, errors.New("api_key_env needs transcribe_url"))
	}
	errs = append(errs, config.AtLeast("max_input_mb", s.MaxInputMB, 1), config.AtLeast("max_duration_seconds", s.MaxDurationSecs, 1),
		config.AtLeast("max_text_chars", s.MaxTextChars, 1), config.AtLeast("timeout", s.Timeout, time.Second))
	return errors.Join(errs...)
}

type speech struct {
	d   *tool.Deps
	cfg Section
}

// New builds the speech tool from the tools.speech section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Section]{Name: "speech", Defaults: DefaultSection, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Section) (tool.Tool, error) {
	s := &speech{d: d, cfg: cfg}
	path := tool.Param{Name: "path", Type: tool.String, Required: true, Description: "Audio file."}
	output := tool.OutputParam("Default outputs/<name>.")
	format := tool.Param{Name: "format", Type: tool.String, Enum: formatNames(), Description: "Default: the input's, wav for synthesize."}
	rate := tool.Param{Name: "sample_rate", Type: tool.Integer, Min: tool.Ptr(8000), Max: tool.Ptr(192000), Description: "Hz."}
	channels := tool.Param{Name: "channels", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(2), Description: "Output channels."}
	return tool.Tool{
		Name:  "speech",
		Title: "Speech",
		Description: "Speech and audio: synthesize text to WAV (Chinese and English voices), transcribe audio to text with timestamps " +
			"(configured Whisper-compatible endpoint), convert and trim audio, audio info.",
		Actions: []tool.Action{
			{Name: "synthesize", Description: "text to speech (espeak-ng)", Level: tool.Write, Timeout: tool.Slow, Handler: s.synthesize, Params: []tool.Param{
				{Name: "text", Type: tool.String, Required: true, Description: "To speak."},
				{Name: "voice", Type: tool.String, Enum: []string{"auto", "zh", "en", "en-us"}, Default: "auto", Description: "auto: zh when the text has Chinese."},
				{Name: "rate", Type: tool.Integer, Default: 175, Min: tool.Ptr(80), Max: tool.Ptr(450), Description: "Words per minute."},
				{Name: "pitch", Type: tool.Integer, Default: 50, Min: tool.Ptr(0), Max: tool.Ptr(99), Description: "0-99."},
				output, tool.Overwrite}},
			{Name: "transcribe", Description: "audio to text with segment times", Level: tool.Read, Timeout: tool.Slow, Handler: s.transcribe, Params: []tool.Param{
				path, {Name: "language", Type: tool.String, Description: "ISO-639-1, e.g. zh (default: detected)."},
				{Name: "prompt", Type: tool.String, Description: "Words or style to guide recognition."}}},
			{Name: "convert", Description: "format, sample rate or channels", Level: tool.Write, Timeout: tool.Slow, Handler: s.convert,
				Params: []tool.Param{path, format, rate, channels, output, tool.Overwrite}},
			{Name: "trim", Description: "a clip by start and duration", Level: tool.Write, Timeout: tool.Slow, Handler: s.trim, Params: []tool.Param{
				path, {Name: "start", Type: tool.Number, Default: 0, Min: tool.Ptr(0), Description: "Start in seconds."},
				{Name: "duration", Type: tool.Number, Min: tool.Ptr(0.001), Description: "Seconds (default: to the end)."},
				format, output, tool.Overwrite}},
			{Name: "info", Description: "duration, codec, sample rate, channels", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Handler: s.info, Params: []tool.Param{path}},
		},
		OpenWorld: true, // transcribe sends audio to the configured endpoint
		Programs:  tool.ProgramsOf("espeak-ng", "ffmpeg", "ffprobe", "flac"),
		Examples: []string{
			"convert this recording to text",
			"read this paragraph aloud as a wav file",
			"trim the first 10 seconds of the audio",
			"turn the podcast into a transcript",
			"how long is this audio file",
			"把录音转成文字",
			"把这段话合成语音",
			"语音识别这个音频文件",
			"剪掉音频的开头",
		},
	}, nil
}
