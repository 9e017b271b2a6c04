package pdf

import (
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func TestContract(t *testing.T) {
	e := newEnv(t)
	if err := e.tool.Validate(); err != nil {
		t.Fatal(err)
	}
	if e.tool.LevelOf(tool.NewCall("extract_text", nil)) != tool.Read || e.tool.LevelOf(tool.NewCall("merge", nil)) != tool.Write {
		t.Fatal("levels: reads must be read, writes write")
	}
	// No pdfcpu config directory may be written.
	home, _ := os.UserConfigDir()
	if _, err := os.Stat(filepath.Join(home, "pdfcpu")); err == nil {
		t.Log("note: a pdfcpu config dir exists (maybe from another program)")
	}
}

func TestInfoAndPageCount(t *testing.T) {
	e := newEnv(t)
	p := e.put("in/chinese.pdf", fixture(t, "chinese.pdf"))
	res := e.run(map[string]any{"action": "page_count", "path": p})
	if res.Data.(map[string]any)["page_count"] != 3 {
		t.Fatalf("page_count: %v", res.Data)
	}
	res = e.run(map[string]any{"action": "info", "path": p})
	d := res.Data.(map[string]any)
	if d["page_count"] != 3 || d["encrypted"] != false || !strings.Contains(d["producer"].(string), "LibreOffice") {
		t.Fatalf("info: %v", d)
	}
	if sizes := d["page_sizes"].([]map[string]float64); len(sizes) == 0 || sizes[0]["width_pt"] < 500 {
		t.Fatalf("page sizes: %v", sizes)
	}
}

func TestBadInputs(t *testing.T) {
	e := newEnv(t)
	bad := e.put("bad.pdf", []byte("%PDF-1.7\n1 0 obj garbage endobj\ntrailer<<>>\n%%EOF"))
	notPDF := e.put("note.pdf", []byte("hello, not a pdf"))
	empty := e.put("empty.pdf", nil)
	for _, tc := range []struct {
		name string
		args map[string]any
		code string
	}{
		{"malformed", map[string]any{"action": "page_count", "path": bad}, tool.CodeInvalid},
		{"not a pdf", map[string]any{"action": "info", "path": notPDF}, tool.CodeInvalid},
		{"empty", map[string]any{"action": "info", "path": empty}, tool.CodeInvalid},
		{"missing", map[string]any{"action": "info", "path": "nope.pdf"}, tool.CodeNotFound},
		{"outside", map[string]any{"action": "info", "path": "/etc/passwd"}, tool.CodeDenied},
		{"bad selection", map[string]any{"action": "extract_pages", "path": e.put("c.pdf", fixture(t, "chinese.pdf")), "pages": "x-y"}, tool.CodeInvalid},
		{"bad rotation", map[string]any{"action": "rotate", "path": "c.pdf", "rotation": 45}, tool.CodeInvalid},
		{"merge one", map[string]any{"action": "merge", "paths": []any{"c.pdf"}}, tool.CodeInvalid},
		{"remove all", map[string]any{"action": "remove_pages", "path": "c.pdf", "pages": "1-3"}, tool.CodeInvalid},
		{"overwrite input", map[string]any{"action": "rotate", "path": "c.pdf", "rotation": 90, "output": "c.pdf"}, tool.CodeExists},
		{"wm both", map[string]any{"action": "watermark", "path": "c.pdf"}, tool.CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			te := e.fail(tc.args, tc.code)
			if te.Message == "" {
				t.Fatal("empty message")
			}
		})
	}
	// The refused overwrite left the input as it was.
	if data, _ := os.ReadFile(e.abs("c.pdf")); string(data) != string(fixture(t, "chinese.pdf")) {
		t.Fatal("input changed")
	}
	// validate reports a malformed file as invalid data rather than failing.
	res := e.run(map[string]any{"action": "validate", "path": bad})
	if res.Data.(map[string]any)["valid"] != false {
		t.Fatalf("validate malformed: %v", res.Data)
	}
}

