package pptx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/internal/wording"
)

type box struct{ x, y, cx, cy int64 }

type layoutDef struct {
	name, typ string
	phs       []phDef
}

type phDef struct {
	typ  string
	idx  int
	geom func(w int64) box
}

// Geometry, as functions of the slide width (height is always 7.5in).
func margin(w int64) int64          { return w * 5 / 100 }
func titleBox(w int64) box          { return box{margin(w), 380000, w - 2*margin(w), 1000000} }
func bodyBox(w int64) box           { return box{margin(w), 1500000, w - 2*margin(w), 4900000} }
func centerTitleBox(w int64) box    { return box{margin(w) * 2, 1900000, w - 4*margin(w), 1600000} }
func centerSubtitleBox(w int64) box { return box{margin(w) * 2, 3600000, w - 4*margin(w), 1200000} }
func colBox(w int64, right bool) box {
	gap := w * 3 / 100
	cw := (w - 2*margin(w) - gap) / 2
	x := margin(w)
	if right {
		x += cw + gap
	}
	return box{x, 1500000, cw, 4900000}
}

var layouts = []layoutDef{
	{"Title Slide", "title", []phDef{{"ctrTitle", 0, centerTitleBox}, {"subTitle", 1, centerSubtitleBox}}},
	{"Title and Content", "obj", []phDef{{"title", 0, titleBox}, {"body", 1, bodyBox}}},
	{"Section Header", "secHead", []phDef{{"title", 0, centerTitleBox}, {"body", 1, centerSubtitleBox}}},
	{"Two Content", "twoObj", []phDef{{"title", 0, titleBox}, {"body", 1, func(w int64) box { return colBox(w, false) }}, {"body", 2, func(w int64) box { return colBox(w, true) }}}},
	{"Title Only", "titleOnly", []phDef{{"title", 0, titleBox}}},
}

func layoutFor(kind string) int {
	switch kind {
	case KindTitle, KindClosing:
		return 1
	case KindSection:
		return 3
	case KindTwoColumn:
		return 4
	case KindImage, KindTable:
		return 5
	}
	return 2
}

// tree builds a p:spTree.
type tree struct {
	b     strings.Builder
	id    int
	links map[string]string
	rels  *[]rel
}

func newTree() *tree {
	t := &tree{id: 1, links: map[string]string{}}
	t.b.WriteString(`<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`)
	return t
}

func (t *tree) next() int { t.id++; return t.id }

func (t *tree) close() string { return t.b.String() + `</p:spTree>` }

func xfrm(b box) string {
	return fmt.Sprintf(`<a:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></a:xfrm>`, b.x, b.y, b.cx, b.cy)
}

func phXML(typ string, idx int) string {
	if typ == "" {
		return ""
	}
	s := `<p:ph type="` + typ + `"`
	if idx > 0 {
		s += ` idx="` + strconv.Itoa(idx) + `"`
	}
	return s + `/>`
}

// shape writes a text shape; ph "" makes a plain text box.
func (t *tree) shape(name, ph string, idx int, bx box, fill, anchor string, paras string) {
	id := t.next()
	lock := ` txBox="1"`
	if ph != "" {
		lock = `><a:spLocks noGrp="1"/></p:cNvSpPr`
	}
	if ph == "" {
		fmt.Fprintf(&t.b, `<p:sp><p:nvSpPr><p:cNvPr id="%d" name="%s %d"/><p:cNvSpPr%s/><p:nvPr/></p:nvSpPr>`, id, esc(name), id, lock)
	} else {
		fmt.Fprintf(&t.b, `<p:sp><p:nvSpPr><p:cNvPr id="%d" name="%s %d"/><p:cNvSpPr%s><p:nvPr>%s</p:nvPr></p:nvSpPr>`, id, esc(name), id, lock, phXML(ph, idx))
	}
	t.b.WriteString(`<p:spPr>` + xfrm(bx) + `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`)
	if fill != "" {
		t.b.WriteString(`<a:solidFill><a:srgbClr val="` + fill + `"/></a:solidFill>`)
	}
	t.b.WriteString(`</p:spPr>`)
	if paras == "" && ph == "" {
		t.b.WriteString(`<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US" dirty="0"/></a:p></p:txBody></p:sp>`)
		return
	}
	if anchor == "" {
		anchor = "t"
	}
	t.b.WriteString(`<p:txBody><a:bodyPr wrap="square" lIns="91440" tIns="45720" rIns="91440" bIns="45720" anchor="` + anchor + `"><a:normAutofit/></a:bodyPr><a:lstStyle/>`)
	if paras == "" {
		paras = `<a:p><a:endParaRPr lang="en-US" dirty="0"/></a:p>`
	}
	t.b.WriteString(paras + `</p:txBody></p:sp>`)
}

