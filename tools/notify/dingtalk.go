package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DingTalk robots sign in the URL query: timestamp (milliseconds) and
// sign = urlencode(base64(HMAC-SHA256(key = secret, message =
// timestamp+"\n"+secret))), checked within an hour. Text is msgtype text,
// Markdown msgtype markdown (its title is what the notification shows).
// The answer is {"errcode":0,"errmsg":"ok"}; 310000 is a refused signature,
// timestamp or keyword, 130101 sending too fast. Content is limited to
// 20,000 characters.
var dingtalkPlatform = &platform{
	urlIsSecret: true,
	unit:        "characters", what: "text",
	size: func(r *resolved, m message) (int, error) {
		if m.Markdown {
			return runes(m.Text), nil
		}
		return runes(titled(m)), nil
	},
	limit: func(message) int { return 20000 },
	build: func(r *resolved, m message, now time.Time) (*request, error) {
		var body map[string]any
		if m.Markdown {
			title := m.Title
			if title == "" {
				title = firstLine(m.Text, 30)
			}
			body = map[string]any{"msgtype": "markdown", "markdown": map[string]any{"title": title, "text": m.Text}}
		} else {
			body = map[string]any{"msgtype": "text", "text": map[string]any{"content": titled(m)}}
		}
		u := r.url
		if r.secret != "" {
			ts := strconv.FormatInt(now.UnixMilli(), 10)
			sep := "?"
			if strings.Contains(u, "?") {
				sep = "&"
			}
			u += sep + "timestamp=" + ts + "&sign=" + url.QueryEscape(dingtalkSign(ts, r.secret))
		}
		b, err := jsonBody(body)
		return &request{URL: u, Header: jsonHeader(), Body: b}, err
	},
	check: errcodeAnswer,
}

func dingtalkSign(ts, secret string) string {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts + "\n" + secret))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// firstLine is the text's first non-empty line without Markdown marks, at
// most n characters.
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(l, "#>*- "))
		if l != "" {
			if r := []rune(l); len(r) > n {
				return string(r[:n])
			}
			return l
		}
	}
	return "notification"
}
