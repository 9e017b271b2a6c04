package convert

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// BenchmarkMarkdownToPDF50 prints a Markdown document of about 50 A4 pages
// (headings, Chinese paragraphs, tables and code) through Chromium.
func BenchmarkMarkdownToPDF50(b *testing.B) {
	d := tooltest.Deps(b)
	d.PDF = renderer(b)
	tl := tooltest.Build(b, New, d)
	var md strings.Builder
	md.WriteString("# 基准文档 Benchmark\n\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&md, "## 第 %d 节 Section %d\n\n", i+1, i+1)
		md.WriteString(strings.Repeat("这是用于基准测试的中文段落，包含一些 English words 以及数字 12345。", 6) + "\n\n")
		md.WriteString("| 列一 | 列二 | 列三 |\n|---|---|---|\n| a | 1 | 2.5 |\n| 乙 | 2 | 3.5 |\n\n")
		md.WriteString("```go\nfor i := 0; i < 10; i++ {\n\tfmt.Println(i)\n}\n```\n\n")
	}
	os.WriteFile(filepath.Join(d.Sandbox.Root(), "big.md"), []byte(md.String()), 0o644)
	b.ResetTimer()
	for b.Loop() {
		res := tooltest.OK(b, tl, map[string]any{"action": "convert", "path": "big.md", "to": "pdf", "output": "big.pdf", "overwrite": true})
		b.ReportMetric(float64(res.Files[0].Size)/1024, "KiB")
	}
}
