package xlsxcell

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Limits bound what opening a workbook may inflate.
type Limits struct {
	MaxUnzipBytes int64  // total uncompressed size of all parts
	Setting       string // the setting that raises MaxUnzipBytes, for the hint
}

// Sheet kinds, from the workbook's relationship to the sheet part.
const (
	KindWorksheet  = "worksheet"
	KindChartsheet = "chartsheet"
	KindDialog     = "dialogsheet"
	KindMacro      = "macrosheet"
)

// Sheet is one sheet of the workbook.
type Sheet struct {
	Name    string
	Kind    string // worksheet, chartsheet, dialogsheet, macrosheet
	Visible bool
	part    string
}

// Workbook is an open .xlsx file.
type Workbook struct {
	Name     string  // file name, for messages
	Sheets   []Sheet // every sheet, in tab order
	Date1904 bool    // serials count days from 1904-01-01, not 1900-01-00

	zr     *zip.Reader
	closer io.Closer
	files  map[string]*zip.File // part name, lower case -> file
	sst    []string
	styles []fmtKind // cellXfs index -> what its number format shows
}

// cfbMagic starts an OLE compound file: a legacy .xls, or an encrypted
// Office file (which wraps the encrypted zip in one).
var cfbMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// Open opens a workbook file; name is used in messages.
func Open(p string, l Limits) (*Workbook, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	w, err := open(f, st.Size(), path.Base(p), l)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.closer = f
	return w, nil
}

// OpenBytes opens a workbook held in memory.
func OpenBytes(data []byte, name string, l Limits) (*Workbook, error) {
	return open(bytes.NewReader(data), int64(len(data)), name, l)
}

// Close releases the file.
func (w *Workbook) Close() error {
	if w.closer != nil {
		return w.closer.Close()
	}
	return nil
}

