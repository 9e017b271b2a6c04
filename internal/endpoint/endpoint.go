// Package endpoint is what the tools that call an OpenAI-style HTTP endpoint
// (ai_writer's chat, image_generator, speech's transcription) share: the API
// key kept out of every message, a cap on what is read of an answer, and one
// table from the endpoint's HTTP status to a tool error.
package endpoint

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Endpoint names one endpoint in messages and hints.
type Endpoint struct {
	What   string // how messages call it: "the model endpoint"
	Config string // the config keys of its settings, for hints: "tools.ai_writer.endpoint"
	KeyEnv string // the config key naming the key's variable: "tools.ai_writer.endpoint.api_key_env"
	Key    string // the API key sent, never shown
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
	return tool.Errorf(tool.CodeUnavailable, "check that the endpoint is up and reachable (a local one must be in network.allow_hosts)",
		"%s did not answer: %s", e.What, e.Redact(err.Error()))
}

// Read reads an answer's body, refusing one over max bytes.
func (e Endpoint) Read(resp *http.Response, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "try again", "reading the answer of %s: %s", e.What, e.Redact(err.Error()))
	}
	if int64(len(b)) > max {
		return nil, tool.Errorf(tool.CodeTooLarge, "ask for less at a time", "the answer of %s is over %s", e.What, size(max))
	}
	return b, nil
}

// Status is the tool error of an answer that is not 2xx, with its body: the
// endpoint's own message (OpenAI's {"error": {"message", "type"|"code"}})
// or else the body, cut to 300 characters, the key redacted.
func (e Endpoint) Status(status int, body []byte) error {
	msg := e.Redact(Message(body))
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return tool.Errorf(tool.CodeDenied, "check the key in the variable named by "+e.KeyEnv,
			"%s refused the key (HTTP %d): %s", e.What, status, msg)
	case http.StatusTooManyRequests:
		return tool.Errorf(tool.CodeFailed, "wait a moment and try again", "%s is rate limiting (HTTP 429): %s", e.What, msg)
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return tool.Errorf(tool.CodeInvalid, "change the request to what the model accepts (check "+e.Config+".model)",
			"%s refused the request (HTTP %d): %s", e.What, status, msg)
	}
	return tool.Errorf(tool.CodeFailed, "check "+e.Config+" (base_url, model)", "%s failed (HTTP %d): %s", e.What, status, msg)
}

// Message is what an error answer says: its error object's message with its
// type or code, or else the body's text, cut to 300 characters.
func Message(body []byte) string {
	var v struct {
		Error *struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &v) == nil && v.Error != nil {
		msg = v.Error.Message
		if code, ok := v.Error.Code.(string); ok && code != "" {
			msg += " (" + code + ")"
		} else if v.Error.Type != "" {
			msg += " (" + v.Error.Type + ")"
		}
	}
	if r := []rune(msg); len(r) > 300 {
		msg = string(r[:300]) + "…"
	}
	return msg
}

func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return wording.Count(n, "byte", "bytes")
}
