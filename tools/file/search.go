package file

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/text/transform"

	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// glob matches slash-separated relative paths. Segments use path.Match
// syntax; "**" matches any number of segments; {a,b} is expanded first.
type glob struct{ alts [][]string }

const maxGlobAlternatives = 64

func compileGlob(pattern string) (*glob, error) {
	p := strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(pattern)), "./")
	if p == "" {
		return nil, errors.New("empty pattern")
	}
	if len(p) > 1024 {
		return nil, errors.New("pattern too long")
	}
	if strings.HasPrefix(p, "/") {
		return nil, errors.New("the pattern is relative to path; drop the leading /")
	}
	alts, err := expandBraces(p)
	if err != nil {
		return nil, err
	}
	g := &glob{}
	for _, a := range alts {
		segs := strings.Split(a, "/")
		for _, s := range segs {
			if s == ".." {
				return nil, errors.New("the pattern may not contain a .. segment")
			}
			if s != "**" {
				if _, err := path.Match(s, ""); err != nil {
					return nil, fmt.Errorf("bad glob segment %q: %v", s, err)
				}
			}
		}
		if !strings.Contains(a, "/") {
			segs = []string{"**", a} // a bare name pattern matches at any depth
		}
		g.alts = append(g.alts, segs)
	}
	return g, nil
}

// expandBraces expands {a,b,c} alternatives (nesting allowed), bounded.
func expandBraces(p string) ([]string, error) {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}, nil
	}
	depth := 0
	close := -1
	var parts []string
	start := open + 1
	for i := open; i < len(p) && close < 0; i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				parts = append(parts, p[start:i])
				close = i
			}
		case ',':
			if depth == 1 {
				parts = append(parts, p[start:i])
				start = i + 1
			}
		}
	}
	if close < 0 {
		return nil, errors.New("unclosed { in pattern")
	}
	var out []string
	for _, part := range parts {
		rest, err := expandBraces(p[:open] + part + p[close+1:])
		if err != nil {
			return nil, err
		}
		out = append(out, rest...)
		if len(out) > maxGlobAlternatives {
			return nil, errors.New("too many {a,b} alternatives")
		}
	}
	return out, nil
}

// match reports whether rel (slash-separated) matches any alternative.
func (g *glob) match(rel string) bool {
	name := strings.Split(rel, "/")
	for _, segs := range g.alts {
		if matchSegs(segs, name) {
			return true
		}
	}
	return false
}

