package webapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"

	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Request is one GET of a service.
type Request struct {
	Service string      // the name used in errors ("OpenAlex", "SearXNG")
	Field   string      // the argument asked about, for 400 and 404 answers (Endpoint.Field)
	URL     string      // absolute URL with its query
	Header  http.Header // extra headers (API keys, Accept)
	// MaxBytes caps the body read (default 4 MiB).
	MaxBytes int64
}

// Response is a successful answer.
type Response struct {
	Status int
	Body   []byte
}

// Get runs r with c (a netguard client). Every failure is a *toolerr.Error:
// a blocked address is permission_denied, a deadline timeout, an answer
// that is not 2xx as the one table says (Endpoint.Status). The URL is never
// put in an error, as it may carry a key.
func Get(ctx context.Context, c *http.Client, r Request) (*Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return nil, toolerr.Errorf(toolerr.CodeUnavailable, "check the configured base URL", "%s: bad request URL: %v", r.Service, redact(err))
	}
	for k, v := range r.Header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, transportError(ctx, r.Service, err)
	}
	defer resp.Body.Close()
	max := r.MaxBytes
	if max <= 0 {
		max = 4 << 20
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, transportError(ctx, r.Service, err)
	}
	if int64(len(body)) > max {
		return nil, toolerr.Errorf(toolerr.CodeTooLarge, "ask for fewer results", "%s answered more than %d bytes", r.Service, max)
	}
	if s := resp.StatusCode; s < 200 || s > 299 {
		return nil, Endpoint{What: r.Service, Field: r.Field}.Status(s, body)
	}
	return &Response{Status: resp.StatusCode, Body: body}, nil
}

func transportError(ctx context.Context, service string, err error) error {
	if errors.Is(err, netguard.ErrBlocked) {
		return toolerr.Errorf(toolerr.CodeDenied, "the configured base URL points at a private address; list it in network.allow_hosts if that is intended", "%s: %v", service, redact(err))
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return toolerr.Errorf(toolerr.CodeTimeout, "the service is slow; try again later", "%s did not answer in time", service)
	}
	return toolerr.Errorf(toolerr.CodeFailed, "the service may be down; try again later", "%s: %v", service, redact(err))
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// redact drops the URL (its query may hold a key) from a url.Error.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
