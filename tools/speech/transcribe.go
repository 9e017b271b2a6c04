package speech

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Segment is one timed piece of a transcript.
type Segment struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Text  string  `json:"text"`
}

// verboseJSON is the response_format=verbose_json answer of
// /v1/audio/transcriptions (fields we use).
type verboseJSON struct {
	Text     string    `json:"text"`
	Language string    `json:"language"`
	Duration float64   `json:"duration"`
	Segments []Segment `json:"segments"`
}

// maxUploadMB is the OpenAI endpoint's limit on one upload.
const maxUploadMB = 25

func (s *speech) transcribe(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	// The path is checked first, so a path outside the workspace is refused
	// as such whatever the configuration.
	if _, err := s.d.Sandbox.Resolve(c.Args.String("path")); err != nil {
		return nil, tool.PathError("path", c.Args.String("path"), err)
	}
	if s.cfg.TranscribeURL == "" {
		return nil, tool.Errorf(tool.CodeUnavailable, "set tools.speech.transcribe_url to a Whisper-compatible API (e.g. https://api.openai.com/v1, or a local whisper server) and api_key_env to the variable holding its key",
			"no transcription endpoint is configured")
	}
	abs, info, err := s.input(ctx, c)
	if err != nil {
		return nil, err
	}
	audio, err := sandbox.ReadRegular(abs, maxUploadMB<<20)
	if errors.Is(err, sandbox.ErrTooLarge) {
		return nil, tool.Errorf(tool.CodeTooLarge, "convert it to a compressed format (convert with format mp3 or opus) or trim it", "the file is over the %d MB the endpoint takes", maxUploadMB)
	}
	if err != nil {
		return nil, tool.PathError("path", c.Args.String("path"), err)
	}
	body, contentType, err := s.transcribeForm(c, filepath.Base(abs), audio)
	if err != nil {
		return nil, err
	}
	url := strings.TrimRight(s.cfg.TranscribeURL, "/") + "/audio/transcriptions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, body)
	if err != nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "fix tools.speech.transcribe_url", "bad transcribe_url: %v", err)
	}
	req.Header.Set("Content-Type", contentType)
	ep := webapi.Endpoint{What: "the transcription endpoint", Field: "path", Config: "tools.speech", KeyEnv: "tools.speech.api_key_env"}
	if s.cfg.APIKeyEnv != "" {
		ep.Key = os.Getenv(s.cfg.APIKeyEnv)
		if ep.Key == "" {
			return nil, tool.Errorf(tool.CodeUnavailable, "set the variable "+s.cfg.APIKeyEnv+" in the server's environment", "the API key variable %s is empty", s.cfg.APIKeyEnv)
		}
		req.Header.Set("Authorization", "Bearer "+ep.Key)
	}
	resp, err := s.d.HTTPClient(s.cfg.Timeout).Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, ep.Unreachable(err)
	}
	defer resp.Body.Close()
	raw, err := ep.Read(resp, 16<<20)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, ep.Status(resp.StatusCode, raw)
	}
	var v verboseJSON
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "use an endpoint that speaks OpenAI's verbose_json", "the transcription is not verbose_json: %v", err)
	}
	for i := range v.Segments {
		v.Segments[i].Text = strings.TrimSpace(v.Segments[i].Text)
	}
	data := map[string]any{"path": info.Path, "text": strings.TrimSpace(v.Text), "language": v.Language, "duration_seconds": v.Duration, "segments": v.Segments}
	return &tool.Result{Summary: fmt.Sprintf("transcribed %.1f s of %s (%s, %s)", v.Duration, info.Path, v.Language, plural(len(v.Segments), "segment")), Data: data}, nil
}

// transcribeForm is the multipart request body: the audio as the file
// named name, the model, verbose JSON with segments, and the call's
// language and prompt; with its content type.
func (s *speech) transcribeForm(c *tool.Call, name string, audio []byte) (*bytes.Buffer, string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		return nil, "", err
	}
	if _, err := fw.Write(audio); err != nil {
		return nil, "", err
	}
	fields := [][2]string{{"model", s.cfg.Model}, {"response_format", "verbose_json"}, {"timestamp_granularities[]", "segment"}}
	if l := c.Args.String("language"); l != "" {
		fields = append(fields, [2]string{"language", l})
	}
	if p := c.Args.String("prompt"); p != "" {
		fields = append(fields, [2]string{"prompt", p})
	}
	for _, kv := range fields {
		if err := mw.WriteField(kv[0], kv[1]); err != nil {
			return nil, "", err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return &body, mw.FormDataContentType(), nil
}
