package knowledge

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/clawbridge/clawbridge/internal/htmlmd"
	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/ooxml"
	"github.com/clawbridge/clawbridge/internal/pdftext"
	"github.com/clawbridge/clawbridge/tools/tool"
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
	".md": "md", ".markdown": "md", ".mdx": "mdx", ".txt": "txt", ".text": "txt",
	".html": "html", ".htm": "html", ".pdf": "pdf", ".docx": "docx",
}

// formatOf names the format of a file, "" when it is not indexed.
func formatOf(path string) string { return formats[strings.ToLower(filepath.Ext(path))] }

// extract reads one file into sections with the readers the document tools
// use: pdftotext in the jail for PDF (a page per form feed), format_converter's
// docx and HTML readers (as Markdown, so their headings are kept).
func extract(ctx context.Context, run jail.Runner, abs string, data []byte) ([]section, error) {
	switch formatOf(abs) {
	case "md":
		return markdownSections(decodeText(data)), nil
	case "mdx":
		return markdownSections(stripJSX(decodeText(data))), nil
	case "txt":
		return []section{{Text: decodeText(data)}}, nil
	case "html":
		md, err := htmlmd.Markdown(data)
		if err != nil {
			return nil, err
		}
		return markdownSections(md), nil
	case "docx":
		md, err := ooxml.Docx(data, true)
		if err != nil {
			return nil, err
		}
		return markdownSections(md), nil
	case "pdf":
		return pdfSections(ctx, run, abs)
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
//
// A leading front matter block (--- ... ---, as static site generators
// write) is not text: its title heads every section of the page, since
// such pages often state their title nowhere else.
func markdownSections(md string) []section {
	var out []section
	var stack []string
	title, body := frontMatter(md)
	path := func() []string {
		h := headingPath(stack)
		if title != "" && (len(h) == 0 || !strings.EqualFold(h[0], title)) {
			h = append([]string{title}, h...)
		}
		return h
	}
	cur := section{Heading: path()}
	var text strings.Builder
	offset, fence := utf8.RuneCountInString(md[:body]), fences{}
	cur.Start = offset
	flush := func() {
		if strings.TrimSpace(text.String()) != "" {
			cur.Text = text.String()
			out = append(out, cur)
		}
		text.Reset()
	}
	for _, line := range strings.SplitAfter(md[body:], "\n") {
		trim := strings.TrimSpace(line)
		if level, heading := atxHeading(trim); !fence.code(trim) && level > 0 && len(line)-len(strings.TrimLeft(line, " ")) < 4 {
			flush()
			if level <= len(stack) {
				stack = stack[:level-1]
			}
			for len(stack) < level-1 {
				stack = append(stack, "")
			}
			stack = append(stack, heading)
			cur = section{Heading: path(), Start: offset}
		}
		text.WriteString(line)
		offset += utf8.RuneCountInString(line)
	}
	flush()
	return out
}

var (
	jsxTag   = regexp.MustCompile(`</?[A-Za-z][\w.]*(?:\s[^<>]*)?/?>`)
	jsxTitle = regexp.MustCompile(`\stitle="([^"]*)"`)
)

// stripJSX blanks what MDX adds to Markdown, outside fenced code: import
// and export lines and JSX tags, keeping a tag's title="…" text (a card's
// heading). Blanks are spaces of the same length, so offsets still point
// into the file.
func stripJSX(mdx string) string {
	var b strings.Builder
	var fence fences
	for _, line := range strings.SplitAfter(mdx, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case fence.code(trim):
		case strings.HasPrefix(trim, "import ") || strings.HasPrefix(trim, "export "):
			line = blank(line)
		default:
			line = jsxTag.ReplaceAllStringFunc(line, func(tag string) string {
				if m := jsxTitle.FindStringSubmatchIndex(tag); m != nil {
					return blank(tag[:m[2]]) + tag[m[2]:m[3]] + blank(tag[m[3]:])
				}
				return blank(tag)
			})
		}
		b.WriteString(line)
	}
	return b.String()
}

// fences follows fenced code blocks (``` or ~~~) through Markdown, line by
// line: what is in them is code, not Markdown.
type fences struct{ open string }

// code reports whether the trimmed line opens, closes or is inside a
// fenced block.
func (f *fences) code(trim string) bool {
	switch {
	case f.open != "":
		if strings.HasPrefix(trim, f.open) {
			f.open = ""
		}
		return true
	case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
		f.open = trim[:3]
		return true
	}
	return false
}

// blank replaces every rune of s but line ends with a space.
func blank(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return r
		}
		return ' '
	}, s)
}

// frontMatter finds a YAML front matter block at the start of md and
// answers its top-level title and the byte offset where the body starts
// (0 when there is no block).
func frontMatter(md string) (title string, body int) {
	rest, ok := strings.CutPrefix(md, "---\n")
	if !ok {
		if rest, ok = strings.CutPrefix(md, "---\r\n"); !ok {
			return "", 0
		}
	}
	at := len(md) - len(rest)
	for _, line := range strings.SplitAfter(rest, "\n") {
		at += len(line)
		trim := strings.TrimRight(line, "\r\n")
		if trim == "---" || trim == "..." {
			return title, at
		}
		if v, ok := strings.CutPrefix(trim, "title:"); ok {
			title = strings.TrimSpace(v)
			if len(title) >= 2 && (title[0] == '"' || title[0] == '\'') && title[len(title)-1] == title[0] {
				title = title[1 : len(title)-1]
			}
		}
	}
	return "", 0 // never closed: not front matter
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

// pdfSections reads the whole file with pdftotext (internal/pdftext) and
// makes a section per page; the extracted text is pdftotext's output, form
// feeds included, so offsets point into it.
func pdfSections(ctx context.Context, run jail.Runner, abs string) ([]section, error) {
	text, err := pdftext.Extract(ctx, run, abs, filepath.Base(abs), pdftext.Options{})
	if err != nil {
		return nil, err
	}
	var out []section
	offset := 0
	for i, page := range strings.Split(text, "\f") {
		if strings.TrimSpace(page) != "" {
			out = append(out, section{Page: i + 1, Start: offset, Text: page})
		}
		offset += utf8.RuneCountInString(page) + 1 // the form feed
	}
	return out, nil
}

// readFile reads a file to index (rel is how the report names it) with the
// one input reader: a regular file of at most limit bytes.
func readFile(rel, abs string, limit int64) ([]byte, error) {
	data, err := tool.ReadRegular("paths", rel, abs, limit)
	if te, ok := tool.AsError(err); ok && te.Code == tool.CodeTooLarge {
		te.Hint = "raise tools.knowledge_rag.max_file_mb"
	}
	return data, err
}
