package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"time"
)

// Feishu and Lark custom bots take a JSON body with timestamp (seconds) and
// sign = base64(HMAC-SHA256(key = timestamp+"\n"+secret, message = empty)),
// checked within an hour of the server's clock. Text goes as msg_type text,
// Markdown as an interactive card with a markdown element (title in the
// header). The answer is HTTP 200 with code 0, or code != 0 (19021: sign or
// timestamp refused). The request body may not exceed 20 KB.
var feishuPlatform = &platform{
	urlIsSecret: true,
	unit:        "bytes", what: "request body",
	size: func(r *resolved, m message) (int, error) {
		// A ten-digit timestamp and a signature take as much room as any real one.
		req, err := feishuBuild(r, m, time.Unix(9999999999, 0))
		if err != nil {
			return 0, err
		}
		return len(req.Body), nil
	},
	limit: func(message) int { return 20 << 10 },
	build: feishuBuild,
	check: feishuCheck,
}

func feishuBuild(r *resolved, m message, now time.Time) (*request, error) {
	body := map[string]any{}
	if m.Markdown {
		card := map[string]any{"elements": []any{map[string]any{"tag": "markdown", "content": m.Text}}}
		if m.Title != "" {
			card["header"] = map[string]any{"title": map[string]any{"tag": "plain_text", "content": m.Title}}
		}
		body["msg_type"], body["card"] = "interactive", card
	} else {
		body["msg_type"], body["content"] = "text", map[string]any{"text": titled(m)}
	}
	if r.secret != "" {
		ts := strconv.FormatInt(now.Unix(), 10)
		body["timestamp"], body["sign"] = ts, feishuSign(ts, r.secret)
	}
	b, err := jsonBody(body)
	return &request{URL: r.url, Header: jsonHeader(), Body: b}, err
}

func feishuCheck(body []byte) (string, error) {
	var a struct {
		Code       *int   `json:"code"`
		Msg        string `json:"msg"`
		StatusCode *int   `json:"StatusCode"`
	}
	if err := json.Unmarshal(body, &a); err != nil || (a.Code == nil && a.StatusCode == nil) {
		return "", &platformError{Msg: "unexpected answer: " + short(body)}
	}
	if a.Code != nil && *a.Code != 0 {
		return "", &platformError{Code: *a.Code, Msg: a.Msg}
	}
	if a.StatusCode != nil && *a.StatusCode != 0 {
		return "", &platformError{Code: *a.StatusCode, Msg: a.Msg}
	}
	return "code 0 (" + short([]byte(a.Msg)) + ")", nil
}

// feishuSign is Feishu's signature: the HMAC key is timestamp+"\n"+secret
// and the message is empty.
func feishuSign(ts, secret string) string {
	h := hmac.New(sha256.New, []byte(ts+"\n"+secret))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}
