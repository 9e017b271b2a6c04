package convert

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/internal/htmlmd"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func (cv *converter) htmlToMD(_ context.Context, _ *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	md, err := htmlmd.Markdown(src.data)
	if err != nil {
		return nil, nil, err
	}
	return []byte(md), map[string]any{"title": htmlTitle(src.data)}, nil
}

func (cv *converter) htmlToDOCX(_ context.Context, c *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	md, err := htmlmd.Markdown(src.data)
	if err != nil {
		return nil, nil, err
	}
	title := cv.title(c, src, htmlTitle(src.data))
	out, err := docx.FromMarkdown([]byte(md), cv.docxOptions(c, src, title))
	if err != nil {
		return nil, nil, tool.Errorf(tool.CodeFailed, "", "html to docx: %v", err)
	}
	return out, map[string]any{"title": title}, nil
}

func (cv *converter) htmlToText(_ context.Context, _ *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	t, err := htmlText(src.data, src.field())
	return []byte(t), nil, err
}

func htmlTitle(src []byte) string {
	doc, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return ""
	}
	var title string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if title != "" {
			return
		}
		if n.Type == html.ElementNode && (n.DataAtom == atom.Title || n.DataAtom == atom.H1) {
			title = strings.TrimSpace(htmlmd.Text(n))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return title
}

var blockAtoms = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Li: true, atom.Tr: true, atom.Pre: true, atom.Blockquote: true, atom.Section: true, atom.Article: true,
	atom.Header: true, atom.Footer: true, atom.Table: true, atom.Ul: true, atom.Ol: true, atom.Hr: true, atom.Dt: true, atom.Dd: true,
}

// htmlText extracts readable text: block elements on their own lines, table
// cells separated by tabs, scripts and styles dropped. field is the argument
// the HTML came from.
func htmlText(src []byte, field string) (string, error) {
	doc, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return "", tool.Invalidf(field, "", "html: %v", err)
	}
	var b strings.Builder
	pre := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			if pre > 0 {
				b.WriteString(n.Data)
			} else {
				t := strings.Join(strings.Fields(n.Data), " ")
				if t != "" {
					if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") && !strings.HasSuffix(b.String(), " ") && !strings.HasSuffix(b.String(), "\t") && startsWithSpace(n.Data) {
						b.WriteByte(' ')
					}
					b.WriteString(t)
					if endsWithSpace(n.Data) {
						b.WriteByte(' ')
					}
				}
			}
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Head, atom.Noscript, atom.Template:
				return
			case atom.Br:
				b.WriteByte('\n')
				return
			case atom.Pre:
				pre++
				defer func() { pre-- }()
			case atom.Td, atom.Th:
				if n.PrevSibling != nil {
					b.WriteByte('\t')
				}
			case atom.Li:
				newline(&b)
				b.WriteString("- ")
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c)
				}
				newline(&b)
				return
			}
		}
		if n.Type == html.ElementNode && blockAtoms[n.DataAtom] {
			newline(&b)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && blockAtoms[n.DataAtom] {
			newline(&b)
		}
	}
	walk(doc)
	lines := strings.Split(b.String(), "\n")
	var out []string
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n")) + "\n", nil
}

func startsWithSpace(s string) bool { return s != "" && strings.ContainsAny(s[:1], " \t\n\r") }
func endsWithSpace(s string) bool   { return s != "" && strings.ContainsAny(s[len(s)-1:], " \t\n\r") }

func newline(b *strings.Builder) {
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
}

// inlineHTMLImages embeds local <img> sources as data URIs, so the printed
// page shows them without file access.
func (cv *converter) inlineHTMLImages(src []byte, dir string) ([]byte, []string) {
	doc, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return src, nil
	}
	changed := false
	var warns []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Img {
			for i, a := range n.Attr {
				if a.Key != "src" || a.Val == "" || isRemote(a.Val) || strings.HasPrefix(a.Val, "data:") {
					continue
				}
				if uri, err := cv.dataURI(dir, a.Val); err == nil {
					n.Attr[i].Val = uri
					changed = true
				} else {
					warns = append(warns, fmt.Sprintf("image %s not embedded: %v", a.Val, err))
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if !changed {
		return src, warns
	}
	var buf bytes.Buffer
	if err := html.Render(&buf, doc); err != nil {
		return src, warns
	}
	return buf.Bytes(), warns
}
