// Package ooxml reads Office Open XML packages: a Word document as text or
// Markdown (headings, lists, tables, code, notes, text boxes and images),
// and a presentation's slides. The convert tool converts with it and the
// knowledge tool indexes with it.
package ooxml

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// xnode is a generic XML element, enough to walk OOXML parts.
type xnode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []xnode    `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n *xnode) attr(local string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func (n *xnode) child(local string) *xnode {
	for i := range n.Nodes {
		if n.Nodes[i].XMLName.Local == local {
			return &n.Nodes[i]
		}
	}
	return nil
}

// pkg is an opened OOXML zip package.
type pkg struct{ files map[string]*zip.File }

const maxPart = 64 << 20

func openPkg(data []byte, kind string) (*pkg, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, tool.Invalidf("path", "the file may be damaged, or an old binary .doc/.ppt (convert those to PDF with LibreOffice)", "not a valid %s file: %v", kind, err)
	}
	p := &pkg{files: map[string]*zip.File{}}
	for _, f := range zr.File {
		p.files[f.Name] = f
	}
	return p, nil
}

func (p *pkg) read(name string) ([]byte, error) {
	f, ok := p.files[name]
	if !ok {
		return nil, fmt.Errorf("missing part %s", name)
	}
	if f.UncompressedSize64 > maxPart {
		return nil, fmt.Errorf("part %s is larger than %d MB", name, maxPart>>20)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, maxPart))
}

func (p *pkg) xml(name string) (*xnode, error) {
	data, err := p.read(name)
	if err != nil {
		return nil, err
	}
	var n xnode
	if err := xml.Unmarshal(data, &n); err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	return &n, nil
}

// rels maps relationship ids to targets for a part.
func (p *pkg) rels(part string) map[string]string {
	dir, file := path.Split(part)
	n, err := p.xml(dir + "_rels/" + file + ".rels")
	out := map[string]string{}
	if err != nil {
		return out
	}
	for _, r := range n.Nodes {
		out[r.attr("Id")] = r.attr("Target")
	}
	return out
}

// ---- Word ----

type docxReader struct {
	styles   map[string]string // styleId -> lower-case name
	outline  map[string]int    // styleId -> outline level (0-based) from the style
	numFmt   map[string]string // numId/ilvl -> numFmt
	rels     map[string]string
	markdown bool
	counters map[string]int // numId/ilvl -> running number (for text output)
	code     []string       // pending lines of a code block
	codeLang string         // language of the pending code block (our writer tags it)
	prevNum  string         // numId of the previous list paragraph

	pkg   *pkg
	notes []note                                // footnotes and endnotes in the order they are referenced
	boxes []*xnode                              // text boxes met in the current paragraph, shown after it
	image func(name string, data []byte) string // saves an image and returns its link; nil: links into the package
	alt   string                                // description of the drawing being read
}

// note is a footnote or endnote reference.
type note struct {
	kind  string // footnotes, endnotes
	id    string
	label string
}

func newDocxReader(p *pkg, markdown bool) *docxReader {
	r := &docxReader{styles: map[string]string{}, outline: map[string]int{}, numFmt: map[string]string{}, markdown: markdown, counters: map[string]int{}}
	if st, err := p.xml("word/styles.xml"); err == nil {
		for _, s := range st.Nodes {
			if s.XMLName.Local != "style" {
				continue
			}
			id := s.attr("styleId")
			if nm := s.child("name"); nm != nil {
				r.styles[id] = strings.ToLower(nm.attr("val"))
			}
			if ppr := s.child("pPr"); ppr != nil {
				if ol := ppr.child("outlineLvl"); ol != nil {
					if v, err := strconv.Atoi(ol.attr("val")); err == nil {
						r.outline[id] = v
					}
				}
			}
		}
	}
	if num, err := p.xml("word/numbering.xml"); err == nil {
		abstract := map[string]map[string]string{}
		for _, a := range num.Nodes {
			if a.XMLName.Local != "abstractNum" {
				continue
			}
			lv := map[string]string{}
			for _, l := range a.Nodes {
				if l.XMLName.Local == "lvl" {
					if f := l.child("numFmt"); f != nil {
						lv[l.attr("ilvl")] = f.attr("val")
					}
				}
			}
			abstract[a.attr("abstractNumId")] = lv
		}
		for _, n := range num.Nodes {
			if n.XMLName.Local != "num" {
				continue
			}
			if a := n.child("abstractNumId"); a != nil {
				for ilvl, f := range abstract[a.attr("val")] {
					r.numFmt[n.attr("numId")+"/"+ilvl] = f
				}
			}
		}
	}
	r.rels = p.rels("word/document.xml")
	r.pkg = p
	return r
}

var headingName = regexp.MustCompile(`^heading\s*([1-9])$`)

// headingLevel returns 1..6 for heading paragraphs, 0 otherwise.
func (r *docxReader) headingLevel(ppr *xnode) int {
	if ppr == nil {
		return 0
	}
	if ol := ppr.child("outlineLvl"); ol != nil {
		if v, err := strconv.Atoi(ol.attr("val")); err == nil && v >= 0 && v < 9 {
			return min(v+1, 6)
		}
	}
	ps := ppr.child("pStyle")
	if ps == nil {
		return 0
	}
	id := ps.attr("val")
	name := r.styles[id]
	if name == "title" || strings.EqualFold(id, "Title") {
		return 1
	}
	if m := headingName.FindStringSubmatch(name); m != nil {
		v, _ := strconv.Atoi(m[1])
		return min(v, 6)
	}
	if m := headingName.FindStringSubmatch(strings.ToLower(id)); m != nil {
		v, _ := strconv.Atoi(m[1])
		return min(v, 6)
	}
	if v, ok := r.outline[id]; ok && v >= 0 && v < 9 {
		return min(v+1, 6)
	}
	return 0
}

type runStyle struct{ b, i, s, code bool }

// runs renders the inline content of a paragraph (or hyperlink).
func (r *docxReader) runs(n *xnode, out *strings.Builder) {
	pieces := r.collectRuns(n, "", nil)
	if !r.markdown {
		for _, p := range pieces {
			out.WriteString(p.text)
		}
		return
	}
	// Merge neighbours with the same style and link, then mark them up.
	var merged []runPiece
	for _, p := range pieces {
		if k := len(merged); k > 0 && !p.raw && !merged[k-1].raw && merged[k-1].st == p.st && merged[k-1].link == p.link {
			merged[k-1].text += p.text
			continue
		}
		merged = append(merged, p)
	}
	for _, p := range merged {
		out.WriteString(p.markdown())
	}
}

// runPiece is a stretch of inline text with one style and link.
type runPiece struct {
	st   runStyle
	text string
	link string
	raw  bool // Markdown already (a note reference, an image)
}

// collectRuns appends the pieces of n's runs, inside hyperlinks,
// insertions and other wrappers too, to pieces; link is the enclosing
// hyperlink's target.
func (r *docxReader) collectRuns(n *xnode, link string, pieces []runPiece) []runPiece {
	for i := range n.Nodes {
		c := &n.Nodes[i]
		switch c.XMLName.Local {
		case "r":
			pieces = r.runPieces(c, link, pieces)
		case "hyperlink":
			l := link
			if id := c.attr("id"); id != "" {
				l = r.rels[id]
			} else if a := c.attr("anchor"); a != "" {
				l = "#" + a
			}
			pieces = r.collectRuns(c, l, pieces)
		case "ins", "smartTag", "fldSimple", "customXml", "sdt", "sdtContent":
			pieces = r.collectRuns(c, link, pieces)
		case "AlternateContent":
			if alt := alternative(c); alt != nil {
				pieces = r.collectRuns(alt, link, pieces)
			}
		}
	}
	return pieces
}

// runPieces appends the pieces of the run c: its text, note references
// and images.
func (r *docxReader) runPieces(c *xnode, link string, pieces []runPiece) []runPiece {
	var st runStyle
	if rpr := c.child("rPr"); rpr != nil {
		st.b = on(rpr.child("b"))
		st.i = on(rpr.child("i"))
		st.s = on(rpr.child("strike")) || on(rpr.child("dstrike"))
		st.code = r.monospace(rpr)
	}
	var t strings.Builder
	flush := func() {
		if t.Len() > 0 {
			pieces = append(pieces, runPiece{st: st, text: t.String(), link: link})
			t.Reset()
		}
	}
	for k := range c.Nodes {
		e := &c.Nodes[k]
		switch e.XMLName.Local {
		case "footnoteReference", "endnoteReference":
			if ref := r.noteRef(e); ref != "" {
				flush()
				pieces = append(pieces, runPiece{text: ref, raw: true})
			}
		case "drawing", "pict", "object", "AlternateContent":
			flush()
			for _, img := range r.objects(e) {
				pieces = append(pieces, runPiece{text: img, raw: true})
			}
		case "t":
			t.WriteString(e.Text)
		case "tab":
			t.WriteString("\t")
		case "br", "cr":
			if e.attr("type") != "page" {
				t.WriteString("\n")
			}
		case "noBreakHyphen":
			t.WriteString("-")
		}
	}
	flush()
	return pieces
}

// markdown is the piece marked up: code, strike, italic, bold and link,
// the spaces around it kept outside the marks.
func (p runPiece) markdown() string {
	if p.raw {
		return p.text
	}
	if p.st.code && strings.TrimSpace(p.text) != "" && !strings.Contains(p.text, "\n") {
		lead, core, trail := splitSpace(p.text)
		core = codeSpan(core)
		if p.st.b {
			core = "**" + core + "**"
		}
		if p.link != "" {
			core = "[" + core + "](" + p.link + ")"
		}
		return lead + core + trail
	}
	t := EscapeMarkdown(p.text)
	t = strings.ReplaceAll(t, "\n", "  \n")
	lead, core, trail := splitSpace(t)
	if core == "" {
		return t
	}
	if p.st.s {
		core = "~~" + core + "~~"
	}
	if p.st.i {
		core = "*" + core + "*"
	}
	if p.st.b {
		core = "**" + core + "**"
	}
	if p.link != "" {
		core = "[" + core + "](" + p.link + ")"
	}
	return lead + core + trail
}

func on(n *xnode) bool {
	if n == nil {
		return false
	}
	v := n.attr("val")
	return v == "" || v == "1" || v == "true" || v == "on"
}

func splitSpace(s string) (string, string, string) {
	core := strings.TrimSpace(s)
	if core == "" {
		return s, "", ""
	}
	i := strings.Index(s, core)
	return s[:i], core, s[i+len(core):]
}

var mdSpecial = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`)

