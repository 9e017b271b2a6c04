package convert

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/clawbridge/clawbridge/internal/pptx"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

const sampleMD = "# 季度报告 Quarterly report\n\n" +
	"这是**中文**段落，带有 *斜体* 和 [链接](https://example.com)。\n\n" +
	"## 数据 Data\n\n" +
	"| 产品 | 数量 | 价格 |\n|---|---:|---:|\n| 苹果 | 12 | 3.5 |\n| Banana | 7 | 1.25 |\n\n" +
	"- 第一项 first\n- 第二项 second\n  - 嵌套 nested\n\n" +
	"1. one\n2. two\n\n" +
	"- [x] done task\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"你好\")\n}\n```\n\n" +
	"![logo](img/logo.png)\n\n" +
	"> 引用 quote\n\n~~deleted~~ end.\n"

func logoPNG(t testing.TB) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 20))
	for y := 0; y < 20; y++ {
		for x := 0; x < 40; x++ {
			img.Set(x, y, color.NRGBA{200, 30, 30, uint8(100 + x*3)})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestContract(t *testing.T) {
	e := newEnv(t, false)
	res, err := e.tool.Handle(t.Context(), tool.NewCall("formats", nil))
	if err != nil {
		t.Fatal(err)
	}
	conv := res.Data.(map[string]any)["conversions"].(map[string][]string)
	if !strings.Contains(strings.Join(conv["md"], ","), "pdf") || !strings.Contains(strings.Join(conv["csv"], ","), "xlsx") {
		t.Fatalf("formats: %v", conv)
	}
}

func TestMarkdownToHTML(t *testing.T) {
	e := newEnv(t, false)
	e.put("img/logo.png", logoPNG(t))
	p := e.put("report.md", []byte(sampleMD))
	res := e.run(map[string]any{"path": p, "to": "html"})
	html := string(read(t, res.Files[0].Path))
	for _, want := range []string{
		`<meta charset="utf-8">`, `<title>季度报告 Quarterly report</title>`, `lang="zh-CN"`,
		`<table>`, `<th style="text-align:right">数量</th>`, `<td>苹果</td>`,
		`<strong>中文</strong>`, `<del>deleted</del>`, `type="checkbox"`, `<blockquote>`,
		`src="data:image/png;base64,`,   // local image embedded
		`<pre style="background-color:`, // chroma inline styles
		`<span style="color:`,           // highlighted tokens
		`&#34;你好&#34;`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %s", want)
		}
	}
	if res.Data.(map[string]any)["title"] != "季度报告 Quarterly report" {
		t.Fatalf("title: %v", res.Data)
	}
	// Inline text input and a text target.
	res = e.run(map[string]any{"text": "# T\n\nhello *world*\n\n- a\n- b\n", "to": "txt", "output": "t.txt"})
	if got := string(read(t, res.Files[0].Path)); !strings.Contains(got, "hello world") || !strings.Contains(got, "- a\n- b") {
		t.Fatalf("md to txt: %q", got)
	}
}

func TestHTMLToMarkdown(t *testing.T) {
	e := newEnv(t, false)
	p := e.put("page.html", []byte(`<html><head><title>标题</title><style>p{}</style><script>x()</script></head><body>
<h1>你好 Hello</h1><p>Some <b>bold</b> and <a href="https://go.dev">a link</a>.</p>
<table><thead><tr><th>名称</th><th>值</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>
<ul><li>x</li><li>y</li></ul><pre><code>code  here</code></pre><del>old</del></body></html>`))
	res := e.run(map[string]any{"path": p, "to": "md"})
	md := string(read(t, res.Files[0].Path))
	containsAll(t, "markdown", md, "# 你好 Hello", "**bold**", "[a link](https://go.dev)", "| 名称 | 值 |", "| a  | 1 |", "- x", "code  here", "~~old~~")
	if strings.Contains(md, "x()") {
		t.Fatal("script leaked into markdown")
	}
	res = e.run(map[string]any{"path": p, "to": "txt"})
	txt := string(read(t, res.Files[0].Path))
	if !strings.Contains(txt, "你好 Hello") || !strings.Contains(txt, "名称\t值") || strings.Contains(txt, "p{}") {
		t.Fatalf("html to txt: %q", txt)
	}
}

func TestPDFNeedsRenderer(t *testing.T) {
	e := newEnv(t, false)
	te := e.fail(map[string]any{"text": "# x", "to": "pdf"}, tool.CodeUnavailable)
	if !strings.Contains(te.Hint, "chromium") {
		t.Fatalf("hint: %s", te.Hint)
	}
}

func TestMarkdownAndHTMLToPDF(t *testing.T) {
	t.Parallel()
	tooltest.NeedProgram(t, "pdftotext")
	e := newEnv(t, true)
	e.put("img/logo.png", logoPNG(t))
	p := e.put("report.md", []byte(sampleMD))
	res := e.run(map[string]any{"path": p, "to": "pdf", "page_size": "A4", "page_numbers": true})
	n, txt := checkPDF(t, res.Files[0].Path)
	if n < 1 {
		t.Fatal("no pages")
	}
	flat := strings.Join(strings.Fields(txt), " ")
	for _, want := range []string{"季度报告", "中文", "苹果", "Banana", "第一项", "fmt.Println(\"你好\")", "引用"} {
		if !strings.Contains(flat, want) {
			t.Errorf("pdf text lacks %q: %s", want, flat)
		}
	}
	// Headings come before the table, which comes before the code.
	if i, j := strings.Index(flat, "季度报告"), strings.Index(flat, "苹果"); i < 0 || j < i {
		t.Fatalf("order: %s", flat)
	}
	h := e.put("page.html", []byte(`<!doctype html><html><head><meta charset="utf-8"></head><body><h1>网页标题</h1><p>正文 body text</p><img src="img/logo.png"></body></html>`))
	res = e.run(map[string]any{"path": h, "to": "pdf", "landscape": true})
	_, txt = checkPDF(t, res.Files[0].Path)
	if !strings.Contains(txt, "网页标题") || !strings.Contains(txt, "正文 body text") {
		t.Fatalf("html pdf text: %q", txt)
	}
	// A long document spans several pages.
	var long strings.Builder
	for i := 0; i < 120; i++ {
		long.WriteString("## 第" + itoa(i) + "节\n\n这是一段很长的中文内容，用来测试分页。Lorem ipsum dolor sit amet.\n\n")
	}
	res = e.run(map[string]any{"text": long.String(), "to": "pdf", "output": "long.pdf"})
	if n, txt := checkPDF(t, res.Files[0].Path); n < 3 || !strings.Contains(txt, "第119节") {
		t.Fatalf("long pdf: %d pages", n)
	}
}

func itoa(i int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+i/100)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10)))
}

