// Package pptx writes PresentationML (.pptx) decks: title, bullet (two
// levels), two-column, image, table, section and closing slides with
// speaker notes, a theme colour and font (Latin and East-Asian), 16:9 or
// 4:3.
//
// Why our own writer: no maintained, permissively licensed pure-Go library
// writes .pptx (unioffice needs a paid licence; the rest are unmaintained or
// read-only). A deck of these slide kinds is a fixed set of parts — one
// master, six layouts, a theme, slides, notes — written here with
// archive/zip and string building. Every slide places its shapes with
// explicit geometry, so PowerPoint, LibreOffice and Keynote lay it out the
// same; tests print every deck through LibreOffice and read the text back.
package pptx

// Deck is a presentation.
type Deck struct {
	Title  string // document property
	Author string
	Theme  Theme
	Ratio  string // "16:9" (default) or "4:3"
	Slides []Slide
}

// Theme is the look of the deck.
type Theme struct {
	Color        string // accent colour as RRGGBB; default 1F4E79
	Font         string // Latin font; default Calibri
	EastAsiaFont string // CJK font; default Microsoft YaHei
}

// Kinds of slide.
const (
	KindTitle     = "title"
	KindBullets   = "bullets"
	KindTwoColumn = "two_column"
	KindImage     = "image"
	KindTable     = "table"
	KindSection   = "section"
	KindClosing   = "closing"
)

// Kinds lists the slide kinds.
var Kinds = []string{KindTitle, KindBullets, KindTwoColumn, KindImage, KindTable, KindSection, KindClosing}

// Slide is one slide. Which fields count depends on Kind.
type Slide struct {
	Kind     string
	Title    string
	Subtitle string   // title, section and closing slides
	Bullets  []Bullet // bullets; also text under an image or table
	// Two-column slides.
	LeftTitle, RightTitle string
	Left, Right           []Bullet
	// Image slides: PNG, JPEG or GIF bytes (others are converted).
	Image   []byte
	Caption string
	// Table slides.
	Header []string
	Rows   [][]string
	Notes  string // speaker notes
}

// Bullet is one bullet line; Level 0 or 1.
type Bullet struct {
	Text  string
	Level int
}