// EscapeMarkdown escapes the characters Markdown would read as markup.
func EscapeMarkdown(s string) string { return mdSpecial.Replace(s) }

// body walks the document body into blocks separated by blank lines.
func (r *docxReader) body(n *xnode, out *strings.Builder) {
	prevList := false
	for i := range n.Nodes {
		c := &n.Nodes[i]
		switch c.XMLName.Local {
		case "p":
			if r.styleMatches(c.child("pPr"), "code", "source", "preformatted", "plain text") {
				var t strings.Builder
				plain := *r
				plain.markdown = false
				plain.runs(c, &t)
				r.notes, r.boxes = plain.notes, plain.boxes // met in the code line
				r.code = append(r.code, t.String())
				continue
			}
			r.flushCode(out)
			isList := r.paragraph(c, out, prevList)
			prevList = isList
			if r.flushBoxes(out) {
				prevList = false
			}
		case "tbl":
			r.flushCode(out)
			sep(out, false)
			r.table(c, out)
			r.flushBoxes(out)
			prevList = false
		case "sdt":
			sc := c.child("sdtContent")
			if sc == nil {
				continue
			}
			lang := ""
			if pr := c.child("sdtPr"); pr != nil {
				if tag := pr.child("tag"); tag != nil {
					lang, _ = strings.CutPrefix(tag.attr("val"), docx.CodeLanguageTag)
					if lang == tag.attr("val") {
						lang = ""
					}
				}
			}
			if lang != "" {
				r.flushCode(out)
				r.codeLang = lang
			}
			r.body(sc, out)
		case "AlternateContent":
			if alt := alternative(c); alt != nil {
				r.body(alt, out)
			}
		}
	}
	r.flushCode(out)
}

