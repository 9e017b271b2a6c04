// Package webfetch is the `web_fetch` tool: fetch a URL over plain HTTP,
// decode its charset (GBK/GB18030 included), extract the main content with
// readability and return it as Markdown, falling back to the browser when a
// page builds its content with scripts. robots.txt is respected and each
// host gets at most one request per interval.
package webfetch

import (
	"context"
	"errors"
	"time"

	"github.com/clawbridge/clawbridge/internal/browsertool"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Config is the `tools.web_fetch` section.
type Config struct {
	UserAgent string `yaml:"user_agent"`
	// RobotsAgent is the product token matched against robots.txt groups.
	RobotsAgent string `yaml:"robots_agent"`
	// MinInterval between two requests to the same host (default 1s).
	MinInterval time.Duration `yaml:"min_interval"`
	Timeout     time.Duration `yaml:"timeout"`
	MaxBytes    int64         `yaml:"max_bytes"`
	// ThinChars: below this many characters of extracted text the page is
	// rendered with the browser and extracted again.
	ThinChars int `yaml:"thin_chars"`
	// RobotsTTL is how long a host's robots.txt is cached.
	RobotsTTL time.Duration `yaml:"robots_ttl"`
	// IgnoreRobots disables robots.txt checks (for private deployments).
	IgnoreRobots bool `yaml:"ignore_robots"`
}

// DefaultConfig is the zero-config setup.
func DefaultConfig() Config {
	return Config{
		UserAgent:   "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 clawbridge-web-fetch/1.0",
		RobotsAgent: "clawbridge",
		MinInterval: time.Second,
		Timeout:     30 * time.Second,
		MaxBytes:    8 << 20,
		ThinChars:   200,
		RobotsTTL:   time.Hour,
	}
}

// Validate refuses limits that cannot work: a negative spacing between
// requests to one host, a zero timeout, size, thin-page threshold or robots
// cache time.
func (c *Config) Validate() error {
	return errors.Join(
		config.AtLeast("min_interval", c.MinInterval, 0),
		config.AtLeast("timeout", c.Timeout, time.Millisecond),
		config.AtLeast("max_bytes", c.MaxBytes, 1),
		config.AtLeast("thin_chars", c.ThinChars, 1),
		config.AtLeast("robots_ttl", c.RobotsTTL, time.Second),
	)
}

// New builds the web_fetch tool; the browser in d.Browser (nil: none)
// renders pages whose HTML is thin. The robots cache and rate limiter live
// as long as the tool value.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: "web_fetch", Defaults: DefaultConfig, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	def := DefaultConfig()
	// Numbers out of range were refused by Validate; empty agents mean
	// the defaults.
	if cfg.UserAgent == "" {
		cfg.UserAgent = def.UserAgent
	}
	if cfg.RobotsAgent == "" {
		cfg.RobotsAgent = def.RobotsAgent
	}
	f := newFetcher(d, browsertool.Manager(d), cfg)
	return tool.Tool{
		Name:        "web_fetch",
		Title:       "Fetch a web page as Markdown",
		Description: "A URL's main content as Markdown; script-built pages are rendered; respects robots.txt.",
		Actions: []tool.Action{{
			Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
			Params: []tool.Param{
				{Name: "url", Type: tool.String, Description: "Absolute http(s) URL.", Required: true},
				{Name: "max_chars", Type: tool.Integer, Default: 20000, Min: tool.Ptr(200), Max: tool.Ptr(500000)},
				{Name: "full_page", Type: tool.Boolean, Description: "Not only the main content."},
				{Name: "render", Type: tool.Boolean, Description: "Always render in the browser."},
			},
			Handler: f.handle,
		}},
		OpenWorld: true,
		Programs:  tool.ProgramsOf("chromium"),
		Examples: []string{
			"read this article and summarize it: https://example.com/post",
			"fetch the content of this URL",
			"get the text of this web page as markdown",
			"抓取这个网页的正文内容",
			"读取这个链接里的文章",
		},
	}, nil
}

func (f *fetcher) handle(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	return f.fetch(ctx, c.Args.String("url"), c.Args.Int("max_chars", 20000), c.Args.Bool("full_page", false), c.Args.Bool("render", false))
}
