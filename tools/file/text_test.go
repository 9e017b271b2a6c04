package file

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"

	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func TestWriteReadAppend(t *testing.T) {
	f := newFixture(t, "")
	d := f.ok(map[string]any{"action": "write", "path": "notes/a.txt", "text": "one\ntwo\n"})
	if d["created"] != true || d["path"] != "notes/a.txt" || d["bytes"] != float64(8) {
		t.Fatalf("write data: %v", d)
	}
	if got := f.content("notes/a.txt"); got != "one\ntwo\n" {
		t.Fatalf("content %q", got)
	}

	// Without overwrite an existing file is refused and left as it was.
	te := f.fail(tool.CodeExists, map[string]any{"action": "write", "path": "notes/a.txt", "text": "clobbered"})
	if !strings.Contains(te.Hint, "overwrite=true") {
		t.Fatalf("hint %q", te.Hint)
	}
	if got := f.content("notes/a.txt"); got != "one\ntwo\n" {
		t.Fatalf("content changed to %q", got)
	}

	// With overwrite the old version is kept in the trash.
	d = f.ok(map[string]any{"action": "write", "path": "notes/a.txt", "text": "new", "overwrite": true})
	id, _ := d["replaced_trash_id"].(string)
	if id == "" || f.content("notes/a.txt") != "new" {
		t.Fatalf("overwrite: %v / %q", d, f.content("notes/a.txt"))
	}
	old, err := os.ReadFile(filepath.Join(f.d.Sandbox.TrashDir(), id, trash.PayloadName))
	if err != nil || string(old) != "one\ntwo\n" {
		t.Fatalf("old version in trash: %q %v", old, err)
	}

	f.ok(map[string]any{"action": "append", "path": "notes/a.txt", "text": "\nmore"})
	if got := f.content("notes/a.txt"); got != "new\nmore" {
		t.Fatalf("append: %q", got)
	}
	d = f.ok(map[string]any{"action": "append", "path": "new/dir/b.log", "text": "x"})
	if d["created"] != true || f.content("new/dir/b.log") != "x" {
		t.Fatalf("append create: %v", d)
	}

	// Writing onto a directory or into the trash is refused.
	f.fail(tool.CodeInvalid, map[string]any{"action": "write", "path": "notes", "text": "x", "overwrite": true})
	f.fail(tool.CodeDenied, map[string]any{"action": "write", "path": ".trash/x.txt", "text": "x"})
}

func TestReadWindows(t *testing.T) {
	f := newFixture(t, "max_read_bytes: 40")
	var lines []string
	for i := 1; i <= 10; i++ {
		lines = append(lines, fmt.Sprintf("line %02d", i))
	}
	f.put("ten.txt", strings.Join(lines, "\r\n")+"\r\n")
	tests := []struct {
		name          string
		offset, limit int
		text          string
		next          any
		eof           bool
	}{
		{"first two", 0, 2, "line 01\nline 02", float64(2), false},
		{"middle", 3, 2, "line 04\nline 05", float64(5), false},
		{"tail", 8, 5, "line 09\nline 10", nil, true},
		{"past end", 20, 5, "", nil, true},
		// 40 bytes hold five 8-byte lines with separators: the budget stops it.
		{"byte budget", 0, 100, "line 01\nline 02\nline 03\nline 04\nline 05", float64(5), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := f.ok(map[string]any{"action": "read", "path": "ten.txt", "offset": tc.offset, "limit": tc.limit})
			if d["text"] != tc.text || d["next_offset"] != tc.next || d["eof"] != tc.eof || d["encoding"] != "utf-8" {
				t.Fatalf("got %v", d)
			}
		})
	}
}

func TestReadLongLine(t *testing.T) {
	f := newFixture(t, "")
	f.put("min.js", strings.Repeat("x", maxLineBytes+500)+"\nnext\n")
	d := f.ok(map[string]any{"action": "read", "path": "min.js"})
	text := d["text"].(string)
	if d["truncated_lines"] != float64(1) || !strings.HasSuffix(text, "\nnext") || len(text) != maxLineBytes+len("\nnext") {
		t.Fatalf("long line: truncated=%v len=%d", d["truncated_lines"], len(text))
	}
}