// styleMatches reports whether a paragraph's style name contains one of
// the words.
func (r *docxReader) styleMatches(ppr *xnode, words ...string) bool {
	if ppr == nil {
		return false
	}
	ps := ppr.child("pStyle")
	if ps == nil {
		return false
	}
	name := r.styles[ps.attr("val")]
	if name == "" {
		name = strings.ToLower(ps.attr("val"))
	}
	for _, w := range words {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// flushCode writes pending code lines as one fenced block.
func (r *docxReader) flushCode(out *strings.Builder) {
	if len(r.code) == 0 {
		return
	}
	sep(out, false)
	if r.markdown {
		body := strings.Join(r.code, "\n")
		fence := "```"
		for strings.Contains(body, fence) {
			fence += "`"
		}
		out.WriteString(fence + r.codeLang + "\n" + body + "\n" + fence + "\n")
	} else {
		out.WriteString(strings.Join(r.code, "\n") + "\n")
	}
	r.code = nil
	r.codeLang = ""
	r.prevNum = ""
}

// sep starts a new block: a blank line, or a single newline inside a list.
func sep(out *strings.Builder, tight bool) {
	if out.Len() == 0 {
		return
	}
	s := out.String()
	if tight {
		if !strings.HasSuffix(s, "\n") {
			out.WriteString("\n")
		}
		return
	}
	switch {
	case strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		out.WriteString("\n")
	default:
		out.WriteString("\n\n")
	}
}

func (r *docxReader) paragraph(p *xnode, out *strings.Builder, prevList bool) bool {
	var text strings.Builder
	r.runs(p, &text)
	t := strings.TrimRight(text.String(), " \t")
	ppr := p.child("pPr")
	var numID, ilvl string
	if ppr != nil {
		if np := ppr.child("numPr"); np != nil {
			if x := np.child("numId"); x != nil {
				numID = x.attr("val")
			}
			if x := np.child("ilvl"); x != nil {
				ilvl = x.attr("val")
			}
		}
	}
	if strings.TrimSpace(t) == "" {
		return prevList
	}
	if lvl := r.headingLevel(ppr); lvl > 0 {
		sep(out, false)
		if r.markdown {
			out.WriteString(strings.Repeat("#", lvl) + " " + strings.ReplaceAll(t, "\n", " "))
		} else {
			out.WriteString(strings.ReplaceAll(t, "\n", " "))
		}
		out.WriteString("\n")
		return false
	}
	if numID != "" && numID != "0" {
		if ilvl == "" {
			ilvl = "0"
		}
		depth, _ := strconv.Atoi(ilvl)
		depth = max(0, min(depth, 8))
		// A different list (numbering) starts a new block.
		sep(out, prevList && (numID == r.prevNum || depth > 0))
		r.prevNum = numID
		key := numID + "/" + ilvl
		marker := "- "
		if f := r.numFmt[key]; f != "" && f != "bullet" && f != "none" {
			r.counters[key]++
			// Deeper levels restart when a shallower item appears.
			for k := range r.counters {
				if strings.HasPrefix(k, numID+"/") {
					if d, _ := strconv.Atoi(strings.TrimPrefix(k, numID+"/")); d > depth {
						delete(r.counters, k)
					}
				}
			}
			marker = strconv.Itoa(r.counters[key]) + ". "
		}
		out.WriteString(strings.Repeat("   ", depth) + marker + strings.ReplaceAll(t, "\n", " ") + "\n")
		return true
	}
	sep(out, false)
	if r.markdown && r.styleMatches(ppr, "quote") {
		t = "> " + strings.ReplaceAll(t, "\n", "\n> ")
	}
	out.WriteString(t + "\n")
	return false
}

func (r *docxReader) table(tbl *xnode, out *strings.Builder) {
	var rows [][]string
	for i := range tbl.Nodes {
		tr := &tbl.Nodes[i]
		if tr.XMLName.Local != "tr" {
			continue
		}
		var row []string
		for j := range tr.Nodes {
			tc := &tr.Nodes[j]
			if tc.XMLName.Local != "tc" {
				continue
			}
			var parts []string
			for k := range tc.Nodes {
				if tc.Nodes[k].XMLName.Local == "p" {
					var b strings.Builder
					r.runs(&tc.Nodes[k], &b)
					if s := strings.TrimSpace(b.String()); s != "" {
						parts = append(parts, s)
					}
				}
			}
			cell := strings.Join(parts, " ")
			if r.markdown && len(rows) == 0 && strings.HasPrefix(cell, "**") && strings.HasSuffix(cell, "**") && len(cell) > 4 {
				// Header cells are bold already in Markdown tables.
				cell = cell[2 : len(cell)-2]
			}
			if r.markdown {
				cell = strings.ReplaceAll(strings.ReplaceAll(cell, "|", `\|`), "\n", "<br>")
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return
	}
	width := 0
	for _, row := range rows {
		width = max(width, len(row))
	}
	for i := range rows {
		for len(rows[i]) < width {
			rows[i] = append(rows[i], "")
		}
	}
	if !r.markdown {
		for _, row := range rows {
			out.WriteString(strings.Join(row, "\t") + "\n")
		}
		return
	}
	out.WriteString("| " + strings.Join(rows[0], " | ") + " |\n")
	out.WriteString("|" + strings.Repeat(" --- |", width) + "\n")
	for _, row := range rows[1:] {
		out.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
}

// Docx reads a Word document as plain text, or as Markdown when markdown
// is set.
func Docx(data []byte, markdown bool) (string, error) {
	return DocxWith(data, markdown, nil)
}

// DocxWith reads a Word document; image saves each embedded image and
// returns the link to write for it (nil links to the image's part name).
func DocxWith(data []byte, markdown bool, image func(name string, data []byte) string) (string, error) {
	p, err := openPkg(data, "docx")
	if err != nil {
		return "", err
	}
	doc, err := p.xml("word/document.xml")
	if err != nil {
		return "", tool.Invalidf("path", "is it a Word document?", "docx: %v", err)
	}
	body := doc.child("body")
	if body == nil {
		return "", tool.Invalidf("path", "", "docx: no document body")
	}
	r := newDocxReader(p, markdown)
	r.image = image
	var out strings.Builder
	r.body(body, &out)
	r.writeNotes(&out)
	return strings.TrimSpace(out.String()) + "\n", nil
}
