package docx

import (
	"fmt"
	"strings"
	"time"
)

const (
	xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
	nsW       = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsR       = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
)

// TypesHead opens [Content_Types].xml with the defaults of a package that
// embeds images; TypesTail adds the docProps parts and closes it. The pptx
// writer shares both.
const (
	TypesHead = xmlHeader + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Default Extension="png" ContentType="image/png"/>` +
		`<Default Extension="jpeg" ContentType="image/jpeg"/>` +
		`<Default Extension="gif" ContentType="image/gif"/>`
	TypesTail = `<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
		`<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>` +
		`</Types>`
)

func contentTypes(header, footer bool) string {
	var b strings.Builder
	b.WriteString(TypesHead)
	wml := "application/vnd.openxmlformats-officedocument.wordprocessingml."
	b.WriteString(`<Override PartName="/word/document.xml" ContentType="` + wml + `document.main+xml"/>`)
	b.WriteString(`<Override PartName="/word/styles.xml" ContentType="` + wml + `styles+xml"/>`)
	b.WriteString(`<Override PartName="/word/numbering.xml" ContentType="` + wml + `numbering+xml"/>`)
	b.WriteString(`<Override PartName="/word/settings.xml" ContentType="` + wml + `settings+xml"/>`)
	b.WriteString(`<Override PartName="/word/fontTable.xml" ContentType="` + wml + `fontTable+xml"/>`)
	b.WriteString(`<Override PartName="/word/webSettings.xml" ContentType="` + wml + `webSettings+xml"/>`)
	if header {
		b.WriteString(`<Override PartName="/word/header1.xml" ContentType="` + wml + `header+xml"/>`)
	}
	if footer {
		b.WriteString(`<Override PartName="/word/footer1.xml" ContentType="` + wml + `footer+xml"/>`)
	}
	b.WriteString(TypesTail)
	return b.String()
}

const rootRels = xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
	`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>` +
	`</Relationships>`

const appProps = xmlHeader + `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>clawbridge</Application></Properties>`

const webSettings = xmlHeader + `<w:webSettings xmlns:w="` + nsW + `"><w:optimizeForBrowser/></w:webSettings>`

// CoreProps is docProps/core.xml with the title, author and creation time;
// the pptx writer shares it.
func CoreProps(title, author string, now time.Time) string {
	ts := now.Format("2006-01-02T15:04:05Z")
	return xmlHeader + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
		`<dc:title>` + esc(title) + `</dc:title><dc:creator>` + esc(author) + `</dc:creator>` +
		`<dcterms:created xsi:type="dcterms:W3CDTF">` + ts + `</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">` + ts + `</dcterms:modified></cp:coreProperties>`
}

func fonts(o Options) string {
	return fmt.Sprintf(`<w:rFonts w:ascii="%s" w:hAnsi="%s" w:eastAsia="%s" w:cs="%s"/>`, esc(o.Font), esc(o.Font), esc(o.EastAsiaFont), esc(o.Font))
}