func TestHugeInputRefused(t *testing.T) {
	e := newEnv(t)
	e.tool = tooltest.Build(t, New, e.d)
	pt := &pdfTool{d: e.d, cfg: Section{MaxMB: 1, MaxPages: 10}}
	big := e.put("big.pdf", append([]byte("%PDF-1.7\n"), make([]byte, 2<<20)...))
	if _, err := pt.readInput("path", big); err == nil {
		t.Fatal("2 MB file accepted with a 1 MB limit")
	} else if te, _ := tool.AsError(err); te.Code != tool.CodeTooLarge {
		t.Fatalf("code %v", err)
	}
	many := e.put("many.pdf", manyPages(t, 4)) // 12 pages
	if _, _, err := pt.readPDF("path", many, ""); err == nil {
		t.Fatal("12 pages accepted with a 10-page limit")
	}
}

func TestPageOperations(t *testing.T) {
	e := newEnv(t)
	c := e.put("c.pdf", fixture(t, "chinese.pdf"))
	big := e.put("big.pdf", manyPages(t, 100)) // 300 pages
	checkPDF(t, e.abs(big), 300, "")

	res := e.run(map[string]any{"action": "merge", "paths": []any{c, c, big}, "output": "out/merged.pdf"})
	checkPDF(t, e.abs("out/merged.pdf"), 306, "")
	if res.Files[0].Size == 0 || res.Data.(map[string]any)["page_count"] != 306 {
		t.Fatalf("merge: %+v", res)
	}

	res = e.run(map[string]any{"action": "split", "path": big, "span": 100})
	if len(res.Files) != 3 {
		t.Fatalf("split by span: %d files", len(res.Files))
	}
	for _, f := range res.Files {
		checkPDF(t, f.Path, 100, "")
	}
	res = e.run(map[string]any{"action": "split", "path": c, "split_at": []any{2.0}, "output_dir": "parts"})
	if len(res.Files) != 2 {
		t.Fatalf("split_at: %d files", len(res.Files))
	}
	checkPDF(t, res.Files[0].Path, 1, "")
	checkPDF(t, res.Files[1].Path, 2, "")
	if txt := officetest.Text(t, res.Files[1].Path); !strings.Contains(txt, "第二页") || strings.Contains(txt, "第一页") {
		t.Fatalf("split part 2 text: %q", txt)
	}
	// The same split again into the same directory is refused, not clobbered.
	e.fail(map[string]any{"action": "split", "path": c, "split_at": []any{2.0}, "output_dir": "parts"}, tool.CodeExists)

	res = e.run(map[string]any{"action": "extract_pages", "path": c, "pages": "3,1"})
	checkPDF(t, res.Files[0].Path, 2, "")
	txt := officetest.Text(t, res.Files[0].Path)
	if i, j := strings.Index(txt, "第三页"), strings.Index(txt, "第一页"); i < 0 || j < 0 || i > j || strings.Contains(txt, "第二页") {
		t.Fatalf("extract_pages order/content: %q", txt)
	}

	res = e.run(map[string]any{"action": "remove_pages", "path": big, "pages": "even"})
	checkPDF(t, res.Files[0].Path, 150, "")

	res = e.run(map[string]any{"action": "rotate", "path": c, "rotation": 90, "pages": "2"})
	checkPDF(t, res.Files[0].Path, 3, "")
	info := e.run(map[string]any{"action": "info", "path": res.Files[0].Path})
	sizes := info.Data.(map[string]any)["page_sizes"].([]map[string]float64)
	if len(sizes) < 2 {
		t.Fatalf("rotated file should have two page sizes (portrait and landscape): %v", sizes)
	}

	res = e.run(map[string]any{"action": "optimize", "path": big})
	checkPDF(t, res.Files[0].Path, 300, "")
	d := res.Data.(map[string]any)
	if d["after_bytes"].(int64) >= int64(d["before_bytes"].(int)) {
		t.Fatalf("optimize did not shrink a file with 100 duplicate font sets: %v", d)
	}

	res = e.run(map[string]any{"action": "validate", "path": c, "strict": false})
	if res.Data.(map[string]any)["valid"] != true {
		t.Fatalf("validate: %v", res.Data)
	}
}

