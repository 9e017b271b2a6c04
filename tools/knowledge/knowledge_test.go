package knowledge

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// kb is a knowledge_rag over a fresh workspace and data dir.
type kb struct {
	t    *testing.T
	d    *tool.Deps
	tl   tool.Tool
	lib  *library
	root string
}

// open builds knowledge_rag as a new process would.
func open(t *testing.T, d *tool.Deps) *kb {
	kt, tl, err := build(d)
	if err != nil {
		t.Fatal(err)
	}
	k := &kb{t: t, d: d, tl: tl, lib: kt.lib, root: d.Sandbox.Root()}
	t.Cleanup(func() { k.lib.Close() })
	return k
}

func newKB(t *testing.T) *kb { return open(t, tooltest.Deps(t)) }

func (k *kb) write(rel, text string) string {
	p := filepath.Join(k.root, rel)
	tooltest.WriteFile(k.t, p, []byte(text))
	return p
}

func (k *kb) run(args map[string]any) *tool.Result {
	k.t.Helper()
	res, err := tooltest.Run(k.t, k.tl, args)
	if err != nil {
		k.t.Fatalf("%v: %v", args, err)
	}
	return res
}

func (k *kb) search(q string, extra ...any) []Hit {
	k.t.Helper()
	args := map[string]any{"action": "search", "query": q, "limit": 10}
	for i := 0; i+1 < len(extra); i += 2 {
		args[extra[i].(string)] = extra[i+1]
	}
	return k.run(args).Data.(map[string]any)["hits"].([]Hit)
}

func paths(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	return out
}

func TestIndexSearch_MixedChineseEnglishWithCitations(t *testing.T) {
	k := newKB(t)
	k.write("notes/meeting.md", "# 周会纪要\n\n## 招聘\n\n公司决定从三月起实行招聘冻结（hiring freeze），直到第二季度结束。\n\n## 预算\n\n市场预算削减百分之十。\n")
	k.write("notes/english.txt", "The hiring freeze applies to all engineering teams.\n\nLunch is at noon on Fridays.")
	k.write("notes/other.md", "# Unrelated\n\nNothing here about staffing.\n")
	rep := k.run(map[string]any{"action": "index", "paths": []any{"notes"}}).Data.(*syncReport)
	if rep.Added != 3 || rep.Files != 3 {
		t.Fatalf("report %+v", rep)
	}
	hits := k.search("招聘冻结 hiring freeze")
	if len(hits) < 2 || hits[0].Path != "notes/meeting.md" {
		t.Fatalf("hits %v", paths(hits))
	}
	h := hits[0]
	if h.Heading != "周会纪要 > 招聘" || !strings.Contains(h.Snippet, "**招聘冻结**") || !strings.Contains(h.Citation, "notes/meeting.md, § 周会纪要 > 招聘") {
		t.Fatalf("hit %+v", h)
	}
	// The offsets point into the file's text.
	src := []rune(mustRead(t, filepath.Join(k.root, "notes/meeting.md")))
	if got := string(src[h.Start:h.End]); !strings.Contains(got, "招聘冻结") || !strings.HasPrefix(got, "## 招聘") {
		t.Fatalf("offsets %d-%d give %q", h.Start, h.End, got)
	}
	// Glob filter.
	if hits := k.search("hiring freeze", "glob", "*.txt"); len(hits) != 1 || hits[0].Path != "notes/english.txt" {
		t.Fatalf("glob hits %v", paths(hits))
	}
	if hits := k.search("hiring", "glob", "nothing/**"); len(hits) != 0 {
		t.Fatalf("glob with no files %v", paths(hits))
	}
}

func mustRead(t *testing.T, p string) string {
	b := tooltest.ReadFile(t, p)
	return string(b)
}

