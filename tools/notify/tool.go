// Package notify is the `notify` tool: instant messages through webhooks —
// Slack incoming webhooks, Feishu/Lark custom bots (signed), DingTalk robots
// (signed), WeCom group robots, ntfy topics and generic JSON webhooks (URL,
// headers, body template). Targets are named in the config, their URLs and
// secrets read from environment variables the config names; the model names
// a target, and gives a raw URL only when tools.notify.allow_raw_urls is on.
// Every request passes the outbound guard; a redirect is never followed.
// Whatever an endpoint answers passes the target's redactor (redact.go).
//
// send is `high`: the confirmation shows the target and the text. Text or
// Markdown over the platform's limit is split into numbered parts, or cut
// (overflow), and the result says so. An idempotency key (given, or derived
// from target and message) is claimed in the store before anything is sent
// (internal/sendonce) and the parts delivered are recorded as they go: a
// retry with the same key sends nothing already delivered, and a message
// that stopped part-way resumes at its first unsent part. Each target is
// rate limited (min_interval); HTTP 429 and 5xx are retried with backoff
// honouring Retry-After, nothing else is, and a platform's HTTP 200 with an
// error code is a failure. A cron job passes idempotency_key
// "cron:<job>:<scheduled time>" so each scheduled time sends once.
//
// It does not receive messages, upload files or images, or @-mention users.
package notify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/sendonce"
	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type notifier struct {
	cfg         Config
	targets     map[string]Target
	names       []string
	guard       *netguard.Guard
	client      *http.Client
	once        *sendonce.Store
	log         zerolog.Logger
	now         func() time.Time // signing timestamps; tests move it
	backoffBase time.Duration

	mu       sync.Mutex
	limiters map[string]*webapi.Limiter
}

// New builds the notify tool from the tools.notify section.
func New(d *tool.Deps) (tool.Tool, error) {
	_, t, err := build(d)
	return t, err
}

// build is New that also returns the notifier, for tests.
func build(d *tool.Deps) (n *notifier, t tool.Tool, err error) {
	t, err = tool.Configured[Config]{Name: "notify", Defaults: DefaultConfig, Provision: func(d *tool.Deps, cfg Config) (tool.Tool, error) {
		var t tool.Tool
		n, t, err = provision(d, cfg)
		return t, err
	}}.New(d)
	return n, t, err
}

// provision builds notify from its decoded section.
func provision(d *tool.Deps, cfg Config) (*notifier, tool.Tool, error) {
	n := &notifier{cfg: cfg, targets: map[string]Target{}, guard: d.Guard, client: d.HTTPClient(cfg.Timeout), log: d.Log,
		now: time.Now, backoffBase: 500 * time.Millisecond, limiters: map[string]*webapi.Limiter{}}
	// A redirect is never followed: net/http would send it the body, the
	// custom headers (and, to the same host name, Authorization) and a
	// Referer holding the webhook URL's token; a 301-303 would also turn the
	// POST into a GET whose 200 looks like a delivery.
	n.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for _, t := range cfg.Targets {
		n.targets[t.Name] = t
		n.names = append(n.names, t.Name)
	}
	sort.Strings(n.names)
	if d.Store != nil {
		once, err := sendonce.Open(d.Store)
		if err != nil {
			return nil, tool.Tool{}, err
		}
		n.once = once
	}
	targetDesc := "A target named in the config."
	if len(n.names) > 0 {
		targetDesc = "A configured target: " + strings.Join(n.names, ", ") + "."
	}
	params := []tool.Param{
		{Name: "target", Type: tool.String, Description: targetDesc},
		{Name: "text", Type: tool.String, Required: true, Private: true, Description: "The message."},
		{Name: "title", Type: tool.String, Private: true, Description: "A title (ntfy's title, Feishu's card header, a bold first line elsewhere)."},
		{Name: "format", Type: tool.String, Enum: []string{"text", "markdown"}, Default: "text", Description: "text or markdown."},
		{Name: "overflow", Type: tool.String, Enum: []string{"split", "cut"}, Default: "split", Description: "A text over the platform's limit is split into numbered parts, or cut."},
		{Name: "idempotency_key", Type: tool.String, Description: "Same key, same send: a retry with it never sends twice (default: derived from target and message)."},
	}
	if cfg.AllowRawURLs {
		params = append(params,
			tool.Param{Name: "url", Type: tool.String, Description: "A webhook URL instead of target."},
			tool.Param{Name: "kind", Type: tool.String, Enum: []string{"webhook", "slack", "feishu", "dingtalk", "wecom", "ntfy"}, Default: "webhook", Description: "The platform of url."})
	}
	return n, tool.Tool{
		Name:  "notify",
		Title: "Notify",
		Description: "Send an instant message to a configured channel after the user confirms: Slack, Feishu/Lark, DingTalk, WeCom (企业微信), " +
			"ntfy push or a JSON webhook; text or Markdown, long text split per the platform's limit; a retried send goes out once.",
		Actions: []tool.Action{
			{Name: "send", Description: "Send a message to a target (needs the user's confirmation).", Level: tool.High, Timeout: tool.Normal,
				Params: params, Handler: n.send, Preview: n.preview},
			{Name: "targets", Description: "List the configured targets (names and platforms).", Level: tool.Read, Timeout: tool.Fast, Handler: n.listTargets},
		},
		OpenWorld: true,
		Examples: []string{
			"send a slack notification when the deploy finishes",
			"push an alert to my phone with ntfy",
			"notify the team channel on lark",
			"post a message to the webhook",
			"在钉钉群里发一条消息",
			"给企业微信群推送通知",
			"发飞书消息提醒大家",
			"推送一条告警通知",
		},
	}, nil
}