// styles defines Normal, Title, the heading styles (with outline levels, so
// TOC \o and the navigation pane see them) and the styles the writer uses.
func styles(o Options) string {
	var b strings.Builder
	sz := int(o.FontSizePt * 2)
	b.WriteString(xmlHeader + `<w:styles xmlns:w="` + nsW + `">`)
	fmt.Fprintf(&b, `<w:docDefaults><w:rPrDefault><w:rPr>%s<w:sz w:val="%d"/><w:szCs w:val="%d"/><w:lang w:val="%s" w:eastAsia="zh-CN" w:bidi="ar-SA"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="288" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>`,
		fonts(o), sz, sz, esc(o.Language))
	b.WriteString(`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>`)
	b.WriteString(`<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/></w:style>`)
	b.WriteString(`<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:semiHidden/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>`)
	b.WriteString(`<w:style w:type="numbering" w:default="1" w:styleId="NoList"><w:name w:val="No List"/><w:semiHidden/></w:style>`)
	fmt.Fprintf(&b, `<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:after="240"/><w:jc w:val="center"/></w:pPr><w:rPr><w:b/><w:bCs/><w:color w:val="1F3864"/><w:sz w:val="%d"/><w:szCs w:val="%d"/></w:rPr></w:style>`, sz*2+8, sz*2+8)
	fmt.Fprintf(&b, `<w:style w:type="paragraph" w:styleId="Subtitle"><w:name w:val="Subtitle"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:after="240"/><w:jc w:val="center"/></w:pPr><w:rPr><w:color w:val="595959"/><w:sz w:val="%d"/><w:szCs w:val="%d"/></w:rPr></w:style>`, sz+6, sz+6)
	hs := []int{sz + 14, sz + 10, sz + 6, sz + 4, sz + 2, sz}
	for i, hsz := range hs {
		n := i + 1
		fmt.Fprintf(&b, `<w:style w:type="paragraph" w:styleId="Heading%d"><w:name w:val="heading %d"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/><w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="%d" w:after="120"/><w:outlineLvl w:val="%d"/></w:pPr><w:rPr><w:b/><w:bCs/><w:color w:val="1F3864"/><w:sz w:val="%d"/><w:szCs w:val="%d"/></w:rPr></w:style>`,
			n, n, 360-40*i, i, hsz, hsz)
	}
	b.WriteString(`<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:uiPriority w:val="34"/><w:qFormat/><w:pPr><w:spacing w:after="60"/><w:ind w:left="720"/><w:contextualSpacing/></w:pPr></w:style>`)
	b.WriteString(`<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:pBdr><w:left w:val="single" w:sz="18" w:space="8" w:color="A0A0A0"/></w:pBdr><w:ind w:left="567"/></w:pPr><w:rPr><w:i/><w:iCs/><w:color w:val="404040"/></w:rPr></w:style>`)
	fmt.Fprintf(&b, `<w:style w:type="paragraph" w:styleId="CodeBlock"><w:name w:val="Code Block"/><w:basedOn w:val="Normal"/><w:pPr><w:shd w:val="clear" w:color="auto" w:fill="F2F2F2"/><w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:ind w:left="227"/></w:pPr><w:rPr><w:rFonts w:ascii="Consolas" w:hAnsi="Consolas" w:eastAsia="%s" w:cs="Consolas"/><w:sz w:val="%d"/><w:szCs w:val="%d"/></w:rPr></w:style>`, esc(o.EastAsiaFont), sz-2, sz-2)
	fmt.Fprintf(&b, `<w:style w:type="character" w:styleId="CodeChar"><w:name w:val="Code Char"/><w:basedOn w:val="DefaultParagraphFont"/><w:rPr><w:rFonts w:ascii="Consolas" w:hAnsi="Consolas" w:cs="Consolas"/><w:shd w:val="clear" w:color="auto" w:fill="F2F2F2"/></w:rPr></w:style>`)
	b.WriteString(`<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>`)
	b.WriteString(`<w:style w:type="paragraph" w:styleId="TableText"><w:name w:val="Table Text"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="40" w:after="40" w:line="240" w:lineRule="auto"/></w:pPr></w:style>`)
	b.WriteString(`<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:uiPriority w:val="39"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:left w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:right w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="808080"/></w:tblBorders></w:tblPr></w:style>`)
	fmt.Fprintf(&b, `<w:style w:type="paragraph" w:styleId="TOCHeading"><w:name w:val="TOC Heading"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="39"/><w:unhideWhenUsed/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/></w:pPr><w:rPr><w:b/><w:bCs/><w:color w:val="1F3864"/><w:sz w:val="%d"/><w:szCs w:val="%d"/></w:rPr></w:style>`, sz+10, sz+10)
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, `<w:style w:type="paragraph" w:styleId="TOC%d"><w:name w:val="toc %d"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="39"/><w:unhideWhenUsed/><w:pPr><w:spacing w:after="60"/><w:ind w:left="%d"/></w:pPr></w:style>`, i, i, (i-1)*220)
	}
	b.WriteString(`<w:style w:type="paragraph" w:styleId="Caption"><w:name w:val="caption"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:jc w:val="center"/></w:pPr><w:rPr><w:i/><w:iCs/><w:color w:val="595959"/><w:sz w:val="18"/></w:rPr></w:style>`)
	b.WriteString(`<w:style w:type="paragraph" w:styleId="Header"><w:name w:val="header"/><w:basedOn w:val="Normal"/><w:pPr><w:jc w:val="center"/><w:spacing w:after="0"/></w:pPr><w:rPr><w:color w:val="595959"/><w:sz w:val="18"/></w:rPr></w:style>`)
	b.WriteString(`<w:style w:type="paragraph" w:styleId="Footer"><w:name w:val="footer"/><w:basedOn w:val="Normal"/><w:pPr><w:jc w:val="center"/><w:spacing w:after="0"/></w:pPr><w:rPr><w:color w:val="595959"/><w:sz w:val="18"/></w:rPr></w:style>`)
	b.WriteString(`</w:styles>`)
	return b.String()
}