// matchSegs is a dynamic programme over segments, linear in
// len(pattern)*len(name), so patterns full of ** cannot blow up.
func matchSegs(pat, name []string) bool {
	P, N := len(pat), len(name)
	next := make([]bool, N+1) // row i+1
	next[N] = true
	cur := make([]bool, N+1)
	for i := P - 1; i >= 0; i-- {
		for j := N; j >= 0; j-- {
			if pat[i] == "**" {
				cur[j] = next[j] || (j < N && cur[j+1])
			} else {
				ok := false
				if j < N {
					m, _ := path.Match(pat[i], name[j])
					ok = m && next[j+1]
				}
				cur[j] = ok
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

type found struct {
	Path string `json:"path"`
	Type string `json:"type"`
	Size int64  `json:"size,omitempty"`
}

// walkFiles walks dir without following symlinks, skipping the trash (unless
// the walk starts inside it) and skipDirs, visiting at most MaxWalkEntries.
// fn returns false to stop. It reports whether the walk was cut short.
func (ft *fileTool) walkFiles(ctx context.Context, dir string, fn func(abs, rel string, d fs.DirEntry) bool) (cut bool, err error) {
	visited := 0
	trashDir := ft.sb.TrashDir()
	inTrash := ft.sb.IsTrash(dir)
	stop := errors.New("stop")
	err = ft.sb.WalkDir(dir, func(p string, d fs.DirEntry, werr error) error {
		if werr != nil {
			if p == dir {
				return werr
			}
			return nil // unreadable entry: skip it
		}
		if p == dir {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		visited++
		if visited > ft.cfg.MaxWalkEntries {
			cut = true
			return stop
		}
		if d.IsDir() && ((!inTrash && p == trashDir) || skipDirs[d.Name()]) {
			return fs.SkipDir
		}
		rel, _ := filepath.Rel(dir, p)
		if !fn(p, filepath.ToSlash(rel), d) {
			cut = true
			return stop
		}
		return nil
	})
	if errors.Is(err, stop) {
		err = nil
	}
	return cut, err
}

func (ft *fileTool) find(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, err := ft.dirPath(p)
	if err != nil {
		return nil, err
	}
	g, err := compileGlob(c.Args.String("pattern"))
	if err != nil {
		return nil, tool.Invalid("pattern", err.Error(), "examples: *.md, docs/**/*.txt, src/**/*.{go,ts}")
	}
	limit := c.Args.Int("limit", 200)
	results := []found{}
	cut, err := ft.walkFiles(ctx, abs, func(full, rel string, d fs.DirEntry) bool {
		if !g.match(rel) {
			return true
		}
		if len(results) >= limit {
			return false
		}
		f := found{Path: ft.rel(full), Type: "file"}
		if info, err := d.Info(); err == nil {
			f.Type = trash.TypeOf(info.Mode())
			if info.Mode().IsRegular() {
				f.Size = info.Size()
			}
		}
		results = append(results, f)
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("find: %w", err)
	}
	summary := fmt.Sprintf("%d match(es) for %s under %s", len(results), c.Args.String("pattern"), ft.rel(abs))
	if cut {
		summary += " (stopped early: raise limit or narrow path/pattern)"
	}
	return &tool.Result{Summary: summary, Data: map[string]any{"path": ft.rel(abs), "pattern": c.Args.String("pattern"), "results": results, "truncated": cut}}, nil
}

type grepMatch struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

const grepLineChars = 400

func (ft *fileTool) grep(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, info, err := ft.existing(p)
	if err != nil {
		return nil, err
	}
	expr := c.Args.String("query")
	if c.Args.Bool("ignore_case", false) {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, tool.Invalid("query", fmt.Sprintf("bad regular expression: %v", err), "RE2 syntax; escape literal characters such as ( [ . with a backslash")
	}
	var g *glob
	if pat := c.Args.String("pattern"); pat != "" {
		if g, err = compileGlob(pat); err != nil {
			return nil, tool.Invalid("pattern", err.Error(), "examples: *.go, **/*.{md,txt}")
		}
	}
	limit := c.Args.Int("limit", 100)
	st := grepState{matches: []grepMatch{}}
	searchOne := func(full string) bool {
		return ft.grepFile(ctx, full, re, limit, &st)
	}
	cut := false
	if info.IsDir() {
		cut, err = ft.walkFiles(ctx, abs, func(full, rel string, d fs.DirEntry) bool {
			if !d.Type().IsRegular() || (g != nil && !g.match(rel)) {
				return true
			}
			return searchOne(full)
		})
		if err != nil {
			return nil, fmt.Errorf("grep: %w", err)
		}
	} else if info.Mode().IsRegular() {
		cut = !searchOne(abs)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("%d match(es) in %d of %d file(s) searched", len(st.matches), st.withMatches, st.searched)
	if cut {
		summary += "; stopped at the limit (raise limit or narrow path/pattern)"
	}
	data := map[string]any{
		"path": ft.rel(abs), "query": c.Args.String("query"), "matches": st.matches, "truncated": cut,
		"files_searched": st.searched, "files_with_matches": st.withMatches,
		"skipped_binary": st.binary, "skipped_large": st.large,
	}
	return &tool.Result{Summary: summary, Data: data}, nil
}

type grepState struct {
	matches               []grepMatch
	searched, withMatches int
	binary, large         int
}

// grepFile searches one file; it returns false when the match limit is hit.
func (ft *fileTool) grepFile(ctx context.Context, full string, re *regexp.Regexp, limit int, st *grepState) bool {
	if ctx.Err() != nil {
		return false
	}
	info, err := os.Stat(full)
	if err != nil {
		return true
	}
	if info.Size() > ft.cfg.MaxGrepFileBytes {
		st.large++
		return true
	}
	f, err := os.Open(full)
	if err != nil {
		return true
	}
	defer f.Close()
	sample, full2, err := readSample(f, 64<<10)
	if err != nil {
		return true
	}
	s := detect(sample, full2)
	if s.Binary || s.Encoding == "" {
		st.binary++
		return true
	}
	if _, err := f.Seek(int64(s.BOM), 0); err != nil {
		return true
	}
	st.searched++
	sc := bufio.NewScanner(transform.NewReader(f, codec(s.Encoding).NewDecoder()))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	hit := false
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !re.MatchString(line) {
			continue
		}
		if len(st.matches) >= limit {
			return false
		}
		if !hit {
			hit = true
			st.withMatches++
		}
		line = strings.TrimRight(line, "\r")
		if r := []rune(line); len(r) > grepLineChars {
			line = string(r[:grepLineChars]) + "…"
		}
		st.matches = append(st.matches, grepMatch{Path: ft.rel(full), Line: n, Text: line})
	}
	return true
}
