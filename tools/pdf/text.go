package pdf

import (
	"context"
	"fmt"
	"strings"

	"github.com/clawbridge/clawbridge/internal/pdftext"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// extractText runs poppler's pdftotext once over the page range
// (internal/pdftext) and splits its output at form feeds, one per page.
func (p *pdfTool) extractText(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	in, err := p.open(c)
	if err != nil {
		return nil, err
	}
	n, pw, pages := in.n, in.pw, in.pages
	first, last := pages[0], pages[len(pages)-1]
	text, err := pdftext.Extract(ctx, p.d.Run, in.abs, rel(p.d.Sandbox, in.abs),
		pdftext.Options{First: first, Last: last, Layout: c.Args.Bool("layout", false), Password: pw})
	if err != nil {
		return nil, err
	}
	// pdftotext ends every page with a form feed and writes the text's own
	// control characters (U+000C included) as spaces, so the form feeds
	// are its page breaks; any other count is refused, not mislabelled.
	chunks := strings.Split(text, "\f")
	if len(chunks) != last-first+2 {
		return nil, tool.Errorf(tool.CodeFailed, "check the file with action validate", "pdftotext gave %d page breaks for %s", len(chunks)-1, wording.Count(last-first+1, "page", "pages"))
	}
	want := map[int]bool{}
	for _, pg := range pages {
		want[pg] = true
	}
	var out []PageText
	var full strings.Builder
	empty := 0
	// Cap what goes back inline; the whole text can go to 'output'.
	const inlineCap = 200_000
	inline, truncated := 0, 0
	for i, chunk := range chunks {
		pg := first + i
		if pg > last || !want[pg] {
			continue
		}
		t := strings.TrimRight(chunk, " \n")
		if strings.TrimSpace(t) == "" {
			empty++
		}
		fmt.Fprintf(&full, "%s\n\f", t)
		n := len([]rune(t))
		if truncated > 0 || (inline+n > inlineCap && len(out) > 0) {
			truncated++
			continue
		}
		inline += n
		out = append(out, PageText{Page: pg, Text: t, Chars: n})
	}
	data := map[string]any{"path": rel(p.d.Sandbox, in.abs), "page_count": n, "pages": out}
	summary := fmt.Sprintf("text of %s of %s", wording.Count(len(out), "page", "pages"), rel(p.d.Sandbox, in.abs))
	if empty > 0 {
		data["pages_without_text"] = empty
		summary += fmt.Sprintf("; %s have no text layer (scanned? use the ocr tool)", wording.Count(empty, "page", "pages"))
	}
	if truncated > 0 {
		data["pages_omitted"] = truncated
		summary += fmt.Sprintf("; %s omitted (over %s): ask for fewer pages or give 'output' to save all text", wording.Count(truncated, "more page", "more pages"), wording.Count(inlineCap, "character", "characters"))
	}
	res := &tool.Result{Summary: summary, Data: data}
	if c.Args.String("output") != "" {
		out, err := p.output(c, stem(in.abs), ".txt", in.abs)
		if err != nil {
			return nil, err
		}
		f, err := out.Write(".txt", []byte(full.String()))
		if err != nil {
			return nil, err
		}
		data["output"] = rel(p.d.Sandbox, f.Path)
		res.Files = append(res.Files, f)
	}
	return res, nil
}

// PageText is the text of one page.
type PageText struct {
	Page  int    `json:"page"`
	Text  string `json:"text"`
	Chars int    `json:"chars"`
}
