package codeassist

import (
	"context"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// formatter is an external formatter reading code on stdin and writing the
// formatted code on stdout.
type formatter struct {
	program string
	args    func(name string) []string // name: the file's name, for the formatter's config and dialect
	configs []string                   // files it reads in the file's directory and each one above
	markers []string                   // files or directories whose presence ends its search upwards
}

var (
	shfmt = formatter{program: "shfmt", configs: []string{".editorconfig"},
		args: func(name string) []string { return []string{"--filename", name} }}
	clangFormat = formatter{program: "clang-format", configs: []string{".clang-format", "_clang-format", ".clang-format-ignore"},
		args: func(name string) []string { return []string{"--assume-filename=" + name} }}
	black = formatter{program: "black", configs: []string{"pyproject.toml"}, markers: []string{".git", ".hg"},
		args: func(name string) []string { return []string{"--quiet", "--stdin-filename", name, "-"} }}
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
	var progs []string
	for _, f := range formatters {
		progs = append(progs, f.f.program)
	}
	return tool.ProgramsOf(progs...)
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
	var skipped []string // config files left out
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
		out, ran, skipped, err = a.runFormatter(ctx, fm.f, src, fm.ext)
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
	data := map[string]any{
		"language":  lang,
		"formatter": ran,
		"changed":   changed,
		"formatted": formatted,
	}
	if len(skipped) > 0 {
		data["configs_ignored"] = skipped
	}
	return &tool.Result{Summary: fmt.Sprintf("%s %s code with %s", summary, lang, ran), Data: data}, nil
}

// formatTimeout bounds one formatter run (the call's deadline may be sooner).
const formatTimeout = time.Minute

// jailWorkspace is where the formatter sees the file's place in the
// workspace, inside the jail.
const jailWorkspace = "/workspace"

// runFormatter pipes the code through f in the jail. When the code came
// from a file the formatter runs in that file's directory under its name,
// in a copy of the workspace path that holds only the config files it
// reads (configTree), so the project's own settings apply and nothing else
// of the host is visible; a text is formatted with the defaults. It also
// returns the config files it left out.
func (a *assistant) runFormatter(ctx context.Context, f formatter, src *source, ext string) ([]byte, string, []string, error) {
	tmp, err := os.MkdirTemp("", "codeassist-fmt-")
	if err != nil {
		return nil, "", nil, fmt.Errorf("coding_assistant: temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	rel, skipped := "code"+ext, []string(nil)
	if src.abs != "" {
		if rel, skipped, err = a.configTree(tmp, src.abs, f); err != nil {
			return nil, "", nil, fmt.Errorf("coding_assistant: config copy: %w", err)
		}
	}
	res, err := a.d.Run(ctx, jail.Spec{
		Argv:      append([]string{f.program}, f.args(filepath.Base(rel))...),
		Dir:       filepath.Join(jailWorkspace, filepath.Dir(rel)),
		Env:       []string{"LANG=C.UTF-8"},
		Binds:     []jail.Bind{{Source: tmp, Target: jailWorkspace}},
		Stdin:     strings.NewReader(src.text),
		Timeout:   formatTimeout,
		StdoutCap: 4 * maxInput,
		StderrCap: 64 << 10,
	})
	switch {
	case ctx.Err() != nil:
		return nil, "", nil, ctx.Err()
	case err != nil:
		if te, ok := tool.AsError(err); ok {
			return nil, "", nil, te // not installed
		}
		return nil, "", nil, tool.Errorf(tool.CodeUnavailable, "see clawbridge doctor", "%s cannot run in the jail: %v", f.program, err)
	case res.TimedOut:
		return nil, "", nil, tool.Errorf(tool.CodeTimeout, "format a smaller file", "%s took longer than %s", f.program, formatTimeout)
	case res.StdoutTruncated:
		return nil, "", nil, tool.Errorf(tool.CodeTooLarge, "", "%s wrote more than %d bytes for a %d-byte input", f.program, 4*maxInput, len(src.text))
	case res.Signal != "":
		return nil, "", nil, tool.Errorf(tool.CodeFailed, "format a smaller file", "%s was stopped by %s (a limit of the jail)", f.program, res.Signal)
	case res.ExitCode != 0:
		msg := strings.TrimSpace(res.Stderr)
		if msg == "" {
			msg = fmt.Sprintf("exit status %d", res.ExitCode)
		}
		return nil, "", nil, tool.Invalid(src.field, f.program+" could not format the code: "+firstLines(msg, 8), "fix the syntax error it names, or check language")
	}
	bin, _ := exec.LookPath(f.program) // found: it ran
	return []byte(res.Stdout), f.program + " (" + bin + ")", skipped, nil
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
