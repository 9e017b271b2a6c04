package codeassist

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

const marker = "SECRET_MARKER_26"

// formatOutcome runs format on path and returns everything the client
// would see: the result or the error, as text.
func formatOutcome(t *testing.T, tl tool.Tool, path string) (string, map[string]any) {
	t.Helper()
	res, err := tooltest.Run(t, tl, map[string]any{"action": "format", "path": path})
	if err != nil {
		raw, _ := json.Marshal(err) // a tool.Error's fields: message, hint …
		return err.Error() + " " + string(raw), nil
	}
	raw, _ := json.Marshal(res)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	data, _ := m["Data"].(map[string]any)
	return string(raw), data
}

// Config files that are links to a file outside the workspace, in the
// file's directory or two above it, are never read by the formatter: not
// in its error (clang-format prints the line it cannot parse, black the
// value), and not in the formatting (an outside .editorconfig or
// pyproject.toml setting does not apply). Config files inside apply.
func TestFormat_ConfigLinksOutsideNeverRead(t *testing.T) {
	tl, root := setup(t)
	outside := t.TempDir()
	link := func(name, content, at string) {
		t.Helper()
		target := filepath.Join(outside, name)
		tooltest.WriteFile(t, target, []byte(content))
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, at)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, at)); err != nil {
			t.Fatal(err)
		}
	}
	badYAML := marker + " is the first line\n"
	cases := []struct {
		program, config, file, code string
		outside                     string
		ignored                     string // the config named as left out
		want                        string // the formatting with the defaults
	}{
		{"clang-format", "c1/.clang-format", "c1/a.c", "int f(){return 1;}\n", badYAML, ".clang-format", "int f() { return 1; }\n"},
		{"clang-format", "c2/_clang-format", "c2/x/y/a.c", "int f(){return 1;}\n", badYAML, "_clang-format", "int f() { return 1; }\n"},
		{"clang-format", "c3/.clang-format", "c3/x/y/a.cpp", "int f(){return 1;}\n", "BasedOnStyle: LLVM\nIndentWidth: 8\nAllowShortFunctionsOnASingleLine: None\n# " + marker + "\n", ".clang-format", "int f() { return 1; }\n"},
		{"black", "py/pyproject.toml", "py/pkg/m.py", "x = [1111, 2222, 3333, 4444]\n", "[tool.black]\nline-length = \"" + marker + "\"\n", "pyproject.toml", "x = [1111, 2222, 3333, 4444]\n"},
		{"black", "py2/pyproject.toml", "py2/m.py", "x = [1111, 2222, 3333, 4444]\n", "[tool.black]\nline-length = 20\n# " + marker + "\n", "pyproject.toml", "x = [1111, 2222, 3333, 4444]\n"},
		{"shfmt", "sh/.editorconfig", "sh/x/run.sh", "if true; then\necho hi\nfi\n", "root = true\n[*]\nindent_style = space\nindent_size = 7\n# " + marker + "\n", ".editorconfig", "if true; then\n\techo hi\nfi\n"},
	}
	for _, c := range cases {
		t.Run(c.config, func(t *testing.T) {
			tooltest.NeedProgram(t, c.program)
			link(strings.ReplaceAll(c.config, "/", "_"), c.outside, c.config)
			tooltest.WriteFile(t, filepath.Join(root, c.file), []byte(c.code))
			seen, data := formatOutcome(t, tl, c.file)
			if strings.Contains(seen, marker) {
				t.Fatalf("the outside file reached the client: %s", seen)
			}
			if data == nil || data["formatted"] != c.want {
				t.Fatalf("want the defaults %q, got %s", c.want, seen)
			}
			ignored, _ := json.Marshal(data["configs_ignored"])
			if !strings.Contains(string(ignored), c.ignored) {
				t.Errorf("configs_ignored = %s, want %s named", ignored, c.ignored)
			}
		})
	}
}

// formatsTo formats the workspace file at path and wants want.
func formatsTo(t *testing.T, tl tool.Tool, path, want string) {
	t.Helper()
	if got := run(t, tl, map[string]any{"action": "format", "path": path})["formatted"]; got != want {
		t.Errorf("%s formatted to %q, want %q", path, got, want)
	}
}

