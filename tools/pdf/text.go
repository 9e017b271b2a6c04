package pdf

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"clawbridge/internal/jail"
	"clawbridge/internal/wording"
	"clawbridge/tools/tool"
)

// extractText runs poppler's pdftotext once over the page range, in the
// jail, and splits its output at form feeds, one per page.
func (p *pdfTool) extractText(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		return nil, tool.Missing("pdftotext", "poppler-utils")
	}
	in, err := p.open(c)
	if err != nil {
		return nil, err
	}
	n, pw, pages := in.n, in.pw, in.pages
	first, last := pages[0], pages[len(pages)-1]
	args := []string{"-enc", "UTF-8", "-f", strconv.Itoa(first), "-l", strconv.Itoa(last)}
	if c.Args.Bool("layout", false) {
		args = append(args, "-layout")
	}
	if pw != "" {
		args = append(args, "-opw", pw, "-upw", pw)
	}
	// pdftotext parses an untrusted file: it runs in the jail, seeing only
	// that file, read-only.
	target := "/tmp/in/" + filepath.Base(in.abs)
	args = append(args, target, "-")
	run, err := jail.Run(ctx, jail.Spec{
		Argv:      append([]string{bin}, args...),
		Env:       []string{"LANG=C.UTF-8"},
		Binds:     []jail.Bind{{Source: in.abs, Target: target}},
		Timeout:   5 * time.Minute,
		StdoutCap: 256 << 20,
		StderrCap: 4 << 10,
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("extract_text: run pdftotext: %w", err)
	}
	if run.ExitCode != 0 || run.Signal != "" {
		return nil, tool.Errorf(tool.CodeFailed, "check the file with action validate", "pdftotext failed: %s", strings.TrimSpace(run.Stderr+" "+run.Signal))
	}
	if run.StdoutTruncated {
		return nil, tool.Errorf(tool.CodeFailed, "ask for fewer pages", "pdftotext produced more than %d MB of text", 256)
	}
	// pdftotext ends every page with a form feed and writes the text's own
	// control characters (U+000C included) as spaces, so the form feeds
	// are its page breaks; any other count is refused, not mislabelled.
	chunks := strings.Split(run.Stdout, "\f")
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
