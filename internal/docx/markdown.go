package docx

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// literal undoes Markdown escapes and character references in text, as
// goldmark's HTML writer does.
func literal(b []byte) string {
	return string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(b))))
}

// FromMarkdown converts Markdown (CommonMark with GFM tables, strikethrough,
// task lists and autolinks) into a .docx file. A paragraph holding only
// "[TOC]" (or "[[TOC]]") becomes a table of contents; "<!-- pagebreak -->",
// "\pagebreak" or "\newpage" on their own start a new page.
func FromMarkdown(md []byte, opts Options) ([]byte, error) {
	blocks, err := ParseMarkdown(md, opts.LoadImage)
	if err != nil {
		return nil, err
	}
	return Write(blocks, opts)
}

func newParser() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAutoHeadingID()))
}

// ParseMarkdown turns Markdown into blocks. loadImage fetches images by
// their destination; nil makes any image an error.
func ParseMarkdown(md []byte, loadImage func(string) ([]byte, error)) ([]Block, error) {
	doc := newParser().Parser().Parse(text.NewReader(md))
	c := &mdConv{src: md, load: loadImage}
	return c.blocks(doc)
}

// InlineMarkdown parses one line of Markdown inline syntax (emphasis, code,
// links) into runs, for structured blocks whose text may carry formatting.
func InlineMarkdown(s string) []Run {
	// Text that looks like a block marker ("1. step", "- item", "# tag",
	// "> quote") is literal here: only inline syntax counts.
	if m := blockMarkerRE.FindStringSubmatchIndex(s); m != nil {
		for g := 1; g*2 < len(m); g++ {
			if at := m[2*g]; at >= 0 {
				s = s[:at] + `\` + s[at:]
				break
			}
		}
	}
	src := []byte(s)
	doc := newParser().Parser().Parse(text.NewReader(src))
	c := &mdConv{src: src}
	var runs []Run
	first := true
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if !first {
			runs = append(runs, Run{Break: true})
		}
		first = false
		runs = append(runs, c.inlines(n, Run{})...)
	}
	if len(runs) == 0 && s != "" {
		return Text(s)
	}
	return mergeRuns(runs)
}

type mdConv struct {
	src  []byte
	load func(string) ([]byte, error)
}

var (
	blockMarkerRE = regexp.MustCompile(`^\s*(?:\d{1,9}([.)])\s|([-+*])\s|(#{1,6})(?:\s|$)|(>)|(=+|-+)\s*$)`)
	pageBreakRE   = regexp.MustCompile(`^\s*(<!--\s*pagebreak\s*-->|\\pagebreak|\\newpage)\s*$`)
	tocRE         = regexp.MustCompile(`^\s*\[\[?(TOC|toc)\]\]?\s*$`)
)

func (c *mdConv) blocks(parent ast.Node) ([]Block, error) {
	var out []Block
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		bs, err := c.block(n)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

func (c *mdConv) lines(n ast.Node) string {
	var b bytes.Buffer
	l := n.Lines()
	for i := 0; i < l.Len(); i++ {
		seg := l.At(i)
		b.Write(seg.Value(c.src))
	}
	return b.String()
}

func (c *mdConv) block(n ast.Node) ([]Block, error) {
	switch v := n.(type) {
	case *ast.Heading:
		return []Block{Heading{Level: v.Level, Runs: c.inlines(v, Run{})}}, nil
	case *ast.Paragraph, *ast.TextBlock:
		raw := strings.TrimSpace(c.lines(n))
		if pageBreakRE.MatchString(raw) {
			return []Block{PageBreak{}}, nil
		}
		if tocRE.MatchString(raw) {
			return []Block{TOC{}}, nil
		}
		return c.paragraph(n)
	case *ast.ThematicBreak:
		return []Block{Rule{}}, nil
	case *ast.FencedCodeBlock:
		lang := ""
		if v.Info != nil {
			lang = string(v.Language(c.src))
		}
		return []Block{CodeBlock{Text: c.lines(n), Language: lang}}, nil
	case *ast.CodeBlock:
		return []Block{CodeBlock{Text: c.lines(n)}}, nil
	case *ast.Blockquote:
		inner, err := c.blocks(n)
		if err != nil {
			return nil, err
		}
		return []Block{Quote{Blocks: inner}}, nil
	case *ast.List:
		l, err := c.list(v)
		if err != nil {
			return nil, err
		}
		return []Block{l}, nil
	case *east.Table:
		return []Block{c.table(v)}, nil
	case *ast.HTMLBlock:
		raw := strings.TrimSpace(c.lines(n))
		if pageBreakRE.MatchString(raw) || strings.Contains(raw, "page-break-") || strings.Contains(raw, "break-after: page") {
			return []Block{PageBreak{}}, nil
		}
		return nil, nil // other raw HTML has no Word equivalent
	}
	if n.HasChildren() {
		return c.blocks(n)
	}
	return nil, nil
}

// paragraph splits out images: a paragraph's images become image blocks in
// place, the text around them stays paragraphs.
func (c *mdConv) paragraph(n ast.Node) ([]Block, error) {
	var out []Block
	var cur []Run
	flush := func() {
		if len(strings.TrimSpace(PlainText(cur))) > 0 {
			out = append(out, Paragraph{Runs: trimRuns(mergeRuns(cur))})
		}
		cur = nil
	}
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if img, ok := ch.(*ast.Image); ok {
			flush()
			b, err := c.image(img)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
			continue
		}
		cur = append(cur, c.inline(ch, Run{})...)
	}
	flush()
	return out, nil
}

func trimRuns(runs []Run) []Run {
	for len(runs) > 0 && (runs[len(runs)-1].Break || strings.TrimSpace(runs[len(runs)-1].Text) == "" && runs[len(runs)-1].Link == "") {
		runs = runs[:len(runs)-1]
	}
	for len(runs) > 0 && runs[0].Break {
		runs = runs[1:]
	}
	return runs
}

func (c *mdConv) image(img *ast.Image) (Block, error) {
	dest := string(img.Destination)
	alt := PlainText(c.inlines(img, Run{}))
	if c.load == nil {
		return nil, fmt.Errorf("markdown: image %q: no image loader configured", dest)
	}
	data, err := c.load(dest)
	if err != nil {
		return nil, fmt.Errorf("markdown: image %q: %w", dest, err)
	}
	caption := string(img.Title)
	return Image{Data: data, Alt: alt, Caption: caption}, nil
}

func (c *mdConv) list(l *ast.List) (List, error) {
	out := List{Ordered: l.IsOrdered(), Start: l.Start}
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		var item ListItem
		first := true
		for ch := it.FirstChild(); ch != nil; ch = ch.NextSibling() {
			switch v := ch.(type) {
			case *ast.Paragraph, *ast.TextBlock:
				runs := c.inlines(v, Run{})
				if first {
					item.Runs = runs
					first = false
				} else {
					item.Children = append(item.Children, Paragraph{Runs: runs})
				}
			case *ast.List:
				sub, err := c.list(v)
				if err != nil {
					return out, err
				}
				item.Children = append(item.Children, sub)
			default:
				bs, err := c.block(ch)
				if err != nil {
					return out, err
				}
				item.Children = append(item.Children, bs...)
			}
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}

func (c *mdConv) table(t *east.Table) Table {
	var out Table
	for _, a := range t.Alignments {
		switch a {
		case east.AlignCenter:
			out.Align = append(out.Align, "center")
		case east.AlignRight:
			out.Align = append(out.Align, "right")
		default:
			out.Align = append(out.Align, "")
		}
	}
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []Cell
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, Cell(c.inlines(cell, Run{})))
		}
		if _, ok := row.(*east.TableHeader); ok {
			out.Header = cells
		} else {
			out.Rows = append(out.Rows, cells)
		}
	}
	return out
}

func (c *mdConv) inlines(n ast.Node, style Run) []Run {
	var out []Run
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		out = append(out, c.inline(ch, style)...)
	}
	return mergeRuns(out)
}

func (c *mdConv) inline(n ast.Node, style Run) []Run {
	switch v := n.(type) {
	case *ast.Text:
		r := style
		r.Text = literal(v.Value(c.src))
		out := []Run{r}
		if v.HardLineBreak() {
			out = append(out, Run{Break: true})
		} else if v.SoftLineBreak() {
			out = append(out, withText(style, " "))
		}
		return out
	case *ast.String:
		return []Run{withText(style, string(v.Value))}
	case *ast.CodeSpan:
		s := style
		s.Code = true
		var b strings.Builder
		for ch := v.FirstChild(); ch != nil; ch = ch.NextSibling() {
			if t, ok := ch.(*ast.Text); ok {
				b.Write(t.Value(c.src))
			} else if t, ok := ch.(*ast.String); ok {
				b.Write(t.Value)
			}
		}
		return []Run{withText(s, b.String())}
	case *ast.Emphasis:
		s := style
		if v.Level >= 2 {
			s.Bold = true
		} else {
			s.Italic = true
		}
		return c.inlines(v, s)
	case *east.Strikethrough:
		s := style
		s.Strike = true
		return c.inlines(v, s)
	case *ast.Link:
		s := style
		s.Link = string(v.Destination)
		return c.inlines(v, s)
	case *ast.AutoLink:
		s := style
		url := string(v.URL(c.src))
		label := string(v.Label(c.src))
		if v.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(url, "mailto:") {
			url = "mailto:" + url
		}
		s.Link = url
		return []Run{withText(s, label)}
	case *ast.Image:
		// An image inside a link or table cell: keep its alt text.
		return c.inlines(v, style)
	case *east.TaskCheckBox:
		if v.IsChecked {
			return []Run{withText(style, "☑ ")}
		}
		return []Run{withText(style, "☐ ")}
	case *ast.RawHTML:
		raw := ""
		for i := 0; i < v.Segments.Len(); i++ {
			seg := v.Segments.At(i)
			raw += string(seg.Value(c.src))
		}
		if strings.EqualFold(strings.ReplaceAll(raw, " ", ""), "<br>") || strings.EqualFold(strings.ReplaceAll(raw, " ", ""), "<br/>") {
			return []Run{{Break: true}}
		}
		return nil
	}
	return c.inlines(n, style)
}

func withText(r Run, s string) Run {
	r.Text = s
	r.Break = false
	return r
}

// mergeRuns joins neighbouring runs of the same formatting (the parser
// splits text at every delimiter it considered).
func mergeRuns(runs []Run) []Run {
	var out []Run
	for _, r := range runs {
		if n := len(out); n > 0 && !r.Break && !out[n-1].Break {
			p := &out[n-1]
			if p.Bold == r.Bold && p.Italic == r.Italic && p.Strike == r.Strike && p.Code == r.Code && p.Link == r.Link {
				p.Text += r.Text
				continue
			}
		}
		out = append(out, r)
	}
	return out
}
