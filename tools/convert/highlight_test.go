package convert

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/clawbridge/clawbridge/tools/tooltest"

	// Upstream's lexers and styles, in the test binary only: the reference
	// the carried-over copies are held to.
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// TestHighlight_SameAsChroma holds the embedded lexers and style to chroma's
// own: every name, alias and file extension of an embedded lexer resolves to
// the lexer of that name upstream too, and the HTML of each lexer over a few
// inputs (Go, Markdown with front matter and a nested fence, its own XML) is
// byte for byte what upstream's lexer and "github" style give.
func TestHighlight_SameAsChroma(t *testing.T) {
	reg, style, err := buildHighlighting()
	if err != nil {
		t.Fatal(err)
	}
	up := styles.Get("github")
	if up.Name != "github" {
		t.Fatal("upstream github style missing")
	}
	goSrc := tooltest.ReadFile(t, "highlight_lexers.go")
	mdSrc := "---\ntitle: x\ntags: [a, b]\n---\n# Title\n\n- item *em* `code`\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n"
	format := func(l chroma.Lexer, s *chroma.Style, text string) string {
		it, err := chroma.Coalesce(l).Tokenise(nil, text)
		if err != nil {
			t.Fatalf("%s: %v", l.Config().Name, err)
		}
		var b bytes.Buffer
		if err := chromahtml.New(chromahtml.WithClasses(false), chromahtml.TabWidth(4)).Format(&b, s, it); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if len(reg.Lexers) < 45 {
		t.Fatalf("only %d lexers embedded", len(reg.Lexers))
	}
	for _, l := range reg.Lexers {
		cfg := l.Config()
		names := append([]string{cfg.Name}, cfg.Aliases...)
		for _, f := range cfg.Filenames {
			if ext, ok := strings.CutPrefix(f, "*."); ok && !strings.ContainsAny(ext, "*?[") {
				names = append(names, ext)
			}
		}
		for _, n := range names {
			if upstreamElsewhere[n] {
				continue
			}
			got, want := reg.Get(n), lexers.Get(n)
			if got == nil || want == nil || got.Config().Name != want.Config().Name {
				t.Errorf("Get(%q): embedded %v, upstream %v", n, lexerName(got), lexerName(want))
			}
		}
		upLexer := lexers.Get(cfg.Name)
		if upLexer == nil || testing.Short() { // -short: names only (the HTML comparison compiles every lexer twice)
			continue
		}
		inputs := []string{string(goSrc[:min(len(goSrc), 3072)]), mdSrc}
		if data, err := chromaFiles.ReadFile(path.Join("chroma/lexers", lexerFile(cfg.Name))); err == nil {
			inputs = append(inputs, string(data[:min(len(data), 3072)]))
		}
		for i, in := range inputs {
			if got, want := format(l, style, in), format(upLexer, up, in); got != want {
				t.Errorf("%s, input %d: output differs from upstream\n got: %.300s\nwant: %.300s", cfg.Name, i, got, want)
			}
		}
	}
}

// upstreamElsewhere are extensions of an embedded lexer that upstream
// resolves to a lexer not embedded here (go.tmpl: Cheetah, m: Mathematica);
// here they get the embedded lexer (Go Template, Objective-C).
var upstreamElsewhere = map[string]bool{"go.tmpl": true, "m": true}

func lexerName(l chroma.Lexer) string {
	if l == nil {
		return "none"
	}
	return l.Config().Name
}

// lexerFile guesses the embedded file of a lexer (only used to pick an input).
func lexerFile(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), " ", "_") + ".xml"
}

// TestHighlight_KnownLanguage: a fence naming a language (by alias too)
// gets chroma's inline-styled <pre> with token spans.
func TestHighlight_KnownLanguage(t *testing.T) {
	for _, lang := range []string{"go", "golang", "python", "py", "js", "ts", "sh", "yaml", "sql", "rust", "c++", "dockerfile", "md"} {
		body, _, _, err := (&converter{}).renderMarkdown([]byte("```"+lang+"\nx = \"s\" # 1\n```\n"), "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(body, `<pre style="`) || !strings.Contains(body, `<span style="`) {
			t.Errorf("%s not highlighted: %s", lang, body)
		}
	}
}

