package webfetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"github.com/gogs/chardet"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/internal/browsertool"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type fetcher struct {
	d       *tool.Deps
	browser *browser.Manager // renders thin pages; nil when none is configured
	cfg     Config
	robots  *robotsCache

	mu   sync.Mutex
	next map[string]time.Time // host -> earliest time of the next request
}

func newFetcher(d *tool.Deps, m *browser.Manager, cfg Config) *fetcher {
	f := &fetcher{d: d, browser: m, cfg: cfg, next: map[string]time.Time{}}
	f.robots = &robotsCache{hosts: map[string]*robotsRules{}, agent: cfg.RobotsAgent, ttl: cfg.RobotsTTL,
		fetch: func(ctx context.Context, u string) (*http.Response, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if err != nil {
				return nil, err
			}
			req.Header.Set("User-Agent", cfg.UserAgent)
			return d.HTTPClient(15 * time.Second).Do(req)
		}}
	return f
}

// wait keeps at most one request per MinInterval per host.
func (f *fetcher) wait(ctx context.Context, host string) error {
	f.mu.Lock()
	now := time.Now()
	at := f.next[host]
	if at.Before(now) {
		at = now
	}
	f.next[host] = at.Add(f.cfg.MinInterval)
	f.mu.Unlock()
	if d := time.Until(at); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

type page struct {
	finalURL    string
	redirects   []string
	status      int
	contentType string
	charset     string
	body        []byte // decoded to UTF-8 for text types
	rawBytes    int
}

func guardErr(err error) error {
	if errors.Is(err, netguard.ErrBlocked) {
		return &tool.Error{Code: tool.CodeDenied, Field: "url", Message: err.Error(),
			Hint: "only public addresses are reachable unless the config's network.allow_hosts lists the host"}
	}
	return nil
}

func (f *fetcher) get(ctx context.Context, u *url.URL) (*page, error) {
	p := &page{}
	client := f.d.HTTPClient(f.cfg.Timeout)
	check := client.CheckRedirect
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := check(req, via); err != nil {
			return err
		}
		p.redirects = append(p.redirects, req.URL.String())
		// robots.txt applies to every URL fetched, redirect targets too.
		if !f.cfg.IgnoreRobots && !f.robots.allowed(req.Context(), req.URL) {
			return robotsDenied(req.URL)
		}
		if err := f.wait(req.Context(), req.URL.Host); err != nil {
			return err
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, tool.Invalid("url", err.Error(), "")
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5")
	req.Header.Set("Accept-Language", "en,zh-CN;q=0.9,zh;q=0.8")
	resp, err := client.Do(req)
	if err != nil {
		if te, ok := tool.AsError(err); ok {
			return nil, te
		}
		if ge := guardErr(err); ge != nil {
			return nil, ge
		}
		if ctx.Err() != nil {
			return nil, tool.Errorf(tool.CodeTimeout, "try again later or raise the timeout", "fetch %s: %v", u, ctx.Err())
		}
		return nil, tool.Errorf(tool.CodeFailed, "check the URL; the site may be down", "fetch %s: %v", u, err)
	}
	defer resp.Body.Close()
	p.finalURL = resp.Request.URL.String()
	p.status = resp.StatusCode
	p.contentType = resp.Header.Get("Content-Type")
	raw, err := io.ReadAll(io.LimitReader(resp.Body, f.cfg.MaxBytes+1))
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "try again", "read %s: %v", u, err)
	}
	if int64(len(raw)) > f.cfg.MaxBytes {
		return nil, tool.Errorf(tool.CodeTooLarge, "this page is too big for web_fetch; use the browser tool", "%s is larger than %d bytes", u, f.cfg.MaxBytes)
	}
	p.rawBytes = len(raw)
	if resp.StatusCode >= 400 {
		return nil, tool.Errorf(tool.CodeFailed, "check the URL", "%s answered HTTP %d %s", p.finalURL, resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	mt, _, _ := mime.ParseMediaType(p.contentType)
	if mt == "" {
		mt = http.DetectContentType(raw)
		mt, _, _ = mime.ParseMediaType(mt)
	}
	if !isText(mt) {
		return nil, tool.Invalidf("url", "download it with the browser tool or a file tool instead", "%s is %s, not a text or HTML page", p.finalURL, mt)
	}
	p.contentType = mt
	enc, name := detectCharset(raw, resp.Header.Get("Content-Type"))
	p.charset = name
	if enc != nil {
		if dec, err := enc.NewDecoder().Bytes(raw); err == nil {
			raw = dec
		}
	}
	p.body = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	return p, nil
}

func isText(mt string) bool {
	return strings.HasPrefix(mt, "text/") || mt == "application/xhtml+xml" || mt == "application/json" ||
		mt == "application/xml" || strings.HasSuffix(mt, "+xml") || strings.HasSuffix(mt, "+json")
}

// detectCharset: the Content-Type header, a BOM or a <meta> declaration
// when present; otherwise statistical detection (GBK/GB18030 pages often
// declare nothing). The returned encoding is nil for UTF-8.
func detectCharset(raw []byte, contentType string) (encoding.Encoding, string) {
	enc, name, certain := charset.DetermineEncoding(raw, contentType)
	if certain {
		return normalizeEnc(enc, name)
	}
	if utf8.Valid(raw) {
		return nil, "utf-8"
	}
	if r, err := chardet.NewHtmlDetector().DetectBest(raw); err == nil && r.Confidence >= 30 {
		if e, err := htmlindex.Get(r.Charset); err == nil {
			n, _ := htmlindex.Name(e)
			return normalizeEnc(e, n)
		}
	}
	return normalizeEnc(enc, name)
}

func normalizeEnc(e encoding.Encoding, name string) (encoding.Encoding, string) {
	name = strings.ToLower(name)
	if name == "utf-8" || name == "utf8" {
		return nil, "utf-8"
	}
	// GBK is a subset of GB18030; decoding with the superset is safe.
	if name == "gbk" || name == "gb2312" {
		if g, err := htmlindex.Get("gb18030"); err == nil {
			return g, name
		}
	}
	return e, name
}

type content struct {
	title, byline, lang, markdown, text string
}

func (f *fetcher) extract(body []byte, pageURL *url.URL, fullPage bool) (*content, error) {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("parse html: %w", err)
	}
	c := &content{}
	node := doc
	if !fullPage {
		parser := readability.NewParser()
		art, err := parser.ParseDocument(doc, pageURL)
		if err == nil && art.Node != nil {
			node = art.Node
			c.title, c.byline, c.lang = art.Title(), art.Byline(), art.Language()
			var tb strings.Builder
			_ = art.RenderText(&tb)
			c.text = strings.TrimSpace(tb.String())
		} else {
			doc, _ = html.Parse(bytes.NewReader(body))
			node = doc
		}
	}
	if c.title == "" {
		c.title = titleOf(doc)
	}
	conv := converter.NewConverter(converter.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin()))
	md, err := conv.ConvertNode(node, converter.WithDomain(pageURL.Scheme+"://"+pageURL.Host))
	if err != nil {
		return nil, fmt.Errorf("html to markdown: %w", err)
	}
	c.markdown = strings.TrimSpace(string(md))
	// Readability lifts the title out of the content; put it back on top.
	if c.title != "" && !fullPage && !strings.HasPrefix(c.markdown, "# ") {
		c.markdown = "# " + c.title + "\n\n" + c.markdown
	}
	if c.text == "" {
		c.text = c.markdown
	}
	return c, nil
}