func open(ra io.ReaderAt, size int64, name string, l Limits) (*Workbook, error) {
	head := make([]byte, 8)
	if n, _ := ra.ReadAt(head, 0); n == 8 && bytes.Equal(head, cfbMagic) {
		if cfbHasStream(io.NewSectionReader(ra, 0, size), "EncryptionInfo") {
			return nil, toolerr.Invalidf("path", "open it in Excel or LibreOffice, remove the password (or save an unprotected copy) and try again",
				"%s is password-protected (an encrypted workbook); its cells cannot be read without the password", name)
		}
		return nil, toolerr.Invalidf("path", "save it as .xlsx in Excel or LibreOffice and try again",
			"%s is a legacy Excel 97-2003 (.xls) workbook, not an .xlsx", name)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return nil, toolerr.Invalidf("path", "the file may be damaged, or not really an .xlsx (a .csv renamed?)", "%s is not a valid xlsx workbook: %v", name, err)
	}
	if err := checkZip(zr, l); err != nil {
		return nil, err
	}
	w := &Workbook{Name: name, zr: zr, files: map[string]*zip.File{}}
	for _, f := range zr.File {
		w.files[strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(f.Name, `\`, "/"), "/"))] = f
	}
	if err := w.readWorkbook(); err != nil {
		return nil, err
	}
	return w, nil
}

// checkZip refuses workbooks whose uncompressed size or compression ratio
// betrays a zip bomb, before anything is inflated.
func checkZip(zr *zip.Reader, l Limits) error {
	if len(zr.File) > 10000 {
		return toolerr.Errorf(toolerr.CodeTooLarge, "", "the workbook has %d parts, too many for a spreadsheet", len(zr.File))
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if f.CompressedSize64 > 0 && f.UncompressedSize64 > 64<<20 && f.UncompressedSize64/f.CompressedSize64 > 200 {
			return toolerr.Errorf(toolerr.CodeTooLarge, "the file looks like a zip bomb; it was not opened", "workbook part %s expands %d times (%d MB)", f.Name, f.UncompressedSize64/f.CompressedSize64, f.UncompressedSize64>>20)
		}
	}
	if l.MaxUnzipBytes > 0 && total > uint64(l.MaxUnzipBytes) {
		hint := "split the workbook"
		if l.Setting != "" {
			hint += " or raise " + l.Setting
		}
		return toolerr.Errorf(toolerr.CodeTooLarge, hint, "the workbook expands to %d MB, over the %d MB limit", total>>20, l.MaxUnzipBytes>>20)
	}
	return nil
}

// cfbHasStream looks for a stream name in a compound file's directory. The
// names are UTF-16 in 128-byte directory entries; a byte search is enough
// to tell an encrypted package from a legacy workbook.
func cfbHasStream(r io.Reader, name string) bool {
	var want []byte
	for _, c := range name {
		want = append(want, byte(c), 0)
	}
	data, _ := io.ReadAll(io.LimitReader(r, 256<<20))
	return bytes.Contains(data, want)
}

// part opens a part by name, or returns nil when it is absent.
func (w *Workbook) part(name string) *zip.File {
	return w.files[strings.ToLower(strings.TrimPrefix(name, "/"))]
}

func (w *Workbook) decode(name string, v any) error {
	f := w.part(name)
	if f == nil {
		return os.ErrNotExist
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return xml.NewDecoder(rc).Decode(v)
}

type rels struct {
	Rel []struct {
		ID     string `xml:"Id,attr"`
		Type   string `xml:"Type,attr"`
		Target string `xml:"Target,attr"`
	} `xml:"Relationship"`
}

// relsOf reads the relationships of a part, targets resolved to part names.
func (w *Workbook) relsOf(part string) rels {
	var r rels
	dir, base := path.Split(part)
	_ = w.decode(path.Join(dir, "_rels", base+".rels"), &r)
	for i, x := range r.Rel {
		t := strings.ReplaceAll(x.Target, `\`, "/")
		if strings.HasPrefix(t, "/") {
			t = strings.TrimPrefix(t, "/")
		} else {
			t = path.Join(dir, t)
		}
		r.Rel[i].Target = t
	}
	return r
}

func relType(t string) string { return t[strings.LastIndex(t, "/")+1:] }

func (w *Workbook) readWorkbook() error {
	wbPart := "xl/workbook.xml"
	for _, r := range w.relsOf("").Rel {
		if relType(r.Type) == "officeDocument" {
			wbPart = r.Target
		}
	}
	var wb struct {
		Pr struct {
			Date1904 string `xml:"date1904,attr"`
		} `xml:"workbookPr"`
		Sheets []struct {
			Name  string `xml:"name,attr"`
			State string `xml:"state,attr"`
			ID    string `xml:"id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := w.decode(wbPart, &wb); err != nil {
		return toolerr.Invalidf("path", "the file may be damaged; open and re-save it in Excel or LibreOffice", "%s has no readable workbook part (%s): %v", w.Name, wbPart, err)
	}
	w.Date1904 = wb.Pr.Date1904 == "1" || strings.EqualFold(wb.Pr.Date1904, "true")
	rs := w.relsOf(wbPart)
	byID := map[string]int{}
	for i, r := range rs.Rel {
		byID[r.ID] = i
	}
	for _, s := range wb.Sheets {
		sh := Sheet{Name: s.Name, Visible: s.State == "" || s.State == "visible"}
		if i, ok := byID[s.ID]; ok && w.part(rs.Rel[i].Target) != nil {
			sh.part = rs.Rel[i].Target
			switch t := strings.ToLower(relType(rs.Rel[i].Type)); {
			case t == "worksheet":
				sh.Kind = KindWorksheet
			case t == "chartsheet":
				sh.Kind = KindChartsheet
			case t == "dialogsheet":
				sh.Kind = KindDialog
			case strings.HasSuffix(t, "macrosheet"):
				sh.Kind = KindMacro
			}
		}
		w.Sheets = append(w.Sheets, sh)
	}
	for _, r := range rs.Rel {
		switch relType(r.Type) {
		case "sharedStrings":
			w.readSST(r.Target)
		case "styles":
			w.readStyles(r.Target)
		}
	}
	return nil
}

// readStyles maps each cell format (the s attribute of a cell) to what its
// number format shows.
func (w *Workbook) readStyles(part string) {
	var st struct {
		NumFmts []struct {
			ID   int    `xml:"numFmtId,attr"`
			Code string `xml:"formatCode,attr"`
		} `xml:"numFmts>numFmt"`
		Xfs []struct {
			NumFmtID int `xml:"numFmtId,attr"`
		} `xml:"cellXfs>xf"`
	}
	if w.decode(part, &st) != nil {
		return
	}
	custom := map[int]fmtKind{}
	for _, f := range st.NumFmts {
		custom[f.ID] = codeKind(f.Code)
	}
	for _, x := range st.Xfs {
		k, ok := custom[x.NumFmtID]
		if !ok {
			k = builtinKind(x.NumFmtID)
		}
		w.styles = append(w.styles, k)
	}
}

// escRE is OOXML's escape for characters XML cannot hold, _xHHHH_.
var escRE = regexp.MustCompile(`_x[0-9A-Fa-f]{4}_`)

func unescape(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	return escRE.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[2:6], 16, 32)
		return string(rune(n))
	})
}