func (n *notifier) limiter(name string) *webapi.Limiter {
	n.mu.Lock()
	defer n.mu.Unlock()
	l, ok := n.limiters[name]
	if !ok {
		l = webapi.NewLimiter(n.cfg.MinInterval, 0)
		n.limiters[name] = l
	}
	return l
}

func (n *notifier) listTargets(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	list := make([]map[string]any, 0, len(n.names))
	for _, name := range n.names {
		t := n.targets[name]
		list = append(list, map[string]any{"name": t.Name, "kind": t.Kind})
	}
	return &tool.Result{Summary: fmt.Sprintf("%d notify targets.", len(list)), Data: map[string]any{"targets": list, "raw_urls_allowed": n.cfg.AllowRawURLs}}, nil
}

// outgoing is a send call made ready: its target, parts and key.
type outgoing struct {
	r    *resolved
	msg  message
	lay  *layout
	key  string // the caller's or derived key
	hash string // sha256 of the message as given
	// partsHash is sha256 of the parts as they go out, kept with the
	// record: a resume continues only the very parts it stopped in.
	partsHash string
}

func sha(fields ...string) string {
	h := sha256.Sum256([]byte(strings.Join(fields, "\x00")))
	return hex.EncodeToString(h[:])
}

func (n *notifier) prepare(c *tool.Call) (*outgoing, error) {
	r, err := n.resolve(c)
	if err != nil {
		return nil, err
	}
	text := c.Args.String("text")
	if strings.TrimSpace(text) == "" {
		return nil, tool.Invalid("text", "text is empty", "give the message to send")
	}
	title := strings.TrimSpace(c.Args.String("title"))
	if strings.ContainsAny(title, "\r\n") {
		return nil, tool.Invalid("title", "title must be one line", "put the rest in text")
	}
	format, overflow := c.Args.StringOr("format", "text"), c.Args.StringOr("overflow", "split")
	m := message{Title: title, Text: text, Markdown: format == "markdown"}
	limitOf := func(p message) int {
		if r.maxLen > 0 {
			return r.maxLen
		}
		return r.p.limit(p)
	}
	fits := func(s string) (bool, error) {
		p := m
		p.Text = s
		size, err := r.p.size(r, p)
		return size <= limitOf(p), err
	}
	lay, err := plan(text, fits, overflow == "cut", n.cfg.MaxParts)
	switch {
	case errors.Is(err, errTooManyParts):
		return nil, tool.Errorf(tool.CodeTooLarge, "shorten the text, send overflow=cut, or save it to a file and send a link",
			"the text needs more than %d messages on %s (limit %d %s of %s each; tools.notify.max_parts)", n.cfg.MaxParts, r.kind, limitOf(m), r.p.unit, r.p.what)
	case err != nil:
		return nil, tool.Invalidf("title", "shorten the title, or fix the target's body_template or max_length", "cannot fit the message on %s: %s", r.name, r.hide.scrub(err.Error()))
	}
	o := &outgoing{r: r, msg: m, lay: lay, hash: sha(format, title, text), partsHash: sha(append([]string{format, title}, lay.Parts...)...)}
	// The message, not how it is laid out: a retry that changes only
	// overflow (or meets another max_length) is the same message and is
	// not sent again.
	o.key = sendonce.Derive("notify", r.name, format, title, text)
	if k := strings.TrimSpace(c.Args.String("idempotency_key")); k != "" {
		o.key = k
	}
	return o, nil
}