func TestWordRoundTrip(t *testing.T) {
	t.Parallel()
	tooltest.NeedProgram(t, "soffice")
	tooltest.NeedProgram(t, "pdftotext")
	e := newEnv(t, false)
	e.put("img/logo.png", logoPNG(t))
	p := e.put("report.md", []byte(sampleMD))
	res := e.run(map[string]any{"path": p, "to": "docx", "output": "report.docx"})
	if res.Files[0].Size == 0 {
		t.Fatal("empty docx")
	}
	// Our reader: docx -> md keeps headings, lists, the table and emphasis.
	res = e.run(map[string]any{"path": "report.docx", "to": "md", "output": "back.md"})
	md := string(read(t, res.Files[0].Path))
	containsAll(t, "docx->md", md, "# 季度报告 Quarterly report", "## 数据 Data", "**中文**", "| 产品 | 数量 | 价格 |", "| 苹果 | 12 | 3.5 |", "- 第一项 first", "1. one", "2. two", "[链接](https://example.com)", "```go\nfunc main() {\n\tfmt.Println(\"你好\")\n}\n```", "> 引用 quote")
	res = e.run(map[string]any{"path": "report.docx", "to": "txt"})
	txt := string(read(t, res.Files[0].Path))
	if !strings.Contains(txt, "苹果\t12\t3.5") || strings.Contains(txt, "**") {
		t.Fatalf("docx->txt: %q", txt)
	}
	// A real reader: LibreOffice prints the docx and poppler reads it back.
	res = e.run(map[string]any{"path": "report.docx", "to": "pdf"})
	n, ptxt := checkPDF(t, res.Files[0].Path)
	flat := strings.Join(strings.Fields(ptxt), " ")
	if n < 1 || !strings.Contains(flat, "季度报告") || !strings.Contains(flat, "苹果") || strings.Index(flat, "季度报告") > strings.Index(flat, "苹果") {
		t.Fatalf("docx->pdf text: %s", flat)
	}
	// html -> docx too.
	h := e.put("p.html", []byte(`<h1>网页</h1><p>段落 paragraph</p>`))
	res = e.run(map[string]any{"path": h, "to": "docx"})
	res = e.run(map[string]any{"path": res.Files[0].Path, "to": "md"})
	if md := string(read(t, res.Files[0].Path)); !strings.Contains(md, "# 网页") || !strings.Contains(md, "段落 paragraph") {
		t.Fatalf("html->docx->md: %q", md)
	}
	// Not a zip.
	e.put("bad.docx", []byte("not a zip"))
	e.fail(map[string]any{"path": "bad.docx", "to": "md"}, tool.CodeInvalid)
}

