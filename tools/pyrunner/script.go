package pyrunner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// program is the script of one run: the code given, or a workspace
// script's bytes as read once. The confirmation shows it and the run
// executes exactly it.
type program struct {
	lang language
	name string // its file name in the work dir
	path string // the workspace path it was read from, "" for code
	code []byte
	// inputs are the `files` as the preview saw them; the run checks the
	// copies it makes against them. Nil without a preview.
	inputs []input
}

// input is one `files` entry: its name in the work dir, size and sha256.
type input struct {
	path, name string
	size       int64
	sum        string
}

// loadScript reads the program of a run call.
func (r *runner) loadScript(c *tool.Call) (*program, error) {
	which, err := c.Args.ExactlyOne("give the program text in code, or a workspace script in path", "code", "path")
	if err != nil {
		return nil, err
	}
	lang, ok := languageOf(c.Args.String("language"), c.Args.String("path"))
	if !ok {
		return nil, tool.Invalid("language", fmt.Sprintf("unknown language %q", c.Args.String("language")), "python or javascript")
	}
	if which == "code" {
		return &program{lang: lang, name: "main" + lang.ext, code: []byte(c.Args.String("code"))}, nil
	}
	p := c.Args.String("path")
	abs, err := r.d.Sandbox.Resolve(p)
	if err != nil {
		return nil, tool.PathError("path", p, err)
	}
	code, err := tool.ReadRegular("path", p, abs, int64(min(r.cfg.MaxInputMB, r.cfg.WorkMB))<<20)
	if err != nil {
		return nil, err
	}
	return &program{lang: lang, name: filepath.Base(abs), path: p, code: code}, nil
}

// Shown code is cut at previewLines lines or previewBytes bytes; the
// sha256 in the first line covers the rest.
const (
	previewLines = 200
	previewBytes = 16 << 10
)

// preview is what the person confirms: the language, the script's size
// and sha256, the other arguments, then the code itself. The script read
// here is the one the run executes (c.Previewed).
func (r *runner) preview(ctx context.Context, c *tool.Call) (string, error) {
	s, err := r.loadScript(c)
	if err != nil {
		return "", err
	}
	if s.inputs, err = r.sumInputs(c.Args.Strings("files")); err != nil {
		return "", err
	}
	c.Previewed = s
	sum := sha256.Sum256(s.code)
	var b strings.Builder
	what := s.lang.name + " code"
	if s.path != "" {
		what = fmt.Sprintf("%s script %s", s.lang.name, s.path)
	}
	fmt.Fprintf(&b, "%s (%d bytes, sha256 %s)", what, len(s.code), hex.EncodeToString(sum[:]))
	rest := map[string]any{}
	for k, v := range c.Args {
		if k != "code" && k != "path" && k != "language" {
			rest[k] = v
		}
	}
	if len(rest) > 0 {
		js, _ := json.Marshal(logging.Redact(rest))
		fmt.Fprintf(&b, "\nwith %s", js)
	}
	for _, in := range s.inputs {
		fmt.Fprintf(&b, "\nfile %s (%d bytes, sha256 %s)", in.path, in.size, in.sum)
	}
	code := strings.ToValidUTF8(string(s.code), "\uFFFD")
	lines := strings.SplitAfter(code, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the end of the last line, not a line
	}
	shown, n := "", 0
	for _, l := range lines {
		if n == previewLines || len(shown)+len(l) > previewBytes {
			break
		}
		shown += l
		n++
	}
	b.WriteString("\n\n" + shown)
	if left := len(lines) - n; left > 0 {
		fmt.Fprintf(&b, "\n… %d more lines not shown (%d bytes; the sha256 above covers them)", left, len(code)-len(shown))
	}
	return b.String(), nil
}

// sumInputs hashes the `files` of a call for its preview. Their bytes are
// not kept (they may be large): the run hashes the copies it makes and
// refuses to run on anything else.
func (r *runner) sumInputs(paths []string) ([]input, error) {
	var out []input
	left := int64(r.cfg.MaxInputMB) << 20
	for _, p := range paths {
		abs, err := r.d.Sandbox.Resolve(p)
		if err != nil {
			return nil, tool.PathError("files", p, err)
		}
		f, _, err := sandbox.OpenRegular(abs, 0)
		if errors.Is(err, sandbox.ErrNotRegular) {
			return nil, tool.Invalid("files", fmt.Sprintf("files: %q is not a regular file", p), "list files, not directories; the code sees each by its base name")
		}
		if err != nil {
			return nil, tool.NotFoundf("files", "list existing workspace files", "files: %q cannot be read", p)
		}
		h := sha256.New()
		n, err := io.Copy(h, io.LimitReader(f, left+1))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("python_runner: read %s: %w", p, err)
		}
		if left -= n; left < 0 {
			return nil, tool.Errorf(tool.CodeTooLarge, "copy in fewer or smaller files, or raise tools.python_runner.max_input_mb",
				"the input files are more than %d MB together", r.cfg.MaxInputMB)
		}
		out = append(out, input{path: p, name: filepath.Base(abs), size: n, sum: hex.EncodeToString(h.Sum(nil))})
	}
	return out, nil
}

// checkInputs refuses a run whose copied-in files differ from the ones the
// person confirmed (one was rewritten in between).
func (p *program) checkInputs(dir string) error {
	for _, in := range p.inputs {
		f, err := os.Open(filepath.Join(dir, in.name))
		if err != nil {
			return fmt.Errorf("python_runner: check %s: %w", in.name, err)
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return fmt.Errorf("python_runner: check %s: %w", in.name, err)
		}
		if hex.EncodeToString(h.Sum(nil)) != in.sum {
			return tool.Errorf(tool.CodeConfirm, "call again: the user is asked about the file as it is now",
				"files: %s changed after it was confirmed; nothing ran", in.path)
		}
	}
	return nil
}
