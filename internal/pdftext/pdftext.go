// Package pdftext reads a PDF's text layer with poppler's pdftotext (and its
// facts with pdfinfo): one extractor, with one set of answers for what goes
// wrong, for pdf_tool's extract_text, knowledge_rag's indexing and
// format_converter's checks.
// pdftotext parses an untrusted file, so it runs in the jail seeing only that
// file, read-only.
package pdftext

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/clawbridge/clawbridge/internal/wording"
)

// Options choose what pdftotext reads.
type Options struct {
	// First and Last bound the pages read (1-based); 0 means the document's
	// first or last page.
	First, Last int
	Layout      bool   // keep the physical layout (columns, tables)
	Password    string // opens an encrypted document
	// MaxBytes caps the text; 0 means 256 MB. Past it Extract fails, unless
	// Partial is set, when the text is cut there (enough is known by then).
	MaxBytes int
	Partial  bool
}

const defaultMax = 256 << 20

// Extract returns pdftotext's text of abs, each page ended by a form feed
// (the text's own control characters, U+000C included, come out as spaces,
// so the form feeds are its page breaks). name is how messages call the
// file: its workspace path, never the host path. run is the caller's
// runner (a tool's Deps.Run), which hides the data dir and answers a
// missing poppler.
func Extract(ctx context.Context, run jail.Runner, abs, name string, o Options) (string, error) {
	max := o.MaxBytes
	if max <= 0 {
		max = defaultMax
	}
	var args []string
	if o.First > 0 {
		args = append(args, "-f", strconv.Itoa(o.First))
	}
	if o.Last > 0 {
		args = append(args, "-l", strconv.Itoa(o.Last))
	}
	if o.Layout {
		args = append(args, "-layout")
	}
	if o.Password != "" {
		args = append(args, "-opw", o.Password, "-upw", o.Password)
	}
	text, truncated, err := poppler(ctx, run, "pdftotext", abs, name, append([]string{"-enc", "UTF-8"}, args...), max)
	if err != nil {
		return "", err
	}
	if truncated && !o.Partial {
		return "", toolerr.Errorf(toolerr.CodeTooLarge, "read fewer pages at a time", "%s has more than %s of text", name, size(max))
	}
	return text, nil
}

// Info is poppler's pdfinfo answer for abs: the page count, whether it is
// encrypted, and the document's own strings (which come first and may
// imitate pdfinfo's lines).
func Info(ctx context.Context, run jail.Runner, abs, name string) (string, error) {
	out, _, err := poppler(ctx, run, "pdfinfo", abs, name, nil, 1<<20)
	return out, err
}

// poppler runs one of poppler's programs over abs in the jail, seeing only
// that file, read-only, and returns what it printed (at most max bytes, and
// whether there was more).
func poppler(ctx context.Context, run jail.Runner, prog, abs, name string, args []string, max int) (string, bool, error) {
	target := "/tmp/in/" + filepath.Base(abs)
	argv := append(append([]string{prog}, args...), target)
	if prog == "pdftotext" {
		argv = append(argv, "-") // to stdout
	}
	res, err := run(ctx, jail.Spec{
		Argv:      argv,
		Env:       []string{"LANG=C.UTF-8"},
		Binds:     []jail.Bind{{Source: abs, Target: target}},
		Timeout:   5 * time.Minute,
		StdoutCap: max,
		StderrCap: 4 << 10,
	})
	if err != nil {
		if ctx.Err() != nil {
			return "", false, ctx.Err()
		}
		if te, ok := toolerr.As(err); ok {
			return "", false, te // poppler is not installed
		}
		return "", false, fmt.Errorf("run %s on %s: %w", prog, name, err)
	}
	if res.ExitCode != 0 || res.Signal != "" {
		msg := strings.TrimSpace(res.Stderr + " " + res.Signal)
		if strings.Contains(msg, "Incorrect password") {
			return "", false, toolerr.Invalidf("path", "give its password, or save a decrypted copy with pdf_tool decrypt (password=...)",
				"%s is encrypted and needs a password to open", name)
		}
		return "", false, toolerr.Invalidf("path", "check the file with pdf_tool validate", "%s is not a readable PDF: %s: %s", name, prog, msg)
	}
	return res.Stdout, res.StdoutTruncated, nil
}

// size says a byte cap the way people read it.
func size(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return wording.Count(n, "byte", "bytes")
}
