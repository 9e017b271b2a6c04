// Package knowledge is knowledge_rag: local knowledge bases over files in
// the workspace. It indexes md and mdx (a front-matter title heading the
// page; MDX imports and JSX tags left out), txt, html, pdf (page numbers
// kept) and docx (headings kept) with the readers the document tools use,
// and counts the files of other types it leaves out. It cuts them into
// passages by structure (headings, pages, paragraphs, with a size cap and a
// small overlap), and searches them with BM25 over words and Chinese
// character bigrams (bleve v2, on disk under <data_dir>/knowledge), giving
// snippets and a citation per hit: file, page or heading, character offsets.
//
// Indexing again is incremental (new or changed files, by size and mtime
// then content hash; deleted files leave the index), searches run while an
// index is updated, and an index whose update did not finish, or whose files
// do not agree with its manifest, is rebuilt from its recorded sources before
// it is searched. It does not fetch URLs (web_fetch does), run OCR on
// scanned PDFs (ocr does) or rank by embeddings.
package knowledge

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: knowledge_rag: ...).
type Section struct {
	// MaxFileMB caps the size of one source file; larger ones are reported
	// and left out.
	MaxFileMB int `yaml:"max_file_mb"`
	// MaxFiles caps the files one index covers.
	MaxFiles int `yaml:"max_files"`
	// ChunkChars is the size cap of a passage, in characters.
	ChunkChars int `yaml:"chunk_chars"`
	// OverlapChars is how much of the passage before a passage repeats.
	OverlapChars int `yaml:"overlap_chars"`
	// SnippetChars is the length of a hit's snippet.
	SnippetChars int `yaml:"snippet_chars"`
}

// Defaults returns the section's defaults.
func Defaults() Section {
	return Section{MaxFileMB: 50, MaxFiles: 50000, ChunkChars: 1000, OverlapChars: 120, SnippetChars: 240}
}

// Validate refuses limits that cannot work: an overlap must be under half a
// passage, or passages would mostly repeat each other.
func (s *Section) Validate() error {
	return errors.Join(
		config.AtLeast("max_file_mb", s.MaxFileMB, 1),
		config.AtLeast("max_files", s.MaxFiles, 1),
		config.AtLeast("chunk_chars", s.ChunkChars, 200),
		config.AtLeast("overlap_chars", s.OverlapChars, 0),
		config.AtLeast("snippet_chars", s.SnippetChars, 40),
		overlapFits(s.OverlapChars, s.ChunkChars),
	)
}

func overlapFits(overlap, chunk int) error {
	if overlap*2 > chunk {
		return fmt.Errorf("overlap_chars must be at most half of chunk_chars (%d), got %d", chunk/2, overlap)
	}
	return nil
}

type kbTool struct {
	d   *tool.Deps
	cfg Section
	lib *library
}

// New builds knowledge_rag.
func New(d *tool.Deps) (tool.Tool, error) { return lifecycle.New(d) }

// lifecycle decodes the tools.knowledge_rag section over the defaults, then
// provisions; the opened indexes close with the tool.
var lifecycle = tool.Configured[Section]{Name: "knowledge_rag", Defaults: Defaults, Provision: func(d *tool.Deps, cfg Section) (tool.Tool, error) {
	_, t := provision(d, cfg)
	return t, nil
}}

// build is New keeping the tool's state, which the tests drive.
func build(d *tool.Deps) (*kbTool, tool.Tool, error) {
	cfg, err := lifecycle.Settings(d)
	if err != nil {
		return nil, tool.Tool{}, err
	}
	t, tl := provision(d, cfg)
	return t, tl, nil
}

func provision(d *tool.Deps, cfg Section) (*kbTool, tool.Tool) {
	t := &kbTool{d: d, cfg: cfg}
	dataDir := ""
	if d.Config != nil {
		dataDir = d.Config.DataDir
	}
	t.lib = newLibrary(dataDir)
	return t, tool.Tool{
		Name:  "knowledge_rag",
		Title: "Local knowledge base",
		Description: "Searches the user's own documents (notes, manuals, papers: md, mdx, txt, html, pdf, docx in the workspace) after indexing a folder once; " +
			"hits come with snippets and citations (file, page or heading). Use it to answer from local files; use search for the web.",
		Actions:  t.actions(),
		Programs: tool.ProgramsOf("pdftotext"),
		Closer:   t.lib,
		Examples: []string{
			"what do my meeting notes say about the hiring freeze",
			"build an index over my notes folder",
			"search my documents for the refund policy",
			"what do our internal docs say about onboarding",
			"ask questions about these pdf manuals",
			"find where the design doc mentions rate limits",
			"把这些资料建成知识库",
			"在本地文档里检索关于请假的规定",
			"从知识库里找相关段落",
			"索引这个文件夹以便问答",
			"在我的笔记里搜索招聘冻结",
		},
	}
}

