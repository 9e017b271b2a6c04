package pdf

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/form"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func (p *pdfTool) listFormFields(_ context.Context, c *tool.Call) (*tool.Result, error) {
	in, fields, err := p.openForm(c)
	if err != nil {
		return nil, err
	}
	path := rel(p.d.Sandbox, in.abs)
	if len(fields) == 0 {
		return &tool.Result{Summary: "the PDF has no form fields", Data: map[string]any{"path": path, "fields": []any{}, "count": 0}}, nil
	}
	list := make([]map[string]any, 0, len(fields))
	for _, f := range fields {
		list = append(list, f.describe())
	}
	return &tool.Result{Summary: wording.Count(len(list), "form field", "form fields"), Data: map[string]any{"path": path, "fields": list, "count": len(list)}}, nil
}

// openForm opens the call's PDF (open) and reads its form fields.
func (p *pdfTool) openForm(c *tool.Call) (*doc, []*formField, error) {
	in, err := p.open(c)
	if err != nil {
		return nil, nil, err
	}
	fields, err := readFields(in.input)
	return in, fields, err
}

// readFields reads the input's form field tree (fieldtree.go).
func readFields(in *input) ([]*formField, error) {
	ctx, err := api.ReadContext(in.reader(), in.conf())
	if err != nil {
		return nil, pdfErr("path", filepath.Base(in.abs), in.upw, err)
	}
	fields, err := formFields(ctx)
	if err != nil {
		return nil, tool.Invalidf("path", "its pages can still be read (extract_text); print it to a new PDF to repair the form", "the form of %s is damaged: %v", filepath.Base(in.abs), err)
	}
	return fields, nil
}

// describe is a field as list_form_fields shows it. value has the shape
// fill_form takes: a string for text, date, radio and combobox, an array
// of strings for listbox, true/false for checkbox; push buttons and
// signatures have none.
func (f *formField) describe() map[string]any {
	m := map[string]any{"id": f.ID, "name": f.Name, "type": f.Type, "pages": f.Pages, "locked": f.readOnly}
	if fillable(f.Type) {
		m["value"] = f.Value
	}
	if f.Label != "" {
		m["label"] = f.Label
	}
	if f.Default != nil {
		m["default"] = f.Default
	}
	if len(f.Options) > 0 {
		m["options"] = f.Options
	}
	if len(f.Labels) > 0 {
		m["option_labels"] = f.Labels
	}
	switch f.Type {
	case "text":
		if f.Flags&ffMultiline != 0 {
			m["multiline"] = true
		}
		if f.Flags&ffPassword != 0 {
			m["password"] = true
		}
		if f.Flags&ffFileSelect != 0 {
			m["file_select"] = true
		}
	case "combobox":
		if f.Flags&ffEdit != 0 {
			m["editable"] = true
		}
	case "listbox":
		m["multi_select"] = f.Flags&ffMultiSelect != 0
	}
	return m
}

// fillable reports the field types that hold a value fill_form can set.
func fillable(typ string) bool {
	switch typ {
	case "pushbutton", "signature", "unknown":
		return false
	}
	return true
}

func (p *pdfTool) fillForm(_ context.Context, c *tool.Call) (*tool.Result, error) {
	values := c.Args.Object("fields")
	if len(values) == 0 {
		return nil, tool.Invalid("fields", "fields must name at least one field", `e.g. {"name": "张三"}; action list_form_fields shows the names`)
	}
	in, fields, err := p.openForm(c)
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, tool.Invalidf("path", "this PDF is not a fillable form", "%s has no form fields", c.Args.String("path"))
	}
	lock := c.Args.Bool("lock", false)
	var f form.Form
	var filled []string
	for _, k := range slices.Sorted(maps.Keys(values)) {
		fl := findField(fields, k)
		if fl == nil {
			continue // reported below, all together
		}
		if err := fl.fillInto(&f, k, values[k], lock); err != nil {
			return nil, err
		}
		filled = append(filled, k)
	}
	if len(filled) < len(values) {
		var unknown, names []string
		for _, k := range slices.Sorted(maps.Keys(values)) {
			if findField(fields, k) == nil {
				unknown = append(unknown, k)
			}
		}
		for _, fl := range fields {
			if fillable(fl.Type) {
				names = append(names, fl.Name)
			}
		}
		return nil, tool.Invalid("fields", "no form field named "+strings.Join(unknown, ", "), "fields of this form: "+strings.Join(names, ", "))
	}
	raw, err := json.Marshal(form.FormGroup{Forms: []form.Form{f}})
	if err != nil {
		return nil, fmt.Errorf("fill_form: encode: %w", err)
	}
	data, err := plainOptions(in.input)
	if err != nil {
		return nil, opErr("fill_form", err)
	}
	var fallback string
	w, err := p.writePDF(c, in, "fill_form", "_filled", func(w io.Writer) (err error) {
		fallback, err = fillWith(in.input, data, raw, &f, w)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"filled": filled, "locked": lock, "appearances": "drawn"}
	if fallback != "" {
		out["appearances"] = "left to the viewer: pdf_tool wrote the values but could not draw them (" + fallback + "), so the file asks the viewer to (NeedAppearances); a viewer that ignores it shows the fields empty — open and save the file in Acrobat or LibreOffice to fix the look"
	}
	return w.result(fmt.Sprintf("filled %s into %s", wording.Count(len(filled), "field", "fields"), w.rel), out), nil
}

// findField finds a field by its full name, else by its id.
func findField(fields []*formField, key string) *formField {
	for _, f := range fields {
		if f.Name == key {
			return f
		}
	}
	for _, f := range fields {
		if f.ID == key {
			return f
		}
	}
	return nil
}

