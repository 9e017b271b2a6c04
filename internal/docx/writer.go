package docx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// Write renders blocks into a .docx file.
func Write(blocks []Block, opts Options) ([]byte, error) {
	opts = opts.withDefaults()
	w := &writer{opts: opts, rels: map[string]string{}}
	if opts.TOC && !hasTOC(blocks) {
		blocks = append([]Block{TOC{Title: opts.TOCTitle}}, blocks...)
	}
	w.headings = collectHeadings(blocks)
	for _, b := range blocks {
		if err := w.block(b, 0); err != nil {
			return nil, err
		}
	}
	return w.pack()
}

type relation struct{ id, typ, target, mode string }

type media struct {
	name string
	data []byte
}

type writer struct {
	opts     Options
	body     strings.Builder
	relList  []relation
	rels     map[string]string // link target -> rel id
	media    []media
	nums     []numDef
	drawID   int
	headings []Heading
}

type numDef struct {
	abstract int
	start    int
}

const (
	relHyperlink = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"
	relImage     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"
)

func (w *writer) addRel(typ, target, mode string) string {
	id := "rId" + strconv.Itoa(100+len(w.relList))
	w.relList = append(w.relList, relation{id, typ, target, mode})
	return id
}

func (w *writer) linkRel(target string) string {
	if id, ok := w.rels[target]; ok {
		return id
	}
	id := w.addRel(relHyperlink, target, "External")
	w.rels[target] = id
	return id
}

func hasTOC(blocks []Block) bool {
	for _, b := range blocks {
		if _, ok := b.(TOC); ok {
			return true
		}
	}
	return false
}

func collectHeadings(blocks []Block) []Heading {
	var out []Heading
	for _, b := range blocks {
		switch v := b.(type) {
		case Heading:
			out = append(out, v)
		case Quote:
			out = append(out, collectHeadings(v.Blocks)...)
		}
	}
	return out
}

func (w *writer) block(b Block, depth int) error {
	switch v := b.(type) {
	case Heading:
		lvl := min(max(v.Level, 1), 6)
		w.para(pPr{style: "Heading" + strconv.Itoa(lvl)}, v.Runs)
	case Paragraph:
		w.para(pPr{style: v.Style, align: v.Align}, v.Runs)
	case List:
		w.list(v, 0)
	case Table:
		w.table(v)
	case Image:
		return w.image(v)
	case CodeBlock:
		w.code(v)
	case Quote:
		for _, c := range v.Blocks {
			if p, ok := c.(Paragraph); ok && p.Style == "" {
				p.Style = "Quote"
				c = p
			}
			if err := w.block(c, depth+1); err != nil {
				return err
			}
		}
	case PageBreak:
		w.body.WriteString(`<w:p><w:r><w:br w:type="page"/></w:r></w:p>`)
	case Rule:
		w.body.WriteString(`<w:p><w:pPr><w:pBdr><w:bottom w:val="single" w:sz="6" w:space="1" w:color="A0A0A0"/></w:pBdr></w:pPr></w:p>`)
	case TOC:
		w.toc(v)
	case nil:
	default:
		return fmt.Errorf("docx: unsupported block %T", b)
	}
	return nil
}

type pPr struct {
	style string
	align string
	numID int
	ilvl  int
	keep  bool
}

func (p pPr) xml() string {
	var b strings.Builder
	if p.style != "" {
		b.WriteString(`<w:pStyle w:val="` + esc(p.style) + `"/>`)
	}
	if p.keep {
		b.WriteString(`<w:keepNext/>`)
	}
	if p.numID > 0 {
		fmt.Fprintf(&b, `<w:numPr><w:ilvl w:val="%d"/><w:numId w:val="%d"/></w:numPr>`, p.ilvl, p.numID)
	}
	switch p.align {
	case "center", "right", "both", "left":
		jc := p.align
		if jc == "justify" {
			jc = "both"
		}
		b.WriteString(`<w:jc w:val="` + jc + `"/>`)
	case "justify":
		b.WriteString(`<w:jc w:val="both"/>`)
	}
	if b.Len() == 0 {
		return ""
	}
	return "<w:pPr>" + b.String() + "</w:pPr>"
}

func (w *writer) para(p pPr, runs []Run) {
	w.body.WriteString("<w:p>")
	w.body.WriteString(p.xml())
	w.runs(runs, false)
	w.body.WriteString("</w:p>")
}