// layoutNote says how a long text went out.
func (o *outgoing) layoutNote() string {
	switch {
	case o.lay.Cut:
		return fmt.Sprintf("cut to %d of %d characters (the %s limit is %d %s of %s)", o.lay.Sent, o.lay.Total, o.r.kind, o.limit(), o.r.p.unit, o.r.p.what)
	case len(o.lay.Parts) > 1:
		return fmt.Sprintf("split into %d messages (the %s limit is %d %s of %s)", len(o.lay.Parts), o.r.kind, o.limit(), o.r.p.unit, o.r.p.what)
	}
	return ""
}

func (o *outgoing) limit() int {
	if o.r.maxLen > 0 {
		return o.r.maxLen
	}
	return o.r.p.limit(o.msg)
}

// preview is what the user confirms: the target, how the text goes out,
// then the title and text.
func (n *notifier) preview(ctx context.Context, c *tool.Call) (string, error) {
	o, err := n.prepare(c)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "to %s (%s)", o.r.name, o.r.display)
	if o.msg.Markdown {
		b.WriteString(", Markdown")
	}
	if note := o.layoutNote(); note != "" {
		b.WriteString("; " + note)
	}
	b.WriteString("\n\n")
	if o.msg.Title != "" {
		b.WriteString(o.msg.Title + "\n\n")
	}
	b.WriteString(o.msg.Text)
	return b.String(), nil
}

func (n *notifier) send(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	o, err := n.prepare(c)
	if err != nil {
		return nil, err
	}
	if n.once == nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "", "no store: sends cannot be made idempotent")
	}
	total := len(o.lay.Parts)
	key := sendonce.Key("notify", o.r.name+":"+o.key)
	rec, fresh, err := n.once.Claim(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("idempotency record: %w", err)
	}
	data := map[string]any{"target": o.r.name, "kind": o.r.kind, "idempotency_key": o.key, "message_sha256": o.hash, "parts": total}
	if note := o.layoutNote(); note != "" {
		data["note"], data["cut"] = note, o.lay.Cut
	}
	if !fresh {
		return n.duplicate(o, rec, data)
	}
	start := 0
	if rec.State == sendonce.Partial || rec.Parts > 0 {
		if hashOf(rec.Answer) != o.partsHash || rec.Parts >= total {
			// The key was used for another message, or this one split
			// otherwise: resuming would send other parts from the middle.
			// Put the record back as it was.
			if err := n.once.Finish(ctx, key, sendonce.Partial, rec.Answer, rec.Parts); err != nil {
				return nil, fmt.Errorf("idempotency record: %w", err)
			}
			return nil, tool.Invalid("idempotency_key",
				"this idempotency key belongs to another message, or to this one split differently (overflow or max_length), of which some parts were delivered",
				"resend that message as it was sent to finish it, or use a new idempotency_key")
		}
		start = rec.Parts
	}
	answers, err := n.deliverParts(ctx, o, key, start)
	if err != nil {
		return nil, err
	}
	n.audit(o, total, string(sendonce.Sent))
	data["status"], data["answers"] = "sent", answers
	if start > 0 {
		data["resumed_from_part"] = start + 1
	}
	sum := fmt.Sprintf("Sent to %s.", o.r.name)
	if total > 1 {
		sum = fmt.Sprintf("Sent to %s in %d messages.", o.r.name, total)
		if start > 0 {
			sum = fmt.Sprintf("Sent parts %d-%d of %d to %s (1-%d had been delivered before).", start+1, total, total, o.r.name, start)
		}
	}
	if o.lay.Cut {
		sum += " The text was cut: " + o.layoutNote() + "."
	}
	return &tool.Result{Summary: sum, Data: data}, nil
}

