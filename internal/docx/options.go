package docx

import "strings"

// Options control page setup, fonts and the running header and footer.
type Options struct {
	Title  string // document property (and nothing else)
	Author string

	Font         string  // Latin font; default "Calibri"
	EastAsiaFont string  // CJK font; default "Microsoft YaHei" (readers without it substitute a CJK font for the zh-CN language tag)
	FontSizePt   float64 // body size; default 11
	Language     string  // e.g. "en-US" (default) or "zh-CN"; CJK runs are always tagged zh-CN

	PageSize  string  // "A4" (default), "Letter", "A3", "A5", "Legal"
	Landscape bool    // landscape orientation
	MarginMM  float64 // all four margins; default 25.4

	Header      string // running header text; "" for none
	Footer      string // running footer text, before the page number
	PageNumbers bool   // "Page N of M" (or "第 N 页 / 共 M 页" when Language is zh) in the footer

	// TOC inserts a table of contents at the start (before the first block)
	// unless the blocks already hold one.
	TOC      bool
	TOCTitle string

	// LoadImage fetches the bytes of an image referenced by Markdown (its
	// destination, as written). Nil means Markdown images are an error.
	LoadImage func(src string) ([]byte, error)
}

type pageDims struct{ w, h int } // twentieths of a point

var pageSizes = map[string]pageDims{
	"A4":     {11906, 16838},
	"LETTER": {12240, 15840},
	"A3":     {16838, 23811},
	"A5":     {8391, 11906},
	"LEGAL":  {12240, 20160},
}

func (o Options) withDefaults() Options {
	if o.Font == "" {
		o.Font = "Calibri"
	}
	if o.EastAsiaFont == "" {
		o.EastAsiaFont = "Microsoft YaHei"
	}
	if o.FontSizePt <= 0 {
		o.FontSizePt = 11
	}
	if o.Language == "" {
		o.Language = "en-US"
	}
	if o.MarginMM <= 0 {
		o.MarginMM = 25.4
	}
	if _, ok := pageSizes[strings.ToUpper(o.PageSize)]; !ok {
		o.PageSize = "A4"
	}
	if o.TOCTitle == "" {
		if o.chinese() {
			o.TOCTitle = "目录"
		} else {
			o.TOCTitle = "Contents"
		}
	}
	return o
}

func (o Options) chinese() bool { return strings.HasPrefix(strings.ToLower(o.Language), "zh") }

// page returns width, height and margin in twips.
func (o Options) page() (w, h, m int) {
	d := pageSizes[strings.ToUpper(o.PageSize)]
	w, h = d.w, d.h
	if o.Landscape {
		w, h = h, w
	}
	m = int(o.MarginMM / 25.4 * 1440)
	return
}

// contentWidthEMU is the text column width in EMU (914400 per inch).
func (o Options) contentWidthEMU() int64 {
	w, _, m := o.page()
	return int64(w-2*m) * 635 // 1 twip = 635 EMU
}

func (o Options) contentHeightEMU() int64 {
	_, h, m := o.page()
	return int64(h-2*m) * 635
}