func TestIndex_IncrementalBySizeMtimeThenHash(t *testing.T) {
	k := newKB(t)
	a := k.write("kb/a.md", "# A\n\nalpha apples\n")
	k.write("kb/b.txt", "bravo bananas")
	c := k.write("kb/c.txt", "charlie cherries")
	k.run(map[string]any{"action": "index", "index": "fruit", "paths": []any{"kb"}})

	// Touched but not changed: re-hashed, not re-indexed.
	future := time.Now().Add(time.Hour)
	os.Chtimes(a, future, future)
	// Changed, deleted, added.
	k.write("kb/b.txt", "bravo blueberries")
	os.Remove(c)
	k.write("kb/d.md", "delta dates")
	rep := k.run(map[string]any{"action": "index", "index": "fruit"}).Data.(*syncReport)
	if rep.Added != 1 || rep.Changed != 1 || rep.Removed != 1 || rep.Unchanged != 1 {
		t.Fatalf("report %+v", rep)
	}
	if h := k.search("cherries"); len(h) != 0 {
		t.Fatalf("deleted file still found: %v", paths(h))
	}
	if h := k.search("bananas"); len(h) != 0 {
		t.Fatalf("old text still found: %v", paths(h))
	}
	if h := k.search("blueberries"); len(h) != 1 {
		t.Fatalf("new text: %v", paths(h))
	}
	rep = k.run(map[string]any{"action": "index", "index": "fruit"}).Data.(*syncReport)
	if rep.Unchanged != 3 || rep.Added+rep.Changed+rep.Removed != 0 {
		t.Fatalf("second run %+v", rep)
	}
}

func TestIndex_DamagedIndexRebuiltNeverServed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(dir string)
	}{
		{"update did not finish", func(dir string) { os.WriteFile(filepath.Join(dir, "writing"), []byte("x"), 0o600) }},
		{"no manifest", func(dir string) { os.Remove(filepath.Join(dir, "manifest.json")) }},
		{"torn manifest", func(dir string) {
			os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"version":1,"gen`), 0o600)
		}},
		{"bleve files gone", func(dir string) { os.RemoveAll(filepath.Join(dir, "gen-1")) }},
		{"bleve garbage", func(dir string) {
			os.RemoveAll(filepath.Join(dir, "gen-1"))
			os.MkdirAll(filepath.Join(dir, "gen-1"), 0o700)
			os.WriteFile(filepath.Join(dir, "gen-1", "index_meta.json"), []byte("garbage"), 0o600)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := newKB(t)
			k.write("docs/x.md", "# X\n\nzebra crossing\n")
			k.run(map[string]any{"action": "index", "paths": []any{"docs"}})
			k.lib.Close()
			dir := filepath.Join(k.d.Config.DataDir, "knowledge", "default")
			tc.damage(dir)
			k.write("docs/y.md", "zebra stripes") // the rebuild reads the sources again

			k2 := open(t, k.d) // a new process
			hits := k2.search("zebra")
			if len(hits) != 2 {
				t.Fatalf("after rebuild: %v", paths(hits))
			}
			if _, err := os.Stat(filepath.Join(dir, "writing")); err == nil {
				t.Fatal("update marker left")
			}
		})
	}
}

func TestIndex_DamagedWithoutSourcesRemoved(t *testing.T) {
	k := newKB(t)
	k.write("docs/x.md", "zebra")
	k.run(map[string]any{"action": "index", "paths": []any{"docs"}})
	k.lib.Close()
	dir := filepath.Join(k.d.Config.DataDir, "knowledge", "default")
	os.Remove(filepath.Join(dir, "sources.json"))
	k2 := open(t, k.d)
	_, err := tooltest.Run(t, k2.tl, map[string]any{"action": "search", "query": "zebra"})
	tooltest.ToolError(t, err, tool.CodeNotFound)
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("damaged index left on disk")
	}
}

