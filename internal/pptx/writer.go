package pptx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/docx"
)

const (
	xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
	nsDecl    = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
	relBase   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	slideH    = 6858000
)

var hexRE = regexp.MustCompile(`^[0-9A-Fa-f]{6}$`)

// ValidColor reports whether s is an RRGGBB colour (an optional # allowed).
func ValidColor(s string) bool { return hexRE.MatchString(strings.TrimPrefix(s, "#")) }

func (d Deck) withDefaults() Deck {
	d.Theme.Color = strings.ToUpper(strings.TrimPrefix(d.Theme.Color, "#"))
	if !hexRE.MatchString(d.Theme.Color) {
		d.Theme.Color = "1F4E79"
	}
	if d.Theme.Font == "" {
		d.Theme.Font = "Calibri"
	}
	if d.Theme.EastAsiaFont == "" {
		d.Theme.EastAsiaFont = "Microsoft YaHei"
	}
	if d.Ratio != "4:3" {
		d.Ratio = "16:9"
	}
	return d
}

// Write renders the deck as a .pptx file.
func Write(deck Deck) ([]byte, error) {
	d := deck.withDefaults()
	if len(d.Slides) == 0 {
		return nil, fmt.Errorf("pptx: the deck has no slides")
	}
	w := &writer{deck: d, width: 12192000}
	if d.Ratio == "4:3" {
		w.width = 9144000
	}
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	put := func(name, content string) {
		if w.err != nil {
			return
		}
		f, err := z.Create(name)
		if err == nil {
			_, err = f.Write([]byte(content))
		}
		if err != nil {
			w.err = fmt.Errorf("pptx: write %s: %w", name, err)
		}
	}
	hasNotes := false
	for _, s := range d.Slides {
		if strings.TrimSpace(s.Notes) != "" {
			hasNotes = true
		}
	}
	for i, s := range d.Slides {
		xml, rels, err := w.slide(i+1, s)
		if err != nil {
			return nil, err
		}
		put(fmt.Sprintf("ppt/slides/slide%d.xml", i+1), xml)
		put(fmt.Sprintf("ppt/slides/_rels/slide%d.xml.rels", i+1), rels)
		if strings.TrimSpace(s.Notes) != "" {
			put(fmt.Sprintf("ppt/notesSlides/notesSlide%d.xml", i+1), w.notesSlide(s.Notes))
			put(fmt.Sprintf("ppt/notesSlides/_rels/notesSlide%d.xml.rels", i+1), relsXML(
				rel{"rId1", "notesMaster", "../notesMasters/notesMaster1.xml", false},
				rel{"rId2", "slide", fmt.Sprintf("../slides/slide%d.xml", i+1), false}))
		}
	}
	w.putParts(put, hasNotes)
	for _, m := range w.media {
		if w.err != nil {
			break
		}
		f, err := z.CreateHeader(&zip.FileHeader{Name: "ppt/media/" + m.name, Method: zip.Store})
		if err == nil {
			_, err = f.Write(m.data)
		}
		if err != nil {
			w.err = fmt.Errorf("pptx: write media: %w", err)
		}
	}
	if w.err != nil {
		return nil, w.err
	}
	if err := z.Close(); err != nil {
		return nil, fmt.Errorf("pptx: close zip: %w", err)
	}
	return buf.Bytes(), nil
}

// putParts writes the package's parts other than the slides, their notes
// and the media: content types, properties, presentation, theme, master
// and layouts, and the notes master when a slide has notes.
func (w *writer) putParts(put func(name, content string), hasNotes bool) {
	put("[Content_Types].xml", w.contentTypes(hasNotes))
	put("_rels/.rels", relsXML(
		rel{"rId1", "officeDocument", "ppt/presentation.xml", false},
		rel{"rId2", "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties", "docProps/core.xml", false},
		rel{"rId3", "extended-properties", "docProps/app.xml", false}))
	put("docProps/core.xml", docx.CoreProps(w.deck.Title, w.deck.Author, time.Now().UTC()))
	put("docProps/app.xml", xmlHeader+`<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>clawbridge</Application><Slides>`+strconv.Itoa(len(w.deck.Slides))+`</Slides><PresentationFormat>On-screen Show (`+w.deck.Ratio+`)</PresentationFormat></Properties>`)
	put("ppt/presentation.xml", w.presentation(hasNotes))
	put("ppt/_rels/presentation.xml.rels", w.presentationRels(hasNotes))
	put("ppt/presProps.xml", xmlHeader+`<p:presentationPr `+nsDecl+`/>`)
	put("ppt/viewProps.xml", xmlHeader+`<p:viewPr `+nsDecl+`><p:normalViewPr><p:restoredLeft sz="15620"/><p:restoredTop sz="94660"/></p:normalViewPr><p:gridSpacing cx="76200" cy="76200"/></p:viewPr>`)
	put("ppt/tableStyles.xml", xmlHeader+`<a:tblStyleLst xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>`)
	put("ppt/theme/theme1.xml", themeXML(w.deck.Theme, "clawbridge"))
	put("ppt/slideMasters/slideMaster1.xml", w.master())
	var lrels []rel
	for i := range layouts {
		lrels = append(lrels, rel{"rId" + strconv.Itoa(i+1), "slideLayout", fmt.Sprintf("../slideLayouts/slideLayout%d.xml", i+1), false})
	}
	lrels = append(lrels, rel{"rId" + strconv.Itoa(len(layouts)+1), "theme", "../theme/theme1.xml", false})
	put("ppt/slideMasters/_rels/slideMaster1.xml.rels", relsXML(lrels...))
	for i, l := range layouts {
		put(fmt.Sprintf("ppt/slideLayouts/slideLayout%d.xml", i+1), w.layout(l))
		put(fmt.Sprintf("ppt/slideLayouts/_rels/slideLayout%d.xml.rels", i+1), relsXML(rel{"rId1", "slideMaster", "../slideMasters/slideMaster1.xml", false}))
	}
	if hasNotes {
		put("ppt/theme/theme2.xml", themeXML(w.deck.Theme, "notes"))
		put("ppt/notesMasters/notesMaster1.xml", notesMaster())
		put("ppt/notesMasters/_rels/notesMaster1.xml.rels", relsXML(rel{"rId1", "theme", "../theme/theme2.xml", false}))
	}
}