func TestEncryption(t *testing.T) {
	e := newEnv(t)
	c := e.put("c.pdf", fixture(t, "chinese.pdf"))
	res := e.run(map[string]any{"action": "encrypt", "path": c, "user_password": "open", "owner_password": "boss", "permissions": "print", "output": "enc.pdf"})
	checkPDF(t, e.abs("enc.pdf"), 3, "open")
	if res.Data.(map[string]any)["algorithm"] != "AES-256" {
		t.Fatalf("encrypt: %v", res.Data)
	}
	// Without the password neither pdfcpu (through the tool) nor poppler opens it.
	te := e.fail(map[string]any{"action": "page_count", "path": "enc.pdf"}, tool.CodeDenied)
	if te.Field != "password" {
		t.Fatalf("error field %q", te.Field)
	}
	e.fail(map[string]any{"action": "page_count", "path": "enc.pdf", "password": "wrong"}, tool.CodeDenied)
	if out, err := execOut("pdfinfo", e.abs("enc.pdf")); err == nil {
		t.Fatalf("pdfinfo opened an encrypted file without password: %s", out)
	}
	if out, _ := execOut("pdfinfo", "-upw", "open", e.abs("enc.pdf")); !strings.Contains(out, "AES-256") || !strings.Contains(out, "copy:no") {
		t.Fatalf("pdfinfo does not report AES-256 encryption: %s", out)
	}

	res = e.run(map[string]any{"action": "permissions", "path": "enc.pdf", "password": "open"})
	perms := res.Data.(map[string]any)["permissions"].(map[string]bool)
	if !perms["print"] || perms["copy"] || perms["modify"] {
		t.Fatalf("permissions: %v", perms)
	}
	res = e.run(map[string]any{"action": "set_permissions", "path": "enc.pdf", "password": "boss", "user_password": "open", "permissions": "print,copy", "output": "enc2.pdf"})
	e.wrote(res, "enc2.pdf")
	res = e.run(map[string]any{"action": "permissions", "path": "enc2.pdf", "password": "open"})
	perms = res.Data.(map[string]any)["permissions"].(map[string]bool)
	if !perms["copy"] || perms["modify"] {
		t.Fatalf("permissions after set: %v", perms)
	}

	// Text extraction of the encrypted file with the password keeps Chinese.
	res = e.run(map[string]any{"action": "extract_text", "path": "enc.pdf", "password": "open"})
	pages := res.Data.(map[string]any)["pages"]
	if !strings.Contains(toJSON(pages), "你好") {
		t.Fatalf("encrypted extract_text: %v", pages)
	}

	e.fail(map[string]any{"action": "encrypt", "path": "enc.pdf", "owner_password": "x"}, tool.CodeInvalid)
	res = e.run(map[string]any{"action": "decrypt", "path": "enc.pdf", "password": "boss", "output": "plain.pdf"})
	e.wrote(res, "plain.pdf")
	checkPDF(t, e.abs("plain.pdf"), 3, "")
	if out, err := execOut("pdfinfo", e.abs("plain.pdf")); err != nil || !strings.Contains(strings.Join(strings.Fields(out), " "), "Encrypted: no") {
		t.Fatalf("decrypted file: %v %s", err, out)
	}
	e.fail(map[string]any{"action": "decrypt", "path": "enc.pdf", "password": "nope"}, tool.CodeDenied)
}