func titleOf(n *html.Node) string {
	if n.Type == html.ElementNode && n.Data == "title" && n.FirstChild != nil {
		return strings.TrimSpace(n.FirstChild.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := titleOf(c); t != "" {
			return t
		}
	}
	return ""
}

// cut shortens s to at most max characters at the block boundary nearest
// below the limit: the last line break in the window. Markdown paragraphs
// are single lines, so a line break is either a paragraph break or the end
// of a table row, list item or code line, each a whole unit; preferring a
// blank line anywhere in the window once cut a 282,857-character page at
// 153,637 of 200,000 because its last 46,000 characters were one table. A
// code fence left open by the cut is closed. A window whose last fifth has
// no line break is cut at a space there (a paragraph longer than that);
// only a window without spaces is cut mid-word.
func cut(s string, max int) (string, bool) {
	if utf8.RuneCountInString(s) <= max {
		return s, false
	}
	out := cutWindow(s, max)
	if openFence(out) {
		const closing = "\n```"
		out = cutWindow(s, max-len(closing))
		if openFence(out) {
			out += closing
		}
	}
	return out, true
}

// cutWindow is s's first max runes ended at the last line break (or space).
func cutWindow(s string, max int) string {
	b := len(s)
	for i := range s {
		if max == 0 {
			b = i
			break
		}
		max--
	}
	w := s[:b]
	// A line break in the window's last fifth first; a single paragraph
	// longer than that is cut at a space rather than dropped whole.
	for _, near := range []int{len(w) * 4 / 5, 0} {
		for _, sep := range []string{"\n", " "} {
			if i := strings.LastIndex(w, sep); i > near {
				if out := strings.TrimRight(w[:i], " \n"); out != "" {
					return out
				}
			}
		}
	}
	return w
}

// openFence reports whether md ends inside a fenced code block.
func openFence(md string) bool {
	open := false
	for _, line := range strings.Split(md, "\n") {
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			open = !open
		}
	}
	return open
}

