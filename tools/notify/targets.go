package notify

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/template"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// resolved is a target ready to send to: its URL and secrets read from the
// environment at call time (so a rotated secret needs no restart). Nothing
// here is ever put in a result, an error or a log line except name and
// display.
type resolved struct {
	name     string
	kind     string
	p        *platform
	url      string // may hold a token: never shown
	secret   string
	headers  http.Header
	tmpl     *template.Template
	topic    string
	priority string
	tags     []string
	maxLen   int
	display  string   // "slack at hooks.slack.com"
	hide     redactor // the URL and secrets read from the environment
	// part and parts are set per part for the webhook template.
	part, parts int
}

// resolve finds the call's target: a configured name, or a raw URL when
// config allows it.
func (n *notifier) resolve(c *tool.Call) (*resolved, error) {
	name := strings.TrimSpace(c.Args.String("target"))
	raw := strings.TrimSpace(c.Args.String("url"))
	switch {
	case name != "" && raw != "":
		return nil, tool.Invalid("url", "give target or url, not both", "name a configured target")
	case raw != "":
		return n.rawTarget(c, raw)
	case name == "":
		return nil, tool.Invalid("target", "no target given", n.targetHint())
	}
	t, ok := n.targets[name]
	if !ok {
		return nil, tool.NotFoundf("target", n.targetHint(), "no notify target named %q", name)
	}
	r := &resolved{name: t.Name, kind: t.Kind, p: platforms[t.Kind], url: t.URL, topic: t.Topic, tags: t.Tags, maxLen: t.MaxLength, headers: http.Header{}}
	r.priority = ntfyPriority[strings.ToLower(t.Priority)]
	env := func(v, what string) (string, error) {
		s := strings.TrimSpace(os.Getenv(v))
		if s == "" {
			return "", tool.Errorf(tool.CodeUnavailable, "set "+v+" in the server's environment (tools.notify target "+t.Name+")",
				"the %s of notify target %s is not available: environment variable %s is not set", what, t.Name, v)
		}
		return s, nil
	}
	var err error
	if t.URLEnv != "" {
		if r.url, err = env(t.URLEnv, "webhook URL"); err != nil {
			return nil, err
		}
		r.hide.addURL(r.url)
	}
	if r.url == "" && t.Kind == "ntfy" {
		r.url = "https://ntfy.sh"
	}
	if t.SecretEnv != "" {
		if r.secret, err = env(t.SecretEnv, "secret"); err != nil {
			return nil, err
		}
		r.hide.addValue(r.secret)
	}
	for k, v := range t.Headers {
		r.headers.Set(k, v)
	}
	for k, v := range t.HeaderEnvs {
		val, err := env(v, "header "+k)
		if err != nil {
			return nil, err
		}
		r.headers.Set(k, val)
		r.hide.addValue(val)
	}
	if t.Kind == "webhook" {
		r.tmpl, _ = parseBodyTemplate(t.BodyTemplate) // validated with the config
	}
	return r, n.checkURL(r)
}

// rawTarget is a model-given URL, allowed only by config, with no secret.
func (n *notifier) rawTarget(c *tool.Call, raw string) (*resolved, error) {
	if !n.cfg.AllowRawURLs {
		return nil, tool.Errorf(tool.CodeDenied, n.targetHint()+"; an operator may set tools.notify.allow_raw_urls: true",
			"notify sends only to targets named in the config, not to a URL")
	}
	kind := c.Args.StringOr("kind", "webhook")
	p, ok := platforms[kind]
	if !ok {
		return nil, tool.Invalid("kind", fmt.Sprintf("unknown kind %q", kind), "one of "+kindList())
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, tool.Invalid("url", "url is not an http(s) URL", "give the full webhook URL")
	}
	r := &resolved{name: "url:" + u.Hostname(), kind: kind, p: p, url: raw, headers: http.Header{}}
	r.hide.addURL(raw)
	if kind == "ntfy" {
		r.topic = strings.Trim(u.Path, "/")
		u.Path = ""
		r.url = u.String()
		if r.topic == "" || strings.Contains(r.topic, "/") {
			return nil, tool.Invalid("url", "an ntfy URL is https://server/topic", "give the topic URL")
		}
	}
	if kind == "webhook" {
		r.tmpl, _ = parseBodyTemplate("")
	}
	return r, n.checkURL(r)
}

// checkURL passes the URL through the outbound guard before anything is
// sent (the client checks every dial again, after DNS).
func (n *notifier) checkURL(r *resolved) error {
	u, err := n.guard.CheckURL(r.url)
	if err != nil {
		return tool.Errorf(tool.CodeDenied, "list the host in network.allow_hosts if this private address is intended",
			"notify target %s: %s", r.name, r.hide.scrub(err.Error()))
	}
	r.display = r.kind + " at " + u.Hostname()
	return nil
}

func (n *notifier) targetHint() string {
	if len(n.names) == 0 {
		return "no targets are configured: add them under tools.notify.targets"
	}
	return "give target, one of: " + strings.Join(n.names, ", ")
}