// TestHighlight_UnknownLanguagePlain: a fence with a language chroma does
// not know, or none, is plain <pre><code>, escaped, with no chroma styling.
func TestHighlight_UnknownLanguagePlain(t *testing.T) {
	for src, want := range map[string]string{
		"```nosuchlang\n<b>x</b> & y\n```\n": "<pre><code class=\"language-nosuchlang\">&lt;b&gt;x&lt;/b&gt; &amp; y\n</code></pre>\n",
		"```\n<b>x</b>\n```\n":               "<pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n",
		"~~~\nplain\n~~~\n":                  "<pre><code>plain\n</code></pre>\n",
	} {
		body, _, _, err := (&converter{}).renderMarkdown([]byte(src), "")
		if err != nil {
			t.Fatal(err)
		}
		if body != want {
			t.Errorf("%q:\n got %q\nwant %q", src, body, want)
		}
	}
}

// TestHighlight_InfoAttributes: the info string's attributes are read as
// goldmark-highlighting read them: line numbers (in a table, from
// linenostart), highlighted lines and ranges offset by it, nohl for plain.
func TestHighlight_InfoAttributes(t *testing.T) {
	render := func(src string) string {
		body, _, _, err := (&converter{}).renderMarkdown([]byte(src), "")
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	body := render("```go {linenos=table,hl_lines=[2,\"4-5\"],linenostart=10}\na := 1\nb := 2\nc := 3\nd := 4\ne := 5\n```\n")
	if !strings.Contains(body, "<table") || !strings.Contains(body, ">10\n</span>") || !strings.Contains(body, ">14\n</span>") {
		t.Errorf("no line-number table from 10: %s", body)
	}
	if n := strings.Count(body, "display:flex; background-color:"); n != 3 {
		t.Errorf("%d highlighted lines, want 3 (2, 4-5): %s", n, body)
	}
	body = render("```go {linenos=true}\nx := 1\n```\n")
	if strings.Contains(body, "<table") || !strings.Contains(body, ">1</span>") {
		t.Errorf("inline line numbers: %s", body)
	}
	if body := render("```go {nohl=true}\nx := <1>\n```\n"); body != "<pre><code class=\"language-go\">x := &lt;1&gt;\n</code></pre>\n" {
		t.Errorf("nohl: %s", body)
	}
}

// TestHighlight_NotBuiltWithoutCode: neither starting nor converting a
// document without a fenced code block parses the lexers; the first fences
// with a language, in concurrent conversions, do. It runs in a child process, since other tests in
// this one build them.
func TestHighlight_NotBuiltWithoutCode(t *testing.T) {
	if os.Getenv("CONVERT_HIGHLIGHT_CHILD") == "1" {
		if codeHighlighter.built.Load() {
			t.Fatal("lexers built at init")
		}
		e := newEnv(t, false)
		res := e.run(map[string]any{"text": "# T\n\nsome `inline code`\n\n    indented code\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "to": "html", "output": "a.html"})
		if !strings.Contains(string(read(t, res.Files[0].Path)), "<table>") {
			t.Fatal("conversion did not run")
		}
		if codeHighlighter.built.Load() {
			t.Fatal("lexers built by a document without fenced code")
		}
		// The first use, by several conversions at once, builds them once.
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for _, lang := range []string{"python", "yaml", "sql", "bash", "json", "rust", "html", "java"} {
			wg.Go(func() {
				body, _, _, err := (&converter{}).renderMarkdown([]byte("```"+lang+"\nx = 1\n```\n"), "")
				if err != nil || !strings.Contains(body, `<pre style="`) {
					errs <- fmt.Sprintf("%s: %v %s", lang, err, body)
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		res = e.run(map[string]any{"text": "```go\nfunc f() {}\n```\n", "to": "html", "output": "b.html"})
		if !strings.Contains(string(read(t, res.Files[0].Path)), `<span style="`) || !codeHighlighter.built.Load() {
			t.Fatal("a Go fence was not highlighted on first use")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHighlight_NotBuiltWithoutCode$", "-test.v")
	cmd.Env = append(os.Environ(), "CONVERT_HIGHLIGHT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestHighlight_NotBuiltWithoutCode") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// BenchmarkHighlight_Build is what the first fenced code block with a
// language pays, once per process.
func BenchmarkHighlight_Build(b *testing.B) {
	for b.Loop() {
		if _, _, err := buildHighlighting(); err != nil {
			b.Fatal(err)
		}
	}
}
