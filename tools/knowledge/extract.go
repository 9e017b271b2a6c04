package knowledge

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"

	"clawbridge/internal/jail"
	"clawbridge/tools/convert"
	"clawbridge/tools/tool"
)

// section is a run of extracted text under one heading path (md, html,
// docx) or on one page (pdf).
type section struct {
	Heading []string // outer to inner; empty before the first heading
	Page    int      // 1-based; 0 for formats without pages
	Start   int      // rune offset of Text in the file's extracted text
	Text    string
}

// formats maps a file extension to its format name; other files are not
// indexed.
var formats = map[string]string{
	".md": "md", ".markdown": "md", ".txt": "txt", ".text": "txt",
	".html": "html", ".htm": "html", ".pdf": "pdf", ".docx": "docx",
}

// formatOf names the format of a file, "" when it is not indexed.
func formatOf(path string) string { return formats[strings.ToLower(filepath.Ext(path))] }

// extract reads one file into sections with the readers the document tools
// use: pdftotext in the jail for PDF (a page per form feed), format_converter's
// docx and HTML readers (as Markdown, so their headings are kept).
func extract(ctx context.Context, abs string, data []byte) ([]section, error) {
	switch formatOf(abs) {
	case "md":
		return markdownSections(decodeText(data)), nil
	case "txt":
		return []section{{Text: decodeText(data)}}, nil
	case "html":
		md, err := convert.HTMLMarkdown(data)
		if err != nil {
			return nil, err
		}
		return markdownSections(md), nil
	case "docx":
		md, err := convert.DocxMarkdown(data)
		if err != nil {
			return nil, err
		}
		return markdownSections(md), nil
	case "pdf":
		return pdfSections(ctx, abs)
	}
	return nil, fmt.Errorf("%s: not a format knowledge_rag indexes", abs)
}

// decodeText reads UTF-8, or GB18030 (a superset of GBK) when the bytes are
// not UTF-8, as Chinese text files often are.
func decodeText(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return string(data)
	}
	if out, err := simplifiedchinese.GB18030.NewDecoder().Bytes(data); err == nil {
		return string(out)
	}
	return strings.ToValidUTF8(string(data), "\uFFFD")
}

// markdownSections splits Markdown at ATX headings (# ...), outside fenced
// code. Each section's text starts with its heading line, so heading words
// are searchable and offsets need no adjustment.
func markdownSections(md string) []section {
	var out []section
	var stack []string
	cur := section{}
	var text strings.Builder
	offset, fence := 0, ""
	flush := func() {
		if strings.TrimSpace(text.String()) != "" {
			cur.Text = text.String()
			out = append(out, cur)
		}
		text.Reset()
	}
	for _, line := range strings.SplitAfter(md, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			fence = trim[:3]
		default:
			if level, title := atxHeading(trim); level > 0 && len(line)-len(strings.TrimLeft(line, " ")) < 4 {
				flush()
				if level <= len(stack) {
					stack = stack[:level-1]
				}
				for len(stack) < level-1 {
					stack = append(stack, "")
				}
				stack = append(stack, title)
				cur = section{Heading: headingPath(stack), Start: offset}
			}
		}
		text.WriteString(line)
		offset += utf8.RuneCountInString(line)
	}
	flush()
	return out
}

// atxHeading returns the level and title of a "## Title" line, 0 otherwise.
func atxHeading(line string) (int, string) {
	level := 0
	for level < len(line) && line[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(line) && line[level] != ' ' && line[level] != '\t') {
		return 0, ""
	}
	title := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[level:]), "#"))
	title = strings.NewReplacer("**", "", "__", "", "`", "").Replace(title)
	if title == "" {
		return 0, ""
	}
	return level, title
}

// headingPath drops the empty levels a skipped heading level leaves.
func headingPath(stack []string) []string {
	out := make([]string, 0, len(stack))
	for _, h := range stack {
		if h != "" {
			out = append(out, h)
		}
	}
	return out
}

// pdfSections runs poppler's pdftotext over the whole file in the jail (it
// parses an untrusted file: it sees only that file, read-only) and makes a
// section per page; the extracted text is pdftotext's output, form feeds
// included, so offsets point into it.
func pdfSections(ctx context.Context, abs string) ([]section, error) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		return nil, tool.Missing("pdftotext", "poppler-utils")
	}
	target := "/tmp/in/" + filepath.Base(abs)
	run, err := jail.Run(ctx, jail.Spec{
		Argv:      []string{bin, "-enc", "UTF-8", target, "-"},
		Env:       []string{"LANG=C.UTF-8"},
		Binds:     []jail.Bind{{Source: abs, Target: target}},
		Timeout:   5 * time.Minute,
		StdoutCap: 256 << 20,
		StderrCap: 4 << 10,
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("run pdftotext: %w", err)
	}
	if run.ExitCode != 0 || run.Signal != "" {
		return nil, fmt.Errorf("pdftotext failed: %s", strings.TrimSpace(run.Stderr+" "+run.Signal))
	}
	if run.StdoutTruncated {
		return nil, fmt.Errorf("pdftotext produced more than 256 MB of text")
	}
	var out []section
	offset := 0
	for i, page := range strings.Split(run.Stdout, "\f") {
		if strings.TrimSpace(page) != "" {
			out = append(out, section{Page: i + 1, Start: offset, Text: page})
		}
		offset += utf8.RuneCountInString(page) + 1 // the form feed
	}
	return out, nil
}

// readFile reads a file to index, refusing one over limit bytes.
func readFile(abs string, limit int64) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%d MB, over the %d MB limit (tools.knowledge_rag.max_file_mb)", st.Size()>>20, limit>>20)
	}
	return os.ReadFile(abs)
}
