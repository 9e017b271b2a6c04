package webfetch

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTruncate_NearestBoundaryBelowLimit: a page whose last part is one
// long table (no blank line in it) is cut at a row near max_chars, not at
// the last blank line far below it.
func TestTruncate_NearestBoundaryBelowLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head><title>Big table</title></head><body><article><h1>Big table</h1>")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d of the introduction, with enough words to look like prose to readability.</p>", i)
	}
	b.WriteString("<table><tr><th>Row</th><th>Name</th><th>Value</th></tr>")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "<tr><td>%d</td><td>item number %d</td><td>%d.50</td></tr>", i, i, i*7)
	}
	b.WriteString("</table></article></body></html>")
	page := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	defer srv.Close()
	tl := newTool(t, false)
	const max = 60000
	d := fetchOK(t, tl, map[string]any{"url": srv.URL + "/big.html", "max_chars": max})
	md := d["markdown"].(string)
	n := utf8.RuneCountInString(md)
	if d["truncated"] != true || d["total_chars"].(int) <= max {
		t.Fatalf("truncated %v total %v", d["truncated"], d["total_chars"])
	}
	if n > max || n < max-200 {
		t.Fatalf("cut at %d characters of a %d limit: want the row boundary just below it", n, max)
	}
	last := md[strings.LastIndex(md, "\n")+1:]
	if !strings.HasPrefix(last, "| ") || !strings.HasSuffix(last, "|") {
		t.Errorf("last line is not a whole table row: %q", last)
	}
}

func TestTruncate_ClosesCodeFence(t *testing.T) {
	s := "intro\n\n```go\n" + strings.Repeat("x := 1\n", 100) + "```\n\nafter"
	out, tr := cut(s, 300)
	if !tr || utf8.RuneCountInString(out) > 300 || !strings.HasSuffix(out, "\n```") || strings.Count(out, "```") != 2 {
		t.Fatalf("cut %v, %d chars: ...%q", tr, len(out), out[max(0, len(out)-40):])
	}
	// A window without any line break is cut at a space.
	if out, _ := cut("one two three four", 10); out != "one two" {
		t.Errorf("no line break: %q", out)
	}
	// No space either: a hard cut at the limit.
	if out, _ := cut(strings.Repeat("界", 50), 10); utf8.RuneCountInString(out) != 10 {
		t.Errorf("hard cut: %q", out)
	}
}
