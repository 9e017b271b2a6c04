package ocr

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// Box is a rectangle in pixels of the input image (or rendered PDF page).
type Box struct {
	Left   int `json:"left"`
	Top    int `json:"top"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Item is one recognised word, line or paragraph.
type Item struct {
	Text       string  `json:"text"`
	Confidence float64 `json:"confidence"` // 0-100; a line's or paragraph's is the mean of its words'
	Box        Box     `json:"box"`
}

// word is one row of tesseract's TSV at level 5.
type word struct {
	par, line [3]int // (block, paragraph) and (block, paragraph, line) keys
	text      string
	conf      float64
	box       Box
}

// parseTSV reads tesseract's TSV (level, page_num, block_num, par_num,
// line_num, word_num, left, top, width, height, conf, text) and returns the
// words in reading order, boxes divided by scale (the upscaling applied
// before recognition). Rows that are not words, or malformed, are skipped.
func parseTSV(tsv string, scale float64) []word {
	var out []word
	for i, row := range strings.Split(tsv, "\n") {
		if i == 0 && strings.HasPrefix(row, "level") {
			continue
		}
		f := strings.SplitN(strings.TrimRight(row, "\r"), "\t", 12)
		if len(f) != 12 || f[0] != "5" {
			continue
		}
		n := make([]int, 10)
		ok := true
		for j := 1; j <= 9; j++ {
			if n[j], ok = atoi(f[j]); !ok {
				break
			}
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		text := strings.TrimSpace(f[11])
		if !ok || err != nil || text == "" || !utf8.ValidString(text) {
			continue
		}
		sc := func(v int) int { return int(math.Round(float64(v) / scale)) }
		out = append(out, word{
			par: [3]int{n[2], n[3]}, line: [3]int{n[2], n[3], n[4]},
			text: text, conf: math.Max(conf, 0),
			box: Box{sc(n[6]), sc(n[7]), sc(n[8]), sc(n[9])},
		})
	}
	return out
}

func atoi(s string) (int, bool) {
	v, err := strconv.Atoi(s)
	return v, err == nil
}

// group joins consecutive words with the same key into items.
func group(words []word, key func(w word) [3]int) []Item {
	var out []Item
	var cur []word
	flush := func() {
		if len(cur) > 0 {
			out = append(out, join(cur))
			cur = nil
		}
	}
	for _, w := range words {
		if len(cur) > 0 && key(cur[0]) != key(w) {
			flush()
		}
		cur = append(cur, w)
	}
	flush()
	return out
}

// join makes one item of words: text joined by spaces (none between two
// CJK characters: tesseract reports each Chinese character or run as a
// word), the union box and the mean confidence.
func join(ws []word) Item {
	var b strings.Builder
	sum := 0.0
	x0, y0, x1, y1 := math.MaxInt, math.MaxInt, 0, 0
	for i, w := range ws {
		if i > 0 && !(cjkEnd(ws[i-1].text) && cjkStart(w.text)) {
			b.WriteByte(' ')
		}
		b.WriteString(w.text)
		sum += w.conf
		x0, y0 = min(x0, w.box.Left), min(y0, w.box.Top)
		x1, y1 = max(x1, w.box.Left+w.box.Width), max(y1, w.box.Top+w.box.Height)
	}
	return Item{Text: b.String(), Confidence: round1(sum / float64(len(ws))), Box: Box{x0, y0, x1 - x0, y1 - y0}}
}

func wordItems(ws []word) []Item {
	out := make([]Item, len(ws))
	for i, w := range ws {
		out[i] = Item{Text: w.text, Confidence: round1(w.conf), Box: w.box}
	}
	return out
}

// pageText is the page's text: lines by newlines, paragraphs by a blank line.
func pageText(ws []word) string {
	var out strings.Builder
	lines := group(ws, func(w word) [3]int { return w.line })
	pars := lineParagraphs(ws)
	for i, line := range lines {
		if i > 0 && pars[i] != pars[i-1] {
			out.WriteByte('\n')
		}
		out.WriteString(line.Text)
		out.WriteByte('\n')
	}
	return strings.TrimRight(out.String(), "\n")
}

// lineParagraphs is the paragraph key of each line, in line order.
func lineParagraphs(ws []word) [][3]int {
	var out [][3]int
	for i, w := range ws {
		if i == 0 || ws[i-1].line != w.line {
			out = append(out, w.par)
		}
	}
	return out
}

func meanConfidence(ws []word) float64 {
	if len(ws) == 0 {
		return 0
	}
	s := 0.0
	for _, w := range ws {
		s += w.conf
	}
	return round1(s / float64(len(ws)))
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func cjkEnd(s string) bool   { r, _ := utf8.DecodeLastRuneInString(s); return wording.IsCJK(r) }
func cjkStart(s string) bool { r, _ := utf8.DecodeRuneInString(s); return wording.IsCJK(r) }
