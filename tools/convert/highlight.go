package convert

// Code highlighting for Markdown fenced code blocks, with chroma's lexers
// and its "github" style carried in chroma/ (see chroma/SOURCES) instead of
// chroma's lexers and styles packages: those parse every one of their ~280
// lexers and ~70 styles in package init, some 13 ms of every process start
// whether or not a document is ever converted. Here the lexers and the style
// are parsed on the first fenced code block that names a language, once.
//
// It does what goldmark-highlighting did with the options used here: the
// language is the info string's first word; a language chroma knows
// (name, alias or file extension, as chroma's registry looks it up) is
// rendered by chroma's HTML formatter with inline styles and a tab width of
// 4; any other block is plain <pre><code class="language-…">. The info
// string's attributes are read as goldmark-highlighting reads them
// (```go {linenos=table,linenostart=10,hl_lines=[2,"4-5"]}; {nohl=true} for plain)
// except hl_style: only the github style is carried, so it is always used.

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gmrenderer "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

//go:embed chroma/lexers/*.xml chroma/styles/github.xml
var chromaFiles embed.FS

// highlighter holds the lexers and the style, built on first use.
type highlighter struct {
	once   sync.Once
	built  atomic.Bool // for the test that a start or a document without code builds nothing
	lexers *chroma.LexerRegistry
	style  *chroma.Style
	err    error
}

// codeHighlighter is the process's one highlighter.
var codeHighlighter = &highlighter{}

func (h *highlighter) load() (*chroma.LexerRegistry, *chroma.Style, error) {
	h.once.Do(func() {
		h.lexers, h.style, h.err = buildHighlighting()
		h.built.Store(true)
	})
	return h.lexers, h.style, h.err
}

// buildHighlighting parses the embedded lexers and style.
func buildHighlighting() (*chroma.LexerRegistry, *chroma.Style, error) {
	reg := chroma.NewLexerRegistry()
	paths, err := fs.Glob(chromaFiles, "chroma/lexers/*.xml")
	if err != nil {
		return nil, nil, err
	}
	for _, p := range paths {
		l, err := chroma.NewXMLLexer(chromaFiles, p)
		if err != nil {
			return nil, nil, fmt.Errorf("lexer %s: %w", p, err)
		}
		reg.Register(l)
	}
	// Upstream registers go_template.xml a second time under this name for
	// the Go lexer's raw strings.
	tmpl, err := chroma.NewXMLLexer(chromaFiles, "chroma/lexers/go_template.xml")
	if err != nil {
		return nil, nil, fmt.Errorf("lexer go_template: %w", err)
	}
	goText := reg.Register(tmpl.SetConfig(&chroma.Config{Name: "Go Text Template", Aliases: []string{"go-text-template"}}))
	goLexer, err := newGoLexer(goText)
	if err != nil {
		return nil, nil, fmt.Errorf("lexer go: %w", err)
	}
	reg.Register(goLexer)
	md, err := newMarkdownLexer(reg)
	if err != nil {
		return nil, nil, fmt.Errorf("lexer markdown: %w", err)
	}
	reg.Register(md)

	f, err := chromaFiles.Open("chroma/styles/github.xml")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	style, err := chroma.NewXMLStyle(f)
	if err != nil {
		return nil, nil, fmt.Errorf("style github: %w", err)
	}
	return reg, style, nil
}

// codeBlockRenderer renders ast.FencedCodeBlock in place of goldmark's own.
type codeBlockRenderer struct {
	h *highlighter
	html.Config
}

func (r *codeBlockRenderer) RegisterFuncs(reg gmrenderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
}

func (r *codeBlockRenderer) render(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	language := n.Language(src)
	var code bytes.Buffer
	for i := 0; i < n.Lines().Len(); i++ {
		line := n.Lines().At(i)
		code.Write(line.Value(src))
	}
	var info []byte
	if n.Info != nil {
		info = n.Info.Segment.Value(src)
	}
	opts, nohl := codeBlockOptions(n, info)
	if language != nil && !nohl {
		lexers, style, err := r.h.load()
		if err != nil {
			return ast.WalkStop, fmt.Errorf("code highlighting: %w", err)
		}
		if lexer := lexers.Get(string(language)); lexer != nil {
			it, err := chroma.Coalesce(lexer).Tokenise(nil, code.String())
			if err == nil {
				f := chromahtml.New(opts...)
				if err := f.Format(w, style, it); err != nil {
					return ast.WalkStop, fmt.Errorf("code highlighting: %w", err)
				}
				return ast.WalkContinue, nil
			}
		}
	}
	// Plain, as goldmark renders a fenced code block.
	_, _ = w.WriteString("<pre><code")
	if language != nil {
		_, _ = w.WriteString(` class="language-`)
		r.Writer.Write(w, language)
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	for i := 0; i < n.Lines().Len(); i++ {
		line := n.Lines().At(i)
		r.Writer.RawWrite(w, line.Value(src))
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkContinue, nil
}

// codeBlockOptions are the formatter options for a block: inline styles and
// a tab width of 4, then what its info string's {…} attributes ask for, read
// as goldmark-highlighting reads them. nohl is true for a block marked nohl.
func codeBlockOptions(n *ast.FencedCodeBlock, info []byte) (opts []chromahtml.Option, nohl bool) {
	opts = []chromahtml.Option{chromahtml.WithClasses(false), chromahtml.TabWidth(4)}
	attrs := infoAttributes(n, info)
	if attrs == nil {
		return opts, false
	}
	base := 1
	if v, ok := attrs.Attribute([]byte("linenostart")); ok {
		if f, ok := v.(float64); ok {
			base = int(f)
			opts = append(opts, chromahtml.BaseLineNumber(base))
		}
	}
	if v, ok := attrs.Attribute([]byte("hl_lines")); ok {
		if lines, ok := v.([]any); ok {
			var ranges [][2]int
			for _, l := range lines {
				switch l := l.(type) {
				case float64:
					ranges = append(ranges, [2]int{int(l) + base - 1, int(l) + base - 1})
				case []byte:
					lo, hi, found := strings.Cut(string(l), "-")
					a, err := strconv.Atoi(lo)
					if err != nil {
						continue
					}
					b := a
					if found {
						if b, err = strconv.Atoi(hi); err != nil {
							continue
						}
					}
					ranges = append(ranges, [2]int{a + base - 1, b + base - 1})
				}
			}
			opts = append(opts, chromahtml.HighlightLines(ranges))
		}
	}
	if _, ok := attrs.Attribute([]byte("nohl")); ok {
		nohl = true
	}
	if v, ok := attrs.Attribute([]byte("linenos")); ok {
		switch v := v.(type) {
		case bool:
			opts = append(opts, chromahtml.WithLineNumbers(v))
		case []byte:
			opts = append(opts, chromahtml.WithLineNumbers(true))
			switch string(v) {
			case "table":
				opts = append(opts, chromahtml.LineNumbersInTable(true))
			case "inline":
				opts = append(opts, chromahtml.LineNumbersInTable(false))
			}
		}
	}
	return opts, nohl
}

// infoAttributes are the block's attributes, or those of a {…} in its info
// string after the language; nil if it has none.
func infoAttributes(n *ast.FencedCodeBlock, info []byte) ast.Node {
	if n.Attributes() != nil {
		return n
	}
	i := bytes.IndexByte(info, '{')
	if i <= 0 {
		return nil
	}
	attrs, ok := parser.ParseAttributes(text.NewReader(info[i:]))
	if !ok {
		return nil
	}
	holder := ast.NewTextBlock()
	for _, a := range attrs {
		holder.SetAttribute(a.Name, a.Value)
	}
	return holder
}
