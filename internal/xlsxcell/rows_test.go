package xlsxcell

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// book zips the given parts into an .xlsx.
func book(t *testing.T, parts map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range parts {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

// variants are spellings other writers use: a custom format that redefines
// built-in id 14 as a number, elapsed time, missing row and cell
// references, a gap of blank rows, inline and rich strings with phonetic
// guides, _xHHHH_ escapes, ISO date cells, booleans, errors, a prefixed
// namespace and an absolute relationship target.
func variants(t *testing.T, date1904 string) *Workbook {
	data := book(t, map[string]string{
		"_rels/.rels":     `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml": `<workbook ` + ns + `><workbookPr date1904="` + date1904 + `"/><sheets><sheet name="Chart" sheetId="2" r:id="rId3"/><sheet name="Hidden" sheetId="3" state="hidden" r:id="rId4"/><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
			<Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet" Target="/xl/worksheets/data.xml"/>
			<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/>
			<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/hidden.xml"/>
			<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
			<Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
		"xl/styles.xml": `<styleSheet ` + ns + `><numFmts><numFmt numFmtId="14" formatCode="0.00"/><numFmt numFmtId="165" formatCode="[h]:mm:ss"/><numFmt numFmtId="166" formatCode="yyyy-mm-dd"/></numFmts>
			<cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="165"/><xf numFmtId="166"/><xf numFmtId="22"/></cellXfs></styleSheet>`,
		"xl/sharedStrings.xml":      `<sst ` + ns + `><si><t>plain</t></si><si><r><t>ri</t></r><r><t>ch</t></r><rPh><t>ルビ</t></rPh></si><si><t>a_x000D_b</t></si></sst>`,
		"xl/chartsheets/sheet1.xml": `<chartsheet ` + ns + `/>`,
		"xl/worksheets/hidden.xml":  `<worksheet ` + ns + `><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>`,
		"xl/worksheets/data.xml": `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:dimension ref="A1:F5"/><x:sheetData>
			<x:row r="1"><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c r="D1" t="s"><x:v>2</x:v></x:c></x:row>
			<x:row r="4"><x:c r="A4" s="1"><x:v>3.14</x:v></x:c><x:c r="B4" s="2"><x:v>1.5</x:v></x:c><x:c r="C4" s="3"><x:v>40543</x:v></x:c><x:c r="D4" s="4"><x:v>40543.75</x:v></x:c><x:c r="E4" t="b"><x:v>1</x:v></x:c><x:c r="F4" t="e"><x:v>#N/A</x:v></x:c></x:row>
			<x:row><x:c r="A5" t="inlineStr"><x:is><x:r><x:t>in</x:t></x:r><x:r><x:t>line</x:t></x:r><x:rPh><x:t>ignored</x:t></x:rPh></x:is></x:c><x:c r="B5" t="d"><x:v>2024-02-29T13:30:00Z</x:v></x:c><x:c r="C5" t="str"><x:v>formula text</x:v></x:c><x:c r="D5" s="3"><x:v>not a number</x:v></x:c><x:c r="E5" s="3"/></x:row>
			</x:sheetData><x:mergeCells><x:mergeCell ref="A1:B1"/></x:mergeCells></x:worksheet>`,
	})
	wb, err := OpenBytes(data, "variants.xlsx", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return wb
}

func TestRows_WriterVariants(t *testing.T) {
	wb := variants(t, "0")
	if ws := wb.Worksheets(); len(ws) != 2 || ws[0].Name != "Hidden" || ws[1].Name != "Data" {
		t.Fatalf("worksheets = %+v", ws)
	}
	sh := wb.Default() // not the chart sheet, not the hidden sheet
	if sh.Name != "Data" {
		t.Fatalf("default = %q, want Data", sh.Name)
	}
	rows, err := wb.Rows(sh)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var cells []string
		for _, c := range rows.Cells() {
			cells = append(cells, c.String())
		}
		got = append(got, strings.Join(cells, "|"))
	}
	want := []string{
		"plain|rich||a\rb",
		"", "",
		"3.14|36:00:00|2010-12-31|2010-12-31 18:00:00|true|#N/A",
		"inline|2024-02-29 13:30:00|formula text|not a number",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%q\nwant:\n%q", got, want)
	}
	if m, _ := wb.MergedRanges(sh); len(m) != 1 || m[0] != (Range{R1: 1, C1: 1, R2: 1, C2: 2}) {
		t.Fatalf("merges = %v", m)
	}
	if d := wb.Dimension(sh); d != "A1:F5" {
		t.Fatalf("dimension = %q", d)
	}
	if _, err := wb.Find("chart"); err == nil || !strings.Contains(err.Error(), "chart sheet") {
		t.Fatalf("find chart: %v", err)
	}
	if s, err := wb.Find("1"); err != nil || s.Name != "Hidden" {
		t.Fatalf("find 1 = %v, %v", s.Name, err)
	}
}

func TestRows_Date1904(t *testing.T) {
	wb := variants(t, "true")
	rows, _ := wb.Rows(wb.Default())
	defer rows.Close()
	for rows.Next() {
		if rows.Num() == 4 {
			if c := rows.Cells()[2]; c.String() != "2015-01-01" {
				t.Fatalf("1904 serial 40543 = %s", c.String())
			}
		}
	}
}

func TestOpen_NotAWorkbook(t *testing.T) {
	for name, data := range map[string][]byte{
		"legacy.xls":  append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 504)...),
		"renamed.csv": []byte("a,b\n1,2\n"),
	} {
		_, err := OpenBytes(data, name, Limits{})
		if err == nil {
			t.Fatalf("%s opened", name)
		}
		if name == "legacy.xls" && !strings.Contains(err.Error(), "Excel 97-2003") {
			t.Fatalf("%s: %v", name, err)
		}
	}
}