func (t *tree) rect(bx box, fill string) {
	id := t.next()
	fmt.Fprintf(&t.b, `<p:sp><p:nvSpPr><p:cNvPr id="%d" name="Band %d"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>%s<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="%s"/></a:solidFill><a:ln><a:noFill/></a:ln></p:spPr></p:sp>`, id, id, xfrm(bx), fill)
}

// style of a paragraph.
type pstyle struct {
	size   int // hundredths of a point
	bold   bool
	color  string
	align  string // "l", "ctr", "r"
	bullet bool
	level  int
	before int // spacing before, points
}

func (w *writer) para(t *tree, text string, st pstyle) string {
	var b strings.Builder
	b.WriteString(`<a:p><a:pPr`)
	if st.bullet {
		marL, indent := 342900, -342900
		if st.level > 0 {
			marL, indent = 800100, -285750
		}
		fmt.Fprintf(&b, ` marL="%d" lvl="%d" indent="%d"`, marL, st.level, indent)
	} else {
		b.WriteString(` marL="0" indent="0"`)
	}
	if st.align != "" {
		b.WriteString(` algn="` + st.align + `"`)
	}
	b.WriteString(`>`)
	if st.before > 0 {
		fmt.Fprintf(&b, `<a:spcBef><a:spcPts val="%d"/></a:spcBef>`, st.before*100)
	}
	if st.bullet {
		char := "•"
		if st.level > 0 {
			char = "–"
		}
		b.WriteString(`<a:buClr><a:srgbClr val="` + w.deck.Theme.Color + `"/></a:buClr><a:buFont typeface="Arial"/><a:buChar char="` + char + `"/>`)
	} else {
		b.WriteString(`<a:buNone/>`)
	}
	b.WriteString(`</a:pPr>`)
	for _, r := range runs(text) {
		if r.Break {
			b.WriteString(`<a:br>` + w.rPr(t, docx.Run{}, st, "") + `</a:br>`)
			continue
		}
		if r.Text == "" {
			continue
		}
		b.WriteString(`<a:r>` + w.rPr(t, r, st, r.Text) + `<a:t>` + esc(r.Text) + `</a:t></a:r>`)
	}
	fmt.Fprintf(&b, `<a:endParaRPr lang="en-US" sz="%d" dirty="0"/></a:p>`, st.size)
	return b.String()
}

