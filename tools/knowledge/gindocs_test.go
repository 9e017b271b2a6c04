package knowledge

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestGinDocs_MDXFrontMatterAndSkipped: on the real gin docs, the .mdx
// home pages are indexed as Markdown without their import lines and JSX
// tags (a card's title kept), a page's front-matter title heads its
// passages instead of being text, and files of types knowledge_rag does not
// read are counted in the result, not dropped unseen.
func TestGinDocs_MDXFrontMatterAndSkipped(t *testing.T) {
	k := newKB(t)
	pages := ginDocs(t, filepath.Join(k.root, "gin"))
	k.write("gin/assets/gin.png", "\x89PNG")
	k.write("gin/astro.config.mjs", "export default {}")
	k.write("gin/CNAME", "gin-gonic.com")
	res := k.run(map[string]any{"action": "index", "paths": []any{"gin"}})
	rep := res.Data.(*syncReport)
	if rep.Files != len(pages) || rep.Added != len(pages) || len(rep.Failed) != 0 {
		t.Fatalf("report %+v for %d pages", rep, len(pages))
	}
	want := map[string]int{".png": 1, ".mjs": 1, "(none)": 1}
	if len(rep.Skipped) != len(want) || rep.Skipped[".png"] != 1 || rep.Skipped[".mjs"] != 1 || rep.Skipped["(none)"] != 1 {
		t.Errorf("skipped %v, want %v", rep.Skipped, want)
	}
	if !strings.Contains(res.Summary, "1 .png") {
		t.Errorf("summary %q does not show the skipped files", res.Summary)
	}

	if mdx := pages["en/index.mdx"]; utf8.RuneCountInString(stripJSX(mdx)) != utf8.RuneCountInString(mdx) {
		t.Errorf("stripJSX moved the offsets")
	}
	hits := k.search("what is gin", "glob", "gin/en/*.mdx")
	if len(hits) == 0 || hits[0].Path != "gin/en/index.mdx" || hits[0].Heading != "Gin Web Framework > What is Gin?" {
		t.Fatalf("mdx hits %+v", hits)
	}
	for _, h := range k.search("Crash-free Card CardGrid import starlight", "glob", "gin/en/*.mdx") {
		for _, jsx := range []string{"import {", "<Card", "</CardGrid>", "icon="} {
			if strings.Contains(h.text, jsx) {
				t.Errorf("passage %d of %s holds %q: %q", h.Ord, h.Path, jsx, h.text)
			}
		}
	}
	if h := k.search("Crash-free", "glob", "gin/en/*.mdx"); len(h) == 0 || !strings.Contains(h[0].Snippet, "**Crash**-**free**") {
		t.Errorf("a card's title is not searchable: %+v", h)
	}

	hits = k.search("Bind Uri")
	i := slices.IndexFunc(hits, func(h Hit) bool { return h.Path == "gin/en/docs/binding/bind-uri.md" })
	if i != 0 || !strings.HasPrefix(hits[0].Heading, "Bind Uri") || strings.Contains(hits[0].text, "sidebar:") {
		t.Fatalf("bind-uri.md at %d: %+v", i, hits)
	}
}
