package pdf

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// The AcroForm field tree read with pdfcpu's model types (ISO 32000-1
// 12.7). pdfcpu's form package types a push button as a text field, joins
// list-box selections with commas and refuses choice fields whose /Opt
// holds hex strings (LibreOffice writes them), so listing reads the tree
// here; filling still goes through pdfcpu, which draws the appearances.

// Field flags (/Ff bit positions, counted from 1 as in the spec).
const (
	ffReadOnly    = 1 << 0
	ffMultiline   = 1 << 12 // text
	ffPassword    = 1 << 13 // text
	ffRadio       = 1 << 15 // button
	ffPushButton  = 1 << 16 // button
	ffCombo       = 1 << 17 // choice
	ffEdit        = 1 << 18 // choice (combo box)
	ffFileSelect  = 1 << 20 // text
	ffMultiSelect = 1 << 21 // choice
)

// formField is one terminal field: what list_form_fields reports and what
// fill_form checks names and values against.
type formField struct {
	ID       string // object number of the field dictionary
	Name     string // fully qualified: the partial names joined by dots
	Label    string // /TU
	Type     string // text, date, checkbox, radio, pushbutton, combobox, listbox, signature
	Flags    int
	MaxLen   int      // text: /MaxLen, 0 for none
	Value    any      // string (text, date, radio, combobox), []string (listbox), bool (checkbox), nil
	Default  any      // the same shape, from /DV
	Options  []string // choice: the values /V takes; radio and checkbox: the "on" states
	Labels   []string // choice: the shown text of each option, when one differs from its value
	Pages    []int
	readOnly bool
	dict     types.Dict     // the field dictionary, to fill it (setfields.go)
	widgets  []types.Object // its widget annotations
}

// formFields reads the terminal fields of the document's AcroForm, in tree
// order. No AcroForm gives none and no error.
func formFields(ctx *model.Context) ([]*formField, error) {
	root, err := ctx.Catalog()
	if err != nil {
		return nil, err
	}
	o, ok := root.Find("AcroForm")
	if !ok {
		return nil, nil
	}
	af, err := ctx.DereferenceDict(o)
	if err != nil || af == nil {
		return nil, err
	}
	kids, err := ctx.DereferenceArray(af["Fields"])
	if err != nil {
		return nil, fmt.Errorf("AcroForm /Fields: %w", err)
	}
	r := &treeReader{ctx: ctx, pages: widgetPages(ctx), seen: map[int]bool{}}
	for _, k := range kids {
		if err := r.walk(k, inherited{}, "", 0); err != nil {
			return nil, err
		}
	}
	return r.out, nil
}

// inherited holds the inheritable entries of a field's ancestors.
type inherited struct {
	ft          string
	ff          int
	v, dv, opt  types.Object
	hasV, hasDV bool
	jsDate      bool
	maxLen      int
}

type treeReader struct {
	ctx   *model.Context
	pages map[int][]int // widget object number -> pages showing it
	seen  map[int]bool  // field objects visited (the tree may loop)
	out   []*formField
}

const maxFieldDepth = 32