// numbering.xml: abstract 0 is bullets, 1 is decimal/letter/roman; every
// list gets its own w:num so numbered lists restart.
func (w *writer) numbering() string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<w:numbering xmlns:w="` + nsW + `">`)
	bullets := []string{"•", "◦", "▪"}
	b.WriteString(`<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/>`)
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&b, `<w:lvl w:ilvl="%d"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="%s"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="%d" w:hanging="360"/></w:pPr></w:lvl>`, i, bullets[i%3], 720*(i+1))
	}
	b.WriteString(`</w:abstractNum>`)
	fmts := []string{"decimal", "lowerLetter", "lowerRoman"}
	b.WriteString(`<w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="hybridMultilevel"/>`)
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&b, `<w:lvl w:ilvl="%d"><w:start w:val="1"/><w:numFmt w:val="%s"/><w:lvlText w:val="%%%d."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="%d" w:hanging="360"/></w:pPr></w:lvl>`, i, fmts[i%3], i+1, 720*(i+1))
	}
	b.WriteString(`</w:abstractNum>`)
	for i, n := range w.nums {
		fmt.Fprintf(&b, `<w:num w:numId="%d"><w:abstractNumId w:val="%d"/>`, i+1, n.abstract)
		if n.abstract == 1 {
			fmt.Fprintf(&b, `<w:lvlOverride w:ilvl="0"><w:startOverride w:val="%d"/></w:lvlOverride>`, n.start)
		}
		b.WriteString(`</w:num>`)
	}
	b.WriteString(`</w:numbering>`)
	return b.String()
}

func settings(o Options) string {
	lang := "en-US"
	if o.chinese() {
		lang = "zh-CN"
	}
	// updateFields asks Word to refresh the TOC and page fields on open.
	return xmlHeader + `<w:settings xmlns:w="` + nsW + `"><w:zoom w:percent="100"/><w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="compressPunctuation"/><w:updateFields w:val="true"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat><w:themeFontLang w:val="` + lang + `" w:eastAsia="zh-CN"/></w:settings>`
}

// fontTable names the fonts with alternates, so a reader without Microsoft
// YaHei can pick SimSun or another GB2312 font.
func fontTable(o Options) string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<w:fonts xmlns:w="` + nsW + `">`)
	fmt.Fprintf(&b, `<w:font w:name="%s"><w:charset w:val="00"/><w:family w:val="swiss"/><w:pitch w:val="variable"/></w:font>`, esc(o.Font))
	alt := "微软雅黑"
	if o.EastAsiaFont != "Microsoft YaHei" {
		alt = "SimSun"
	}
	fmt.Fprintf(&b, `<w:font w:name="%s"><w:altName w:val="%s"/><w:charset w:val="86"/><w:family w:val="swiss"/><w:pitch w:val="variable"/></w:font>`, esc(o.EastAsiaFont), alt)
	b.WriteString(`<w:font w:name="SimSun"><w:altName w:val="宋体"/><w:charset w:val="86"/><w:family w:val="auto"/><w:pitch w:val="variable"/></w:font>`)
	b.WriteString(`<w:font w:name="Consolas"><w:charset w:val="00"/><w:family w:val="modern"/><w:pitch w:val="fixed"/></w:font>`)
	b.WriteString(`</w:fonts>`)
	return b.String()
}

func headerXML(o Options) string {
	return xmlHeader + `<w:hdr xmlns:w="` + nsW + `" xmlns:r="` + nsR + `"><w:p><w:pPr><w:pStyle w:val="Header"/></w:pPr><w:r><w:t xml:space="preserve">` + esc(o.Header) + `</w:t></w:r></w:p></w:hdr>`
}

func footerXML(o Options) string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<w:ftr xmlns:w="` + nsW + `" xmlns:r="` + nsR + `"><w:p><w:pPr><w:pStyle w:val="Footer"/></w:pPr>`)
	text := func(s string) {
		b.WriteString(`<w:r><w:t xml:space="preserve">` + esc(s) + `</w:t></w:r>`)
	}
	field := func(instr string) {
		b.WriteString(`<w:fldSimple w:instr=" ` + instr + ` "><w:r><w:t>1</w:t></w:r></w:fldSimple>`)
	}
	if o.Footer != "" {
		text(o.Footer)
		if o.PageNumbers {
			text("    ")
		}
	}
	if o.PageNumbers {
		if o.chinese() {
			text("第 ")
			field("PAGE")
			text(" 页 / 共 ")
			field("NUMPAGES")
			text(" 页")
		} else {
			text("Page ")
			field("PAGE")
			text(" of ")
			field("NUMPAGES")
		}
	}
	b.WriteString(`</w:p></w:ftr>`)
	return b.String()
}