func TestWatermarkAndStamp(t *testing.T) {
	e := newEnv(t)
	c := e.put("c.pdf", fixture(t, "chinese.pdf"))
	img := e.put("logo.png", pngBytes(t, 120, 60, color.RGBA{200, 0, 0, 255}))
	cases := []struct {
		name, action string
		args         map[string]any
		text         string
	}{
		{"text watermark", "watermark", map[string]any{"text": "CONFIDENTIAL", "pages": "1-2", "color": "#FF0000"}, "CONFIDENTIAL"},
		{"text stamp", "stamp", map[string]any{"text": "APPROVED", "position": "tr", "font_size": 24}, "APPROVED"},
		{"chinese watermark", "watermark", map[string]any{"text": "机密文件"}, ""},
		{"image stamp", "stamp", map[string]any{"image": img, "position": "bl", "scale": 0.2}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "chinese watermark" {
				// The lookup the stamp code uses, not a guess at paths.
				if _, err := cjkfont.Find(""); err != nil {
					tooltest.Missing(t, "no CJK font (apt-get install %s): %v", cjkfont.Package, err)
				}
			}
			e := e.with(t)
			args := map[string]any{"action": tc.action, "path": c}
			for k, v := range tc.args {
				args[k] = v
			}
			res := e.run(args)
			checkPDF(t, res.Files[0].Path, 3, "")
			info := e.run(map[string]any{"action": "info", "path": res.Files[0].Path})
			if info.Data.(map[string]any)["watermarked"] != true {
				t.Fatalf("not watermarked: %v", info.Data)
			}
			txt := officetest.Text(t, res.Files[0].Path)
			if !strings.Contains(txt, "你好") {
				t.Fatalf("original text lost: %q", txt)
			}
			if tc.text != "" && !strings.Contains(strings.Join(strings.Fields(txt), ""), tc.text) {
				t.Fatalf("watermark text %q not in %q", tc.text, txt)
			}
			if tc.name == "image stamp" || tc.name == "chinese watermark" {
				ex := e.run(map[string]any{"action": "extract_images", "path": res.Files[0].Path, "pages": "1"})
				if ex.Data.(map[string]any)["count"].(int) < 1 {
					t.Fatalf("no image found after image stamp: %v", ex.Data)
				}
			}
		})
	}
}

func TestImagesRoundTrip(t *testing.T) {
	e := newEnv(t)
	a := e.put("a.png", pngBytes(t, 200, 100, color.RGBA{0, 0, 255, 255}))
	b := e.put("b.png", pngBytes(t, 80, 160, color.RGBA{0, 160, 0, 255}))
	res := e.run(map[string]any{"action": "images_to_pdf", "paths": []any{a, b}, "output": "scan.pdf"})
	checkPDF(t, e.abs("scan.pdf"), 2, "")
	if res.Data.(map[string]any)["page_count"] != 2 {
		t.Fatal(res.Data)
	}
	res = e.run(map[string]any{"action": "images_to_pdf", "paths": []any{a}, "page_size": "image", "output": "fit.pdf"})
	e.wrote(res, "fit.pdf")
	info := e.run(map[string]any{"action": "info", "path": "fit.pdf"})
	sz := info.Data.(map[string]any)["page_sizes"].([]map[string]float64)[0]
	if sz["width_pt"] != 200 || sz["height_pt"] != 100 {
		t.Fatalf("page_size image: %v", sz)
	}

	res = e.run(map[string]any{"action": "extract_images", "path": "scan.pdf", "output_dir": "imgs"})
	if res.Data.(map[string]any)["count"] != 2 {
		t.Fatalf("extract_images: %v", res.Data)
	}
	for _, f := range res.Files {
		if fi, err := os.Stat(f.Path); err != nil || fi.Size() == 0 {
			t.Fatalf("image %s: %v", f.Path, err)
		}
	}
	// A scanned (image-only) PDF has no text layer: extract_text says so.
	res = e.run(map[string]any{"action": "extract_text", "path": "scan.pdf"})
	if res.Data.(map[string]any)["pages_without_text"] != 2 || !strings.Contains(res.Summary, "ocr") {
		t.Fatalf("scanned text: %v / %s", res.Data, res.Summary)
	}
	e.fail(map[string]any{"action": "images_to_pdf", "paths": []any{"scan.pdf"}}, tool.CodeInvalid)
}