func (t *kbTool) actions() []tool.Action {
	pIndex := tool.Param{Name: "index", Type: tool.String, Description: "index name (a-z, 0-9, _ or -)", Default: "default"}
	req := func(p tool.Param) tool.Param { p.Required = true; p.Default = nil; return p }
	return []tool.Action{
		{Name: "index", Handler: t.index, Description: "index or update files and folders (only new or changed files are read again)",
			Level: tool.Write, Timeout: tool.Slow, Params: []tool.Param{
				pIndex,
				{Name: "paths", Type: tool.Array, Items: &tool.Param{Name: "path", Type: tool.String, Description: "file or folder"},
					Description: "files and folders in the workspace; omit to update an index from its recorded sources"},
			}},
		{Name: "search", Handler: t.search, Description: "passages matching a query, best first",
			Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: []tool.Param{
				{Name: "query", Type: tool.String, Required: true, Description: "words or a question, Chinese or English"},
				{Name: "indexes", Type: tool.Array, Items: &tool.Param{Name: "index", Type: tool.String, Description: "index name"},
					Description: "indexes to search; default all"},
				{Name: "glob", Type: tool.String, Description: "only files matching, e.g. notes/**/*.md or *.pdf"},
				{Name: "limit", Type: tool.Integer, Default: 5, Min: tool.Ptr(1), Max: tool.Ptr(50), Description: "hits"},
			}},
		{Name: "get", Handler: t.get, Description: "a passage from a search hit with its neighbours",
			Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Params: []tool.Param{
				req(pIndex),
				{Name: "path", Type: tool.String, Required: true, Description: "the hit's path"},
				{Name: "ord", Type: tool.Integer, Required: true, Min: tool.Ptr(0), Description: "the hit's ord"},
				{Name: "neighbors", Type: tool.Integer, Default: 1, Min: tool.Ptr(0), Max: tool.Ptr(5), Description: "passages before and after"},
			}},
		{Name: "list_indexes", Handler: t.listIndexes, Description: "indexes with their sources, files and size",
			Level: tool.Read, Timeout: tool.Fast, Idempotent: true},
		{Name: "remove", Handler: t.remove, Description: "delete an index (the source files stay)",
			Level: tool.Write, Timeout: tool.Normal, Params: []tool.Param{req(pIndex)}},
	}
}

// indexName checks an index name argument.
func indexName(field, name string) error {
	if !nameRE.MatchString(name) {
		return tool.Invalid(field, fmt.Sprintf("index name %q is not valid", name), "use 1-64 characters: a-z, 0-9, _ or -, starting with a letter or digit")
	}
	return nil
}

func (t *kbTool) options(c *tool.Call) syncOptions {
	return syncOptions{
		MaxFiles: t.cfg.MaxFiles, MaxFileBytes: int64(t.cfg.MaxFileMB) << 20,
		ChunkChars: t.cfg.ChunkChars, OverlapChars: t.cfg.OverlapChars,
		Walk: t.d.Sandbox.WalkDir, Rel: t.d.Sandbox.Rel, Progress: c.Progress, Run: t.d.Run,
	}
}

