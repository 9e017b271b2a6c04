package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// message is one part as it is sent.
type message struct {
	Title    string
	Text     string
	Markdown bool
}

// request is what one part becomes on the wire.
type request struct {
	URL    string
	Header http.Header
	Body   []byte
}

// platform is what differs between the services: how a part is encoded and
// signed, what the service's limit measures, and how it says success.
type platform struct {
	// urlIsSecret: the webhook URL is the credential (Slack, Feishu,
	// DingTalk and WeCom put the token in it), so config holds only url_env.
	urlIsSecret bool
	// unit and size: the limit's unit ("characters" or "bytes") and the
	// size of a part in it, measured on what the platform limits (the text,
	// or the whole request body).
	unit  string
	what  string
	size  func(r *resolved, m message) (int, error)
	limit func(m message) int
	build func(r *resolved, m message, now time.Time) (*request, error)
	// check reads a 2xx answer: the platform's own error codes make it a
	// failure.
	check func(body []byte) (answer string, err error)
}

var platforms = map[string]*platform{
	"slack":    slackPlatform,
	"feishu":   feishuPlatform,
	"dingtalk": dingtalkPlatform,
	"wecom":    wecomPlatform,
	"ntfy":     ntfyPlatform,
	"webhook":  webhookPlatform,
}

func kindList() string {
	return strings.Join(slices.Sorted(maps.Keys(platforms)), ", ")
}

// platformError is a service's refusal in its own words.
type platformError struct {
	Code int
	Msg  string
}

func (e *platformError) Error() string {
	if e.Code != 0 {
		return fmt.Sprintf("code %d: %s", e.Code, short([]byte(e.Msg)))
	}
	return short([]byte(e.Msg))
}

// jsonBody encodes v without HTML escaping (so sizes are what the service
// counts: 你 is three bytes, not \u4f60).
func jsonBody(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json; charset=utf-8"}}
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// titled is the text with the title as its first line, for platforms that
// have no title field.
func titled(m message) string {
	if m.Title == "" {
		return m.Text
	}
	if m.Markdown {
		return "**" + m.Title + "**\n\n" + m.Text
	}
	return m.Title + "\n\n" + m.Text
}

// errcodeAnswer reads DingTalk's and WeCom's {"errcode":0,"errmsg":"ok"}.
func errcodeAnswer(body []byte) (string, error) {
	var a struct {
		Errcode *int   `json:"errcode"`
		Errmsg  string `json:"errmsg"`
	}
	if err := json.Unmarshal(body, &a); err != nil || a.Errcode == nil {
		return "", &platformError{Msg: "unexpected answer: " + short(body)}
	}
	if *a.Errcode != 0 {
		return "", &platformError{Code: *a.Errcode, Msg: a.Errmsg}
	}
	return fmt.Sprintf("errcode 0 (%s)", short([]byte(a.Errmsg))), nil
}

// short is a body cut for an error message.
func short(b []byte) string {
	s := strings.TrimSpace(string(b))
	if runes(s) > 200 {
		s = string([]rune(s)[:200]) + "…"
	}
	return s
}
