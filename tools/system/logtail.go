package system

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type logData struct {
	Name     string   `json:"name"`
	Path     string   `json:"path"`
	Lines    []string `json:"lines"`
	Count    int      `json:"count"`
	FileSize int64    `json:"file_size"`
	Modified string   `json:"modified"`
	// Partial is set when the tail read stopped at its byte budget before
	// finding as many lines as asked (very long lines).
	Partial bool `json:"partial,omitempty"`
}

const (
	tailChunk    = 64 << 10
	tailBudget   = 8 << 20 // bytes read from the end at most
	maxLineBytes = 4000    // longer lines are cut
)

func (s *sys) logTail(_ context.Context, c *tool.Call) (*tool.Result, error) {
	args := c.Args
	name := args.String("name")
	logs := s.d.Config.System.LogFiles
	var lf *config.LogFile
	for i := range logs {
		if logs[i].Name == name {
			lf = &logs[i]
			break
		}
	}
	if lf == nil {
		hint := "no log files are configured; add entries under system.log_files in the clawbridge config file, e.g. `- {name: app, path: /var/log/app.log}`"
		if len(logs) > 0 {
			names := make([]string, 0, len(logs))
			for _, l := range logs {
				names = append(names, l.Name)
			}
			hint = "configured logs: " + strings.Join(names, ", ")
		}
		return nil, tool.Invalid("name", fmt.Sprintf("unknown log %q: only log files named in the server config can be read", name), hint)
	}
	n := min(args.Int("limit", 100), 5000)
	if n < 1 {
		n = 100
	}
	path := expandHome(lf.Path)
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, tool.NotFoundf("name", "check system.log_files in the config", "log %q: %s does not exist", name, path)
		}
		return nil, tool.Errorf(tool.CodeDenied, "the server's user needs read access to the file", "log %q: %v", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("log_tail: stat %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, tool.Invalidf("name", "point system.log_files at a regular file", "log %q: %s is not a regular file", name, path)
	}
	lines, partial, err := tailLines(f, fi.Size(), n)
	if err != nil {
		return nil, fmt.Errorf("log_tail: read %s: %w", path, err)
	}
	for i, l := range lines {
		if len(l) > maxLineBytes {
			l = strings.ToValidUTF8(l[:maxLineBytes], "") + "…"
		}
		lines[i] = logging.RedactString(strings.ToValidUTF8(l, "\uFFFD"))
	}
	out := logData{Name: name, Path: path, Lines: lines, Count: len(lines), FileSize: fi.Size(),
		Modified: fi.ModTime().UTC().Format(time.RFC3339), Partial: partial}
	return &tool.Result{Summary: fmt.Sprintf("Last %s of %s (%s)", wording.Count(len(lines), "line", "lines"), name, path), Data: out}, nil
}

// tailLines returns the last n lines of a file of the given size, reading
// backwards in chunks so that a large log costs only its tail. A final
// newline does not start an empty line. partial reports that the byte
// budget ran out first; the oldest (cut) line is then dropped.
func tailLines(r io.ReaderAt, size int64, n int) (lines []string, partial bool, err error) {
	var chunks [][]byte // newest first
	newlines, read := 0, 0
	off := size
	for off > 0 {
		step := min(int64(tailChunk), off)
		off -= step
		chunk := make([]byte, step)
		if _, err := r.ReadAt(chunk, off); err != nil && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		if len(chunks) == 0 && chunk[len(chunk)-1] == '\n' {
			newlines-- // the file's final newline ends the last line
		}
		chunks = append(chunks, chunk)
		read += len(chunk)
		// n lines need n newlines before them.
		if newlines += bytes.Count(chunk, []byte("\n")); newlines >= n {
			break
		}
		if read >= tailBudget {
			partial = off > 0
			break
		}
	}
	buf := make([]byte, 0, read)
	for i := len(chunks) - 1; i >= 0; i-- {
		buf = append(buf, chunks[i]...)
	}
	body := bytes.TrimSuffix(buf, []byte("\n"))
	if len(body) == 0 {
		return []string{}, false, nil
	}
	all := strings.Split(strings.TrimSuffix(string(body), "\r"), "\n")
	startedMidLine := off > 0
	if startedMidLine && len(all) > 0 {
		all = all[1:] // the first piece may be the end of an older line
	}
	if len(all) > n {
		all = all[len(all)-n:]
	}
	for i, l := range all {
		all[i] = strings.TrimSuffix(l, "\r")
	}
	return all, partial && len(all) < n, nil
}

func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}
