package notify

import (
	"encoding/json"
	"mime"
	"net/http"
	"strings"
	"time"
)

// ntfy: the message is the POST body to <server>/<topic>; Title, Priority,
// Tags and Markdown are headers (a non-ASCII title RFC 2047 encoded, which
// ntfy decodes). A token goes as a bearer token. The answer is the message
// as JSON ({"id":...,"event":"message",...}); errors are JSON with a 4xx
// ({"code":40301,"http":403,"error":"forbidden"}). A message over 4096
// bytes would become an attachment, so parts stay within it.
var ntfyPlatform = &platform{
	unit: "bytes", what: "message",
	size:  func(r *resolved, m message) (int, error) { return len(m.Text), nil },
	limit: func(message) int { return 4096 },
	build: func(r *resolved, m message, _ time.Time) (*request, error) {
		h := http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
		if m.Title != "" {
			h.Set("Title", mime.BEncoding.Encode("UTF-8", m.Title))
		}
		if r.priority != "" {
			h.Set("Priority", r.priority)
		}
		if len(r.tags) > 0 {
			h.Set("Tags", strings.Join(r.tags, ","))
		}
		if m.Markdown {
			h.Set("Markdown", "yes")
		}
		if r.secret != "" {
			h.Set("Authorization", "Bearer "+r.secret)
		}
		return &request{URL: strings.TrimRight(r.url, "/") + "/" + r.topic, Header: h, Body: []byte(m.Text)}, nil
	},
	check: func(body []byte) (string, error) {
		var a struct {
			ID    string `json:"id"`
			Event string `json:"event"`
		}
		if err := json.Unmarshal(body, &a); err != nil || a.ID == "" {
			return "", &platformError{Msg: "unexpected answer: " + short(body)}
		}
		return "id " + a.ID, nil
	},
}
