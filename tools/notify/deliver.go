package notify

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"time"

	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/sendonce"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// outcome is how one part's delivery ended.
type outcome struct {
	State    sendonce.State // Sent, Failed (not delivered) or Uncertain
	Answer   string         // the platform's answer
	Err      *tool.Error
	Attempts int
}

// deliver sends one part. Whatever the endpoint answered passes the
// target's redactor before it goes anywhere: the answer of a success as
// much as an error.
func (n *notifier) deliver(ctx context.Context, r *resolved, m message) outcome {
	o := n.attempt(ctx, r, m)
	o.Answer = r.hide.scrub(o.Answer)
	if o.Err != nil {
		e := *o.Err
		e.Message, e.Hint = r.hide.scrub(e.Message), r.hide.scrub(e.Hint)
		o.Err = &e
	}
	return o
}

// attempt sends one part: the target's rate limit before every attempt,
// retries with backoff after HTTP 429 and 5xx (Retry-After honoured, in
// seconds or as an HTTP date, capped at retry_wait_max), none after another
// 4xx, a redirect or a platform's error code. A request that was written
// but got no answer may have been delivered: it is Uncertain and never
// retried.
func (n *notifier) attempt(ctx context.Context, r *resolved, m message) outcome {
	var last outcome
	for attempt := 0; attempt <= n.cfg.Retries; attempt++ {
		if err := n.limiter(r.name).Wait(ctx, r.name, "notify target "+r.name); err != nil {
			te, _ := tool.AsError(err)
			return outcome{State: sendonce.Failed, Err: te, Attempts: attempt}
		}
		req, err := r.p.build(r, m, n.now())
		if err != nil {
			return outcome{State: sendonce.Failed, Err: tool.Errorf(tool.CodeUnavailable, "fix the target's body_template", "%s", err.Error()), Attempts: attempt}
		}
		status, body, header, wrote, err := n.post(ctx, req)
		last = outcome{Attempts: attempt + 1}
		switch {
		case err != nil && errors.Is(err, netguard.ErrBlocked):
			last.State, last.Err = sendonce.Failed, tool.Errorf(tool.CodeDenied, "list the host in network.allow_hosts if this private address is intended; nothing was sent",
				"notify target %s: %s", r.name, redact(err).Error())
			return last
		case err != nil && wrote:
			last.State, last.Err = sendonce.Uncertain, mayHaveBeenSent(r, redact(err).Error())
			return last
		case err != nil:
			last.State, last.Err = sendonce.Failed, tool.Errorf(tool.CodeUnavailable, "the service may be down; nothing was sent, so the same call may be retried later",
				"notify target %s could not be reached: %s", r.name, redact(err).Error())
			if ctx.Err() != nil {
				return last
			}
			// a connection that never carried the request: safe to try again
		case status >= 200 && status < 300:
			answer, perr := r.p.check(body)
			if perr != nil {
				last.State, last.Err = sendonce.Failed, tool.Errorf(tool.CodeFailed, platformHint(r),
					"%s refused the message (HTTP %d, %s)", r.display, status, perr.Error())
				return last
			}
			last.State, last.Answer = sendonce.Sent, answer
			return last
		case status >= 300 && status < 400:
			last.State, last.Err = sendonce.Failed, tool.Errorf(tool.CodeFailed,
				"put the address it redirects to in the target's URL if that is the service's own; nothing was delivered",
				"%s answered HTTP %d %s with a redirect%s: notify does not follow redirects, which would carry the target's token and headers to another address",
				r.display, status, http.StatusText(status), redirectHost(header))
			return last
		case status == http.StatusTooManyRequests || status >= 500:
			last.State, last.Err = sendonce.Failed, tool.Errorf(tool.CodeUnavailable, "the service is limiting or failing; nothing was delivered, try again later",
				"%s answered HTTP %d %s after %d attempts: %s", r.display, status, http.StatusText(status), attempt+1, short(body))
			if attempt < n.cfg.Retries && !n.sleep(ctx, n.retryWait(header, attempt)) {
				return last
			}
			continue
		default:
			last.State, last.Err = sendonce.Failed, tool.Errorf(tool.CodeFailed, platformHint(r),
				"%s refused the message: HTTP %d %s: %s", r.display, status, http.StatusText(status), short(body))
			return last
		}
		if attempt < n.cfg.Retries && !n.sleep(ctx, n.backoff(attempt)) {
			return last
		}
	}
	return last
}

// post runs one request; wrote reports whether the request was written to
// the connection (after that, a failure may still have delivered it).
func (n *notifier) post(ctx context.Context, r *request) (status int, body []byte, h http.Header, wrote bool, err error) {
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { wrote = true }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return 0, nil, nil, false, err
	}
	req.Header = r.Header.Clone()
	req.Header.Set("User-Agent", "clawbridge-notify")
	resp, err := n.client.Do(req)
	if err != nil {
		return 0, nil, nil, wrote, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return 0, nil, nil, true, err
	}
	return resp.StatusCode, body, resp.Header, true, nil
}

// retryWait is Retry-After (seconds or an HTTP date) capped at
// retry_wait_max, else the backoff.
func (n *notifier) retryWait(h http.Header, attempt int) time.Duration {
	v := h.Get("Retry-After")
	d := time.Duration(-1)
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		d = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = max(time.Until(t), 0)
	}
	if d < 0 {
		return n.backoff(attempt)
	}
	return min(d, n.cfg.RetryWaitMax)
}

// backoff doubles from the base: 0.5s, 1s, 2s ... capped.
func (n *notifier) backoff(attempt int) time.Duration {
	return min(n.backoffBase<<attempt, n.cfg.RetryWaitMax)
}

func (n *notifier) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func platformHint(r *resolved) string {
	switch r.kind {
	case "feishu", "dingtalk":
		return "check the target's secret_env, the server clock and the bot's keyword and IP settings; nothing was delivered"
	case "slack", "wecom":
		return "check the target's webhook URL (url_env); nothing was delivered"
	}
	return "check the target's settings; nothing was delivered"
}

// mayHaveBeenSent is the answer for a part whose request was written but
// not answered.
func mayHaveBeenSent(r *resolved, why string) *tool.Error {
	return tool.Errorf(tool.CodeFailed,
		"do not send again: check the channel; to send it anyway, call again with a new idempotency_key",
		"the connection to %s broke after the message was sent, so it may have been delivered (%s)", r.display, why)
}

// redirectHost is " to <host>" of a redirect's Location, if it has one.
func redirectHost(h http.Header) string {
	if u, err := url.Parse(h.Get("Location")); err == nil && u.Hostname() != "" {
		return " to " + u.Hostname()
	}
	return ""
}

// redact drops the URL (it may hold a token) from a url.Error.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
