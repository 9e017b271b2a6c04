package codeassist

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"clawbridge/tools/tool"
)

// formatter is an external formatter reading code on stdin and writing the
// formatted code on stdout.
type formatter struct {
	program string
	pkg     string                     // Debian package
	args    func(name string) []string // name: the file's name, for the formatter's config and dialect
}

var (
	shfmt       = formatter{"shfmt", "shfmt", func(name string) []string { return []string{"--filename", name} }}
	clangFormat = formatter{"clang-format", "clang-format", func(name string) []string { return []string{"--assume-filename=" + name} }}
	black       = formatter{"black", "black", func(name string) []string { return []string{"--quiet", "--stdin-filename", name, "-"} }}
)

// formatters maps a language to its external formatter; Go and JSON are
// formatted in process. ext is the file extension used when the code came
// as a text, so the formatter picks the right dialect.
var formatters = map[string]struct {
	f   formatter
	ext string
}{
	"shell":      {shfmt, ".sh"},
	"c":          {clangFormat, ".c"},
	"cpp":        {clangFormat, ".cpp"},
	"java":       {clangFormat, ".java"},
	"javascript": {clangFormat, ".js"},
	"typescript": {clangFormat, ".ts"},
	"python":     {black, ".py"},
}

func formatLanguages() []string {
	out := []string{"go", "json"}
	for l := range formatters {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// formatterPrograms are the programs `clawbridge doctor` checks.
func formatterPrograms() map[string]string {
	out := map[string]string{}
	for _, f := range formatters {
		out[f.f.program] = f.f.pkg
	}
	return out
}

func (a *assistant) format(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	src, err := a.readSource(c, "text is the code (then say language), path a workspace file")
	if err != nil {
		return nil, err
	}
	lang := c.Args.String("language")
	if lang == "" {
		if src.path == "" {
			return nil, tool.Invalid("language", "language is required with text", "one of: "+strings.Join(formatLanguages(), ", "))
		}
		if lang = languageOf(src.path); lang == "" || (lang != "go" && lang != "json" && formatters[lang].ext == "") {
			return nil, tool.Invalid("language", fmt.Sprintf("no formatter for %s files", extOrName(src.path)),
				"give language, one of: "+strings.Join(formatLanguages(), ", "))
		}
	}
	var out []byte
	var ran string
	switch lang {
	case "go":
		out, err = format.Source([]byte(src.text))
		if err != nil {
			return nil, tool.Invalid(src.field, "gofmt: "+err.Error(), "fix the syntax error at that line:column first")
		}
		ran = "gofmt (go/format, in process)"
	case "json":
		out, err = indentJSON(src.text, 2)
		if err != nil {
			return nil, err
		}
		ran = "encoding/json indent (in process)"
	default:
		fm := formatters[lang]
		out, ran, err = runFormatter(ctx, fm.f, src, fm.ext)
		if err != nil {
			return nil, err
		}
	}
	formatted := string(out)
	changed := formatted != src.text
	summary := "already formatted"
	if changed {
		summary = "formatted"
	}
	return &tool.Result{
		Summary: fmt.Sprintf("%s %s code with %s", summary, lang, ran),
		Data: map[string]any{
			"language":  lang,
			"formatter": ran,
			"changed":   changed,
			"formatted": formatted,
		},
	}, nil
}

// runFormatter pipes the code through f. When the code came from a file the
// formatter runs in that file's directory under its name, so the project's
// own settings (.clang-format, .editorconfig, pyproject.toml) apply; a text
// is formatted in an empty temporary directory with the defaults.
func runFormatter(ctx context.Context, f formatter, src *source, ext string) ([]byte, string, error) {
	bin, err := exec.LookPath(f.program)
	if err != nil {
		return nil, "", tool.Missing(f.program, f.pkg)
	}
	tmp, err := os.MkdirTemp("", "codeassist-fmt-")
	if err != nil {
		return nil, "", fmt.Errorf("coding_assistant: temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	dir, name := tmp, filepath.Join(tmp, "code"+ext)
	if src.abs != "" {
		dir, name = filepath.Dir(src.abs), src.abs
	}
	cmd := exec.CommandContext(ctx, bin, f.args(name)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(src.text)
	// A scrubbed environment: the formatter needs no secrets, and black's
	// cache goes to the temporary directory rather than a home directory.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "LANG=C.UTF-8", "XDG_CACHE_HOME=" + tmp, "BLACK_CACHE_DIR=" + tmp}
	var stdout, stderr bytes.Buffer
	out := &limited{w: &stdout, n: 4 * maxInput}
	cmd.Stdout, cmd.Stderr = out, &limited{w: &stderr, n: 64 << 10}
	err = cmd.Run()
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if out.cut {
		return nil, "", tool.Errorf(tool.CodeTooLarge, "", "%s wrote more than %d bytes for a %d-byte input", f.program, out.n, len(src.text))
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, "", tool.Invalid(src.field, f.program+" could not format the code: "+firstLines(msg, 8), "fix the syntax error it names, or check language")
		}
		return nil, "", tool.Errorf(tool.CodeFailed, "", "%s: %s", f.program, msg)
	}
	return stdout.Bytes(), f.program + " (" + bin + ")", nil
}

// limited writes at most n bytes to w, drops the rest and says so in cut.
type limited struct {
	w   *bytes.Buffer
	n   int
	cut bool
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room < len(p) {
		if room > 0 {
			l.w.Write(p[:room])
		}
		l.cut = true
		return len(p), nil
	}
	return l.w.Write(p)
}

// firstLines keeps the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}

// extOrName names a file's kind for an error: its extension, or its name.
func extOrName(p string) string {
	if e := filepath.Ext(p); e != "" {
		return e
	}
	return filepath.Base(p)
}
