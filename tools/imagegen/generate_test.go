package imagegen

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// imagesServer is a fixture OpenAI images API: it records each request and
// answers with reply(request body).
func imagesServer(t *testing.T, reply func(w http.ResponseWriter, body map[string]any)) (*httptest.Server, *[]*http.Request) {
	t.Helper()
	var mu sync.Mutex
	var reqs []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(raw, &body)
		mu.Lock()
		reqs = append(reqs, r)
		mu.Unlock()
		if r.Method != http.MethodPost || r.URL.Path != "/v1/images/generations" || r.Header.Get("Content-Type") != "application/json" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"message":"wrong route","type":"invalid_request_error"}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		reply(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &reqs
}

func genTool(t *testing.T, section string, hosts ...string) tool.Tool {
	t.Helper()
	d := tooltest.Deps(t, hosts...)
	if section != "" {
		tooltest.ConfigSection(t, d, "image_generator", section)
	}
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestGenerate_OpenAIEndpoint: generate posts OpenAI's JSON with the key
// from the named variable, decodes the b64_json image and writes it; the
// model, size and revised prompt are reported.
func TestGenerate_OpenAIEndpoint(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 64, 48))
	for i := range src.Pix {
		src.Pix[i] = 200
	}
	src.SetNRGBA(10, 10, color.NRGBA{255, 0, 0, 255})
	var pngBuf bytes.Buffer
	png.Encode(&pngBuf, src)
	var got map[string]any
	srv, reqs := imagesServer(t, func(w http.ResponseWriter, body map[string]any) {
		got = body
		fmt.Fprintf(w, `{"created":1713833628,"data":[{"b64_json":%q,"revised_prompt":"A watercolour of a red fox in snow."}],"usage":{"total_tokens":100}}`, base64.StdEncoding.EncodeToString(pngBuf.Bytes()))
	})
	t.Setenv("TEST_IMAGES_KEY", "sk-test-123")
	tl := genTool(t, "generate: {base_url: \""+srv.URL+"/v1\", model: dall-e-3, api_key_env: TEST_IMAGES_KEY}", "127.0.0.1")
	if !tl.OpenWorld {
		t.Error("a configured endpoint should mark the tool open-world")
	}
	res := tooltest.OK(t, tl, map[string]any{"action": "generate", "prompt": "a red fox in snow, watercolour", "width": 1024, "height": 1792, "model_quality": "hd"})
	if r := (*reqs)[0]; r.Header.Get("Authorization") != "Bearer sk-test-123" {
		t.Errorf("Authorization %q", r.Header.Get("Authorization"))
	}
	want := map[string]any{"model": "dall-e-3", "prompt": "a red fox in snow, watercolour", "n": float64(1), "size": "1024x1792", "quality": "hd", "response_format": "b64_json"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("request %s = %v, want %v", k, got[k], v)
		}
	}
	img, format, _ := tooltest.ReadImage(t, res.Files[0].Path)
	if format != "png" || img.Bounds().Dx() != 64 || img.Bounds().Dy() != 48 || rgb8(img, 10, 10) != [3]int{255, 0, 0} {
		t.Errorf("written image %s %v, pixel %v", format, img.Bounds(), rgb8(img, 10, 10))
	}
	data := res.Data.(map[string]any)
	if data["revised_prompt"] != "A watercolour of a red fox in snow." || data["model"] != "dall-e-3" || data["width"] != 64 {
		t.Errorf("data %v", data)
	}
	if strings.Contains(fmt.Sprint(res.Data, res.Summary), "sk-test-123") {
		t.Error("the key reached the result")
	}

	// gpt-image models refuse response_format (they always send base64).
	tl = genTool(t, "generate: {base_url: \""+srv.URL+"/v1\", model: gpt-image-1}", "127.0.0.1")
	if _, err := tooltest.Run(t, tl, map[string]any{"action": "generate", "prompt": "a fox"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["response_format"]; ok || got["size"] != "1024x1024" {
		t.Errorf("gpt-image-1 request %v: want no response_format and the default size", got)
	}
}

// TestGenerate_EndpointErrors: OpenAI's error bodies become tool errors
// with the endpoint's message (a content-policy refusal is invalid input,
// a bad key is denied and never echoed), a URL-only answer and a body that
// is not an image are failures, and nothing is written.
func TestGenerate_EndpointErrors(t *testing.T) {
	t.Setenv("TEST_IMAGES_KEY", "sk-secret-987")
	for _, tc := range []struct {
		name, code, msg string
		status          int
		body            string
	}{
		{"content policy", tool.CodeInvalid, "safety system. (content_policy_violation)", 400,
			`{"error":{"code":"content_policy_violation","message":"Your request was rejected as a result of our safety system.","param":null,"type":"invalid_request_error"}}`},
		{"bad key", tool.CodeDenied, "Incorrect API key provided: [redacted]", 401,
			`{"error":{"message":"Incorrect API key provided: sk-secret-987. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`},
		{"rate limit", tool.CodeUnavailable, "rate limited", 429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`},
		{"server", tool.CodeFailed, "HTTP 500", 500, `upstream crashed`},
		{"url only", tool.CodeFailed, "URL instead of the image", 200, `{"created":1,"data":[{"url":"https://example.org/img.png"}]}`},
		{"not an image", tool.CodeFailed, "cannot be read", 200, `{"created":1,"data":[{"b64_json":"` + base64.StdEncoding.EncodeToString([]byte("hello")) + `"}]}`},
		{"empty", tool.CodeFailed, "has no image", 200, `{"created":1,"data":[]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := imagesServer(t, func(w http.ResponseWriter, _ map[string]any) {
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			d := tooltest.Deps(t, "127.0.0.1")
			tooltest.ConfigSection(t, d, "image_generator", "generate: {base_url: \""+srv.URL+"/v1\", model: dall-e-3, api_key_env: TEST_IMAGES_KEY}")
			tl, err := New(d)
			if err != nil {
				t.Fatal(err)
			}
			_, err = tooltest.Run(t, tl, map[string]any{"action": "generate", "prompt": "a fox"})
			te := tooltest.ToolError(t, err, tc.code)
			if !strings.Contains(te.Message, tc.msg) {
				t.Errorf("message %q, want %q in it", te.Message, tc.msg)
			}
			if strings.Contains(te.Message+te.Hint, "sk-secret-987") {
				t.Error("the key reached the error")
			}
			if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
				t.Errorf("a failed call left files: %v", ents)
			}
		})
	}
}

// TestGenerate_Unconfigured: without an endpoint generate is unavailable
// and says what to set; an empty key variable and an endpoint the outbound
// guard refuses are unavailable too, before or without any upload.
func TestGenerate_Unconfigured(t *testing.T) {
	tl := genTool(t, "")
	if tl.OpenWorld {
		t.Error("no endpoint: the tool should not be open-world")
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "generate", "prompt": "a fox"})
	if te := tooltest.ToolError(t, err, tool.CodeUnavailable); !strings.Contains(te.Hint, "tools.image_generator.generate") {
		t.Errorf("hint %q does not say what to configure", te.Hint)
	}

	srv, reqs := imagesServer(t, func(w http.ResponseWriter, _ map[string]any) { io.WriteString(w, `{}`) })
	t.Setenv("TEST_EMPTY_KEY", "")
	tl = genTool(t, "generate: {base_url: \""+srv.URL+"/v1\", model: m, api_key_env: TEST_EMPTY_KEY}", "127.0.0.1")
	_, err = tooltest.Run(t, tl, map[string]any{"action": "generate", "prompt": "a fox"})
	if te := tooltest.ToolError(t, err, tool.CodeUnavailable); !strings.Contains(te.Hint, "TEST_EMPTY_KEY") {
		t.Errorf("hint %q does not name the variable", te.Hint)
	}
	// Loopback is not in network.allow_hosts here: the guard refuses it.
	tl = genTool(t, "generate: {base_url: \""+srv.URL+"/v1\", model: m}")
	_, err = tooltest.Run(t, tl, map[string]any{"action": "generate", "prompt": "a fox"})
	tooltest.ToolError(t, err, tool.CodeUnavailable)
	if len(*reqs) != 0 {
		t.Errorf("%d requests reached the endpoint", len(*reqs))
	}
	_, err = tooltest.Run(t, genTool(t, "generate: {base_url: \""+srv.URL+"/v1\", model: m}", "127.0.0.1"), map[string]any{"action": "generate", "prompt": "x", "width": 10})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}
