package notify

import (
	"regexp"
	"strings"
	"time"
)

// Slack incoming webhooks take {"text": ...} in Slack's mrkdwn and answer a
// plain "ok"; errors are plain words with a 4xx (400 invalid_payload, 403
// action_prohibited, 404 no_service, 410 channel_is_archived). Slack cuts a
// message's text at 40,000 characters.
var slackPlatform = &platform{
	urlIsSecret: true,
	unit:        "characters", what: "text",
	size:  func(r *resolved, m message) (int, error) { return runes(slackText(m)), nil },
	limit: func(message) int { return 40000 },
	build: func(r *resolved, m message, _ time.Time) (*request, error) {
		b, err := jsonBody(map[string]any{"text": slackText(m)})
		return &request{URL: r.url, Header: jsonHeader(), Body: b}, err
	},
	check: func(body []byte) (string, error) {
		if s := strings.TrimSpace(string(body)); s != "ok" {
			return "", &platformError{Msg: short(body)}
		}
		return "ok", nil
	},
}

var (
	mdBold    = regexp.MustCompile(`\*\*([^*\n]+)\*\*`)
	mdLink    = regexp.MustCompile(`\[([^\]\n]+)\]\((https?://[^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+)$`)
	mdStrike  = regexp.MustCompile(`~~([^~\n]+)~~`)
)

// slackText is the message in mrkdwn: Markdown's **bold**, # headings,
// ~~strike~~ and [links](url) become *bold*, ~strike~ and <url|links>;
// plain text has &, < and > escaped as Slack asks.
func slackText(m message) string {
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	if !m.Markdown {
		t := esc.Replace(m.Text)
		if m.Title != "" {
			t = "*" + esc.Replace(m.Title) + "*\n" + t
		}
		return t
	}
	t := mdLink.ReplaceAllString(m.Text, "<$2|$1>")
	t = mdBold.ReplaceAllString(t, "*$1*")
	t = mdHeading.ReplaceAllString(t, "*$1*")
	t = mdStrike.ReplaceAllString(t, "~$1~")
	if m.Title != "" {
		t = "*" + m.Title + "*\n" + t
	}
	return t
}