const sampleCSV = "name,qty,price,day,when,ok,code,note\n" +
	"苹果,12,3.5,2024-01-05,2024-01-05 08:30:00,true,007,hello\n" +
	"Banana,-7,1e3,2023-12-31,2023-12-31 23:59:59,false,12345678901234567,\"a, b\"\n" +
	"Cherry,,0.25,,,,,\n"

func TestTablesKeepTypes(t *testing.T) {
	e := newEnv(t, false)
	p := e.put("data.csv", []byte(sampleCSV))
	res := e.run(map[string]any{"path": p, "to": "xlsx", "output": "data.xlsx"})
	types := res.Data.(map[string]any)["column_types"].(map[string]string)
	want := map[string]string{"name": "text", "qty": "number", "price": "number", "day": "date", "when": "datetime", "ok": "boolean", "code": "text", "note": "text"}
	for k, v := range want {
		if types[k] != v {
			t.Errorf("column %s: %s, want %s", k, types[k], v)
		}
	}
	// Excel sees numbers as numbers and dates as dates.
	f, err := excelize.OpenFile(res.Files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sh := f.GetSheetList()[0]
	for axis, wantType := range map[string]excelize.CellType{"B2": excelize.CellTypeNumber, "G2": excelize.CellTypeSharedString, "F2": excelize.CellTypeBool, "A2": excelize.CellTypeSharedString} {
		got, _ := f.GetCellType(sh, axis)
		if got != wantType && !(wantType == excelize.CellTypeNumber && got == excelize.CellTypeUnset) && !(wantType == excelize.CellTypeSharedString && got == excelize.CellTypeInlineString) {
			t.Errorf("%s type %v, want %v", axis, got, wantType)
		}
	}
	if v, _ := f.GetCellValue(sh, "D2"); v != "2024-01-05" {
		t.Errorf("date cell shows %q", v)
	}
	if raw, _ := f.GetCellValue(sh, "D2", excelize.Options{RawCellValue: true}); raw != "45296" {
		t.Errorf("date cell raw %q, want serial 45296", raw)
	}
	if v, _ := f.GetCellValue(sh, "G2"); v != "007" {
		t.Errorf("leading zeros lost: %q", v)
	}
	// xlsx -> csv gives the same table back.
	res = e.run(map[string]any{"path": "data.xlsx", "to": "csv", "output": "back.csv"})
	back := string(read(t, res.Files[0].Path))
	wantCSV := strings.Replace(sampleCSV, "1e3", "1000", 1)
	if back != wantCSV {
		t.Fatalf("csv round trip:\n%s\nwant\n%s", back, wantCSV)
	}
	// xlsx -> json: numbers are numbers, dates ISO strings, blanks null.
	res = e.run(map[string]any{"path": "data.xlsx", "to": "json", "output": "data.json"})
	var rows []map[string]any
	if err := json.Unmarshal(read(t, res.Files[0].Path), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0]["qty"] != 12.0 || rows[0]["price"] != 3.5 || rows[0]["day"] != "2024-01-05" || rows[0]["when"] != "2024-01-05T08:30:00" ||
		rows[0]["ok"] != true || rows[0]["code"] != "007" || rows[1]["note"] != "a, b" || rows[2]["qty"] != nil || rows[1]["qty"] != -7.0 {
		t.Fatalf("json rows: %v", rows)
	}
	if !strings.HasPrefix(string(read(t, res.Files[0].Path)), "[\n  {\"name\": \"苹果\", \"qty\": 12,") {
		t.Fatalf("json column order: %s", read(t, res.Files[0].Path))
	}
	// json -> xlsx -> csv: back where we started.
	res = e.run(map[string]any{"path": "data.json", "to": "xlsx", "output": "j.xlsx"})
	if len(res.Files) != 1 || !strings.HasSuffix(res.Files[0].Path, "/j.xlsx") || !bytes.HasPrefix(read(t, res.Files[0].Path), []byte("PK")) {
		t.Fatalf("json->xlsx wrote %+v, want j.xlsx (a zip)", res.Files)
	}
	res = e.run(map[string]any{"path": "j.xlsx", "to": "csv", "output": "j.csv"})
	if got := string(read(t, res.Files[0].Path)); got != wantCSV {
		t.Fatalf("json->xlsx->csv:\n%s", got)
	}
	// csv -> json directly, and a named sheet that does not exist.
	res = e.run(map[string]any{"path": p, "to": "json", "output": "c.json"})
	if !strings.Contains(string(read(t, res.Files[0].Path)), `"price": 1000`) {
		t.Fatalf("csv->json: %s", read(t, res.Files[0].Path))
	}
	e.fail(map[string]any{"path": "data.xlsx", "to": "csv", "sheet": "Nope"}, tool.CodeInvalid)
	e.put("bad.json", []byte(`{"a": 1}`))
	e.fail(map[string]any{"path": "bad.json", "to": "csv"}, tool.CodeInvalid)
}

func TestImages(t *testing.T) {
	e := newEnv(t, false)
	p := e.put("logo.png", logoPNG(t))
	for _, to := range []string{"jpeg", "gif", "bmp", "tiff", "png"} {
		res := e.run(map[string]any{"path": p, "to": to, "output": "out/logo." + to})
		img, format, err := image.Decode(bytes.NewReader(read(t, res.Files[0].Path)))
		if err != nil {
			t.Fatalf("%s: %v", to, err)
		}
		if img.Bounds().Dx() != 40 || img.Bounds().Dy() != 20 || format != to {
			t.Fatalf("%s: %v %s", to, img.Bounds(), format)
		}
		// And back to png.
		back := e.run(map[string]any{"path": res.Files[0].Path, "to": "png", "output": "back/" + to + ".png"})
		if _, err := png.Decode(bytes.NewReader(read(t, back.Files[0].Path))); err != nil {
			t.Fatal(err)
		}
	}
	// JPEG flattens transparency onto white: the faint left edge is light.
	res := e.run(map[string]any{"path": p, "to": "jpeg", "output": "flat.jpg"})
	img, _, _ := image.Decode(bytes.NewReader(read(t, res.Files[0].Path)))
	if r, g, b, _ := img.At(0, 10).RGBA(); r>>8 < 200 || g>>8 < 100 || b>>8 < 100 {
		t.Fatalf("alpha not flattened onto white: %v %v %v", r>>8, g>>8, b>>8)
	}
	e.put("fake.png", []byte("nope"))
	e.fail(map[string]any{"path": "fake.png", "to": "jpeg"}, tool.CodeInvalid)
}

func TestErrors(t *testing.T) {
	e := newEnv(t, false)
	p := e.put("a.md", []byte("# a"))
	e.fail(map[string]any{"path": p, "to": "xlsx"}, tool.CodeInvalid)
	e.fail(map[string]any{"path": "missing.md", "to": "html"}, tool.CodeNotFound)
	e.fail(map[string]any{"path": "/etc/hosts", "to": "html", "from": "md"}, tool.CodeDenied)
	// An output of another type than the target is a mistake, and the
	// input is never replaced without overwrite.
	e.fail(map[string]any{"path": p, "to": "html", "output": "a.md"}, tool.CodeInvalid)
	e.fail(map[string]any{"path": e.put("b.txt", []byte("# b")), "from": "md", "to": "txt", "output": "b.txt"}, tool.CodeExists)
	e.fail(map[string]any{"to": "html"}, tool.CodeInvalid)
	e.fail(map[string]any{"path": e.put("x.unknown", []byte("x")), "to": "html"}, tool.CodeInvalid)
	if string(read(t, e.root+"/a.md")) != "# a" {
		t.Fatal("input changed")
	}
	// Default outputs never clobber: the second run gets a new name.
	r1 := e.run(map[string]any{"path": p, "to": "html"})
	r2 := e.run(map[string]any{"path": p, "to": "html"})
	if r1.Files[0].Path == r2.Files[0].Path {
		t.Fatal("default output reused")
	}
	if _, err := os.Stat(r1.Files[0].Path); err != nil {
		t.Fatal(err)
	}
}

func TestPowerPointToPDF(t *testing.T) {
	t.Parallel()
	tooltest.NeedProgram(t, "soffice")
	tooltest.NeedProgram(t, "pdftotext")
	slides, err := pptx.FromMarkdown([]byte("# 年度总结 Annual review\n\n## 成果 Results\n\n- 收入增长 revenue up\n- New markets\n\n## Thank you 谢谢\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	deck, err := pptx.Write(pptx.Deck{Title: "t", Slides: slides})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, false)
	p := e.put("deck.pptx", deck)
	res := e.run(map[string]any{"path": p, "to": "pdf"})
	n, txt := checkPDF(t, res.Files[0].Path)
	flat := strings.Join(strings.Fields(txt), " ")
	if n != 3 || !strings.Contains(flat, "年度总结") || !strings.Contains(flat, "收入增长") || strings.Index(flat, "年度总结") > strings.Index(flat, "谢谢") {
		t.Fatalf("pptx pdf: %d pages: %s", n, flat)
	}
	// Our own reader gives the slide text too.
	res = e.run(map[string]any{"path": p, "to": "md"})
	md := string(read(t, res.Files[0].Path))
	if !strings.Contains(md, "## 成果 Results") || !strings.Contains(md, "- 收入增长 revenue up") {
		t.Fatalf("pptx md: %s", md)
	}
}

// TestThirdPartyDocx reads a .docx written by LibreOffice (from
// fixtures/convert/libreoffice.html), not by our own writer.
func TestThirdPartyDocx(t *testing.T) {
	data := tooltest.ReadFile(t, "../../fixtures/convert/libreoffice.docx")
	e := newEnv(t, false)
	p := e.put("lo.docx", data)
	res := e.run(map[string]any{"path": p, "to": "md"})
	md := string(read(t, res.Files[0].Path))
	want := "# 标题一 Title\n\nNormal **bold** *ital* [link](https://example.com/)\n\n## 小节 Sub\n\n- 甲 one\n- 乙 two\n   - 丙 nested\n\n1. first\n2. second\n\n| 名 | 值 |\n| --- | --- |\n| a | 1 |\n"
	if md != want {
		t.Fatalf("got:\n%s\nwant:\n%s", md, want)
	}
	res = e.run(map[string]any{"path": p, "to": "html"})
	if h := string(read(t, res.Files[0].Path)); !strings.Contains(h, "<h2 id=") || !strings.Contains(h, "<td>a</td>") {
		t.Fatalf("docx->html: %s", h)
	}
}
