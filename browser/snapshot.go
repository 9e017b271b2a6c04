package browser

import (
	"context"
	"errors"
	"strings"
)

// SnapshotOptions select a window of the outline.
type SnapshotOptions struct {
	Offset int  // character offset into the full outline
	Limit  int  // characters; 0: the configured budget
	Diff   bool // only what changed since this tab's previous snapshot
}

// Snapshot is one window of a page's accessibility outline.
type Snapshot struct {
	Tab        string `json:"tab"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	Text       string `json:"snapshot"`
	Offset     int    `json:"offset"`
	NextOffset int    `json:"next_offset,omitempty"` // where the next window starts; 0 when done
	TotalChars int    `json:"total_chars"`
	Truncated  bool   `json:"truncated"`
	Refs       int    `json:"refs"` // interactive elements in the whole outline
	Diff       bool   `json:"diff,omitempty"`
	Removed    int    `json:"removed_lines,omitempty"`
}

// snapshot renders and windows the outline. Called with the session locked.
func (t *Tab) snapshot(ctx context.Context, opts SnapshotOptions) (*Snapshot, error) {
	tree, err := t.pageTree(ctx, t.cache.version)
	if err != nil {
		return nil, err
	}
	lines, refs := t.cache.lines, t.cache.refs
	if tree.Root != nil || tree.Version != t.cache.version {
		if tree.Root == nil {
			return nil, errors.New("snapshot: the page sent no tree")
		}
		lines, refs = renderOutline(tree.Root)
		t.cache.version, t.cache.lines, t.cache.refs = tree.Version, lines, refs
	}
	snap := &Snapshot{Tab: t.ID, URL: tree.URL, Title: tree.Title, Refs: refs, Offset: opts.Offset}
	body := lines
	if opts.Diff && t.lastSnapshot != nil {
		body, snap.Removed = diffLines(t.lastSnapshot, lines)
		snap.Diff = true
	}
	if opts.Offset == 0 || !opts.Diff {
		t.lastSnapshot = lines
	}
	full := strings.Join(body, "\n")
	if snap.Diff && full == "" {
		full = "(no changes since the previous snapshot)"
	}
	snap.TotalChars = len(full)
	limit := opts.Limit
	if limit <= 0 {
		limit = t.s.m.cfg.SnapshotChars
	}
	snap.Text, snap.NextOffset = window(full, opts.Offset, limit)
	snap.Truncated = snap.NextOffset > 0
	return snap, nil
}

// window cuts text[offset:offset+limit] back to the last line end, so no
// line is split (a single line longer than limit is cut inside). next is 0
// when the text is exhausted.
func window(text string, offset, limit int) (string, int) {
	if offset >= len(text) {
		return "", 0
	}
	if offset < 0 {
		offset = 0
	}
	end := offset + limit
	if end >= len(text) {
		return text[offset:], 0
	}
	if nl := strings.LastIndexByte(text[offset:end], '\n'); nl > 0 {
		end = offset + nl + 1
	} else {
		for end > offset && !utf8Start(text[end]) {
			end--
		}
	}
	return strings.TrimRight(text[offset:end], "\n"), end
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// diffLines returns the lines of cur that are new or changed compared with
// prev, each with its ancestors as context ("  " prefix) and marked "+ ",
// and the number of lines of prev that are gone.
func diffLines(prev, cur []string) ([]string, int) {
	count := map[string]int{}
	for _, l := range prev {
		count[l]++
	}
	added := make([]bool, len(cur))
	for i, l := range cur {
		if count[l] > 0 {
			count[l]--
		} else {
			added[i] = true
		}
	}
	removed := 0
	for _, n := range count {
		removed += n
	}
	var out []string
	shown := make([]bool, len(cur))
	for i, l := range cur {
		if !added[i] {
			continue
		}
		// ancestors: nearest earlier lines with smaller indentation
		var ctxIdx []int
		ind := indentOf(l)
		for j := i - 1; j >= 0 && ind > 0; j-- {
			if d := indentOf(cur[j]); d < ind {
				ctxIdx = append(ctxIdx, j)
				ind = d
			}
		}
		for k := len(ctxIdx) - 1; k >= 0; k-- {
			j := ctxIdx[k]
			if !shown[j] {
				shown[j] = true
				prefix := "  "
				if added[j] {
					prefix = "+ "
				}
				out = append(out, prefix+cur[j])
			}
		}
		if !shown[i] {
			shown[i] = true
			out = append(out, "+ "+l)
		}
	}
	return out, removed
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