func (f *fetcher) fetch(ctx context.Context, raw string, maxChars int, fullPage, forceRender bool) (*tool.Result, error) {
	u, err := f.d.Guard.CheckURL(raw)
	if err != nil {
		if ge := guardErr(err); ge != nil {
			return nil, ge
		}
		return nil, tool.Invalid("url", err.Error(), "give an absolute http(s) URL")
	}
	if !f.cfg.IgnoreRobots && !f.robots.allowed(ctx, u) {
		return nil, robotsDenied(u)
	}
	if err := f.wait(ctx, u.Host); err != nil {
		return nil, tool.Errorf(tool.CodeTimeout, "", "fetch %s: %v", u, err)
	}
	pg, err := f.get(ctx, u)
	if err != nil {
		return nil, err
	}
	final, _ := url.Parse(pg.finalURL)
	data := map[string]any{
		"url": raw, "final_url": pg.finalURL, "status": pg.status, "content_type": pg.contentType,
		"charset": pg.charset, "bytes": pg.rawBytes,
	}
	if len(pg.redirects) > 0 {
		data["redirects"] = pg.redirects
	}
	var c *content
	rendered := false
	if pg.contentType == "text/html" || pg.contentType == "application/xhtml+xml" {
		c, err = f.extract(pg.body, final, fullPage)
		if err != nil {
			return nil, tool.Errorf(tool.CodeFailed, "try full_page or the browser tool", "%v", err)
		}
		if c, rendered, err = f.renderIfThin(ctx, u, pg, c, fullPage, forceRender, data); err != nil {
			return nil, err
		}
	} else {
		c = &content{markdown: string(pg.body)}
	}
	data["rendered"] = rendered
	md, truncated := cut(c.markdown, maxChars)
	data["title"] = c.title
	if c.byline != "" {
		data["byline"] = c.byline
	}
	if c.lang != "" {
		data["lang"] = c.lang
	}
	data["markdown"] = md
	data["chars"] = utf8.RuneCountInString(md)
	data["total_chars"] = utf8.RuneCountInString(c.markdown)
	data["truncated"] = truncated
	sum := fmt.Sprintf("Fetched %q (%s of Markdown", c.title, wording.Count(data["chars"].(int), "character", "characters"))
	if truncated {
		sum += fmt.Sprintf(", truncated from %d", data["total_chars"])
	}
	sum += ")"
	if rendered {
		sum += ", rendered with the browser"
	}
	return &tool.Result{Summary: sum + ".", Data: data}, nil
}

// renderIfThin renders the page pg fetched for u with the browser, when
// there is one, if plain HTTP gave thin text c or rendering is forced; the
// rendered text replaces c when forced or longer. It notes in data why
// and how it went.
func (f *fetcher) renderIfThin(ctx context.Context, u *url.URL, pg *page, c *content, fullPage, forceRender bool, data map[string]any) (*content, bool, error) {
	rendered := false
	plainChars := utf8.RuneCountInString(c.text)
	thin := plainChars < f.cfg.ThinChars
	if (thin || forceRender) && f.browser != nil {
		final, _ := url.Parse(pg.finalURL)
		if err := f.wait(ctx, final.Host); err != nil {
			return nil, false, tool.Errorf(tool.CodeTimeout, "", "fetch %s: %v", u, err)
		}
		r, err := f.browser.Render(ctx, pg.finalURL)
		if err != nil {
			if forceRender {
				return nil, false, browsertool.Err(err)
			}
			data["render_error"] = browsertool.Err(err).Error()
		} else if ru, perr := url.Parse(r.URL); perr == nil {
			if rc, err := f.extract([]byte(r.HTML), ru, fullPage); err == nil &&
				(forceRender || utf8.RuneCountInString(rc.text) > utf8.RuneCountInString(c.text)) {
				c, rendered = rc, true
				data["final_url"] = r.URL
			}
		}
		if thin {
			data["fallback_reason"] = fmt.Sprintf("plain HTTP gave only %s of text", wording.Count(plainChars, "character", "characters"))
		}
	}
	return c, rendered, nil
}

func robotsDenied(u *url.URL) *tool.Error {
	return &tool.Error{Code: tool.CodeDenied, Field: "url",
		Message: fmt.Sprintf("robots.txt of %s disallows fetching %s", u.Host, u.EscapedPath()),
		Hint:    "the site asks automated clients not to read this page; open it in the browser tool only if the user explicitly wants it"}
}