// runs writes inline runs; bold forces bold (table header cells).
func (w *writer) runs(runs []Run, bold bool) {
	for _, r := range runs {
		if r.Break {
			w.body.WriteString(`<w:r><w:br/></w:r>`)
			continue
		}
		if r.Text == "" {
			continue
		}
		if r.Link != "" {
			if strings.HasPrefix(r.Link, "#") {
				w.body.WriteString(`<w:hyperlink w:anchor="` + esc(r.Link[1:]) + `">`)
			} else {
				w.body.WriteString(`<w:hyperlink r:id="` + w.linkRel(r.Link) + `">`)
			}
			w.run(r, bold, "Hyperlink")
			w.body.WriteString(`</w:hyperlink>`)
			continue
		}
		w.run(r, bold, "")
	}
}

func (w *writer) run(r Run, bold bool, style string) {
	var rp strings.Builder
	if style != "" {
		rp.WriteString(`<w:rStyle w:val="` + style + `"/>`)
	} else if r.Code {
		rp.WriteString(`<w:rStyle w:val="CodeChar"/>`)
	}
	if r.Bold || bold {
		rp.WriteString(`<w:b/><w:bCs/>`)
	}
	if r.Italic {
		rp.WriteString(`<w:i/><w:iCs/>`)
	}
	if r.Strike {
		rp.WriteString(`<w:strike/>`)
	}
	if wording.HasCJK(r.Text) {
		rp.WriteString(`<w:lang w:eastAsia="zh-CN"/>`)
	}
	w.body.WriteString("<w:r>")
	if rp.Len() > 0 {
		w.body.WriteString("<w:rPr>" + rp.String() + "</w:rPr>")
	}
	writeText(&w.body, r.Text)
	w.body.WriteString("</w:r>")
}

// writeText writes text inside a run, turning tabs and newlines into
// w:tab and w:br.
func writeText(b *strings.Builder, s string) {
	start := 0
	flush := func(end int) {
		if end > start {
			b.WriteString(`<w:t xml:space="preserve">` + esc(s[start:end]) + `</w:t>`)
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\t':
			flush(i)
			b.WriteString(`<w:tab/>`)
			start = i + 1
		case '\n':
			flush(i)
			b.WriteString(`<w:br/>`)
			start = i + 1
		case '\r':
			flush(i)
			start = i + 1
		}
	}
	flush(len(s))
}

func (w *writer) list(l List, lvl int) {
	abstract := 0
	if l.Ordered {
		abstract = 1
	}
	start := l.Start
	if start <= 0 {
		start = 1
	}
	w.nums = append(w.nums, numDef{abstract: abstract, start: start})
	numID := len(w.nums)
	w.listItems(l, numID, lvl)
}

func (w *writer) listItems(l List, numID, lvl int) {
	lvl = min(lvl, 8)
	for _, it := range l.Items {
		w.para(pPr{style: "ListParagraph", numID: numID, ilvl: lvl}, it.Runs)
		for _, c := range it.Children {
			switch v := c.(type) {
			case List:
				if v.Ordered == l.Ordered {
					// Same kind: continue the same numbering one level down.
					w.listItems(v, numID, lvl+1)
				} else {
					w.nestedList(v, lvl+1)
				}
			case Paragraph:
				w.para(pPr{style: "ListParagraph"}, v.Runs)
			default:
				_ = w.block(c, 1)
			}
		}
	}
}

func (w *writer) nestedList(l List, lvl int) {
	abstract := 0
	if l.Ordered {
		abstract = 1
	}
	start := max(l.Start, 1)
	w.nums = append(w.nums, numDef{abstract: abstract, start: start})
	w.listItems(l, len(w.nums), lvl)
}