func (r *treeReader) walk(o types.Object, in inherited, prefix string, depth int) error {
	if depth > maxFieldDepth {
		return fmt.Errorf("form field tree deeper than %d levels", maxFieldDepth)
	}
	objNr := 0
	if ref, ok := o.(types.IndirectRef); ok {
		objNr = ref.ObjectNumber.Value()
		if r.seen[objNr] {
			return nil
		}
		r.seen[objNr] = true
	}
	d, err := r.ctx.DereferenceDict(o)
	if err != nil || d == nil {
		return nil // a dangling or non-dictionary kid is skipped, as viewers do
	}
	name := prefix
	if t, ok := d.Find("T"); ok {
		part := r.text(t)
		if name != "" {
			name += "."
		}
		name += part
	}
	if ft := d.NameEntry("FT"); ft != nil {
		in.ft = *ft
	}
	if ff, ok := d.Find("Ff"); ok {
		if n, err := r.ctx.DereferenceInteger(ff); err == nil && n != nil {
			in.ff = n.Value()
		}
	}
	if v, ok := d.Find("V"); ok {
		in.v, in.hasV = v, true
	}
	if v, ok := d.Find("DV"); ok {
		in.dv, in.hasDV = v, true
	}
	if v, ok := d.Find("Opt"); ok {
		in.opt = v
	}
	if ml, ok := d.Find("MaxLen"); ok {
		if n, err := r.ctx.DereferenceInteger(ml); err == nil && n != nil {
			in.maxLen = n.Value()
		}
	}
	if isDateField(r.ctx, d) {
		in.jsDate = true
	}
	var fieldKids, widgets []types.Object
	if kids, err := r.ctx.DereferenceArray(d["Kids"]); err == nil {
		for _, k := range kids {
			kd, err := r.ctx.DereferenceDict(k)
			if err != nil || kd == nil {
				continue
			}
			if _, isField := kd.Find("T"); isField {
				fieldKids = append(fieldKids, k)
			} else {
				widgets = append(widgets, k)
			}
		}
	}
	if len(fieldKids) > 0 {
		for _, k := range fieldKids {
			if err := r.walk(k, in, name, depth+1); err != nil {
				return err
			}
		}
		if len(widgets) == 0 {
			return nil
		}
	}
	if len(widgets) == 0 {
		widgets = []types.Object{o} // the field is its own widget
	}
	if in.ft == "" {
		return nil // not a field (no type anywhere up the tree)
	}
	r.out = append(r.out, r.field(objNr, name, d, in, widgets))
	return nil
}

func (r *treeReader) field(objNr int, name string, d types.Dict, in inherited, widgets []types.Object) *formField {
	f := &formField{ID: strconv.Itoa(objNr), Name: name, Flags: in.ff, MaxLen: in.maxLen, readOnly: in.ff&ffReadOnly != 0, dict: d, widgets: widgets}
	if tu, ok := d.Find("TU"); ok {
		f.Label = r.text(tu)
	}
	pageSet := map[int]bool{}
	var states []string
	for _, w := range widgets {
		if ref, ok := w.(types.IndirectRef); ok {
			for _, p := range r.pages[ref.ObjectNumber.Value()] {
				pageSet[p] = true
			}
		}
		states = appendNew(states, r.onStates(w)...)
	}
	for p := range pageSet {
		f.Pages = append(f.Pages, p)
	}
	sort.Ints(f.Pages)
	if f.Pages == nil {
		f.Pages = []int{}
	}
	switch in.ft {
	case "Tx":
		f.Type = "text"
		if in.jsDate {
			f.Type = "date"
		}
		f.Value, f.Default = r.textValue(in.v), r.textValue(in.dv)
	case "Btn":
		switch {
		case in.ff&ffPushButton != 0:
			f.Type = "pushbutton"
		case in.ff&ffRadio != 0:
			f.Type = "radio"
			f.Options = states
			f.Value, f.Default = r.state(in.v), r.state(in.dv)
			if !in.hasV {
				f.Value = r.widgetState(widgets)
			}
		default:
			f.Type = "checkbox"
			f.Options = states
			on := r.state(in.v)
			if !in.hasV {
				on = r.widgetState(widgets)
			}
			f.Value = on != ""
			if in.hasDV {
				f.Default = r.state(in.dv) != ""
			}
		}
	case "Ch":
		f.Options, f.Labels = r.options(in.opt)
		if in.ff&ffCombo != 0 {
			f.Type = "combobox"
			f.Value, f.Default = first(r.choices(in.v)), first(r.choices(in.dv))
		} else {
			f.Type = "listbox"
			sel := r.choices(in.v)
			if !in.hasV {
				sel = r.indexed(d, f.Options)
			}
			f.Value, f.Default = sel, r.choices(in.dv)
		}
	case "Sig":
		f.Type = "signature"
	default:
		f.Type = "unknown"
	}
	if !in.hasDV && f.Type != "checkbox" {
		f.Default = nil
	}
	return f
}

func first(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}