func (t *kbTool) index(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	name := c.Args.StringOr("index", "default")
	if err := indexName("index", name); err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range c.Args.Strings("paths") {
		abs, err := t.d.Sandbox.Resolve(p)
		if err != nil {
			return nil, tool.PathError("paths", p, err)
		}
		if _, err := tool.StatInput("paths", p, abs); err != nil {
			return nil, err
		}
		if !slices.Contains(paths, abs) {
			paths = append(paths, abs)
		}
	}
	if c.Args.Has("paths") && len(paths) == 0 {
		return nil, tool.Invalid("paths", "paths is empty", "name at least one file or folder, or omit paths to update from the recorded sources")
	}
	slices.Sort(paths)
	k := t.lib.handle(name)
	k.write.Lock()
	defer k.write.Unlock()
	if paths == nil {
		if err := k.load(); errors.Is(err, os.ErrNotExist) {
			return nil, tool.Invalid("paths", fmt.Sprintf("there is no index %q yet", name), "give paths: the files and folders to index")
		}
		for _, p := range k.src.Paths { // the workspace may have narrowed since
			if _, err := t.d.Sandbox.Resolve(p); err != nil {
				return nil, tool.PathError("paths", p, err)
			}
		}
	} else {
		for _, p := range paths {
			if info, err := os.Stat(p); err == nil && !info.IsDir() && formatOf(p) == "" {
				return nil, tool.Invalid("paths", fmt.Sprintf("%s: %v", t.d.Sandbox.Rel(p), errFormat), "name md, mdx, txt, html, pdf or docx files, or folders")
			}
		}
	}
	rep, err := k.sync(ctx, paths, t.options(c))
	if err != nil {
		if ctx.Err() != nil && rep != nil {
			return nil, tool.Errorf(tool.CodeTimeout, "run index again to carry on; what was indexed is kept", "indexing %q stopped after %d files", name, rep.Added+rep.Changed+rep.Unchanged)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if _, ok := tool.AsError(err); ok {
			return nil, err
		}
		return nil, tool.Errorf(tool.CodeFailed, "", "index %q: %v", name, err)
	}
	summary := fmt.Sprintf("index %q: %s (%d new, %d changed, %d removed, %d unchanged), %s",
		name, wording.Count(rep.Files, "file", "files"), rep.Added, rep.Changed, rep.Removed, rep.Unchanged, wording.Count(rep.Passages, "passage", "passages"))
	if len(rep.Failed) > 0 {
		summary += fmt.Sprintf("; %s (see failed)", wording.Count(len(rep.Failed), "file could not be read", "files could not be read"))
	}
	if len(rep.Skipped) > 0 {
		var kinds []string
		for _, ext := range slices.Sorted(maps.Keys(rep.Skipped)) {
			kinds = append(kinds, fmt.Sprintf("%d %s", rep.Skipped[ext], ext))
		}
		summary += "; not indexed, of types it does not read: " + strings.Join(kinds, ", ")
	}
	return &tool.Result{Summary: summary, Data: rep}, nil
}

// ready returns an opened index, rebuilding a damaged one from its recorded
// sources first: a damaged index is never searched.
func (t *kbTool) ready(ctx context.Context, c *tool.Call, field, name string) (*kbIndex, error) {
	if err := indexName(field, name); err != nil {
		return nil, err
	}
	k := t.lib.handle(name)
	k.mu.RLock()
	open := k.idx != nil
	k.mu.RUnlock()
	if open {
		return k, nil
	}
	if !k.write.TryLock() {
		return nil, tool.Errorf(tool.CodeUnavailable, "try again when indexing has finished", "index %q is being built", name)
	}
	defer k.write.Unlock()
	err := k.load()
	switch {
	case err == nil:
		return k, nil
	case errors.Is(err, os.ErrNotExist):
		return nil, tool.NotFoundf(field, "list_indexes names the indexes; index a folder first", "there is no index %q", name)
	case errors.Is(err, errDamaged) && len(k.src.Paths) > 0:
		t.d.Log.Warn().Str("index", name).Err(err).Msg("knowledge_rag: rebuilding a damaged index")
		if _, err := k.sync(ctx, nil, t.options(c)); err != nil {
			return nil, tool.Errorf(tool.CodeFailed, "run index with paths to build it again", "index %q was damaged and could not be rebuilt: %v", name, err)
		}
		return k, nil
	case errors.Is(err, errDamaged):
		os.RemoveAll(k.dir)
		return nil, tool.NotFoundf(field, "run index with paths to build it again", "index %q was damaged and did not record its sources; it was removed", name)
	}
	return nil, err
}

// readLocked is ready with the index read-locked, for the caller to unlock
// (k.mu.RUnlock); an index removed in between is not found.
func (t *kbTool) readLocked(ctx context.Context, c *tool.Call, field, name string) (*kbIndex, error) {
	k, err := t.ready(ctx, c, field, name)
	if err != nil {
		return nil, err
	}
	k.mu.RLock()
	if k.idx == nil {
		k.mu.RUnlock()
		return nil, tool.NotFoundf(field, "list_indexes names the indexes", "index %q was removed", name)
	}
	return k, nil
}

func (t *kbTool) search(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	q := strings.TrimSpace(c.Args.String("query"))
	if q == "" {
		return nil, tool.Invalid("query", "query is empty", "give words or a question to search for")
	}
	names := c.Args.Strings("indexes")
	if len(names) == 0 {
		names = t.lib.names()
		if len(names) == 0 {
			return nil, tool.NotFoundf("indexes", "index a folder first: action index with paths", "there are no indexes yet")
		}
	}
	var ks []*kbIndex
	for _, n := range names {
		k, err := t.readLocked(ctx, c, "indexes", n)
		if err != nil {
			return nil, err
		}
		defer k.mu.RUnlock()
		ks = append(ks, k)
	}
	glob := c.Args.String("glob")
	hits, total, err := searchIndexes(ctx, ks, searchRequest{Query: q, Limit: c.Args.Int("limit", 5), Glob: glob,
		SnippetChars: t.cfg.SnippetChars, Rel: t.d.Sandbox.Rel})
	if err != nil {
		if errors.Is(err, errGlob) {
			return nil, tool.Invalid("glob", fmt.Sprintf("glob %q: %v", glob, err), "use *, ?, ** and [abc], e.g. notes/**/*.md")
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, tool.Errorf(tool.CodeFailed, "", "search: %v", err)
	}
	summary := fmt.Sprintf("%d of %d matching passages for %q", len(hits), total, q)
	if len(hits) == 0 {
		summary = fmt.Sprintf("no passage matches %q", q)
	}
	return &tool.Result{Summary: summary, Data: map[string]any{
		"query": q, "ranking": "bm25", "indexes": names, "total": total, "hits": hits}}, nil
}

func (t *kbTool) get(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	name, p, ord := c.Args.String("index"), c.Args.String("path"), c.Args.Int("ord", 0)
	want, err := t.d.Sandbox.Resolve(p)
	if err != nil {
		return nil, tool.PathError("path", p, err)
	}
	k, err := t.readLocked(ctx, c, "index", name)
	if err != nil {
		return nil, err
	}
	defer k.mu.RUnlock()
	abs := want
	if _, ok := k.man.Files[abs]; !ok {
		return nil, tool.NotFoundf("path", "use the path of a search hit", "index %q has no file %q", name, p)
	}
	if n := k.man.Files[abs].Chunks; ord >= n {
		return nil, tool.Invalid("ord", fmt.Sprintf("%s has passages 0-%d, not %d", p, n-1, ord), "use the ord of a search hit")
	}
	out, err := neighbours(ctx, k, abs, ord, c.Args.Int("neighbors", 1), t.d.Sandbox.Rel)
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "", "get: %v", err)
	}
	passages := make([]map[string]any, 0, len(out))
	for _, h := range out {
		m := map[string]any{"ord": h.Ord, "start": h.Start, "end": h.End, "text": h.text, "citation": h.Citation}
		if h.Page > 0 {
			m["page"] = h.Page
		}
		if h.Heading != "" {
			m["heading"] = h.Heading
		}
		if h.Ord == ord {
			m["requested"] = true
		}
		passages = append(passages, m)
	}
	return &tool.Result{Summary: fmt.Sprintf("passage %d of %s with %s", ord, p, wording.Count(len(passages)-1, "neighbour", "neighbours")),
		Data: map[string]any{"index": name, "path": p, "passages": passages}}, nil
}

