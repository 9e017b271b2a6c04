package pdf

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// tenPages is a 10-page PDF (the 3-page fixture merged with itself, cut).
func tenPages(b *testing.B) []byte {
	b.Helper()
	src := manyPages(b, 4) // 12 pages
	var buf bytes.Buffer
	if err := api.Collect(bytes.NewReader(src), &buf, []string{"1-10"}, conf("")); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkMerge100Tool merges 100 PDFs of 10 pages through pdf_tool.
// Compare with BenchmarkMerge100Pdfcpu (pdfcpu's file API, what the pdfcpu
// command line runs); the goal is within 10%.
func BenchmarkMerge100Tool(b *testing.B) {
	d := tooltest.Deps(b)
	tl := tooltest.Build(b, New, d)
	data := tenPages(b)
	var paths []any
	for i := 0; i < 100; i++ {
		p := fmt.Sprintf("in/f%03d.pdf", i)
		os.MkdirAll(filepath.Join(d.Sandbox.Root(), "in"), 0o755)
		os.WriteFile(filepath.Join(d.Sandbox.Root(), p), data, 0o644)
		paths = append(paths, p)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := tooltest.Run(b, tl, map[string]any{"action": "merge", "paths": paths, "output": "merged.pdf", "overwrite": true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMerge100Pdfcpu(b *testing.B) {
	dir := b.TempDir()
	data := tenPages(b)
	var paths []string
	for i := 0; i < 100; i++ {
		p := filepath.Join(dir, fmt.Sprintf("f%03d.pdf", i))
		os.WriteFile(p, data, 0o644)
		paths = append(paths, p)
	}
	out := filepath.Join(dir, "merged.pdf")
	b.ResetTimer()
	for b.Loop() {
		os.Remove(out)
		if err := api.MergeCreateFile(paths, out, false, conf("")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSplit300 splits a 300-page PDF into single pages.
func BenchmarkSplit300(b *testing.B) {
	d := tooltest.Deps(b)
	tl := tooltest.Build(b, New, d)
	os.WriteFile(filepath.Join(d.Sandbox.Root(), "big.pdf"), manyPages(b, 100), 0o644)
	b.ResetTimer()
	for b.Loop() {
		if _, err := tooltest.Run(b, tl, map[string]any{"action": "split", "path": "big.pdf", "span": 1, "output_dir": "parts", "overwrite": true}); err != nil {
			b.Fatal(err)
		}
	}
}