// richText is a string item: plain <t>, or runs <r><t>; phonetic guides
// (<rPh>) are not part of the value.
type richText struct {
	T string `xml:"t"`
	R []struct {
		T string `xml:"t"`
	} `xml:"r"`
}

func (s richText) text() string {
	if len(s.R) == 0 {
		return unescape(s.T)
	}
	var b strings.Builder
	b.WriteString(s.T)
	for _, r := range s.R {
		b.WriteString(r.T)
	}
	return unescape(b.String())
}

func (w *Workbook) readSST(part string) {
	f := w.part(part)
	if f == nil {
		return
	}
	rc, err := f.Open()
	if err != nil {
		return
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	for {
		tok, err := d.Token()
		if err != nil {
			return
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "si" {
			var si richText
			if d.DecodeElement(&si, &se) != nil {
				return
			}
			w.sst = append(w.sst, si.text())
		}
	}
}

// Worksheets are the sheets that hold cells.
func (w *Workbook) Worksheets() []Sheet {
	var out []Sheet
	for _, s := range w.Sheets {
		if s.Kind == KindWorksheet {
			out = append(out, s)
		}
	}
	return out
}

func (w *Workbook) names() string {
	var n []string
	for _, s := range w.Worksheets() {
		n = append(n, s.Name)
	}
	return "worksheets: " + strings.Join(n, ", ")
}

// Find picks a worksheet by name (case-insensitive) or 1-based number among
// the worksheets; "" picks the default.
func (w *Workbook) Find(name string) (Sheet, error) {
	ws := w.Worksheets()
	if len(ws) == 0 {
		return Sheet{}, toolerr.Invalidf("path", "the file may be damaged; open and re-save it in Excel or LibreOffice", "%s has no worksheets (%d sheets, none holding cells)", w.Name, len(w.Sheets))
	}
	if name == "" {
		return w.Default(), nil
	}
	for _, s := range ws {
		if s.Name == name {
			return s, nil
		}
	}
	for _, s := range ws {
		if strings.EqualFold(s.Name, name) {
			return s, nil
		}
	}
	for _, s := range w.Sheets {
		if strings.EqualFold(s.Name, name) {
			what := "a " + kindWords[s.Kind] + ", which holds no cells"
			if s.Kind == "" {
				what = "missing from the file"
			}
			return Sheet{}, toolerr.Invalidf("sheet", w.names(), "sheet %q of %s is %s", s.Name, w.Name, what)
		}
	}
	if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(ws) {
		return ws[n-1], nil
	}
	return Sheet{}, toolerr.Invalidf("sheet", w.names(), "sheet %q not found in %s", name, w.Name)
}

// Default is the first visible worksheet with data, else the first visible
// worksheet, else the first worksheet. Chart and dialog sheets are never
// the default. Call it only when Worksheets is not empty.
func (w *Workbook) Default() Sheet {
	ws := w.Worksheets()
	var firstVisible *Sheet
	for i, s := range ws {
		if !s.Visible {
			continue
		}
		if firstVisible == nil {
			firstVisible = &ws[i]
		}
		if w.hasData(s) {
			return s
		}
	}
	if firstVisible != nil {
		return *firstVisible
	}
	return ws[0]
}

// hasData reports whether a sheet has at least one non-empty cell.
func (w *Workbook) hasData(s Sheet) bool {
	rows, err := w.Rows(s)
	if err != nil {
		return false
	}
	defer rows.Close()
	for rows.Next() {
		for _, c := range rows.Cells() {
			if c.Kind != Empty {
				return true
			}
		}
	}
	return false
}

var kindWords = map[string]string{KindChartsheet: "chart sheet", KindDialog: "dialog sheet", KindMacro: "macro sheet"}
