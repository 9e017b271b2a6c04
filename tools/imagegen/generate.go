package imagegen

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Endpoint names an OpenAI-compatible images API. Its key is never in the
// file: api_key_env names the environment variable holding it.
type Endpoint struct {
	BaseURL   string        `yaml:"base_url"` // e.g. https://api.openai.com/v1 (/images/generations is appended)
	Model     string        `yaml:"model"`
	APIKeyEnv string        `yaml:"api_key_env"` // empty: no Authorization header (a local server)
	Timeout   time.Duration `yaml:"timeout"`
}

func (e Endpoint) validate() error {
	if e.BaseURL == "" {
		if e.Model != "" || e.APIKeyEnv != "" {
			return errors.New("generate.base_url is required with generate.model or generate.api_key_env")
		}
		return nil
	}
	var errs []error
	if u, err := url.Parse(e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("generate.base_url must be an http(s) URL such as https://api.openai.com/v1, got %q", e.BaseURL))
	}
	if e.Model == "" {
		errs = append(errs, errors.New("generate.model is required with generate.base_url"))
	}
	if e.Timeout < time.Second {
		errs = append(errs, fmt.Errorf("generate.timeout must be at least 1s, got %s", e.Timeout))
	}
	return errors.Join(errs...)
}

// maxImageResponse bounds the endpoint's answer (base64 of one image).
const maxImageResponse = 64 << 20

type imagesRequest struct {
	Model          string `json:"model"`
	Prompt         string `json:"prompt"`
	N              int    `json:"n"`
	Size           string `json:"size,omitempty"`
	Quality        string `json:"quality,omitempty"`
	ResponseFormat string `json:"response_format,omitempty"`
}

type imagesResponse struct {
	Data []struct {
		B64JSON       string `json:"b64_json"`
		URL           string `json:"url"`
		RevisedPrompt string `json:"revised_prompt"`
	} `json:"data"`
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

func (g *imageGen) generate(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	ep := g.cfg.Generate
	if ep.BaseURL == "" {
		return nil, tool.Errorf(tool.CodeUnavailable,
			"set tools.image_generator.generate: {base_url: https://api.openai.com/v1, model: gpt-image-1, api_key_env: OPENAI_API_KEY} (any OpenAI-compatible images API; a local one also needs network.allow_hosts)",
			"no image generation endpoint is configured")
	}
	prompt := strings.TrimSpace(c.Args.String("prompt"))
	if prompt == "" {
		return nil, tool.Invalid("prompt", "prompt is empty", "describe the image to make")
	}
	// The API takes the size as one "WIDTHxHEIGHT" string.
	size := fmt.Sprintf("%dx%d", c.Args.Int("width", 1024), c.Args.Int("height", 1024))
	api := webapi.Endpoint{What: "the images endpoint", Field: "prompt", Config: "tools.image_generator.generate", KeyEnv: "tools.image_generator.generate.api_key_env"}
	if ep.APIKeyEnv != "" {
		if api.Key = os.Getenv(ep.APIKeyEnv); api.Key == "" {
			return nil, tool.Errorf(tool.CodeUnavailable, "set "+ep.APIKeyEnv+" in the server's environment and restart it",
				"the API key variable %s (tools.image_generator.generate.api_key_env) is empty", ep.APIKeyEnv)
		}
	}
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: "generated", Exts: []string{".png"}})
	if err != nil {
		return nil, err
	}
	body := imagesRequest{Model: ep.Model, Prompt: prompt, N: 1, Size: size, Quality: c.Args.String("model_quality")}
	// gpt-image models always answer in base64 and refuse the parameter;
	// DALL·E and most compatible servers need it to send base64, not a URL.
	if !strings.HasPrefix(ep.Model, "gpt-image") {
		body.ResponseFormat = "b64_json"
	}
	ir, err := g.requestImage(ctx, c, api, body)
	if err != nil {
		return nil, err
	}
	img, err := base64.StdEncoding.DecodeString(ir.Data[0].B64JSON)
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "check that base_url points at an OpenAI-compatible /v1", "the image is not valid base64: %v", err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "check the endpoint", "the endpoint's image cannot be read: %v", err)
	}
	if cfg.Width*cfg.Height > g.cfg.MaxPixels {
		return nil, tool.Errorf(tool.CodeTooLarge, "ask for a smaller size or raise tools.image_generator.max_pixels", "the image is %d×%d, above the %d pixel limit", cfg.Width, cfg.Height, g.cfg.MaxPixels)
	}
	ext := map[string]string{"png": ".png", "jpeg": ".jpg", "webp": ".webp", "gif": ".gif"}[format]
	if ext == "" {
		return nil, tool.Errorf(tool.CodeFailed, "check the endpoint", "the endpoint's image is %s, not png, jpeg or webp", format)
	}
	if ext != ".png" {
		// Keep the endpoint's bytes; only the name follows the format.
		if out, err = tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: "generated", Exts: []string{ext}}); err != nil {
			return nil, err
		}
	}
	file, err := out.WriteFrom(ext, func(w io.Writer) error { _, err := w.Write(img); return err })
	if err != nil {
		return nil, err
	}
	rel := g.d.Sandbox.Rel(file.Path)
	data := map[string]any{"path": rel, "width": cfg.Width, "height": cfg.Height, "bytes": file.Size, "format": format, "model": ep.Model}
	if rp := ir.Data[0].RevisedPrompt; rp != "" {
		data["revised_prompt"] = rp
	}
	return &tool.Result{Summary: fmt.Sprintf("generated %s, %d×%d, with %s", rel, cfg.Width, cfg.Height, ep.Model), Data: data, Files: []tool.File{file}}, nil
}

// requestImage asks the images endpoint for the image described by body;
// the answer holds at least one image in base64.
func (g *imageGen) requestImage(ctx context.Context, c *tool.Call, api webapi.Endpoint, body imagesRequest) (*imagesResponse, error) {
	ep := g.cfg.Generate
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(ep.BaseURL, "/")+"/images/generations", bytes.NewReader(raw))
	if err != nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "fix tools.image_generator.generate.base_url", "endpoint: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if api.Key != "" {
		req.Header.Set("Authorization", "Bearer "+api.Key)
	}
	c.Progress(0, 1, "asking "+req.URL.Host+" for the image")
	resp, err := g.d.HTTPClient(ep.Timeout).Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, api.Unreachable(err)
	}
	defer resp.Body.Close()
	rb, err := api.Read(resp, maxImageResponse)
	if err != nil {
		return nil, err
	}
	var ir imagesResponse
	jsonErr := json.Unmarshal(rb, &ir)
	if resp.StatusCode != http.StatusOK || ir.Error != nil {
		return nil, api.Status(resp.StatusCode, rb)
	}
	if jsonErr != nil || len(ir.Data) == 0 {
		return nil, tool.Errorf(tool.CodeFailed, "check that base_url points at an OpenAI-compatible /v1", "the images endpoint's answer has no image")
	}
	if ir.Data[0].B64JSON == "" {
		return nil, tool.Errorf(tool.CodeFailed, "use an endpoint that honours response_format b64_json", "the images endpoint sent a URL instead of the image; this tool does not download it")
	}
	return &ir, nil
}
