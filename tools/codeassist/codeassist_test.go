package codeassist

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// setup builds the tool on a fresh workspace.
func setup(t testing.TB) (tool.Tool, string) {
	t.Helper()
	d := tooltest.Deps(t)
	return tooltest.Build(t, New, d), d.Sandbox.Root()
}

func run(t *testing.T, tl tool.Tool, args map[string]any) map[string]any {
	t.Helper()
	return tooltest.JSONMap(t, tooltest.OK(t, tl, args).Data)
}

func TestFormat_GoInProcess(t *testing.T) {
	tl, _ := setup(t)
	m := run(t, tl, map[string]any{"action": "format", "language": "go", "text": "package p\nfunc  f( ) {x:=1\n_=x}\n"})
	if want := "package p\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n"; m["formatted"] != want {
		t.Errorf("formatted = %q, want %q", m["formatted"], want)
	}
	if m["changed"] != true || !strings.Contains(m["formatter"].(string), "gofmt") {
		t.Errorf("changed/formatter: %v", m)
	}
	again := run(t, tl, map[string]any{"action": "format", "language": "go", "text": m["formatted"]})
	if again["changed"] != false {
		t.Errorf("formatted code reported as changed again")
	}
}

func TestFormat_SyntaxErrorIsInvalid(t *testing.T) {
	tl, _ := setup(t)
	_, err := tooltest.Run(t, tl, map[string]any{"action": "format", "language": "go", "text": "package p\nfunc f( {\n"})
	te := tooltest.ToolError(t, err, tool.CodeInvalid)
	if !strings.Contains(te.Message, "2:") {
		t.Errorf("no line in %q", te.Message)
	}
	tooltest.NeedProgram(t, "black")
	_, err = tooltest.Run(t, tl, map[string]any{"action": "format", "language": "python", "text": "def (:\n"})
	te = tooltest.ToolError(t, err, tool.CodeInvalid)
	if !strings.Contains(te.Message, "black") {
		t.Errorf("message does not name the formatter: %q", te.Message)
	}
}

// Every external formatter runs on a text and on a workspace file, and the
// result names the program that ran.
func TestFormat_ExternalFormatters(t *testing.T) {
	tl, root := setup(t)
	for _, c := range []struct {
		lang, program, ext, in, want string
	}{
		{"shell", "shfmt", ".sh", "if [ -n \"$x\" ];then\necho  hi\nfi\n", "if [ -n \"$x\" ]; then\n\techo hi\nfi\n"},
		{"c", "clang-format", ".c", "int main(){return 0;}\n", "int main() { return 0; }\n"},
		{"cpp", "clang-format", ".cpp", "namespace a{int f(int x){return x*2;}}\n", "namespace a {\nint f(int x) { return x * 2; }\n} // namespace a\n"},
		{"javascript", "clang-format", ".js", "function f(a,b){return a+b}\n", "function f(a, b) { return a + b }\n"},
		{"python", "black", ".py", "x=[1,2 ,3]\ndef f( a ):\n  return a\n", "x = [1, 2, 3]\n\n\ndef f(a):\n    return a\n"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			tooltest.NeedProgram(t, c.program)
			m := run(t, tl, map[string]any{"action": "format", "language": c.lang, "text": c.in})
			if m["formatted"] != c.want {
				t.Errorf("formatted = %q, want %q", m["formatted"], c.want)
			}
			if !strings.HasPrefix(m["formatter"].(string), c.program+" (") {
				t.Errorf("formatter = %q, want %s", m["formatter"], c.program)
			}
			// From a file the language comes from the extension.
			tooltest.WriteFile(t, filepath.Join(root, "src", "code"+c.ext), []byte(c.in))
			m = run(t, tl, map[string]any{"action": "format", "path": "src/code" + c.ext})
			if m["formatted"] != c.want || m["language"] != c.lang {
				t.Errorf("from path: %v", m)
			}
			if data, _ := os.ReadFile(filepath.Join(root, "src", "code"+c.ext)); string(data) != c.in {
				t.Error("format changed the file; the tool is read-only")
			}
		})
	}
}