func TestReadRefusals(t *testing.T) {
	f := newFixture(t, "")
	png := []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'}
	tooltest.WriteFile(t, f.path("img.png"), png)
	te := f.fail(tool.CodeInvalid, map[string]any{"action": "read", "path": "img.png"})
	if !strings.Contains(te.Message, "binary") {
		t.Fatalf("message %q", te.Message)
	}
	if err := os.Mkdir(f.path("dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.fail(tool.CodeInvalid, map[string]any{"action": "read", "path": "dir"})
	f.fail(tool.CodeNotFound, map[string]any{"action": "read", "path": "nope.txt"})
	// Append refuses to splice text into a binary file.
	f.fail(tool.CodeInvalid, map[string]any{"action": "append", "path": "img.png", "text": "x"})
}

func TestChineseEncodings(t *testing.T) {
	f := newFixture(t, "")
	const text = "第一行：你好，世界！\n第二行：中文编码测试 GB18030。\n"
	gbk, err := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(gbk, []byte(text)) {
		t.Fatal("GBK bytes equal UTF-8 bytes; the test proves nothing")
	}
	tooltest.WriteFile(t, f.path("gbk.txt"), gbk)
	d := f.ok(map[string]any{"action": "read", "path": "gbk.txt"})
	if d["encoding"] != "gb18030" || d["text"] != strings.TrimSuffix(strings.ReplaceAll(text, "\n\n", "\n"), "\n") {
		t.Fatalf("read GBK: %v", d)
	}

	// A four-byte GB18030 character (outside GBK) decodes too.
	rare := "表情😀与扩展字"
	gb, err := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(rare))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(f.path("gb18030.txt"), gb, 0o644)
	if d := f.ok(map[string]any{"action": "read", "path": "gb18030.txt"}); d["text"] != rare || d["encoding"] != "gb18030" {
		t.Fatalf("read GB18030: %v", d)
	}

	// Append keeps the file's encoding.
	f.ok(map[string]any{"action": "append", "path": "gbk.txt", "text": "追加一行\n"})
	raw, _ := os.ReadFile(f.path("gbk.txt"))
	want, _ := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(text + "追加一行\n"))
	if !bytes.Equal(raw, want) {
		t.Fatalf("append did not keep GBK: %q", raw)
	}

	// Write with an explicit encoding, then grep finds it by a Chinese regex.
	f.ok(map[string]any{"action": "write", "path": "out/gbk2.txt", "text": "报告：收入增长\n", "encoding": "gbk"})
	raw, _ = os.ReadFile(f.path("out/gbk2.txt"))
	dec, _ := simplifiedchinese.GBK.NewDecoder().Bytes(raw)
	if string(dec) != "报告：收入增长\n" || bytes.Equal(raw, dec) {
		t.Fatalf("write gbk: %q", raw)
	}
	g := f.ok(map[string]any{"action": "grep", "path": "out", "query": "收入"})
	if m := list(g, "matches"); len(m) != 1 || m[0]["text"] != "报告：收入增长" {
		t.Fatalf("grep gbk: %v", g)
	}

	// GBK cannot encode an emoji: refused, nothing written.
	f.fail(tool.CodeInvalid, map[string]any{"action": "write", "path": "emoji.txt", "text": "😀", "encoding": "gbk"})
	noFile(t, f.path("emoji.txt"))

	// UTF-16 with BOM is detected.
	u16, _ := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte("宽字符\nline"))
	os.WriteFile(f.path("u16.txt"), u16, 0o644)
	if d := f.ok(map[string]any{"action": "read", "path": "u16.txt"}); d["encoding"] != "utf-16le" || d["text"] != "宽字符\nline" {
		t.Fatalf("utf-16: %v", d)
	}
	// Write UTF-16 (with a BOM) and read it back.
	f.ok(map[string]any{"action": "write", "path": "w16.txt", "text": "双字节 text", "encoding": "utf-16be"})
	if raw, _ := os.ReadFile(f.path("w16.txt")); !bytes.HasPrefix(raw, []byte{0xFE, 0xFF}) {
		t.Fatalf("no BOM: %x", raw)
	}
	if d := f.ok(map[string]any{"action": "read", "path": "w16.txt"}); d["encoding"] != "utf-16be" || d["text"] != "双字节 text" {
		t.Fatalf("utf-16be: %v", d)
	}
	// A UTF-8 BOM is skipped and reported.
	os.WriteFile(f.path("bom.txt"), []byte("\xEF\xBB\xBF带BOM"), 0o644)
	if d := f.ok(map[string]any{"action": "read", "path": "bom.txt"}); d["text"] != "带BOM" || d["bom"] != true {
		t.Fatalf("bom: %v", d)
	}
}

func TestDetect(t *testing.T) {
	gbk, _ := simplifiedchinese.GBK.NewEncoder().Bytes([]byte("中文文本"))
	tests := []struct {
		name string
		in   []byte
		full bool
		enc  string
		bin  bool
	}{
		{"ascii", []byte("hello"), true, "utf-8", false},
		{"utf8 cut mid-rune", []byte("中文")[:5], false, "utf-8", false},
		{"utf8 cut but whole file", []byte("中文")[:5], true, "", false},
		{"gbk", gbk, true, "gb18030", false},
		{"nul", []byte("a\x00b"), true, "", true},
		{"control soup", bytes.Repeat([]byte{0x01, 0x02, 0x80}, 10), true, "", true},
		{"latin1", []byte("caf\xe9 cr\xe8me"), true, "", false},
		{"empty", nil, true, "utf-8", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := detect(tc.in, tc.full)
			if s.Encoding != tc.enc || s.Binary != tc.bin {
				t.Fatalf("detect = %+v, want %q binary=%v", s, tc.enc, tc.bin)
			}
		})
	}
}
