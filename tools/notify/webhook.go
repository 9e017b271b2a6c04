package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"text/template"
	"time"
)

// A generic webhook POSTs body_template rendered with the part: .Text,
// .Title, .Format ("text" or "markdown"), .Part and .Parts (1-based; 1 of 1
// for an unsplit message) and .Target; {{json .Text}} writes a JSON string.
// The result must be JSON. Any 2xx is success. Its limit is max_length
// bytes of request body (default 20,000).
const defaultBodyTemplate = `{"text": {{json .Text}}, "title": {{json .Title}}, "format": {{json .Format}}}`

var webhookPlatform = &platform{
	unit: "bytes", what: "request body",
	size: func(r *resolved, m message) (int, error) {
		req, err := webhookBuild(r, m, time.Time{})
		if err != nil {
			return 0, err
		}
		return len(req.Body), nil
	},
	limit: func(message) int { return 20000 },
	build: webhookBuild,
	check: func(body []byte) (string, error) { return "accepted: " + short(body), nil },
}

func webhookBuild(r *resolved, m message, _ time.Time) (*request, error) {
	format := "text"
	if m.Markdown {
		format = "markdown"
	}
	var b bytes.Buffer
	err := r.tmpl.Execute(&b, map[string]any{"Text": m.Text, "Title": m.Title, "Format": format, "Part": r.part, "Parts": r.parts, "Target": r.name})
	if err != nil {
		return nil, fmt.Errorf("body_template: %w", err)
	}
	if !json.Valid(b.Bytes()) {
		return nil, fmt.Errorf("body_template does not render JSON")
	}
	h := jsonHeader()
	for k, v := range r.headers {
		h[k] = v
	}
	return &request{URL: r.url, Header: h, Body: b.Bytes()}, nil
}

// parseBodyTemplate parses a body template (the default when empty) and
// renders a sample to check it gives JSON.
func parseBodyTemplate(src string) (*template.Template, error) {
	if src == "" {
		src = defaultBodyTemplate
	}
	t, err := template.New("body").Option("missingkey=error").Funcs(template.FuncMap{"json": func(v any) (string, error) {
		b, err := jsonBody(v)
		return string(b), err
	}}).Parse(src)
	if err != nil {
		return nil, fmt.Errorf("body_template: %w", err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, map[string]any{"Text": "a \"quoted\"\nline", "Title": "t", "Format": "text", "Part": 1, "Parts": 1, "Target": "x"}); err != nil {
		return nil, fmt.Errorf("body_template: %w", err)
	}
	if !json.Valid(b.Bytes()) {
		return nil, fmt.Errorf("body_template does not render JSON (write strings as {{json .Text}}): %s", short(b.Bytes()))
	}
	return t, nil
}
