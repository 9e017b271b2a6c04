package notify

import "time"

// WeCom (企业微信) group robots: the key is in the URL. Text is msgtype
// text, at most 2048 bytes of UTF-8; Markdown msgtype markdown, at most 4096
// bytes. The answer is {"errcode":0,"errmsg":"ok"}; 93000 is an invalid
// webhook URL, 45009 over the rate limit, 40058 content too long.
var wecomPlatform = &platform{
	urlIsSecret: true,
	unit:        "bytes", what: "content",
	size: func(r *resolved, m message) (int, error) { return len(titled(m)), nil },
	limit: func(m message) int {
		if m.Markdown {
			return 4096
		}
		return 2048
	},
	build: func(r *resolved, m message, _ time.Time) (*request, error) {
		kind := "text"
		if m.Markdown {
			kind = "markdown"
		}
		b, err := jsonBody(map[string]any{"msgtype": kind, kind: map[string]any{"content": titled(m)}})
		return &request{URL: r.url, Header: jsonHeader(), Body: b}, err
	},
	check: errcodeAnswer,
}
