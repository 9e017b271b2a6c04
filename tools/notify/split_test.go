package notify

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func bytesUpTo(n int) func(string) (bool, error) {
	return func(s string) (bool, error) { return len(s) <= n, nil }
}

// Splitting keeps UTF-8 whole, prefers paragraph, line and word breaks,
// numbers the parts, and is the same every time (a retry resumes on it).
func TestSplit_BreaksAtBoundariesAndKeepsUTF8(t *testing.T) {
	text := strings.Repeat("第一段内容很长。", 10) + "\n\n" + strings.Repeat("word ", 30) + "\n" + strings.Repeat("末", 100)
	lay, err := plan(text, bytesUpTo(120), false, 50)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := plan(text, bytesUpTo(120), false, 50)
	var rebuilt []string
	for i, p := range lay.Parts {
		if len(p) > 120 || !utf8.ValidString(p) || p != again.Parts[i] {
			t.Fatalf("part %d: %d bytes, valid %v, stable %v", i+1, len(p), utf8.ValidString(p), p == again.Parts[i])
		}
		rebuilt = append(rebuilt, p[strings.Index(p, ") ")+2:])
	}
	if !strings.HasSuffix(rebuilt[1], "。") && !strings.HasSuffix(rebuilt[0], "。") {
		t.Errorf("no break at a sentence end: %q", rebuilt[:2])
	}
	squeeze := strings.NewReplacer(" ", "", "\n", "")
	if squeeze.Replace(strings.Join(rebuilt, "")) != squeeze.Replace(text) {
		t.Fatal("characters lost or added")
	}
	if lay.Cut || lay.Sent != lay.Total {
		t.Fatalf("layout %+v", lay)
	}
}

func TestSplit_CutAndTooManyParts(t *testing.T) {
	text := strings.Repeat("abc ", 100)
	lay, err := plan(text, bytesUpTo(100), true, 10)
	if err != nil || len(lay.Parts) != 1 || len(lay.Parts[0]) > 100 || !strings.HasSuffix(lay.Parts[0], cutMark) || !lay.Cut || lay.Sent >= lay.Total {
		t.Fatalf("cut: %+v %v", lay, err)
	}
	if _, err := plan(text, bytesUpTo(100), false, 3); err != errTooManyParts {
		t.Fatalf("want too many parts, got %v", err)
	}
	if lay, _ := plan("short", bytesUpTo(100), false, 1); len(lay.Parts) != 1 || lay.Parts[0] != "short" {
		t.Fatalf("a fitting text was changed: %+v", lay)
	}
}