type media struct {
	name string
	data []byte
}

type writer struct {
	deck  Deck
	width int64
	media []media
	err   error
}

type rel struct {
	id, typ, target string
	external        bool
}

func relsXML(rs ...rel) string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for _, r := range rs {
		typ := r.typ
		if !strings.HasPrefix(typ, "http") {
			typ = relBase + typ
		}
		mode := ""
		if r.external {
			mode = ` TargetMode="External"`
		}
		b.WriteString(`<Relationship Id="` + r.id + `" Type="` + typ + `" Target="` + esc(r.target) + `"` + mode + `/>`)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

func (w *writer) contentTypes(notes bool) string {
	var b strings.Builder
	b.WriteString(docx.TypesHead)
	pml := "application/vnd.openxmlformats-officedocument.presentationml."
	b.WriteString(`<Override PartName="/ppt/presentation.xml" ContentType="` + pml + `presentation.main+xml"/>`)
	b.WriteString(`<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="` + pml + `slideMaster+xml"/>`)
	for i := range layouts {
		fmt.Fprintf(&b, `<Override PartName="/ppt/slideLayouts/slideLayout%d.xml" ContentType="%sslideLayout+xml"/>`, i+1, pml)
	}
	for i, s := range w.deck.Slides {
		fmt.Fprintf(&b, `<Override PartName="/ppt/slides/slide%d.xml" ContentType="%sslide+xml"/>`, i+1, pml)
		if strings.TrimSpace(s.Notes) != "" {
			fmt.Fprintf(&b, `<Override PartName="/ppt/notesSlides/notesSlide%d.xml" ContentType="%snotesSlide+xml"/>`, i+1, pml)
		}
	}
	b.WriteString(`<Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>`)
	if notes {
		b.WriteString(`<Override PartName="/ppt/theme/theme2.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>`)
		b.WriteString(`<Override PartName="/ppt/notesMasters/notesMaster1.xml" ContentType="` + pml + `notesMaster+xml"/>`)
	}
	b.WriteString(`<Override PartName="/ppt/presProps.xml" ContentType="` + pml + `presProps+xml"/>`)
	b.WriteString(`<Override PartName="/ppt/viewProps.xml" ContentType="` + pml + `viewProps+xml"/>`)
	b.WriteString(`<Override PartName="/ppt/tableStyles.xml" ContentType="` + pml + `tableStyles+xml"/>`)
	b.WriteString(docx.TypesTail)
	return b.String()
}

func (w *writer) presentation(notes bool) string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<p:presentation ` + nsDecl + ` saveSubsetFonts="1">`)
	b.WriteString(`<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rIdMaster"/></p:sldMasterIdLst>`)
	if notes {
		b.WriteString(`<p:notesMasterIdLst><p:notesMasterId r:id="rIdNotesMaster"/></p:notesMasterIdLst>`)
	}
	b.WriteString(`<p:sldIdLst>`)
	for i := range w.deck.Slides {
		fmt.Fprintf(&b, `<p:sldId id="%d" r:id="rIdSlide%d"/>`, 256+i, i+1)
	}
	b.WriteString(`</p:sldIdLst>`)
	// screen16x9 names a 10in-wide slide; ours is 13.33in, so no type.
	typ := ""
	if w.deck.Ratio == "4:3" {
		typ = ` type="screen4x3"`
	}
	fmt.Fprintf(&b, `<p:sldSz cx="%d" cy="%d"%s/><p:notesSz cx="6858000" cy="9144000"/>`, w.width, slideH, typ)
	b.WriteString(`</p:presentation>`)
	return b.String()
}

func (w *writer) presentationRels(notes bool) string {
	rs := []rel{{"rIdMaster", "slideMaster", "slideMasters/slideMaster1.xml", false}}
	for i := range w.deck.Slides {
		rs = append(rs, rel{fmt.Sprintf("rIdSlide%d", i+1), "slide", fmt.Sprintf("slides/slide%d.xml", i+1), false})
	}
	if notes {
		rs = append(rs, rel{"rIdNotesMaster", "notesMaster", "notesMasters/notesMaster1.xml", false})
	}
	rs = append(rs,
		rel{"rIdTheme", "theme", "theme/theme1.xml", false},
		rel{"rIdPresProps", "presProps", "presProps.xml", false},
		rel{"rIdViewProps", "viewProps", "viewProps.xml", false},
		rel{"rIdTableStyles", "tableStyles", "tableStyles.xml", false})
	return relsXML(rs...)
}

// esc escapes text for XML (shared with the docx writer).
func esc(s string) string { return docx.EscapeXML(s) }

// runs parses inline Markdown (bold, italic, code, links) for slide text.
func runs(s string) []docx.Run { return docx.InlineMarkdown(s) }
