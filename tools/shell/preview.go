package shell

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// A confirmed command runs on the host and reads its script when it runs:
// `bash deploy.sh` confirmed, then deploy.sh rewritten, would run what
// nobody saw. So the question shows every workspace file argv names (size,
// sha256, and the first lines of a text file), and the run does not start
// when one of them changed since.
const (
	maxShownFiles = 8
	maxHashed     = 64 << 20 // a larger file is named as an argument only
	shownLines    = 40
	shownBytes    = 4 << 10
)

// shownFile is a workspace file as the person was shown it.
type shownFile struct {
	rel, abs string
	size     int64
	sum      string
}

// preview describes the call with the files its argv names.
func (r *runner) preview(ctx context.Context, c *tool.Call) (string, error) {
	args, _ := json.Marshal(logging.Redact(map[string]any(c.Args)))
	var b strings.Builder
	b.Write(args)
	cwd, err := r.resolveCwd(c.Args.String("cwd"))
	if err != nil {
		return "", err
	}
	var files []shownFile
	for _, a := range c.Args.Strings("argv") {
		if len(files) == maxShownFiles {
			break
		}
		f, head, ok := r.showFile(cwd, a)
		if !ok {
			continue
		}
		files = append(files, f)
		fmt.Fprintf(&b, "\nfile %s (%d bytes, sha256 %s)", f.rel, f.size, f.sum)
		if head != "" {
			b.WriteString("\n" + head)
		}
	}
	c.Previewed = files
	return b.String(), nil
}

// showFile reads a, when it names a regular workspace file (relative to
// cwd), for the question: its hash and, for text, its first lines.
func (r *runner) showFile(cwd, a string) (shownFile, string, bool) {
	if a == "" || strings.HasPrefix(a, "-") {
		return shownFile{}, "", false
	}
	p := a
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	abs, err := r.d.Sandbox.Resolve(p)
	if err != nil {
		return shownFile{}, "", false
	}
	f, fi, err := sandbox.OpenRegular(abs, maxHashed)
	if err != nil {
		return shownFile{}, "", false
	}
	defer f.Close()
	h := sha256.New()
	head := jail.NewCapped(shownBytes)
	if _, err := io.Copy(io.MultiWriter(h, head), f); err != nil {
		return shownFile{}, "", false
	}
	sf := shownFile{rel: r.d.Sandbox.Rel(abs), abs: abs, size: fi.Size(), sum: hex.EncodeToString(h.Sum(nil))}
	text := head.String() // valid UTF-8: a rune cut by the cap is dropped
	if strings.ContainsAny(text, "\x00\uFFFD") {
		return sf, "", true // binary: the hash says which file
	}
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > shownLines {
		lines = lines[:shownLines]
	}
	shown := strings.Join(lines, "")
	if int64(len(shown)) < fi.Size() {
		shown += "\n… (the rest not shown; the sha256 covers it)"
	}
	return sf, shown, true
}

// checkShown refuses a run when a file shown in the question changed since.
func checkShown(c *tool.Call) error {
	files, _ := c.Previewed.([]shownFile)
	for _, f := range files {
		data, err := sandbox.ReadRegular(f.abs, maxHashed)
		sum := sha256.Sum256(data)
		if err != nil || hex.EncodeToString(sum[:]) != f.sum {
			return tool.Errorf(tool.CodeConfirm, "call again: the user is asked about the file as it is now",
				"%s changed after it was confirmed; nothing ran", f.rel)
		}
	}
	return nil
}
