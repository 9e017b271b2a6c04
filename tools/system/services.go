package system

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type serviceResult struct {
	Name       string `json:"name"`
	URL        string `json:"url"`
	Up         bool   `json:"up"` // answered with a 2xx or 3xx status
	HTTPStatus int    `json:"http_status,omitempty"`
	LatencyMS  int64  `json:"latency_ms"`
	Error      string `json:"error,omitempty"`
	Body       string `json:"body,omitempty"` // start of the answer, redacted
	// Redirect is set when the service redirected to a place that is not a
	// configured service; the redirect was not followed.
	Redirect string `json:"redirect_not_followed,omitempty"`
}

type servicesData struct {
	Up       int             `json:"up"`
	Down     int             `json:"down"`
	Services []serviceResult `json:"services"`
}

const (
	maxHealthBody  = 64 << 10 // read at most this much of an answer
	showHealthBody = 300      // and show this much of it
)

func (s *sys) serviceStatus(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	args := c.Args
	services := s.d.Config.System.Services
	if len(services) == 0 {
		return nil, tool.Errorf(tool.CodeUnavailable,
			"add entries under system.services in the clawbridge config file, e.g. `- {name: api, url: http://127.0.0.1:8080/healthz}`, and restart",
			"no services are configured for health checks")
	}
	if name := args.String("name"); name != "" {
		var pick []config.Service
		for _, svc := range services {
			if svc.Name == name {
				pick = append(pick, svc)
			}
		}
		if len(pick) == 0 {
			return nil, tool.Invalid("name", fmt.Sprintf("unknown service %q", name), "configured services: "+serviceNames(services))
		}
		services = pick
	}
	timeout := time.Duration(args.Int("timeout_seconds", 5)) * time.Second
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	client, err := s.serviceClient(services, timeout)
	if err != nil {
		return nil, fmt.Errorf("service_status: guard: %w", err)
	}

	out := servicesData{Services: make([]serviceResult, len(services))}
	var wg sync.WaitGroup
	for i, svc := range services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Services[i] = check(ctx, client, svc)
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var down []string
	for _, r := range out.Services {
		if r.Up {
			out.Up++
		} else {
			out.Down++
			down = append(down, r.Name)
		}
	}
	summary := fmt.Sprintf("%d of %s healthy", out.Up, wording.Count(len(out.Services), "service", "services"))
	if len(down) > 0 {
		summary += "; down: " + strings.Join(down, ", ")
	}
	return &tool.Result{Summary: summary, Data: out}, nil
}

// serviceClient is the HTTP client for health checks. Services are usually
// on loopback or the LAN, which the shared guard (d.Guard) refuses unless
// allow-listed. The administrator named these URLs in the config, so their
// hosts are trusted: this client's guard allows exactly those hosts plus the
// configured network.allow_hosts, and still refuses every other private,
// loopback or link-local address. A redirect is followed only to a
// configured service's scheme, host and port; any other redirect is
// reported, not followed. The model cannot add a URL: it only picks a
// configured name.
func (s *sys) serviceClient(services []config.Service, timeout time.Duration) (*http.Client, error) {
	allow := append([]string(nil), s.d.Config.Network.AllowHosts...)
	for _, svc := range services {
		if u, err := url.Parse(svc.URL); err == nil && u.Hostname() != "" {
			allow = append(allow, u.Hostname())
		}
	}
	g, err := netguard.New(allow)
	if err != nil {
		return nil, err
	}
	// Every configured service, not just the ones checked now: a redirect
	// from one service to another's address is still to a configured place.
	targets := map[string]bool{}
	for _, svc := range s.d.Config.System.Services {
		if u, err := url.Parse(svc.URL); err == nil && u.Hostname() != "" {
			targets[origin(u)] = true
		}
	}
	c := g.Client(timeout)
	guardRedirect := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !targets[origin(req.URL)] {
			return errRedirectElsewhere
		}
		return guardRedirect(req, via)
	}
	return c, nil
}

// errRedirectElsewhere stops a redirect to an address that is not a
// configured service.
var errRedirectElsewhere = errors.New("redirect to an address that is not a configured service")

// origin is scheme://host:port with the port made explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}

func check(ctx context.Context, client *http.Client, svc config.Service) serviceResult {
	r := serviceResult{Name: svc.Name, URL: logging.RedactString(svc.URL)}
	fail := func(err error) serviceResult {
		r.Error = logging.RedactString(err.Error())
		return r
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, svc.URL, nil)
	if err != nil {
		return fail(fmt.Errorf("bad URL in config: %w", err))
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fail(fmt.Errorf("bad URL in config: only http and https are supported, not %q", req.URL.Scheme))
	}
	req.Header.Set("User-Agent", "clawbridge-health/1")
	start := time.Now()
	resp, err := client.Do(req)
	r.LatencyMS = time.Since(start).Milliseconds()
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && errors.Is(err, errRedirectElsewhere) {
			// The service answered with a redirect; say where, do not go.
			if resp != nil {
				r.HTTPStatus = resp.StatusCode
			}
			// Only where it points: a query may carry a token.
			r.Redirect = "(unreadable location)"
			if to, perr := url.Parse(ue.URL); perr == nil {
				r.Redirect = origin(to) + to.EscapedPath()
			}
			r.Error = "the service redirected to " + r.Redirect + ", which is not a configured service; not followed"
			return r
		}
		return fail(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxHealthBody))
	r.HTTPStatus = resp.StatusCode
	r.Up = resp.StatusCode >= 200 && resp.StatusCode < 400
	b := strings.TrimSpace(strings.ToValidUTF8(string(body), "\uFFFD"))
	if len(b) > showHealthBody {
		b = strings.ToValidUTF8(b[:showHealthBody], "") + "…"
	}
	r.Body = logging.RedactString(b)
	if !r.Up {
		r.Error = "HTTP " + resp.Status
	}
	return r
}

func serviceNames(services []config.Service) string {
	names := make([]string, 0, len(services))
	for _, s := range services {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}