func appendNew(list []string, ss ...string) []string {
	for _, s := range ss {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

// text decodes a text string object; anything else gives "".
func (r *treeReader) text(o types.Object) string {
	o, _ = r.ctx.Dereference(o)
	s, _ := pdfText(o)
	return s
}

// textValue is a text field's value: a text string, or the text of a
// stream (rich text values keep their plain /V alongside, but some
// producers store the value itself as a stream).
func (r *treeReader) textValue(o types.Object) string {
	o, _ = r.ctx.Dereference(o)
	if sd, ok := o.(types.StreamDict); ok {
		if err := sd.Decode(); err == nil {
			s, _ := pdfText(types.StringLiteral(escapeLiteral(sd.Content)))
			return s
		}
		return ""
	}
	s, _ := pdfText(o)
	return s
}

// escapeLiteral makes raw bytes a literal string body that unescapes to
// the same bytes.
func escapeLiteral(b []byte) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`, "\r", `\r`)
	return r.Replace(string(b))
}

// state is a button's value: the appearance state name, "" for Off.
func (r *treeReader) state(o types.Object) string {
	o, _ = r.ctx.Dereference(o)
	var s string
	switch x := o.(type) {
	case types.Name:
		s = x.Value()
	case types.StringLiteral, types.HexLiteral:
		s, _ = pdfText(x)
	}
	if s == "Off" {
		return ""
	}
	return s
}

// widgetState is the "on" state a widget shows (/AS) when the field has
// no /V.
func (r *treeReader) widgetState(widgets []types.Object) string {
	for _, w := range widgets {
		if wd, err := r.ctx.DereferenceDict(w); err == nil && wd != nil {
			if as := wd.NameEntry("AS"); as != nil && *as != "Off" {
				return *as
			}
		}
	}
	return ""
}

// onStates are the appearance states of a widget other than Off: the
// values a check box or radio button takes.
func (r *treeReader) onStates(w types.Object) []string {
	wd, err := r.ctx.DereferenceDict(w)
	if err != nil || wd == nil {
		return nil
	}
	ap, err := r.ctx.DereferenceDict(wd["AP"])
	if err != nil || ap == nil {
		return nil
	}
	var out []string
	for _, key := range []string{"N", "D"} {
		n, err := r.ctx.DereferenceDict(ap[key])
		if err != nil || n == nil {
			continue
		}
		var names []string
		for k := range n {
			if k != "Off" {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		out = appendNew(out, names...)
		if len(out) > 0 {
			break
		}
	}
	return out
}

// choices is a choice field's value: one text string or an array of them.
func (r *treeReader) choices(o types.Object) []string {
	o, _ = r.ctx.Dereference(o)
	out := []string{}
	switch x := o.(type) {
	case types.Array:
		for _, e := range x {
			if s := r.text(e); s != "" {
				out = append(out, s)
			}
		}
	case nil:
	default:
		if s := r.text(x); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// indexed reads a list box's selection from /I (option indices) when it has
// no /V.
func (r *treeReader) indexed(d types.Dict, options []string) []string {
	out := []string{}
	a, err := r.ctx.DereferenceArray(d["I"])
	if err != nil {
		return out
	}
	for _, e := range a {
		if n, err := r.ctx.DereferenceInteger(e); err == nil && n != nil && n.Value() >= 0 && n.Value() < len(options) {
			out = append(out, options[n.Value()])
		}
	}
	return out
}

// options reads /Opt: each element a text string, or a pair [value, shown
// text]. Labels is nil unless some shown text differs from its value.
func (r *treeReader) options(o types.Object) (values, labels []string) {
	a, err := r.ctx.DereferenceArray(o)
	if err != nil {
		return nil, nil
	}
	differ := false
	for _, e := range a {
		e, _ = r.ctx.Dereference(e)
		if pair, ok := e.(types.Array); ok && len(pair) == 2 {
			v, l := r.text(pair[0]), r.text(pair[1])
			values, labels = append(values, v), append(labels, l)
			differ = differ || v != l
			continue
		}
		s := r.text(e)
		values, labels = append(values, s), append(labels, s)
	}
	if !differ {
		labels = nil
	}
	return values, labels
}

// isDateField reports a text field whose format action is a date format
// (pdfcpu fills those as date fields).
func isDateField(ctx *model.Context, d types.Dict) bool {
	aa, err := ctx.DereferenceDict(d["AA"])
	if err != nil || aa == nil {
		return false
	}
	f, err := ctx.DereferenceDict(aa["F"])
	if err != nil || f == nil {
		return false
	}
	js, _ := ctx.Dereference(f["JS"])
	s, _ := pdfText(js)
	return strings.Contains(s, "AFDate_")
}

// widgetPages maps each annotation object number to the pages listing it.
func widgetPages(ctx *model.Context) map[int][]int {
	out := map[int][]int{}
	if ctx.EnsurePageCount() != nil {
		return out
	}
	for i := 1; i <= ctx.PageCount; i++ {
		pd, _, _, err := ctx.PageDict(i, false)
		if err != nil || pd == nil {
			continue
		}
		annots, err := ctx.DereferenceArray(pd["Annots"])
		if err != nil {
			continue
		}
		for _, a := range annots {
			if ref, ok := a.(types.IndirectRef); ok {
				out[ref.ObjectNumber.Value()] = append(out[ref.ObjectNumber.Value()], i)
			}
		}
	}
	return out
}

// pdfText decodes a PDF text string (ISO 32000-1 7.9.2.2): escapes of a
// literal string resolved, then UTF-16BE (with its byte order mark),
// UTF-8 (with a BOM, or valid multi-byte UTF-8 as some producers write
// without one) or PDFDocEncoding. Line breaks come back as "\n".
func pdfText(o types.Object) (string, bool) {
	var b []byte
	switch x := o.(type) {
	case types.StringLiteral:
		u, err := types.Unescape(x.Value())
		if err != nil {
			return "", false
		}
		b = u
	case types.HexLiteral:
		h, err := x.Bytes()
		if err != nil {
			return "", false
		}
		b = h
	case types.Name:
		b = []byte(x.Value())
	default:
		return "", false
	}
	var s string
	switch {
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		s = decodeUTF16(b[2:], true)
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		s = decodeUTF16(b[2:], false) // not in the spec, but written by some tools
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		s = string(b[3:])
	case utf8.Valid(b) && hasMultiByte(b):
		s = string(b)
	default:
		s = pdfDocDecode(b)
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return s, true
}

func hasMultiByte(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

func decodeUTF16(b []byte, bigEndian bool) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		if bigEndian {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		} else {
			u = append(u, uint16(b[i+1])<<8|uint16(b[i]))
		}
	}
	return string(utf16.Decode(u))
}

// pdfDocHigh maps the PDFDocEncoding bytes that differ from Latin-1
// (ISO 32000-1 table D.2); 0x7F, 0x9F and 0xAD are undefined.
var pdfDocHigh = map[byte]rune{
	0x18: '˘', 0x19: 'ˇ', 0x1A: 'ˆ', 0x1B: '˙', 0x1C: '˝', 0x1D: '˛', 0x1E: '˚', 0x1F: '˜',
	0x80: '•', 0x81: '†', 0x82: '‡', 0x83: '…', 0x84: '—', 0x85: '–', 0x86: 'ƒ', 0x87: '⁄',
	0x88: '‹', 0x89: '›', 0x8A: '−', 0x8B: '‰', 0x8C: '„', 0x8D: '“', 0x8E: '”', 0x8F: '‘',
	0x90: '’', 0x91: '‚', 0x92: '™', 0x93: 'ﬁ', 0x94: 'ﬂ', 0x95: 'Ł', 0x96: 'Œ', 0x97: 'Š',
	0x98: 'Ÿ', 0x99: 'Ž', 0x9A: 'ı', 0x9B: 'ł', 0x9C: 'œ', 0x9D: 'š', 0x9E: 'ž', 0xA0: '€',
}

func pdfDocDecode(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if r, ok := pdfDocHigh[c]; ok {
			sb.WriteRune(r)
			continue
		}
		if c == 0x7F || c == 0x9F || c == 0xAD || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			if c == 0 {
				continue
			}
			sb.WriteRune(utf8.RuneError)
			continue
		}
		sb.WriteRune(rune(c))
	}
	return sb.String()
}