func (w *writer) table(t Table) {
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return
	}
	totalTw := int(w.opts.contentWidthEMU() / 635)
	colW := totalTw / cols
	w.body.WriteString(`<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="5000" w:type="pct"/><w:tblLayout w:type="fixed"/><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr><w:tblGrid>`)
	for i := 0; i < cols; i++ {
		fmt.Fprintf(&w.body, `<w:gridCol w:w="%d"/>`, colW)
	}
	w.body.WriteString(`</w:tblGrid>`)
	row := func(cells []Cell, header bool) {
		w.body.WriteString(`<w:tr>`)
		if header {
			w.body.WriteString(`<w:trPr><w:cantSplit/><w:tblHeader/></w:trPr>`)
		}
		for i := 0; i < cols; i++ {
			fmt.Fprintf(&w.body, `<w:tc><w:tcPr><w:tcW w:w="%d" w:type="dxa"/>`, colW)
			if header {
				w.body.WriteString(`<w:shd w:val="clear" w:color="auto" w:fill="D9E2F3"/>`)
			}
			w.body.WriteString(`</w:tcPr>`)
			align := ""
			if i < len(t.Align) {
				align = t.Align[i]
			}
			var c Cell
			if i < len(cells) {
				c = cells[i]
			}
			w.body.WriteString(`<w:p>` + pPr{style: "TableText", align: align}.xml())
			w.runs(c, header)
			w.body.WriteString(`</w:p></w:tc>`)
		}
		w.body.WriteString(`</w:tr>`)
	}
	if len(t.Header) > 0 {
		row(t.Header, true)
	}
	for _, r := range t.Rows {
		row(r, false)
	}
	w.body.WriteString(`</w:tbl>`)
	// A table directly followed by another would merge; an empty paragraph
	// also gives the spacing Word users expect.
	w.body.WriteString(`<w:p/>`)
}

// CodeLanguageTag prefixes the tag of the content control that wraps a code
// block with a language ("code-language:go"): Word has no notion of a code
// language, and the tag survives editing, so docx->md gets it back.
const CodeLanguageTag = "code-language:"

func (w *writer) code(c CodeBlock) {
	lines := strings.Split(strings.TrimRight(c.Text, "\n"), "\n")
	if c.Language != "" {
		fmt.Fprintf(&w.body, `<w:sdt><w:sdtPr><w:alias w:val="%s"/><w:tag w:val="%s"/></w:sdtPr><w:sdtContent>`, esc(c.Language+" code"), esc(CodeLanguageTag+c.Language))
		defer w.body.WriteString(`</w:sdtContent></w:sdt>`)
	}
	for _, ln := range lines {
		w.body.WriteString(`<w:p><w:pPr><w:pStyle w:val="CodeBlock"/></w:pPr>`)
		if ln != "" {
			w.body.WriteString(`<w:r>`)
			writeText(&w.body, ln)
			w.body.WriteString(`</w:r>`)
		}
		w.body.WriteString(`</w:p>`)
	}
}

func (w *writer) toc(t TOC) {
	levels := t.Levels
	if levels <= 0 || levels > 6 {
		levels = 3
	}
	title := t.Title
	if title == "" {
		title = w.opts.TOCTitle
	}
	w.para(pPr{style: "TOCHeading"}, Text(title))
	instr := fmt.Sprintf(` TOC \o "1-%d" \h \z \u `, levels)
	begin := `<w:r><w:fldChar w:fldCharType="begin" w:dirty="true"/></w:r><w:r><w:instrText xml:space="preserve">` + esc(instr) + `</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>`
	var entries []Heading
	for _, h := range w.headings {
		if h.Level <= levels {
			entries = append(entries, h)
		}
	}
	if len(entries) == 0 {
		w.body.WriteString(`<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr>` + begin + `<w:r><w:t xml:space="preserve"> </w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`)
		return
	}
	for i, h := range entries {
		fmt.Fprintf(&w.body, `<w:p><w:pPr><w:pStyle w:val="TOC%d"/></w:pPr>`, min(max(h.Level, 1), 6))
		if i == 0 {
			w.body.WriteString(begin)
		}
		var plain []Run
		for _, r := range h.Runs {
			r.Link = ""
			plain = append(plain, r)
		}
		w.runs(plain, false)
		if i == len(entries)-1 {
			w.body.WriteString(`<w:r><w:fldChar w:fldCharType="end"/></w:r>`)
		}
		w.body.WriteString(`</w:p>`)
	}
}

// esc escapes text for XML and drops characters XML 1.0 cannot carry.
func esc(s string) string { return EscapeXML(s) }