func (w *writer) rPr(t *tree, r docx.Run, st pstyle, text string) string {
	lang := "en-US"
	if wording.HasCJK(text) {
		lang = "zh-CN"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<a:rPr lang="%s" altLang="en-US" sz="%d"`, lang, st.size)
	if st.bold || r.Bold {
		b.WriteString(` b="1"`)
	}
	if r.Italic {
		b.WriteString(` i="1"`)
	}
	if r.Strike {
		b.WriteString(` strike="sngStrike"`)
	}
	b.WriteString(` dirty="0">`)
	color := st.color
	if r.Link != "" && color == "" {
		color = "0563C1"
	}
	if color != "" {
		b.WriteString(`<a:solidFill><a:srgbClr val="` + color + `"/></a:solidFill>`)
	}
	latin := w.deck.Theme.Font
	if r.Code {
		latin = "Consolas"
	}
	fmt.Fprintf(&b, `<a:latin typeface="%s"/><a:ea typeface="%s"/><a:cs typeface="%s"/>`, esc(latin), esc(w.deck.Theme.EastAsiaFont), esc(latin))
	if r.Link != "" && t != nil && t.rels != nil {
		id, ok := t.links[r.Link]
		if !ok {
			id = "rIdLink" + strconv.Itoa(len(t.links)+1)
			t.links[r.Link] = id
			*t.rels = append(*t.rels, rel{id, "hyperlink", r.Link, true})
		}
		b.WriteString(`<a:hlinkClick r:id="` + id + `"/>`)
	}
	b.WriteString(`</a:rPr>`)
	return b.String()
}

// bulletSize shrinks text as lines grow, so a full slide still fits
// (normAutofit is also set for readers that recompute).
func bulletSize(n int, base int) int {
	switch {
	case n <= 6:
		return base
	case n <= 9:
		return base - 400
	case n <= 13:
		return base - 800
	}
	return base - 1000
}

func (w *writer) bullets(t *tree, bs []Bullet, base int) string {
	var b strings.Builder
	size := bulletSize(len(bs), base)
	for _, x := range bs {
		lvl := min(max(x.Level, 0), 1)
		sz := size
		if lvl > 0 {
			sz -= 400
		}
		b.WriteString(w.para(t, x.Text, pstyle{size: sz, bullet: true, level: lvl, before: 6, color: "262626"}))
	}
	return b.String()
}

func (w *writer) slide(n int, s Slide) (string, string, error) {
	rels := []rel{{"rId1", "slideLayout", fmt.Sprintf("../slideLayouts/slideLayout%d.xml", layoutFor(s.Kind)), false}}
	t := newTree()
	t.rels = &rels
	W := w.width
	accent := w.deck.Theme.Color
	bg := ""
	titleOnTop := func() {
		t.rect(box{0, 0, W, 190500}, accent)
		t.shape("Title", "title", 0, titleBox(W), "", "b", w.para(t, s.Title, pstyle{size: 3200, bold: true, color: accent}))
	}
	switch s.Kind {
	case KindTitle, KindClosing:
		bg = accent
		t.shape("Title", "ctrTitle", 0, centerTitleBox(W), "", "b", w.para(t, s.Title, pstyle{size: 4400, bold: true, color: "FFFFFF", align: "ctr"}))
		sub := ""
		if s.Subtitle != "" {
			for _, line := range strings.Split(s.Subtitle, "\n") {
				sub += w.para(t, line, pstyle{size: 2000, color: "F2F2F2", align: "ctr"})
			}
		}
		t.shape("Subtitle", "subTitle", 1, centerSubtitleBox(W), "", "t", sub)
	case KindSection:
		bg = accent
		t.shape("Title", "title", 0, centerTitleBox(W), "", "b", w.para(t, s.Title, pstyle{size: 4000, bold: true, color: "FFFFFF"}))
		sub := ""
		if s.Subtitle != "" {
			sub = w.para(t, s.Subtitle, pstyle{size: 2000, color: "F2F2F2"})
		}
		t.shape("Text", "body", 1, centerSubtitleBox(W), "", "t", sub)
	case KindTwoColumn:
		titleOnTop()
		for i, col := range []struct {
			head string
			bs   []Bullet
		}{{s.LeftTitle, s.Left}, {s.RightTitle, s.Right}} {
			var b strings.Builder
			if col.head != "" {
				b.WriteString(w.para(t, col.head, pstyle{size: 2200, bold: true, color: accent}))
			}
			b.WriteString(w.bullets(t, col.bs, 2000))
			t.shape("Content", "body", i+1, colBox(W, i == 1), "", "t", b.String())
		}
	case KindImage:
		titleOnTop()
		if err := w.picture(t, s, &rels); err != nil {
			return "", "", fmt.Errorf("pptx: slide %d: %w", n, err)
		}
	case KindTable:
		titleOnTop()
		w.table(t, s, bodyBox(W))
	default: // bullets
		titleOnTop()
		t.shape("Content", "body", 1, bodyBox(W), "", "t", w.bullets(t, s.Bullets, 2400))
	}
	// Bullets under an image or table: a short text line at the bottom.
	if (s.Kind == KindImage || s.Kind == KindTable) && len(s.Bullets) > 0 {
		var b strings.Builder
		for _, x := range s.Bullets {
			b.WriteString(w.para(t, x.Text, pstyle{size: 1400, color: "404040"}))
		}
		t.shape("Note", "", 0, box{margin(W), 6400000, W - 2*margin(W), 400000}, "", "t", b.String())
	}
	if strings.TrimSpace(s.Notes) != "" {
		rels = append(rels, rel{"rIdNotes", "notesSlide", fmt.Sprintf("../notesSlides/notesSlide%d.xml", n), false})
	}
	var b strings.Builder
	b.WriteString(xmlHeader + `<p:sld ` + nsDecl + `><p:cSld>`)
	if bg != "" {
		b.WriteString(`<p:bg><p:bgPr><a:solidFill><a:srgbClr val="` + bg + `"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>`)
	}
	b.WriteString(t.close())
	b.WriteString(`</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`)
	return b.String(), relsXML(rels...), nil
}

// picture places an image slide's picture, fitted to the body above its
// caption, adding the image to the deck's media and its relation to rels.
func (w *writer) picture(t *tree, s Slide, rels *[]rel) error {
	area := bodyBox(w.width)
	textH := int64(0)
	if s.Caption != "" {
		textH = 500000
	}
	data, ext, pw, ph, err := docx.NormalizeImage(s.Image)
	if err != nil {
		return err
	}
	cx, cy := docx.FitEMU(pw, ph, area.cx, area.cy-textH)
	name := fmt.Sprintf("image%d.%s", len(w.media)+1, ext)
	w.media = append(w.media, media{name, data})
	*rels = append(*rels, rel{"rIdImg1", "image", "../media/" + name, false})
	id := t.next()
	ib := box{area.x + (area.cx-cx)/2, area.y + (area.cy-textH-cy)/2, cx, cy}
	fmt.Fprintf(&t.b, `<p:pic><p:nvPicPr><p:cNvPr id="%d" name="Picture %d" descr="%s"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rIdImg1"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>%s<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`, id, id, esc(s.Caption), xfrm(ib))
	if s.Caption != "" {
		t.shape("Caption", "", 0, box{area.x, area.y + area.cy - textH, area.cx, textH}, "", "ctr", w.para(t, s.Caption, pstyle{size: 1600, color: "595959", align: "ctr"}))
	}
	return nil
}

func (w *writer) table(t *tree, s Slide, area box) {
	cols := len(s.Header)
	for _, r := range s.Rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return
	}
	nrows := len(s.Rows)
	if len(s.Header) > 0 {
		nrows++
	}
	size := 1600
	switch {
	case nrows > 14:
		size = 1000
	case nrows > 9:
		size = 1200
	case nrows > 6:
		size = 1400
	}
	rowH := min(int64(size)*100*2, area.cy/int64(max(nrows, 1)))
	colW := area.cx / int64(cols)
	id := t.next()
	fmt.Fprintf(&t.b, `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="%d" name="Table %d"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1" bandRow="1"/><a:tblGrid>`,
		id, id, area.x, area.y, colW*int64(cols), rowH*int64(nrows))
	for i := 0; i < cols; i++ {
		fmt.Fprintf(&t.b, `<a:gridCol w="%d"/>`, colW)
	}
	t.b.WriteString(`</a:tblGrid>`)
	line := func(tag string) string {
		return `<a:` + tag + ` w="9525"><a:solidFill><a:srgbClr val="BFBFBF"/></a:solidFill></a:` + tag + `>`
	}
	row := func(cells []string, header bool, band bool) {
		fmt.Fprintf(&t.b, `<a:tr h="%d">`, rowH)
		for i := 0; i < cols; i++ {
			txt := ""
			if i < len(cells) {
				txt = cells[i]
			}
			st := pstyle{size: size, color: "262626"}
			fill := "FFFFFF"
			if header {
				st.bold, st.color, fill = true, "FFFFFF", w.deck.Theme.Color
			} else if band {
				fill = "F2F2F2"
			}
			t.b.WriteString(`<a:tc><a:txBody><a:bodyPr/><a:lstStyle/>` + w.para(t, txt, st) + `</a:txBody><a:tcPr marL="91440" marR="91440" marT="45720" marB="45720" anchor="ctr">`)
			t.b.WriteString(line("lnL") + line("lnR") + line("lnT") + line("lnB"))
			t.b.WriteString(`<a:solidFill><a:srgbClr val="` + fill + `"/></a:solidFill></a:tcPr></a:tc>`)
		}
		t.b.WriteString(`</a:tr>`)
	}
	if len(s.Header) > 0 {
		row(s.Header, true, false)
	}
	for i, r := range s.Rows {
		row(r, false, i%2 == 1)
	}
	t.b.WriteString(`</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`)
}

