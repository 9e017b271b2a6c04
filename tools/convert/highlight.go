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
// 4; any other block is plain <pre><code class="language-…">. Unlike
// goldmark-highlighting, the {hl_lines=… linenos=… hl_style=… nohl} info
// string attributes are not read.

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark/ast"
	gmrenderer "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
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
	if language != nil {
		lexers, style, err := r.h.load()
		if err != nil {
			return ast.WalkStop, fmt.Errorf("code highlighting: %w", err)
		}
		if lexer := lexers.Get(string(language)); lexer != nil {
			it, err := chroma.Coalesce(lexer).Tokenise(nil, code.String())
			if err == nil {
				f := chromahtml.New(chromahtml.WithClasses(false), chromahtml.TabWidth(4))
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
