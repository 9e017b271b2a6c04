package webapi

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// TestStatus_OneTableKeyNeverShown: each status class answers one code (the
// one table, for Get and Endpoint alike), the service's own message is
// kept, a page of HTML is not, and the key it echoes is not.
func TestStatus_OneTableKeyNeverShown(t *testing.T) {
	e := Endpoint{What: "the x endpoint", Config: "tools.x", KeyEnv: "tools.x.api_key_env", Key: "sk-secret-123"}
	for _, tc := range []struct {
		status     int
		body, code string
		want       string
	}{
		{401, `{"error":{"message":"Incorrect API key provided: sk-secret-123","type":"invalid_request_error"}}`, toolerr.CodeDenied, "refused the key (HTTP 401): Incorrect API key provided: [redacted] (invalid_request_error)"},
		{403, `forbidden for sk-secret-123`, toolerr.CodeDenied, "forbidden for [redacted]"},
		{429, `{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`, toolerr.CodeUnavailable, "answered HTTP 429 (rate limited): slow down (rate_limit_exceeded)"},
		{503, `<html>busy</html>`, toolerr.CodeUnavailable, "answered HTTP 503 (rate limited)"},
		{404, `{"reason":"no such place"}`, toolerr.CodeNotFound, "has no such record (HTTP 404): no such place"},
		{400, `{"error":{"message":"bad size"}}`, toolerr.CodeInvalid, "refused the request (HTTP 400): bad size"},
		{500, strings.Repeat("x", 400), toolerr.CodeFailed, "answered HTTP 500 Internal Server Error: " + strings.Repeat("x", 300) + "…"},
	} {
		err := e.Status(tc.status, []byte(tc.body))
		te, ok := toolerr.As(err)
		if !ok || te.Code != tc.code || !strings.Contains(te.Message, tc.want) {
			t.Errorf("%d: want %s %q, got %v", tc.status, tc.code, tc.want, err)
		}
		if ok && strings.Contains(te.Message+te.Hint, e.Key) {
			t.Errorf("%d: the key is shown: %v", tc.status, te)
		}
	}
	te, _ := toolerr.As(e.Unreachable(errors.New("dial https://h/?key=sk-secret-123: refused")))
	if te == nil || te.Code != toolerr.CodeUnavailable || strings.Contains(te.Message, e.Key) {
		t.Errorf("unreachable: %v", te)
	}
}

// TestRead_Cap: an answer over the cap is refused, not cut.
func TestRead_Cap(t *testing.T) {
	e := Endpoint{What: "the x endpoint"}
	resp := &http.Response{Body: io.NopCloser(strings.NewReader("0123456789"))}
	if _, err := e.Read(resp, 9); !strings.Contains(err.Error(), "over 9 bytes") {
		t.Fatalf("over the cap: %v", err)
	}
	resp = &http.Response{Body: io.NopCloser(strings.NewReader("0123456789"))}
	if b, err := e.Read(resp, 10); err != nil || string(b) != "0123456789" {
		t.Fatalf("at the cap: %q %v", b, err)
	}
}
