package webapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/clawbridge/clawbridge/internal/wording"
)

// Endpoint names one configured endpoint in messages and hints.
type Endpoint struct {
	What   string // how messages call it: "the model endpoint"
	Config string // the config keys of its settings, for hints: "tools.ai_writer.endpoint"
	KeyEnv string // the config key naming the key's variable: "tools.ai_writer.endpoint.api_key_env"
	Key    string // the API key sent, never shown
	// Field is the argument the request carries, which a refusal (400)
	// or a missing record (404) is about; "" when the caller cannot tell.
	Field string
}

// Redact keeps the key out of any text the endpoint echoes back.
func (e Endpoint) Redact(s string) string {
	if e.Key == "" {
		return s
	}
	return strings.ReplaceAll(s, e.Key, "[redacted]")
}

// Unreachable is the error of a request that got no answer.
func (e Endpoint) Unreachable(err error) error {
	return toolerr.Errorf(toolerr.CodeUnavailable, "check that the endpoint is up and reachable (a local one must be in network.allow_hosts)",
		"%s did not answer: %s", e.What, e.Redact(redact(err).Error()))
}

// Read reads an answer's body, refusing one over max bytes.
func (e Endpoint) Read(resp *http.Response, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, toolerr.Errorf(toolerr.CodeFailed, "try again", "reading the answer of %s: %s", e.What, e.Redact(redact(err).Error()))
	}
	if int64(len(b)) > max {
		return nil, toolerr.Errorf(toolerr.CodeTooLarge, "ask for less at a time", "the answer of %s is over %s", e.What, size(max))
	}
	return b, nil
}

// Status is the tool error of an answer that is not 2xx, by the one table:
//
//	401, 403  permission_denied  the key is refused
//	404       not_found          no such record
//	429, 503  unavailable        rate limited: wait and try again
//	400, 422  invalid_argument   the request is refused
//	other     failed
//
// The message keeps the endpoint's own explanation (Message), the key
// redacted.
func (e Endpoint) Status(status int, body []byte) error {
	msg := e.Redact(Message(body))
	if msg != "" {
		msg = ": " + msg
	}
	keyHint, config := "check the configured API key", "the request"
	if e.KeyEnv != "" {
		keyHint = "check the key in the variable named by " + e.KeyEnv
	}
	if e.Config != "" {
		config = e.Config + " (base_url, model)"
	}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return toolerr.Errorf(toolerr.CodeDenied, keyHint, "%s refused the key (HTTP %d)%s", e.What, status, msg)
	case http.StatusNotFound:
		hint := "check the identifier"
		if e.Config != "" {
			hint = "check " + config
		}
		return toolerr.NotFoundf(e.Field, hint, "%s has no such record (HTTP 404)%s", e.What, msg)
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return toolerr.Errorf(toolerr.CodeUnavailable, "the service is limiting requests; wait a little and try again", "%s answered HTTP %d (rate limited)%s", e.What, status, msg)
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return toolerr.Invalidf(e.Field, "change the arguments to what it accepts, or check "+config, "%s refused the request (HTTP %d)%s", e.What, status, msg)
	}
	hint := "check " + config
	if status >= 500 {
		hint = "the service is failing; try again later"
	}
	return toolerr.Errorf(toolerr.CodeFailed, hint, "%s answered HTTP %d %s%s", e.What, status, http.StatusText(status), msg)
}

// Message is what an error answer says: its error object's message with its
// type or code (OpenAI), its reason or message (Open-Meteo and others), or
// else the body's text unless it is a page of HTML; cut to 300 characters.
func Message(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"` // an object (OpenAI) or true (Open-Meteo)
		Reason  string          `json:"reason"`
		Message string          `json:"message"`
	}
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	}
	msg := strings.TrimSpace(string(body))
	if err := json.Unmarshal(body, &v); err == nil {
		switch {
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			msg = obj.Message
			if code, ok := obj.Code.(string); ok && code != "" {
				msg += " (" + code + ")"
			} else if obj.Type != "" {
				msg += " (" + obj.Type + ")"
			}
		case v.Reason != "":
			msg = v.Reason
		default:
			msg = v.Message
		}
	} else if strings.HasPrefix(msg, "<") {
		msg = ""
	}
	if r := []rune(msg); len(r) > 300 {
		msg = string(r[:300]) + "…"
	}
	return msg
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return wording.Count(n, "byte", "bytes")
}
