package docx

// Block is one body element of a document.
type Block interface{ isBlock() }

// Run is a span of inline text with its formatting.
type Run struct {
	Text   string
	Bold   bool
	Italic bool
	Strike bool
	Code   bool   // monospace
	Link   string // external hyperlink target
	Break  bool   // a line break (Text ignored)
}

// Heading is a heading of level 1..6, written with the built-in Word style
// HeadingN so tables of contents and the navigation pane see it.
type Heading struct {
	Level int
	Runs  []Run
}

// Paragraph is a body paragraph. Align is "", "left", "center", "right" or
// "both" (justified).
type Paragraph struct {
	Runs  []Run
	Align string
	Style string // optional paragraph style id (e.g. "Title", "Subtitle", "Quote")
}

// List is a bullet or numbered list; items may hold nested lists.
type List struct {
	Ordered bool
	Start   int // first number of an ordered list (default 1)
	Items   []ListItem
}

// ListItem is one list entry: its text and optional nested blocks (lists,
// further paragraphs).
type ListItem struct {
	Runs     []Run
	Children []Block
}

// Table is a table whose first row is a header row repeated on every page.
// Align holds per-column alignment ("left", "center", "right").
type Table struct {
	Header []Cell
	Rows   [][]Cell
	Align  []string
}

// Cell is the inline content of a table cell.
type Cell []Run

// Image is a picture. Data holds PNG, JPEG or GIF bytes (other formats the
// image decoders know are converted to PNG). The image is scaled down to fit
// the page; WidthMM sets a smaller width.
type Image struct {
	Data    []byte
	Alt     string
	WidthMM float64
	Caption string
}

// CodeBlock is preformatted text in a monospace font. A Language is kept
// in the tag of a content control around the block (CodeLanguageTag).
type CodeBlock struct {
	Text     string
	Language string
}

// Quote is a block quote.
type Quote struct{ Blocks []Block }

// PageBreak starts a new page.
type PageBreak struct{}

// Rule is a horizontal rule.
type Rule struct{}

// TOC is a table-of-contents field over heading levels 1..Levels (default 3).
// Word fills it in on open (the document asks it to update fields);
// meanwhile it carries the headings as cached entries so other readers show
// them too.
type TOC struct {
	Title  string
	Levels int
}

func (Heading) isBlock()   {}
func (Paragraph) isBlock() {}
func (List) isBlock()      {}
func (Table) isBlock()     {}
func (Image) isBlock()     {}
func (CodeBlock) isBlock() {}
func (Quote) isBlock()     {}
func (PageBreak) isBlock() {}
func (Rule) isBlock()      {}
func (TOC) isBlock()       {}

// Text is a convenience: one plain run.
func Text(s string) []Run { return []Run{{Text: s}} }

// PlainText returns the text of runs without formatting.
func PlainText(runs []Run) string {
	var b []byte
	for _, r := range runs {
		if r.Break {
			b = append(b, '\n')
			continue
		}
		b = append(b, r.Text...)
	}
	return string(b)
}