func TestExtractText(t *testing.T) {
	tooltest.NeedProgram(t, "pdftotext")
	e := newEnv(t)
	c := e.put("c.pdf", fixture(t, "chinese.pdf"))
	for _, tc := range []struct {
		pages     string
		want      []int
		contains  string
		notInPage string
	}{
		{"", []int{1, 2, 3}, "你好，世界", ""},
		{"2", []int{2}, "壹万贰仟元整", "你好"},
		{"odd", []int{1, 3}, "思维导图", "壹万"},
	} {
		res := e.run(map[string]any{"action": "extract_text", "path": c, "pages": tc.pages})
		raw := toJSON(res.Data.(map[string]any)["pages"])
		var got []int
		for _, pg := range res.Data.(map[string]any)["pages"].([]PageText) {
			got = append(got, pg.Page)
			if !strings.Contains(pg.Text, "页") {
				t.Fatalf("page %d text lacks Chinese: %q", pg.Page, pg.Text)
			}
		}
		if toJSON(got) != toJSON(tc.want) {
			t.Fatalf("pages %q: got %v want %v", tc.pages, got, tc.want)
		}
		if !strings.Contains(raw, tc.contains) || (tc.notInPage != "" && strings.Contains(raw, tc.notInPage)) {
			t.Fatalf("pages %q: text %s", tc.pages, raw)
		}
	}
	res := e.run(map[string]any{"action": "extract_text", "path": c, "output": "c.txt", "layout": true})
	data, _ := os.ReadFile(e.abs("c.txt"))
	if !strings.Contains(string(data), "第三页") || len(res.Files) != 1 {
		t.Fatalf("saved text: %q", data)
	}
}

func TestForms(t *testing.T) {
	e := newEnv(t)
	f := e.put("form.pdf", formPDF(t))
	checkPDF(t, e.abs(f), 1, "")
	res := e.run(map[string]any{"action": "list_form_fields", "path": f})
	d := res.Data.(map[string]any)
	if d["count"] != 3 {
		t.Fatalf("fields: %v", d)
	}
	byName := map[string]map[string]any{}
	for _, fl := range d["fields"].([]map[string]any) {
		byName[fl["name"].(string)] = fl
	}
	if byName["agree"]["type"] != "checkbox" || byName["country"]["type"] != "combobox" || byName["name"]["type"] != "text" {
		t.Fatalf("field types: %v", byName)
	}
	e.fail(map[string]any{"action": "fill_form", "path": f, "fields": map[string]any{"nosuch": "x"}}, tool.CodeInvalid)
	e.fail(map[string]any{"action": "fill_form", "path": f, "fields": map[string]any{"country": "Mars"}}, tool.CodeInvalid)
	e.fail(map[string]any{"action": "fill_form", "path": f, "fields": map[string]any{"agree": "yes"}}, tool.CodeInvalid)
	e.fail(map[string]any{"action": "fill_form", "path": f, "fields": map[string]any{"name": "张三"}}, tool.CodeInvalid)
	res = e.run(map[string]any{"action": "fill_form", "path": f, "fields": map[string]any{"name": "Alice Smith", "agree": true, "country": "China"}, "output": "filled.pdf"})
	e.wrote(res, "filled.pdf")
	checkPDF(t, e.abs("filled.pdf"), 1, "")
	res = e.run(map[string]any{"action": "list_form_fields", "path": "filled.pdf"})
	got := map[string]any{}
	for _, fl := range res.Data.(map[string]any)["fields"].([]map[string]any) {
		got[fl["name"].(string)] = fl["value"]
	}
	if got["name"] != "Alice Smith" || got["country"] != "China" || got["agree"] != true {
		t.Fatalf("filled values: %v", got)
	}
	e.fail(map[string]any{"action": "fill_form", "path": e.put("c.pdf", fixture(t, "chinese.pdf")), "fields": map[string]any{"a": "b"}}, tool.CodeInvalid)
}