// fillInto checks v against the field (given as key) and adds it to the
// pdfcpu form to fill. pdfcpu matches by name (the id only for a field
// without one), so a file it rewrites on the way keeps the match.
func (fl *formField) fillInto(f *form.Form, key string, v any, lock bool) error {
	id, name := "", fl.Name
	if name == "" {
		id = fl.ID
	}
	locked := fl.readOnly || lock
	switch fl.Type {
	case "pushbutton":
		return tool.Invalid("fields", fmt.Sprintf("field %q is a push button: it runs an action and holds no value", key), "leave it out; list_form_fields shows the fields that take values")
	case "signature":
		return tool.Invalid("fields", fmt.Sprintf("field %q is a signature field: signing is not supported", key), "leave it out, or sign the filled file with a signing program")
	case "unknown":
		return tool.Invalid("fields", fmt.Sprintf("field %q has a type pdf_tool cannot fill", key), "")
	case "checkbox":
		b, ok := v.(bool)
		if !ok {
			return tool.Invalid("fields", fmt.Sprintf("check box %q takes true or false", key), "")
		}
		f.CheckBoxes = append(f.CheckBoxes, &form.CheckBox{ID: id, Name: name, Value: b, Locked: locked})
	case "radio":
		s, err := fillChoice(key, v, fl.Options)
		if err != nil {
			return err
		}
		f.RadioButtonGroups = append(f.RadioButtonGroups, &form.RadioButtonGroup{ID: id, Name: name, Options: fl.Options, Value: s, Locked: locked})
	case "combobox":
		opts := fl.Options
		if fl.Flags&ffEdit != 0 {
			opts = nil // an editable combo box takes any text
		}
		s, err := fillChoice(key, v, opts)
		if err != nil {
			return err
		}
		f.ComboBoxes = append(f.ComboBoxes, &form.ComboBox{ID: id, Name: name, Options: fl.Options, Editable: opts == nil, Value: s, Locked: locked})
	case "listbox":
		var vals []string
		list, isList := v.([]any)
		if !isList {
			list = []any{v}
		}
		for _, e := range list {
			s, err := fillChoice(key, e, fl.Options)
			if err != nil {
				return err
			}
			vals = append(vals, s)
		}
		if len(vals) > 1 && fl.Flags&ffMultiSelect == 0 {
			return tool.Invalid("fields", fmt.Sprintf("list box %q takes one selection, got %d", key, len(vals)), `give one option, e.g. ["`+fl.Options[0]+`"]`)
		}
		f.ListBoxes = append(f.ListBoxes, &form.ListBox{ID: id, Name: name, Options: fl.Options, Multi: fl.Flags&ffMultiSelect != 0, Values: vals, Locked: locked})
	default: // text, date
		s, err := fillText(key, v)
		if err != nil {
			return err
		}
		if fl.MaxLen > 0 && len([]rune(s)) > fl.MaxLen {
			return tool.Invalid("fields", fmt.Sprintf("field %q takes at most %s", key, wording.Count(fl.MaxLen, "character", "characters")), "")
		}
		if fl.Type == "date" {
			f.DateFields = append(f.DateFields, &form.DateField{ID: id, Name: name, Value: s, Locked: locked})
		} else {
			f.TextFields = append(f.TextFields, &form.TextField{ID: id, Name: name, Value: s, Multiline: fl.Flags&ffMultiline != 0, Locked: locked})
		}
	}
	return nil
}

// fillText is a text value: a string, or a number or boolean as text.
func fillText(key string, v any) (string, error) {
	switch x := v.(type) {
	case string:
		if !latin1(x) {
			// pdfcpu draws non-Latin field appearances with user fonts,
			// which live in its config directory; we run without one.
			return "", tool.Invalid("fields", fmt.Sprintf("field %q: values outside Latin-1 (such as Chinese) cannot be filled yet", key),
				"fill Latin text only, or add the text with action stamp (which renders Chinese)")
		}
		return x, nil
	case float64:
		return fmt.Sprint(x), nil
	case bool:
		return fmt.Sprint(x), nil
	}
	return "", tool.Invalid("fields", fmt.Sprintf("field %q needs a text value, got %T", key, v), "")
}

// fillChoice is a choice or radio value, one of opts unless opts is nil.
func fillChoice(key string, v any, opts []string) (string, error) {
	s, err := fillText(key, v)
	if err != nil {
		return "", err
	}
	if len(opts) > 0 && !slices.Contains(opts, s) {
		return "", tool.Invalid("fields", fmt.Sprintf("%q is not an option of field %q", s, key), "options: "+strings.Join(opts, ", "))
	}
	return s, nil
}

// plainOptions returns the input with the hex strings of choice fields'
// /Opt written as literal strings: pdfcpu's form package takes only
// literal strings there and refuses LibreOffice's forms ("corrupt choice
// field"). An input without them is returned as it is.
func plainOptions(in *input) ([]byte, error) {
	ctx, err := api.ReadContext(in.reader(), in.conf())
	if err != nil {
		return nil, err
	}
	changed := false
	var plain func(a types.Array)
	plain = func(a types.Array) {
		for i, e := range a {
			switch x := e.(type) {
			case types.HexLiteral:
				if b, err := x.Bytes(); err == nil {
					a[i] = types.StringLiteral(escapeLiteral(b))
					changed = true
				}
			case types.Array:
				plain(x)
			}
		}
	}
	for _, entry := range ctx.Table {
		if entry == nil || entry.Free {
			continue
		}
		if d, ok := entry.Object.(types.Dict); ok {
			if a, ok := d["Opt"].(types.Array); ok {
				plain(a)
			}
		}
	}
	if !changed {
		return in.data, nil
	}
	var b bytes.Buffer
	if err := api.WriteContext(ctx, &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