// indexInfo is one line of list_indexes.
type indexInfo struct {
	Name     string    `json:"name"`
	Status   string    `json:"status"` // ok, updating, damaged (rebuilt on next use)
	Sources  []string  `json:"sources,omitempty"`
	Files    int       `json:"files"`
	Passages int       `json:"passages"`
	Bytes    int64     `json:"bytes"`
	Updated  time.Time `json:"updated,omitzero"`
}

func (t *kbTool) listIndexes(_ context.Context, _ *tool.Call) (*tool.Result, error) {
	var out []indexInfo
	for _, n := range t.lib.names() {
		k := t.lib.handle(n)
		info := indexInfo{Name: n, Status: "ok"}
		if k.write.TryLock() {
			if err := k.load(); err != nil {
				info.Status = "damaged: rebuilt on the next search or index"
			}
			k.write.Unlock()
		} else {
			info.Status = "updating"
		}
		k.mu.RLock()
		for _, p := range k.src.Paths {
			info.Sources = append(info.Sources, t.d.Sandbox.Rel(p))
		}
		if k.man != nil {
			info.Files, info.Passages, info.Updated = len(k.man.Files), k.man.Chunks, k.man.Updated
		}
		k.mu.RUnlock()
		info.Bytes = dirSize(k.dir)
		out = append(out, info)
	}
	return &tool.Result{Summary: wording.Count(len(out), "index", "indexes"), Data: map[string]any{"indexes": out}}, nil
}

func (t *kbTool) remove(_ context.Context, c *tool.Call) (*tool.Result, error) {
	name := c.Args.String("index")
	if err := indexName("index", name); err != nil {
		return nil, err
	}
	k := t.lib.handle(name)
	k.write.Lock()
	defer k.write.Unlock()
	if _, err := os.Stat(k.dir); err != nil {
		return nil, tool.NotFoundf("index", "list_indexes names the indexes", "there is no index %q", name)
	}
	k.mu.Lock()
	if k.idx != nil {
		k.idx.Close()
		k.idx = nil
	}
	k.man, k.src = nil, sources{}
	err := os.RemoveAll(k.dir)
	k.mu.Unlock()
	t.lib.forget(name, k)
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "", "remove index %q: %v", name, err)
	}
	return &tool.Result{Summary: fmt.Sprintf("index %q removed; its source files are untouched", name), Data: map[string]any{"removed": name}}, nil
}