func (w *writer) notesSlide(notes string) string {
	var paras strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(notes), "\n") {
		paras.WriteString(w.para(nil, line, pstyle{size: 1200}))
	}
	return xmlHeader + `<p:notes ` + nsDecl + `><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>` + paras.String() + `</p:txBody></p:sp>` +
		`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>`
}

const clrMap = `<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>`

func (w *writer) master() string {
	t := newTree()
	t.shape("Title Placeholder", "title", 0, titleBox(w.width), "", "b", "")
	t.shape("Text Placeholder", "body", 1, bodyBox(w.width), "", "t", "")
	var b strings.Builder
	b.WriteString(xmlHeader + `<p:sldMaster ` + nsDecl + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>`)
	b.WriteString(t.close())
	b.WriteString(`</p:cSld>` + clrMap + `<p:sldLayoutIdLst>`)
	for i := range layouts {
		fmt.Fprintf(&b, `<p:sldLayoutId id="%d" r:id="rId%d"/>`, 2147483649+i, i+1)
	}
	b.WriteString(`</p:sldLayoutIdLst>`)
	font := `<a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/>`
	b.WriteString(`<p:txStyles><p:titleStyle><a:lvl1pPr algn="l"><a:defRPr sz="3200" b="1"><a:solidFill><a:schemeClr val="accent1"/></a:solidFill><a:latin typeface="+mj-lt"/><a:ea typeface="+mj-ea"/><a:cs typeface="+mj-cs"/></a:defRPr></a:lvl1pPr></p:titleStyle>`)
	b.WriteString(`<p:bodyStyle><a:lvl1pPr marL="342900" indent="-342900"><a:spcBef><a:spcPts val="600"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="•"/><a:defRPr sz="2400"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>` + font + `</a:defRPr></a:lvl1pPr>`)
	b.WriteString(`<a:lvl2pPr marL="800100" indent="-285750"><a:spcBef><a:spcPts val="600"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="–"/><a:defRPr sz="2000"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>` + font + `</a:defRPr></a:lvl2pPr></p:bodyStyle>`)
	b.WriteString(`<p:otherStyle><a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>` + font + `</a:defRPr></a:lvl1pPr></p:otherStyle></p:txStyles></p:sldMaster>`)
	return b.String()
}

func (w *writer) layout(l layoutDef) string {
	t := newTree()
	for _, p := range l.phs {
		t.shape(l.name+" "+p.typ, p.typ, p.idx, p.geom(w.width), "", "", "")
	}
	return xmlHeader + `<p:sldLayout ` + nsDecl + ` type="` + l.typ + `" preserve="1"><p:cSld name="` + esc(l.name) + `">` + t.close() + `</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`
}

func notesMaster() string {
	return xmlHeader + `<p:notesMaster ` + nsDecl + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg" idx="2"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="381000" y="685800"/><a:ext cx="6096000" cy="3429000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/><a:ln w="12700"><a:solidFill><a:prstClr val="black"/></a:solidFill></a:ln></p:spPr></p:sp>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" sz="quarter" idx="3"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="685800" y="4400550"/><a:ext cx="5486400" cy="3600450"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"/><a:lstStyle/><a:p><a:endParaRPr lang="en-US" dirty="0"/></a:p></p:txBody></p:sp>` +
		`</p:spTree></p:cSld>` + clrMap + `<p:notesStyle><a:lvl1pPr marL="0" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:defRPr sz="1200" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:notesStyle></p:notesMaster>`
}