// The project's own config files apply from any directory above the file
// up to the workspace root, and black stops at the project root (.git) as
// it does on its own.
func TestFormat_ConfigInsideApplies(t *testing.T) {
	tl, root := setup(t)
	t.Run("clang-format", func(t *testing.T) {
		tooltest.NeedProgram(t, "clang-format")
		tooltest.WriteFile(t, filepath.Join(root, "proj", ".clang-format"), []byte("BasedOnStyle: LLVM\nIndentWidth: 8\nAllowShortFunctionsOnASingleLine: None\n"))
		tooltest.WriteFile(t, filepath.Join(root, "proj", "src", "lib", "a.c"), []byte("int f(){return 1;}\n"))
		formatsTo(t, tl, "proj/src/lib/a.c", "int f() {\n        return 1;\n}\n")
	})
	t.Run("black", func(t *testing.T) {
		tooltest.NeedProgram(t, "black")
		tooltest.WriteFile(t, filepath.Join(root, "pyproject.toml"), []byte("[tool.black]\nline-length = 200\n"))
		tooltest.WriteFile(t, filepath.Join(root, "app", "pyproject.toml"), []byte("[tool.black]\nline-length = 20\n"))
		tooltest.WriteFile(t, filepath.Join(root, "app", "pkg", "m.py"), []byte("x = [1111, 2222, 3333, 4444]\n"))
		formatsTo(t, tl, "app/pkg/m.py", "x = [\n    1111,\n    2222,\n    3333,\n    4444,\n]\n")
		// A repository root without its own pyproject.toml ends the search.
		if err := os.MkdirAll(filepath.Join(root, "app", "repo", ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		tooltest.WriteFile(t, filepath.Join(root, "app", "repo", "m.py"), []byte("x = [1111, 2222, 3333, 4444]\n"))
		formatsTo(t, tl, "app/repo/m.py", "x = [1111, 2222, 3333, 4444]\n")
	})
	t.Run("shfmt", func(t *testing.T) {
		tooltest.NeedProgram(t, "shfmt")
		tooltest.WriteFile(t, filepath.Join(root, ".editorconfig"), []byte("root = true\n[*.sh]\nindent_style = space\nindent_size = 3\n"))
		tooltest.WriteFile(t, filepath.Join(root, "ops", "deploy.sh"), []byte("if true; then\necho hi\nfi\n"))
		formatsTo(t, tl, "ops/deploy.sh", "if true; then\n   echo hi\nfi\n")
	})
}

// A FIFO or a huge file named like a config is left out, without a wait.
func TestFormat_ConfigNotARegularFile(t *testing.T) {
	tooltest.NeedProgram(t, "clang-format")
	tl, root := setup(t)
	tooltest.WriteFile(t, filepath.Join(root, "f", "a.c"), []byte("int f(){return 1;}\n"))
	if err := syscall.Mkfifo(filepath.Join(root, "f", ".clang-format"), 0o644); err != nil {
		t.Fatal(err)
	}
	tooltest.WriteFile(t, filepath.Join(root, "_clang-format"), []byte(strings.Repeat("# pad\n", maxConfig)))
	seen, data := formatOutcome(t, tl, "f/a.c")
	if data == nil || data["formatted"] != "int f() { return 1; }\n" {
		t.Fatalf("got %s", seen)
	}
	if ignored, _ := json.Marshal(data["configs_ignored"]); !strings.Contains(string(ignored), "regular") || !strings.Contains(string(ignored), "larger") {
		t.Errorf("configs_ignored = %s", ignored)
	}
}

// A FIFO given as path is refused at once by every action that reads one,
// not waited on.
func TestReadFile_FIFORefused(t *testing.T) {
	tl, root := setup(t)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	tooltest.WriteFile(t, filepath.Join(root, "a.go"), []byte("package a\n"))
	for _, args := range []map[string]any{
		{"action": "format", "path": "pipe.go"},
		{"action": "analyze", "path": "pipe.go"},
		{"action": "json", "path": "pipe.go"},
		{"action": "diff", "paths": []any{"a.go", "pipe.go"}},
	} {
		_, err := tooltest.Run(t, tl, args)
		te := tooltest.ToolError(t, err, tool.CodeInvalid)
		if !strings.Contains(te.Message, "not a regular file") {
			t.Errorf("%v: %+v", args, te)
		}
	}
}
