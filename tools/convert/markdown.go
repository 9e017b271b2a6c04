package convert

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"html/template"
	"mime"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	gmrenderer "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// markdown is goldmark with GitHub Flavored Markdown (tables, task lists,
// strikethrough, autolinks), footnotes and fenced code highlighted by
// chroma with inline styles (highlight.go), so the HTML is self-contained
// and prints the same.
func markdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.Footnote),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(gmrenderer.WithNodeRenderers(
			util.Prioritized(&codeBlockRenderer{h: codeHighlighter, Config: html.NewConfig()}, 200),
		)),
	)
}

// renderMarkdown turns Markdown into an HTML body. Local images (relative
// to dir, inside the workspace) are embedded as data URIs so the result
// stands alone and prints without file access. It also returns the text of
// the first heading.
func (cv *converter) renderMarkdown(src []byte, dir string) (string, string, []string, error) {
	md := markdown()
	doc := md.Parser().Parse(text.NewReader(src))
	var firstHeading string
	var warnings []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.Heading:
			if firstHeading == "" {
				firstHeading = nodeText(x, src)
			}
		case *ast.Image:
			dest := string(x.Destination)
			if isRemote(dest) || strings.HasPrefix(dest, "data:") {
				return ast.WalkContinue, nil
			}
			if uri, err := cv.dataURI(dir, dest); err == nil {
				x.Destination = []byte(uri)
			} else {
				warnings = append(warnings, fmt.Sprintf("image %s not embedded: %v", dest, err))
			}
		}
		return ast.WalkContinue, nil
	})
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		return "", "", nil, fmt.Errorf("markdown: render: %w", err)
	}
	return buf.String(), firstHeading, warnings, nil
}

func nodeText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
			if t, ok := c.(*ast.String); ok {
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

func isRemote(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "//")
}