// duplicate answers a send whose idempotency key was used before: sent
// already, or possibly sent (never resent).
func (n *notifier) duplicate(o *outgoing, rec sendonce.Record, data map[string]any) (*tool.Result, error) {
	n.audit(o, rec.Parts, "duplicate:"+string(rec.State))
	switch rec.State {
	case sendonce.Sent:
		data["status"], data["already_sent_at"] = "already_sent", rec.Updated.UTC().Format(time.RFC3339)
		return &tool.Result{Summary: "Already sent with this idempotency key; not sent again.", Data: data}, nil
	case sendonce.Sending:
		return nil, tool.Errorf(tool.CodeFailed, "do not send again: check the channel; to send it anyway, use a new idempotency_key",
			"a send with this idempotency key started at %s and never finished (%d of its parts were delivered): it may have been sent",
			rec.Created.UTC().Format(time.RFC3339), rec.Parts)
	default:
		return nil, tool.Errorf(tool.CodeFailed, "do not send again: check the channel; to send it anyway, use a new idempotency_key",
			"the last send with this idempotency key may have been delivered (%d parts confirmed; recorded %s: %s)",
			rec.Parts, rec.Updated.UTC().Format(time.RFC3339), answerOf(rec.Answer))
	}
}

// deliverParts sends the parts from start on, recording each delivery
// under key, and returns the channel's answers; a failed part stops the
// send (a partial one can be resumed with the same key).
func (n *notifier) deliverParts(ctx context.Context, o *outgoing, key string, start int) ([]string, error) {
	total := len(o.lay.Parts)
	sent, answers := start, []string{}
	for i := start; i < total; i++ {
		o.r.part, o.r.parts = i+1, total
		m := o.msg
		m.Text = o.lay.Parts[i]
		res := n.deliver(ctx, o.r, m)
		if res.State == sendonce.Sent {
			sent++
			answers = append(answers, res.Answer)
			state := sendonce.Sending // still in flight: a concurrent retry must not start
			if sent == total {
				state = sendonce.Sent
			}
			if err := n.once.Finish(ctx, key, state, record(o.partsHash, res.Answer), sent); err != nil {
				return nil, fmt.Errorf("idempotency record: %w", err)
			}
			continue
		}
		state := res.State
		if state == sendonce.Failed && sent > 0 {
			state = sendonce.Partial
		}
		if err := n.once.Finish(ctx, key, state, record(o.partsHash, res.Err.Message), sent); err != nil {
			return nil, fmt.Errorf("idempotency record: %w", err)
		}
		n.audit(o, sent, string(state))
		e := *res.Err
		if total > 1 {
			e.Message = fmt.Sprintf("part %d of %d: %s", i+1, total, e.Message)
			if state == sendonce.Partial {
				e.Message += fmt.Sprintf("; parts 1-%d were delivered", sent)
				e.Hint = fmt.Sprintf("call again with the same arguments (idempotency_key %q) later to send the rest from part %d", o.key, sent+1)
			}
		}
		return nil, &e
	}
	return answers, nil
}

// record is the answer column: the parts' hash, so a resume can check it
// continues the same parts, then the platform's last answer.
func record(hash, answer string) string { return "sha256:" + hash + " " + answer }

func hashOf(rec string) string {
	h, _, _ := strings.Cut(strings.TrimPrefix(rec, "sha256:"), " ")
	return h
}

func answerOf(rec string) string {
	_, a, _ := strings.Cut(rec, " ")
	return a
}

// audit is the send's own log line: target, message hash, parts and
// outcome; never the text, the URL or a secret.
func (n *notifier) audit(o *outgoing, delivered int, outcome string) {
	n.log.Info().Str("kind", "send").Str("tool", "notify").Str("target", o.r.name).Str("platform", o.r.kind).Int("recipients", 1).
		Str("message_sha256", o.hash).Int("parts", len(o.lay.Parts)).Int("parts_delivered", delivered).Str("outcome", outcome).Msg("notify send")
}