// EscapeXML escapes text for XML element and attribute content and drops
// characters XML 1.0 cannot carry. The pptx writer shares it.
func EscapeXML(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\t', '\n', '\r':
			b.WriteRune(r)
		default:
			if r < 0x20 || r == 0xFFFE || r == 0xFFFF || (r >= 0xD800 && r <= 0xDFFF) {
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (w *writer) pack() ([]byte, error) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	add := func(name, content string) error {
		f, err := z.Create(name)
		if err != nil {
			return err
		}
		_, err = f.Write([]byte(content))
		return err
	}
	hasHeader := w.opts.Header != ""
	hasFooter := w.opts.Footer != "" || w.opts.PageNumbers
	files := []struct{ name, content string }{
		{"[Content_Types].xml", contentTypes(hasHeader, hasFooter)},
		{"_rels/.rels", rootRels},
		{"docProps/core.xml", CoreProps(w.opts.Title, w.opts.Author, time.Now().UTC())},
		{"docProps/app.xml", appProps},
		{"word/document.xml", w.document(hasHeader, hasFooter)},
		{"word/_rels/document.xml.rels", w.documentRels(hasHeader, hasFooter)},
		{"word/styles.xml", styles(w.opts)},
		{"word/numbering.xml", w.numbering()},
		{"word/settings.xml", settings(w.opts)},
		{"word/fontTable.xml", fontTable(w.opts)},
		{"word/webSettings.xml", webSettings},
	}
	if hasHeader {
		files = append(files, struct{ name, content string }{"word/header1.xml", headerXML(w.opts)})
	}
	if hasFooter {
		files = append(files, struct{ name, content string }{"word/footer1.xml", footerXML(w.opts)})
	}
	for _, f := range files {
		if err := add(f.name, f.content); err != nil {
			return nil, fmt.Errorf("docx: write %s: %w", f.name, err)
		}
	}
	for _, m := range w.media {
		// Images are already compressed: store them.
		f, err := z.CreateHeader(&zip.FileHeader{Name: "word/media/" + m.name, Method: zip.Store})
		if err != nil {
			return nil, fmt.Errorf("docx: write media: %w", err)
		}
		if _, err := f.Write(m.data); err != nil {
			return nil, fmt.Errorf("docx: write media: %w", err)
		}
	}
	if err := z.Close(); err != nil {
		return nil, fmt.Errorf("docx: close zip: %w", err)
	}
	return buf.Bytes(), nil
}

func (w *writer) document(hasHeader, hasFooter bool) string {
	var b strings.Builder
	b.WriteString(xmlHeader)
	b.WriteString(`<w:document xmlns:w="` + nsW + `" xmlns:r="` + nsR + `" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>`)
	b.WriteString(w.body.String())
	pw, ph, m := w.opts.page()
	b.WriteString(`<w:sectPr>`)
	if hasHeader {
		b.WriteString(`<w:headerReference w:type="default" r:id="rIdHeader1"/>`)
	}
	if hasFooter {
		b.WriteString(`<w:footerReference w:type="default" r:id="rIdFooter1"/>`)
	}
	orient := ""
	if w.opts.Landscape {
		orient = ` w:orient="landscape"`
	}
	fmt.Fprintf(&b, `<w:pgSz w:w="%d" w:h="%d"%s/><w:pgMar w:top="%d" w:right="%d" w:bottom="%d" w:left="%d" w:header="709" w:footer="709" w:gutter="0"/><w:cols w:space="720"/><w:docGrid w:linePitch="360"/></w:sectPr>`, pw, ph, orient, m, m, m, m)
	b.WriteString(`</w:body></w:document>`)
	return b.String()
}

func (w *writer) documentRels(hasHeader, hasFooter bool) string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	base := "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	b.WriteString(`<Relationship Id="rIdStyles" Type="` + base + `styles" Target="styles.xml"/>`)
	b.WriteString(`<Relationship Id="rIdNumbering" Type="` + base + `numbering" Target="numbering.xml"/>`)
	b.WriteString(`<Relationship Id="rIdSettings" Type="` + base + `settings" Target="settings.xml"/>`)
	b.WriteString(`<Relationship Id="rIdFonts" Type="` + base + `fontTable" Target="fontTable.xml"/>`)
	b.WriteString(`<Relationship Id="rIdWeb" Type="` + base + `webSettings" Target="webSettings.xml"/>`)
	if hasHeader {
		b.WriteString(`<Relationship Id="rIdHeader1" Type="` + base + `header" Target="header1.xml"/>`)
	}
	if hasFooter {
		b.WriteString(`<Relationship Id="rIdFooter1" Type="` + base + `footer" Target="footer1.xml"/>`)
	}
	for _, r := range w.relList {
		mode := ""
		if r.mode != "" {
			mode = ` TargetMode="` + r.mode + `"`
		}
		b.WriteString(`<Relationship Id="` + r.id + `" Type="` + r.typ + `" Target="` + esc(r.target) + `"` + mode + `/>`)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}