// dataURI embeds a workspace file.
func (cv *converter) dataURI(dir, ref string) (string, error) {
	ref = strings.TrimPrefix(ref, "file://")
	data, err := cv.readLocal(dir, ref)
	if err != nil {
		return "", err
	}
	mt := mime.TypeByExtension(strings.ToLower(filepath.Ext(ref)))
	if mt == "" {
		mt = http.DetectContentType(data)
	}
	return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

const pageCSS = `
:root { color-scheme: light; }
body { font-family: "Noto Sans CJK SC", "Noto Sans SC", "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC",
  -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.65; color: #1f2328;
  max-width: 860px; margin: 0 auto; padding: 32px 24px; word-wrap: break-word; }
h1, h2, h3, h4, h5, h6 { line-height: 1.3; margin: 1.4em 0 0.6em; page-break-after: avoid; break-after: avoid; }
h1 { font-size: 1.9em; border-bottom: 1px solid #d8dee4; padding-bottom: .3em; }
h2 { font-size: 1.45em; border-bottom: 1px solid #d8dee4; padding-bottom: .3em; }
table { border-collapse: collapse; margin: 1em 0; max-width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 6px 12px; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
tr { page-break-inside: avoid; break-inside: avoid; }
thead { display: table-header-group; }
code, pre, kbd { font-family: "Noto Sans Mono CJK SC", "DejaVu Sans Mono", "Cascadia Mono", Consolas, monospace; }
code { background: #f1f3f5; padding: .1em .35em; border-radius: 4px; font-size: 88%; }
pre { background: #f6f8fa !important; padding: 12px 14px; border-radius: 6px; font-size: 85%; line-height: 1.45;
  white-space: pre-wrap !important; word-break: break-all; overflow-wrap: anywhere; page-break-inside: avoid; }
pre code { background: none; padding: 0; font-size: 100%; }
blockquote { margin: 1em 0; padding: 0 1em; color: #59636e; border-left: 4px solid #d0d7de; }
img { max-width: 100%; page-break-inside: avoid; }
hr { border: 0; border-top: 1px solid #d8dee4; margin: 1.5em 0; }
li:has(> input[type=checkbox]) { list-style: none; margin-left: -1.3em; }
@media print { body { max-width: none; padding: 0; font-size: 11pt; } a { color: inherit; } }
`

var pageTmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
{{.Body}}
</body>
</html>
`))

// page wraps an HTML body into a standalone document.
func page(title, body string) []byte {
	lang := "en"
	if wording.HasCJK(body) {
		lang = "zh-CN"
	}
	var buf bytes.Buffer
	_ = pageTmpl.Execute(&buf, map[string]any{"Lang": lang, "Title": title, "CSS": template.CSS(pageCSS), "Body": template.HTML(body)})
	return buf.Bytes()
}

func (cv *converter) title(c *tool.Call, src *source, heading string) string {
	if t := c.Args.String("title"); t != "" {
		return t
	}
	if heading != "" {
		return heading
	}
	if src.name != "" {
		return strings.TrimSuffix(src.name, filepath.Ext(src.name))
	}
	return "Document"
}

func (cv *converter) mdToHTML(_ context.Context, c *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	body, heading, warns, err := cv.renderMarkdown(src.data, src.dir)
	if err != nil {
		return nil, nil, err
	}
	facts := map[string]any{"title": cv.title(c, src, heading)}
	if len(warns) > 0 {
		facts["warnings"] = warns
	}
	return page(cv.title(c, src, heading), body), facts, nil
}

func (cv *converter) mdToPDF(ctx context.Context, c *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	html, facts, err := cv.mdToHTML(ctx, c, src, "html")
	if err != nil {
		return nil, nil, err
	}
	pdf, err := cv.printPDF(ctx, c, html)
	return pdf, facts, err
}

func (cv *converter) htmlToPDF(ctx context.Context, c *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	html, warns := cv.inlineHTMLImages(src.data, src.dir)
	pdf, err := cv.printPDF(ctx, c, html)
	facts := map[string]any{}
	if len(warns) > 0 {
		facts["warnings"] = warns
	}
	return pdf, facts, err
}

// printPDF renders HTML with Chromium.
func (cv *converter) printPDF(ctx context.Context, c *tool.Call, html []byte) ([]byte, error) {
	if cv.d.PDF == nil {
		return nil, tool.Errorf(tool.CodeUnavailable, "install chromium (apt-get install chromium) and enable the browser in the config; other conversions still work",
			"PDF output needs the Chromium renderer, which is not available on this server")
	}
	opts := tool.PDFOptions{
		PageSize:     c.Args.StringOr("page_size", "A4"),
		Landscape:    c.Args.Bool("landscape", false),
		MarginMM:     c.Args.Float("margin_mm", 15),
		HeaderFooter: c.Args.Bool("page_numbers", false),
	}
	pdf, err := cv.d.PDF.HTMLToPDF(ctx, html, opts)
	if err != nil {
		if te, ok := tool.AsError(err); ok {
			return nil, te
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, tool.Errorf(tool.CodeFailed, "retry; if it persists check clawbridge doctor", "printing to PDF failed: %v", err)
	}
	return pdf, nil
}

func (cv *converter) docxOptions(c *tool.Call, src *source, title string) docx.Options {
	o := docx.Options{
		Title:       title,
		PageSize:    c.Args.StringOr("page_size", "A4"),
		Landscape:   c.Args.Bool("landscape", false),
		MarginMM:    c.Args.Float("margin_mm", 0),
		PageNumbers: c.Args.Bool("page_numbers", false),
		LoadImage: func(ref string) ([]byte, error) {
			if isRemote(ref) {
				return nil, fmt.Errorf("remote images are not fetched: %s", ref)
			}
			return cv.readLocal(src.dir, strings.TrimPrefix(ref, "file://"))
		},
	}
	if wording.HasCJK(string(src.data)) {
		o.Language = "zh-CN"
	}
	return o
}

var mdHeadingRE = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)

func (cv *converter) mdToDOCX(_ context.Context, c *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	heading := ""
	if m := mdHeadingRE.FindSubmatch(src.data); m != nil {
		heading = string(m[1])
	}
	title := cv.title(c, src, heading)
	out, err := docx.FromMarkdown(src.data, cv.docxOptions(c, src, title))
	if err != nil {
		return nil, nil, tool.Errorf(tool.CodeFailed, "check the Markdown (image paths must be inside the workspace)", "md to docx: %v", err)
	}
	return out, map[string]any{"title": title}, nil
}

func (cv *converter) mdToText(ctx context.Context, c *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	body, _, _, err := cv.renderMarkdown(src.data, src.dir)
	if err != nil {
		return nil, nil, err
	}
	t, err := htmlText([]byte(body), src.field())
	return []byte(t), nil, err
}