func TestConcurrency_SearchWhileIndexing(t *testing.T) {
	k := newKB(t)
	for i := range 40 {
		k.write(filepath.Join("many", "f"+string(rune('a'+i%26))+string(rune('a'+i/26))+".md"), "# Title\n\nshared keyword quokka and text "+strings.Repeat("filler words ", 200))
	}
	k.run(map[string]any{"action": "index", "paths": []any{"many"}})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 100)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := tooltest.Run(t, k.tl, map[string]any{"action": "search", "query": "quokka"})
				if err != nil {
					errs <- err
					return
				}
				if len(res.Data.(map[string]any)["hits"].([]Hit)) == 0 {
					errs <- os.ErrNotExist
					return
				}
			}
		}()
	}
	for i := range 3 {
		for j := range 10 {
			k.write(filepath.Join("many", "new", string(rune('a'+i))+string(rune('a'+j))+".txt"), "quokka update "+strings.Repeat("more ", 100))
		}
		k.run(map[string]any{"action": "index"})
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestFormats_PDFPagesAndDocxHeadings(t *testing.T) {
	k := newKB(t)
	tooltest.NeedProgram(t, "pdftotext")
	pdf := tooltest.ReadFile(t, filepath.Join("..", "..", "fixtures", "pdf", "chinese.pdf"))
	tooltest.WriteFile(t, filepath.Join(k.root, "docs", "c.pdf"), pdf)
	data, err := docx.FromMarkdown([]byte("# Handbook\n\n## Leave policy\n\nEmployees get twenty days of paid leave.\n"), docx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.WriteFile(t, filepath.Join(k.root, "docs", "h.docx"), data)
	k.write("docs/page.html", "<html><head><title>T</title><script>var secret=1</script></head><body><h1>Guide</h1><h2>Setup</h2><p>Install the walrus package.</p></body></html>")
	rep := k.run(map[string]any{"action": "index", "paths": []any{"docs"}}).Data.(*syncReport)
	if rep.Added != 3 || len(rep.Failed) != 0 {
		t.Fatalf("report %+v", rep)
	}
	if h := k.search("paid leave"); len(h) == 0 || h[0].Heading != "Handbook > Leave policy" {
		t.Fatalf("docx hit %+v", h)
	}
	if h := k.search("walrus"); len(h) == 0 || h[0].Heading != "Guide > Setup" {
		t.Fatalf("html hit %+v", h)
	}
	if h := k.search("secret"); len(h) != 0 {
		t.Fatalf("script text indexed: %+v", h)
	}
	pdfHits := k.search("合同编号", "glob", "*.pdf")
	if len(pdfHits) == 0 || pdfHits[0].Page != 2 || !strings.Contains(pdfHits[0].Citation, ", p. ") {
		t.Fatalf("pdf hits %+v", pdfHits)
	}
}

func TestGet_PassageWithNeighbours(t *testing.T) {
	k := newKB(t)
	k.write("g/long.md", "# One\n\nfirst part\n\n# Two\n\nsecond part with the needle\n\n# Three\n\nthird part\n")
	k.run(map[string]any{"action": "index", "index": "g", "paths": []any{"g"}})
	h := k.search("needle")[0]
	res := k.run(map[string]any{"action": "get", "index": "g", "path": h.Path, "ord": h.Ord})
	ps := res.Data.(map[string]any)["passages"].([]map[string]any)
	if len(ps) != 3 || ps[1]["requested"] != true || !strings.Contains(ps[0]["text"].(string), "first") || !strings.Contains(ps[2]["text"].(string), "third") {
		t.Fatalf("passages %+v", ps)
	}
	_, err := tooltest.Run(t, k.tl, map[string]any{"action": "get", "index": "g", "path": h.Path, "ord": 9})
	tooltest.ToolError(t, err, tool.CodeInvalid)
	_, err = tooltest.Run(t, k.tl, map[string]any{"action": "get", "index": "g", "path": "nope.md", "ord": 0})
	tooltest.ToolError(t, err, tool.CodeNotFound)
}

func TestListRemove(t *testing.T) {
	k := newKB(t)
	k.write("l/a.md", "lemur")
	k.run(map[string]any{"action": "index", "index": "one", "paths": []any{"l"}})
	k.run(map[string]any{"action": "index", "index": "two", "paths": []any{"l/a.md"}})
	list := k.run(map[string]any{"action": "list_indexes"}).Data.(map[string]any)["indexes"].([]indexInfo)
	if len(list) != 2 || list[0].Name != "one" || list[0].Files != 1 || list[0].Status != "ok" || list[1].Sources[0] != "l/a.md" {
		t.Fatalf("list %+v", list)
	}
	if h := k.search("lemur"); len(h) != 2 {
		t.Fatalf("both indexes: %+v", h)
	}
	if h := k.search("lemur", "indexes", []any{"two"}); len(h) != 1 || h[0].Index != "two" {
		t.Fatalf("one index: %+v", h)
	}
	k.run(map[string]any{"action": "remove", "index": "one"})
	if _, err := os.Stat(filepath.Join(k.d.Config.DataDir, "knowledge", "one")); err == nil {
		t.Fatal("index dir left")
	}
	if _, err := os.Stat(filepath.Join(k.root, "l", "a.md")); err != nil {
		t.Fatal("source removed")
	}
	_, err := tooltest.Run(t, k.tl, map[string]any{"action": "search", "query": "lemur", "indexes": []any{"one"}})
	tooltest.ToolError(t, err, tool.CodeNotFound)
}

func TestBadInput_ClearErrorsNothingChanged(t *testing.T) {
	k := newKB(t)
	k.write("b/a.md", "x")
	k.write("b/a.exe", "x")
	for _, tc := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"action": "index", "paths": []any{"/etc"}}, tool.CodeDenied},
		{map[string]any{"action": "index", "paths": []any{"../.."}}, tool.CodeDenied},
		{map[string]any{"action": "index", "paths": []any{k.d.Config.DataDir}}, tool.CodeDenied},
		{map[string]any{"action": "index", "paths": []any{"b/missing"}}, tool.CodeNotFound},
		{map[string]any{"action": "index", "paths": []any{"b/a.exe"}}, tool.CodeInvalid},
		{map[string]any{"action": "index", "index": "Bad/Name", "paths": []any{"b"}}, tool.CodeInvalid},
		{map[string]any{"action": "index"}, tool.CodeInvalid},
		{map[string]any{"action": "search", "query": "x"}, tool.CodeNotFound},
		{map[string]any{"action": "search", "query": "   "}, tool.CodeInvalid},
		{map[string]any{"action": "remove", "index": "none"}, tool.CodeNotFound},
	} {
		_, err := tooltest.Run(t, k.tl, tc.args)
		tooltest.ToolError(t, err, tc.code)
	}
	if names := k.lib.names(); len(names) != 0 {
		t.Fatalf("bad input made indexes: %v", names)
	}
	k.run(map[string]any{"action": "index", "paths": []any{"b"}})
	_, err := tooltest.Run(t, k.tl, map[string]any{"action": "search", "query": "x", "glob": "[abc"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

func TestConfig_SectionTakesEffect(t *testing.T) {
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "knowledge_rag", "chunk_chars: 300\noverlap_chars: 0")
	k := open(t, d)
	k.write("c/a.txt", strings.Repeat("word ", 1000))
	rep := k.run(map[string]any{"action": "index", "paths": []any{"c"}}).Data.(*syncReport)
	if rep.Passages < 15 {
		t.Fatalf("chunk_chars 300 gave %d passages for 5000 characters", rep.Passages)
	}
}

// TestIndex_UnreadablePDFNamedAsEverywhere: a PDF pdftotext cannot read is
// reported under its name in the words every PDF reader uses
// (internal/pdftext), not as a bare program failure, and the other files
// are indexed.
func TestIndex_UnreadablePDFNamedAsEverywhere(t *testing.T) {
	k := newKB(t)
	tooltest.NeedProgram(t, "pdftotext")
	k.write("docs/broken.pdf", "%PDF-1.7\nnot a PDF at all\n")
	k.write("docs/ok.md", "# Fine\n\nA readable note.\n")
	rep := k.run(map[string]any{"action": "index", "paths": []any{"docs"}}).Data.(*syncReport)
	if rep.Added != 1 || len(rep.Failed) != 1 || !strings.HasSuffix(rep.Failed[0].Path, "broken.pdf") ||
		!strings.HasPrefix(rep.Failed[0].Error, "broken.pdf is not a readable PDF: pdftotext: ") || strings.Contains(rep.Failed[0].Error, k.root) {
		t.Fatalf("report %+v", rep)
	}
}

// TestClose_ClosesTheOpenedIndexes: the tool's Closer (run by the
// composition root at shutdown) closes every index a call opened; before
// it, the bleve indexes stayed open until the process died.
func TestClose_ClosesTheOpenedIndexes(t *testing.T) {
	k := newKB(t)
	k.write("notes/a.md", "# A\n\nThe hiring freeze applies to all teams.\n")
	k.run(map[string]any{"action": "index", "paths": []any{"notes"}})
	if len(k.search("hiring freeze")) == 0 {
		t.Fatal("no hit before closing")
	}
	opened := func() (n int) {
		k.lib.mu.Lock()
		defer k.lib.mu.Unlock()
		for _, h := range k.lib.open {
			h.mu.RLock()
			if h.idx != nil {
				n++
			}
			h.mu.RUnlock()
		}
		return n
	}
	if opened() == 0 {
		t.Fatal("no index open after a search")
	}
	if k.tl.Closer == nil {
		t.Fatal("knowledge_rag has no Closer: its indexes are never closed")
	}
	if err := tool.CloseTool(k.tl); err != nil {
		t.Fatal(err)
	}
	if n := opened(); n != 0 {
		t.Errorf("%d indexes still open after Close", n)
	}
}