// A file is formatted under its project's own settings.
func TestFormat_ProjectSettingsApply(t *testing.T) {
	tooltest.NeedProgram(t, "clang-format")
	tl, root := setup(t)
	tooltest.WriteFile(t, filepath.Join(root, "proj", ".clang-format"), []byte("BasedOnStyle: LLVM\nIndentWidth: 8\nAllowShortFunctionsOnASingleLine: None\n"))
	tooltest.WriteFile(t, filepath.Join(root, "proj", "a.c"), []byte("int f(){return 1;}\n"))
	formatsTo(t, tl, "proj/a.c", "int f() {\n        return 1;\n}\n") // the project's .clang-format
}

func TestFormat_UnknownLanguageIsAnError(t *testing.T) {
	tl, root := setup(t)
	tooltest.WriteFile(t, filepath.Join(root, "notes.xyz"), []byte("hello"))
	_, err := tooltest.Run(t, tl, map[string]any{"action": "format", "path": "notes.xyz"})
	te := tooltest.ToolError(t, err, tool.CodeInvalid)
	if te.Field != "language" || !strings.Contains(te.Hint, "python") {
		t.Errorf("error %+v should name language and list the languages", te)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "format", "text": "x"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
	_, err = tooltest.Run(t, tl, map[string]any{"action": "format", "text": "x", "language": "cobol"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
	// Rust files have no formatter here: refused, not passed through unchanged.
	tooltest.WriteFile(t, filepath.Join(root, "m.rs"), []byte("fn main(){}\n"))
	_, err = tooltest.Run(t, tl, map[string]any{"action": "format", "path": "m.rs"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

func TestFormat_MissingFormatterNamesPackage(t *testing.T) {
	tl, _ := setup(t)
	t.Setenv("PATH", t.TempDir())
	_, err := tooltest.Run(t, tl, map[string]any{"action": "format", "language": "shell", "text": "echo hi\n"})
	te := tooltest.ToolError(t, err, tool.CodeUnavailable)
	if !strings.Contains(te.Hint, "apt-get install shfmt") {
		t.Errorf("hint %q does not name the package", te.Hint)
	}
}

func TestFormat_OutsideWorkspaceDenied(t *testing.T) {
	tl, _ := setup(t)
	secret := filepath.Join(t.TempDir(), "secret.go")
	tooltest.WriteFile(t, secret, []byte("package secret\n"))
	for _, p := range []string{secret, "../../" + filepath.Base(secret)} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": "format", "path": p})
		tooltest.ToolError(t, err, tool.CodeDenied)
	}
}

const goSample = `package calc

// Sign has complexity 3.
func Sign(x int) int {
	if x > 0 {
		return 1
	} else if x < 0 {
		return -1
	}
	return 0
}

type T struct{}

func (t *T) Both(a, b bool, _ string) (bool, error) {
	return a && b || !a, nil
}

var handler = func() {}
`

func TestAnalyze_GoFunctions(t *testing.T) {
	tl, _ := setup(t)
	m := run(t, tl, map[string]any{"action": "analyze", "language": "go", "text": goSample})
	fns := m["go_functions"].([]any)
	got := map[string]map[string]any{}
	for _, f := range fns {
		f := f.(map[string]any)
		got[f["name"].(string)] = f
	}
	for name, want := range map[string][4]float64{ // complexity, lines, params, results
		"Sign":      {3, 8, 1, 1},
		"(*T).Both": {3, 3, 3, 2},
		"handler":   {1, 1, 0, 0},
	} {
		f := got[name]
		if f == nil {
			t.Errorf("%s missing from %v", name, fns)
			continue
		}
		if have := [4]float64{f["complexity"].(float64), f["lines"].(float64), f["params"].(float64), f["results"].(float64)}; have != want {
			t.Errorf("%s: complexity, lines, params, results = %v, want %v", name, have, want)
		}
	}
	pkg := m["go_packages"].([]any)[0].(map[string]any)
	if pkg["name"] != "calc" || pkg["functions"] != 3.0 || pkg["complexity_total"] != 7.0 || pkg["complexity_max"] != 3.0 {
		t.Errorf("package totals: %v", pkg)
	}
	lines := m["languages"].(map[string]any)["go"].(map[string]any)
	if lines["lines"] != 19.0 || lines["comment"] != 1.0 || lines["blank"] != 4.0 || lines["code"] != 14.0 {
		t.Errorf("go line counts: %v", lines)
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "analyze", "language": "go", "text": "package p\nfunc {"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

// Line kinds and functions for the other languages: each sample has
// comments in every form the language has, a comment marker inside a
// string, and a known set of functions.
func TestAnalyze_OtherLanguages(t *testing.T) {
	tl, _ := setup(t)
	for _, c := range []struct {
		lang, code                   string
		lines, code_, comment, blank int
		funcs                        []string
	}{
		{"python", "#!/usr/bin/env python3\n# a comment\nimport os\n\n\ndef main(argv):\n    s = \"# not a comment\"\n    return s  # trailing\n\nasync def fetch():\n    pass\n\nclass A:\n    def method(self):\n        '''doc'''\n",
			15, 9, 2, 4, []string{"main", "fetch", "method"}},
		{"javascript", "// header\n/* block\n   comment */\nfunction add(a, b) {\n  return a + b; // sum\n}\n\nconst mul = (a, b) => a * b;\nconst s = \"// not a comment\";\nclass K {\n  area() {\n    return 1;\n  }\n}\nconst t = `multi\n// inside a template\nline`;\n",
			17, 13, 3, 1, []string{"add", "mul", "area"}},
		{"typescript", "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n\nexport const twice = (n: number): number => n * 2;\n/** doc */\n",
			6, 4, 1, 1, []string{"greet", "twice"}},
		{"java", "package a;\n\n/** Doc. */\npublic class Hello {\n    // field\n    private int n;\n\n    public Hello(int n) { this.n = n; }\n\n    public static void main(String[] args) {\n        if (args.length > 0) {\n            System.out.println(\"/* no */\");\n        }\n    }\n\n    private List<String> names() {\n        return null;\n    }\n}\n",
			19, 13, 2, 4, []string{"Hello", "main", "names"}},
		{"c", "#include <stdio.h>\n\n/* add two numbers */\nstatic int add(int a, int b)\n{\n    return a + b;\n}\n\nint main(void) {\n    printf(\"%d // no\\n\", add(1, 2));\n    return 0;\n}\nint proto(int);\n",
			13, 10, 1, 2, []string{"add", "main"}},
		{"cpp", "// c++\nnamespace n {\nstd::string Widget::name() const {\n  return \"w\";\n}\n}\n",
			6, 5, 1, 0, []string{"Widget::name"}},
		{"rust", "//! crate doc\nuse std::io;\n\n/// Adds.\npub fn add(a: i32, b: i32) -> i32 {\n    a + b /* inline */\n}\n\nasync fn run() {}\npub(crate) unsafe fn raw() {}\n",
			10, 6, 2, 2, []string{"add", "run", "raw"}},
		{"shell", "#!/bin/sh\n# deploy\nset -eu\n\nusage() {\n  echo \"usage: # not a comment\"\n}\nfunction main {\n  echo ${#1} # count\n}\nmain \"$@\"\n",
			11, 8, 2, 1, []string{"usage", "main"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			m := run(t, tl, map[string]any{"action": "analyze", "language": c.lang, "text": c.code})
			l := m["languages"].(map[string]any)[c.lang].(map[string]any)
			have := [4]float64{l["lines"].(float64), l["code"].(float64), l["comment"].(float64), l["blank"].(float64)}
			if want := [4]float64{float64(c.lines), float64(c.code_), float64(c.comment), float64(c.blank)}; have != want {
				t.Errorf("lines, code, comment, blank = %v, want %v", have, want)
			}
			var names []string
			for _, f := range m["files_detail"].([]any)[0].(map[string]any)["functions"].([]any) {
				names = append(names, f.(map[string]any)["name"].(string))
			}
			if !slices.Equal(names, c.funcs) {
				t.Errorf("functions = %v, want %v", names, c.funcs)
			}
		})
	}
}

func TestAnalyze_DirectoryStaysInside(t *testing.T) {
	tl, root := setup(t)
	tooltest.WriteFile(t, filepath.Join(root, "proj", "main.go"), []byte(goSample))
	tooltest.WriteFile(t, filepath.Join(root, "proj", "tools", "gen.py"), []byte("def gen():\n    pass\n"))
	tooltest.WriteFile(t, filepath.Join(root, "proj", ".git", "hook.sh"), []byte("hidden() { :; }\n"))
	tooltest.WriteFile(t, filepath.Join(root, "proj", "node_modules", "dep.js"), []byte("function dep() {}\n"))
	tooltest.WriteFile(t, filepath.Join(root, "proj", "broken.go"), []byte("package calc\nfunc {\n"))
	outside := t.TempDir()
	tooltest.WriteFile(t, filepath.Join(outside, "secret.py"), []byte("def secret():\n    pass\n"))
	if err := os.Symlink(outside, filepath.Join(root, "proj", "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(root, "proj", "link.py")); err != nil {
		t.Fatal(err)
	}
	m := run(t, tl, map[string]any{"action": "analyze", "path": "proj"})
	if m["files"] != 2.0 {
		t.Errorf("files = %v, want 2 (main.go, tools/gen.py): %v", m["files"], m)
	}
	if raw, _ := json.Marshal(m); strings.Contains(string(raw), "secret") || strings.Contains(string(raw), "hidden") {
		t.Errorf("analysis left the directory or read a hidden one: %s", raw)
	}
	if errs, _ := m["errors"].([]any); len(errs) != 1 || !strings.Contains(errs[0].(string), "broken.go") {
		t.Errorf("errors = %v, want the broken file named", m["errors"])
	}
	m = run(t, tl, map[string]any{"action": "analyze", "path": "proj", "language": "python"})
	if m["files"] != 1.0 {
		t.Errorf("language filter: %v", m)
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "analyze", "path": outside})
	tooltest.ToolError(t, err, tool.CodeDenied)
	tooltest.WriteFile(t, filepath.Join(root, "docs", "readme.txt"), []byte("text\n"))
	_, err = tooltest.Run(t, tl, map[string]any{"action": "analyze", "path": "docs"})
	tooltest.ToolError(t, err, tool.CodeInvalid) // no source files of a known language
}

func TestDiff_TextsWithContextAndStats(t *testing.T) {
	tl, _ := setup(t)
	var a, b []string
	for i := 1; i <= 20; i++ {
		a = append(a, "line "+string(rune('a'+i)))
	}
	b = slices.Clone(a)
	b[4] = "changed five"
	b = slices.Insert(b, 15, "new one", "new two")
	oldT, newT := strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n"
	m := run(t, tl, map[string]any{"action": "diff", "old_text": oldT, "new_text": newT})
	if m["added"] != 3.0 || m["removed"] != 1.0 || m["hunks"] != 2.0 || m["identical"] != false {
		t.Errorf("stats: %v", m)
	}
	d := m["diff"].(string)
	if !strings.HasPrefix(d, "--- old\n+++ new\n@@ -2,7 +2,7 @@\n") || !strings.Contains(d, "\n-line f\n+changed five\n") {
		t.Errorf("diff:\n%s", d)
	}
	// GNU patch, not the diff library, checks that the diff is a real one.
	patch := tooltest.NeedProgram(t, "patch")
	dir := t.TempDir()
	tooltest.WriteFile(t, filepath.Join(dir, "f"), []byte(oldT))
	cmd := exec.Command(patch, "-s", "f")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(d)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch refused the diff: %v %s\n%s", err, out, d)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "f")); string(got) != newT {
		t.Errorf("the diff does not turn old into new:\n%s", got)
	}
	wide := run(t, tl, map[string]any{"action": "diff", "old_text": oldT, "new_text": newT, "context": 10})
	if wide["hunks"] != 1.0 {
		t.Errorf("context 10 should merge the hunks: %v", wide["hunks"])
	}
	zero := run(t, tl, map[string]any{"action": "diff", "old_text": oldT, "new_text": newT, "context": 0})
	if strings.Contains(zero["diff"].(string), " line") {
		t.Errorf("context 0 still shows context:\n%s", zero["diff"])
	}
	same := run(t, tl, map[string]any{"action": "diff", "old_text": oldT, "new_text": oldT})
	if same["identical"] != true || same["diff"] != "" {
		t.Errorf("identical: %v", same)
	}
}

func TestDiff_WorkspaceFiles(t *testing.T) {
	tl, root := setup(t)
	tooltest.WriteFile(t, filepath.Join(root, "v1", "main.go"), []byte("package main\n\nfunc main() {}\n"))
	tooltest.WriteFile(t, filepath.Join(root, "v2", "main.go"), []byte("package main\n\nfunc main() { println(1) }\n"))
	m := run(t, tl, map[string]any{"action": "diff", "paths": []any{"v1/main.go", "v2/main.go"}})
	if !strings.HasPrefix(m["diff"].(string), "--- a/v1/main.go\n+++ b/v2/main.go\n") || m["added"] != 1.0 || m["removed"] != 1.0 {
		t.Errorf("file diff: %v", m)
	}
	tooltest.WriteFile(t, filepath.Join(root, "bin.dat"), []byte{0, 1, 2})
	for _, c := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"paths": []any{"v1/main.go"}}, tool.CodeInvalid},
		{map[string]any{"paths": []any{"v1/main.go", "bin.dat"}}, tool.CodeInvalid},
		{map[string]any{"paths": []any{"v1/main.go", "nope.go"}}, tool.CodeNotFound},
		{map[string]any{"paths": []any{"v1/main.go", "/etc/passwd"}}, tool.CodeDenied},
		{map[string]any{"old_text": "a"}, tool.CodeInvalid},
		{map[string]any{"old_text": "a", "new_text": "b", "paths": []any{"v1/main.go", "v2/main.go"}}, tool.CodeInvalid},
	} {
		c.args["action"] = "diff"
		_, err := tooltest.Run(t, tl, c.args)
		tooltest.ToolError(t, err, c.code)
	}
}

func TestJSON_ValidateReportsLineAndColumn(t *testing.T) {
	tl, _ := setup(t)
	for _, c := range []struct {
		text      string
		line, col float64
	}{
		{"{\n  \"a\": 1,\n  \"b\": 2,\n}", 4, 1}, // trailing comma: the } is the error
		{"{\"a\": tru}", 1, 10},                  // bad literal
		{"[1, 2]\n[3]", 2, 1},                    // a second value
		{"{\n  \"名字\": \"x\" \"y\"\n}", 2, 13},   // columns count characters
		{"{\"a\": [1, 2", 1, 12},                 // not closed
		{"  ", 1, 1},                             // empty
	} {
		m := run(t, tl, map[string]any{"action": "json", "text": c.text})
		if m["valid"] != false || m["line"] != c.line || m["column"] != c.col {
			t.Errorf("%q: valid %v at %v:%v (%v), want %v:%v", c.text, m["valid"], m["line"], m["column"], m["error"], c.line, c.col)
		}
	}
}

func TestJSON_PrettyPrintKeepsOrder(t *testing.T) {
	tl, _ := setup(t)
	m := run(t, tl, map[string]any{"action": "json", "text": `{"z":1,"a":[1,{"b":null}]}`})
	if want := "{\n  \"z\": 1,\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ]\n}\n"; m["pretty"] != want {
		t.Errorf("pretty = %q", m["pretty"])
	}
	m = run(t, tl, map[string]any{"action": "json", "text": "{ \"z\" : 1 }", "indent": 0})
	if m["pretty"] != `{"z":1}` {
		t.Errorf("compact = %q", m["pretty"])
	}
}

func TestJSON_JQQueries(t *testing.T) {
	tl, _ := setup(t)
	doc := `{"items":[{"name":"a","price":5},{"name":"b","price":15},{"name":"c","price":25}],"id":12345678901234567890}`
	m := run(t, tl, map[string]any{"action": "json", "text": doc, "query": ".items[] | select(.price > 10) | .name"})
	if raw, _ := json.Marshal(m["results"]); string(raw) != `["b","c"]` {
		t.Errorf("results = %s", raw)
	}
	// Big integers stay exact.
	tl2, _ := setup(t)
	res := tooltest.OK(t, tl2, map[string]any{"action": "json", "text": doc, "query": ".id"})
	if raw, _ := json.Marshal(res.Data.(map[string]any)["results"]); string(raw) != `[12345678901234567890]` {
		t.Errorf(".id = %s", raw)
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "json", "text": doc, "query": ".items[ | x"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
	_, err = tooltest.Run(t, tl, map[string]any{"action": "json", "text": doc, "query": ".items | error(\"boom\")"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

// jq sees no environment, no other input and no modules, and an endless
// query is cut by its result cap or by the call's deadline.
func TestJSON_JQConfined(t *testing.T) {
	tl, root := setup(t)
	t.Setenv("CODEASSIST_TEST_SECRET", "hunter2")
	tooltest.WriteFile(t, filepath.Join(root, "mod.jq"), []byte("def f: 1;"))
	m := run(t, tl, map[string]any{"action": "json", "text": "{}", "query": "[$ENV, env] | map(length)"})
	if raw, _ := json.Marshal(m["results"]); string(raw) != `[[0,0]]` {
		t.Errorf("jq saw an environment: %s", raw)
	}
	for _, q := range []string{"input", "[inputs]", `include "mod"; f`, `import "mod" as m; m::f`, "input_filename", "$__loc__ | debug"} {
		res, err := tooltest.Run(t, tl, map[string]any{"action": "json", "text": "{}", "query": q})
		if err == nil {
			if raw, _ := json.Marshal(res.Data); strings.Contains(string(raw), "def f") {
				t.Errorf("%s read a file: %s", q, raw)
			}
			continue
		}
		tooltest.ToolError(t, err, tool.CodeInvalid)
	}
	m = run(t, tl, map[string]any{"action": "json", "text": "0", "query": "repeat(.+1)"})
	if m["count"] != float64(maxJQResults) || m["truncated"] == nil {
		t.Errorf("endless output not capped: count %v truncated %v", m["count"], m["truncated"])
	}
	c, err := tl.Prepare(map[string]any{"action": "json", "text": "0", "query": "last(range(1e18))"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = tl.Handle(ctx, c)
	tooltest.ToolError(t, err, tool.CodeTimeout)
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("the endless query ran %s past a 300 ms deadline", el)
	}
}

func TestRegex_GroupsAndPositions(t *testing.T) {
	tl, _ := setup(t)
	m := run(t, tl, map[string]any{"action": "regex", "pattern": `(?P<key>[\p{L}\d_]+)=(\d+)?`,
		"samples": []any{"a=1 b=", "名字=42", "none here"}, "replace": "${key}:$2"})
	if m["matched"] != 2.0 || m["groups"] != 2.0 || !strings.Contains(m["syntax"].(string), "RE2") {
		t.Fatalf("summary: %v", m)
	}
	res := m["results"].([]any)
	first := res[0].(map[string]any)["matches"].([]any)
	if len(first) != 2 {
		t.Fatalf("matches in sample 1: %v", first)
	}
	b := first[1].(map[string]any)
	g2 := b["groups"].([]any)[1].(map[string]any)
	if b["text"] != "b=" || b["start"] != 4.0 || g2["matched"] != false {
		t.Errorf("second match: %v", b)
	}
	cjk := res[1].(map[string]any)["matches"].([]any)[0].(map[string]any)
	key := cjk["groups"].([]any)[0].(map[string]any)
	if key["name"] != "key" || key["text"] != "名字" || key["end"] != 2.0 || key["byte_end"] != 6.0 || cjk["end"] != 5.0 {
		t.Errorf("CJK positions (characters and bytes): %v", cjk)
	}
	if res[0].(map[string]any)["replaced"] != "a:1 b:" || res[2].(map[string]any)["matched"] != false {
		t.Errorf("replace/no match: %v", res)
	}
}

func TestRegex_NonRE2PatternsExplained(t *testing.T) {
	tl, _ := setup(t)
	for pattern, want := range map[string]string{`foo(?=bar)`: "lookahead", `(a)\1`: "backreferences", `[`: "RE2"} {
		_, err := tooltest.Run(t, tl, map[string]any{"action": "regex", "pattern": pattern, "samples": []any{"x"}})
		te := tooltest.ToolError(t, err, tool.CodeInvalid)
		if te.Field != "pattern" || !strings.Contains(te.Hint, want) {
			t.Errorf("%s: %+v, want a hint about %s", pattern, te, want)
		}
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "regex", "pattern": "a", "samples": []any{}})
	tooltest.ToolError(t, err, tool.CodeInvalid)
	many := make([]any, maxSamples+1)
	for i := range many {
		many[i] = "a"
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "regex", "pattern": "a", "samples": many})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

// Every action is read-only, so the tool's annotations say so.
func TestTool_ReadOnly(t *testing.T) {
	tl, _ := setup(t)
	for _, a := range tl.Actions {
		if a.Level != tool.Read {
			t.Errorf("%s is %s, want read", a.Name, a.Level)
		}
	}
	if an := tl.Annotations(); !an.ReadOnly || an.Destructive || an.OpenWorld {
		t.Errorf("annotations %+v", an)
	}
}
