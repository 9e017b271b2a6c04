package pdf

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// listed runs list_form_fields and returns the fields by name.
func (e *env) listed(path string) map[string]map[string]any {
	e.t.Helper()
	res := e.run(map[string]any{"action": "list_form_fields", "path": path})
	out := map[string]map[string]any{}
	for _, f := range res.Data.(map[string]any)["fields"].([]map[string]any) {
		out[f["name"].(string)] = f
	}
	return out
}

// qpdfField is one field as qpdf --json reports it: the second program the
// form tests check against (scripts/install-deps.sh installs it).
type qpdfField struct {
	FullName   string   `json:"fullname"`
	FieldType  string   `json:"fieldtype"`
	FieldFlags int      `json:"fieldflags"`
	Value      any      `json:"value"`
	Choices    []string `json:"choices"`
	IsCheckbox bool     `json:"ischeckbox"`
	IsRadio    bool     `json:"isradiobutton"`
	IsChoice   bool     `json:"ischoice"`
	IsText     bool     `json:"istext"`
}

func qpdfFields(t testing.TB, path string) map[string]qpdfField {
	t.Helper()
	if _, err := exec.LookPath("qpdf"); err != nil {
		return nil
	}
	out, err := exec.Command("qpdf", "--json", "--json-key=acroform", path).Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 3) { // 3: warnings (a repaired file)
		t.Logf("qpdf --json %s: %v", path, err)
		return nil
	}
	var doc struct {
		AcroForm struct {
			Fields []qpdfField `json:"fields"`
		} `json:"acroform"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Logf("qpdf --json %s: %v", path, err)
		return nil
	}
	m := map[string]qpdfField{}
	for _, f := range doc.AcroForm.Fields {
		m[f.FullName] = f
	}
	return m
}

// qpdfWidgetFlags reports qpdf's one known misreading: it takes a radio
// button's flags from its widget, to which pdfcpu writes /Ff 0 (or 1 when
// locked); the field's own /Ff says radio.
func qpdfWidgetFlags(typ any, qf qpdfField) bool {
	return typ == "radio" && qf.typ() == "checkbox" && qf.FieldFlags&ffRadio == 0
}

// qpdfType is the field type implied by qpdf's flags, in our names.
func (q qpdfField) typ() string {
	switch {
	case q.IsCheckbox:
		return "checkbox"
	case q.IsRadio:
		return "radio"
	case q.FieldType == "/Btn":
		return "pushbutton"
	case q.IsChoice && q.FieldFlags&ffCombo != 0:
		return "combobox"
	case q.IsChoice:
		return "listbox"
	case q.FieldType == "/Sig":
		return "signature"
	}
	return "text"
}

// text is qpdf's value as plain text (its "u:" prefix off, names without
// the slash, arrays as they are).
func (q qpdfField) text() any {
	switch v := q.Value.(type) {
	case string:
		return strings.TrimPrefix(strings.TrimPrefix(v, "u:"), "/")
	case []any:
		out := []string{}
		for _, e := range v {
			out = append(out, strings.TrimPrefix(e.(string), "u:"))
		}
		return out
	case nil:
		return "" // no /V
	}
	return q.Value
}

// agreeWithQpdf checks every listed field's type (and, for text and choice
// fields, value) against qpdf's reading of the same file.
func agreeWithQpdf(t *testing.T, e *env, path string, fields map[string]map[string]any) {
	t.Helper()
	tooltest.NeedProgram(t, "qpdf")
	q := qpdfFields(t, e.abs(path))
	if q == nil {
		t.Fatalf("%s: qpdf --json could not read the fields", path)
	}
	if len(q) != len(fields) {
		t.Fatalf("%s: %d fields, qpdf lists %d", path, len(fields), len(q))
	}
	for name, f := range fields {
		qf, ok := q[name]
		if !ok {
			t.Fatalf("%s: field %q not in qpdf's list %v", path, name, q)
		}
		typ := f["type"]
		if typ == "date" {
			typ = "text"
		}
		if typ != qf.typ() && !qpdfWidgetFlags(typ, qf) {
			t.Fatalf("%s: field %q is %v, qpdf says %s (Ff %d)", path, name, f["type"], qf.typ(), qf.FieldFlags)
		}
		switch typ {
		case "text", "combobox":
			if f["value"] != qf.text() {
				t.Fatalf("%s: field %q value %q, qpdf reads %q", path, name, f["value"], qf.text())
			}
		case "listbox":
			want := qf.text()
			if s, ok := want.(string); ok {
				want = []string{s}
				if s == "" {
					want = []string{}
				}
			}
			if toJSON(f["value"]) != toJSON(want) {
				t.Fatalf("%s: list box %q value %v, qpdf reads %v", path, name, f["value"], want)
			}
		}
	}
}

// TestFormFields_TypesFromFlags: pdflatex's (hyperref) form has a submit
// push button, a check box and a text field, all with /FT /Btn or /Tx and
// told apart by /Ff: the push button is never a text field.
func TestFormFields_TypesFromFlags(t *testing.T) {
	e := newEnv(t)
	path := e.put("pdflatex-forms.pdf", fixture(t, "pdflatex-forms.pdf"))
	got := e.listed(path)
	for name, typ := range map[string]string{"Name": "text", "Check": "checkbox", "Submit": "pushbutton"} {
		if got[name]["type"] != typ {
			t.Fatalf("field %s: type %v, want %s (%v)", name, got[name]["type"], typ, got)
		}
	}
	if _, has := got["Submit"]["value"]; has {
		t.Fatalf("a push button has no value: %v", got["Submit"])
	}
	if got["Check"]["value"] != false {
		t.Fatalf("check box value %v, want false", got["Check"]["value"])
	}
	agreeWithQpdf(t, e, path, got)
	te := e.fail(map[string]any{"action": "fill_form", "path": path, "fields": map[string]any{"Submit": "x"}}, tool.CodeInvalid)
	if !strings.Contains(te.Message, "push button") {
		t.Fatalf("filling a push button: %v", te)
	}
}

// TestFormFields_ValuesDecoded: pdfcpu's sample form has a multi-line text
// value (UTF-16BE with an escaped line break), a multi-select list box
// with two selections and a default with "São Paulo", a combo box, a
// radio group and check boxes: each comes back in the shape fill_form
// takes, with real line breaks.
func TestFormFields_ValuesDecoded(t *testing.T) {
	e := newEnv(t)
	path := e.put("english.pdf", fixture(t, "english-unlocked.pdf"))
	got := e.listed(path)
	note := got["note1"]
	if note["value"] != "This is a sample text.\nThis is the next line." || note["multiline"] != true {
		t.Fatalf("multi-line value: %q (%v)", note["value"], note)
	}
	city := got["city11"]
	if toJSON(city["value"]) != `["San Francisco","Vienna"]` || toJSON(city["default"]) != `["Vienna","São Paulo"]` || city["multi_select"] != true {
		t.Fatalf("list box: %v", city)
	}
	if got["city12"]["value"] != "Sidney" || got["city12"]["type"] != "combobox" {
		t.Fatalf("combo box: %v", got["city12"])
	}
	if got["gender1"]["value"] != "non-binary" || toJSON(got["gender1"]["options"]) != `["female","male","non-binary"]` {
		t.Fatalf("radio: %v", got["gender1"])
	}
	if got["cb11"]["value"] != true || got["cb12"]["value"] != false || got["dob1"]["type"] != "date" {
		t.Fatalf("check boxes, date: %v %v %v", got["cb11"], got["cb12"], got["dob1"])
	}
	agreeWithQpdf(t, e, path, got)

	// Same shape both ways: what list_form_fields shows, fill_form takes.
	fill := map[string]any{"city11": []any{"São Paulo"}, "city12": "London", "note1": "first\nsecond", "cb12": true, "gender1": "female"}
	res := e.run(map[string]any{"action": "fill_form", "path": path, "fields": fill, "output": "filled.pdf"})
	if res.Data.(map[string]any)["appearances"] != "drawn" {
		t.Fatalf("pdfcpu draws this form: %v", res.Data)
	}
	after := e.listed("filled.pdf")
	if toJSON(after["city11"]["value"]) != `["São Paulo"]` || after["city12"]["value"] != "London" || after["note1"]["value"] != "first\nsecond" ||
		after["cb12"]["value"] != true || after["gender1"]["value"] != "female" || after["firstName1"]["value"] != "Jackie" {
		t.Fatalf("filled values: %v", after)
	}
	agreeWithQpdf(t, e, "filled.pdf", after)
	e.fail(map[string]any{"action": "fill_form", "path": path, "fields": map[string]any{"city12": []any{"London", "Sidney"}}}, tool.CodeInvalid)
	e.fail(map[string]any{"action": "fill_form", "path": path, "fields": map[string]any{"city11": []any{"Mars"}}}, tool.CodeInvalid)
}

// TestFormFields_LibreOffice: LibreOffice writes choice options as hex
// strings, which pdfcpu's form package refuses ("corrupt choice field"),
// and embeds subset fonts pdfcpu cannot draw with. Both forms list, and
// fill_form writes the values (the viewer draws them) and says so.
func TestFormFields_LibreOffice(t *testing.T) {
	e := newEnv(t)
	oo := e.put("oo.pdf", fixture(t, "FormTestFromOo.pdf"))
	got := e.listed(oo)
	if toJSON(got["Combo1"]["options"]) != `["combo Line 1","combo Line 2","combo Line 3"]` || got["Combo1"]["editable"] != true || got["Combo1"]["label"] != "help for Combo" {
		t.Fatalf("combo box: %v", got["Combo1"])
	}
	if got["Liste2"]["multi_select"] != true || got["Liste1"]["multi_select"] != false || got["Text2"]["multiline"] != true || got["RadioGroup1"]["type"] != "radio" {
		t.Fatalf("fields: %v", got)
	}
	agreeWithQpdf(t, e, oo, got)
	res := e.run(map[string]any{"action": "fill_form", "path": oo, "output": "oo-filled.pdf",
		"fields": map[string]any{"Text2": "one\ntwo", "Liste2": []any{"Lst2", "Lst4"}, "Combo1": "anything typed", "CheckBox1": true, "RadioGroup1": "2", "DropList1": "DropList3"}})
	if !strings.Contains(toString(res.Data.(map[string]any)["appearances"]), "viewer") {
		t.Fatalf("fill should say the viewer draws the values: %v", res.Data)
	}
	after := e.listed("oo-filled.pdf")
	if after["Text2"]["value"] != "one\ntwo" || toJSON(after["Liste2"]["value"]) != `["Lst2","Lst4"]` || after["Combo1"]["value"] != "anything typed" ||
		after["CheckBox1"]["value"] != true || after["RadioGroup1"]["value"] != "2" || after["DropList1"]["value"] != "DropList3" {
		t.Fatalf("filled values: %v", after)
	}
	agreeWithQpdf(t, e, "oo-filled.pdf", after)
	checkPDF(t, e.abs("oo-filled.pdf"), 1, "")

	lo := e.put("lo.pdf", fixture(t, "libreoffice-form.pdf"))
	got = e.listed(lo)
	if got["First Name"]["value"] != "Alice" || got["Nationality"]["type"] != "combobox" || len(got["Nationality"]["options"].([]string)) != 7 {
		t.Fatalf("libreoffice form: %v", got)
	}
	agreeWithQpdf(t, e, lo, got)
	e.run(map[string]any{"action": "fill_form", "path": lo, "output": "lo-filled.pdf", "lock": true,
		"fields": map[string]any{"Last Name": "Zoë", "Nationality": "French", "gdpr": true}})
	after = e.listed("lo-filled.pdf")
	if after["Last Name"]["value"] != "Zoë" || after["Nationality"]["value"] != "French" || after["gdpr"]["value"] != true || after["Last Name"]["locked"] != true || after["First Name"]["locked"] != false {
		t.Fatalf("filled values: %v", after)
	}
	// Form errors say what to do about the form, never "check the arguments".
	for _, fields := range []map[string]any{{"Nationality": "Martian"}, {"nosuch": "x"}, {"gdpr": "yes"}, {"Liste1": []any{"Liste1", "Liste2"}}} {
		path := lo
		if _, ok := fields["Liste1"]; ok {
			path = oo
		}
		te := e.fail(map[string]any{"action": "fill_form", "path": path, "fields": fields}, tool.CodeInvalid)
		if strings.Contains(te.Hint, "check the arguments") {
			t.Fatalf("%v: generic hint %q", fields, te.Hint)
		}
	}
}

// TestPDFText_Decoding: literal escapes, UTF-16BE with BOM, PDFDocEncoding
// and line breaks of text strings.
func TestPDFText_Decoding(t *testing.T) {
	for _, tc := range []struct {
		in   types.Object
		want string
	}{
		{types.StringLiteral(`a\nb\r\nc\rd\te\101\\\(\)`), "a\nb\nc\nd\teA\\()"},
		{types.StringLiteral("line one\\\nstill one"), "line onestill one"},
		{types.HexLiteral("FEFF004C00F6007300650000000A4E2D"), "Löse\x00\n中"},
		{types.StringLiteral(`\200 \240 \351`), "• € é"},
		{types.StringLiteral(`\376\377\000A\000\n\000B`), "A\nB"},
		{types.HexLiteral("EFBBBFC3A9"), "é"},
		{types.Name("Off"), "Off"},
	} {
		got, ok := pdfText(tc.in)
		if !ok || got != tc.want {
			t.Fatalf("pdfText(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if _, ok := pdfText(types.Integer(1)); ok {
		t.Fatal("an integer is not text")
	}
}
