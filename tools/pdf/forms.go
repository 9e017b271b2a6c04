package pdf

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/form"

	"clawbridge/internal/wording"
	"clawbridge/tools/tool"
)

func (p *pdfTool) listFormFields(_ context.Context, c *tool.Call) (*tool.Result, error) {
	in, err := p.open(c)
	if err != nil {
		return nil, err
	}
	fields, err := api.FormFields(in.reader(), in.conf())
	if err != nil {
		if strings.Contains(err.Error(), "no form") {
			return &tool.Result{Summary: "the PDF has no form fields", Data: map[string]any{"path": rel(p.d.Sandbox, in.abs), "fields": []any{}, "count": 0}}, nil
		}
		return nil, opErr("list_form_fields", err)
	}
	list := make([]map[string]any, 0, len(fields))
	for _, f := range fields {
		m := map[string]any{"id": f.ID, "name": f.Name, "type": fieldType(f.Typ), "value": f.V, "pages": f.Pages, "locked": f.Locked}
		if f.AltName != "" {
			m["label"] = f.AltName
		}
		if f.Dv != "" {
			m["default"] = f.Dv
		}
		if f.Opts != "" {
			m["options"] = strings.Split(f.Opts, ",")
		}
		list = append(list, m)
	}
	return &tool.Result{Summary: fmt.Sprintf("%d form fields", len(list)), Data: map[string]any{"path": rel(p.d.Sandbox, in.abs), "fields": list, "count": len(list)}}, nil
}

func fieldType(t form.FieldType) string {
	switch t {
	case form.FTText:
		return "text"
	case form.FTDate:
		return "date"
	case form.FTCheckBox:
		return "checkbox"
	case form.FTComboBox:
		return "combobox"
	case form.FTListBox:
		return "listbox"
	case form.FTRadioButtonGroup:
		return "radio"
	}
	return "unknown"
}

func (p *pdfTool) fillForm(_ context.Context, c *tool.Call) (*tool.Result, error) {
	values := c.Args.Object("fields")
	if len(values) == 0 {
		return nil, tool.Invalid("fields", "fields must name at least one field", `e.g. {"name": "张三"}; action list_form_fields shows the names`)
	}
	in, err := p.open(c)
	if err != nil {
		return nil, err
	}
	fg, err := api.ExportForm(in.reader(), "input.pdf", in.conf())
	if err != nil {
		if strings.Contains(err.Error(), "no form") {
			return nil, tool.Errorf(tool.CodeInvalid, "this PDF is not a fillable form", "%s has no form fields", c.Args.String("path"))
		}
		return nil, opErr("fill_form", err)
	}
	if len(fg.Forms) == 0 {
		return nil, tool.Errorf(tool.CodeInvalid, "this PDF is not a fillable form", "%s has no form fields", c.Args.String("path"))
	}
	lock := c.Args.Bool("lock", false)
	f := &fg.Forms[0]
	used := map[string]bool{}
	var names []string
	match := func(id, name string) (any, string, bool) {
		for _, k := range []string{name, id} {
			if v, ok := values[k]; ok && k != "" {
				used[k] = true
				return v, k, true
			}
		}
		return nil, "", false
	}
	str := func(k string, v any) (string, error) {
		switch x := v.(type) {
		case string:
			if !latin1(x) {
				// pdfcpu draws non-Latin field appearances with user fonts,
				// which live in its config directory; we run without one.
				return "", tool.Invalid("fields", fmt.Sprintf("field %q: values outside Latin-1 (such as Chinese) cannot be filled yet", k),
					"fill Latin text only, or add the text with action stamp (which renders Chinese)")
			}
			return x, nil
		case float64:
			return fmt.Sprint(x), nil
		case bool:
			return fmt.Sprint(x), nil
		}
		return "", tool.Invalid("fields", fmt.Sprintf("field %q needs a text value, got %T", k, v), "")
	}
	for _, t := range f.TextFields {
		names = append(names, t.Name)
		if v, k, ok := match(t.ID, t.Name); ok {
			s, err := str(k, v)
			if err != nil {
				return nil, err
			}
			if t.MaxLen > 0 && len([]rune(s)) > t.MaxLen {
				return nil, tool.Invalid("fields", fmt.Sprintf("field %q takes at most %s", k, wording.Count(t.MaxLen, "character", "characters")), "")
			}
			t.Value, t.Locked = s, t.Locked || lock
		}
	}
	for _, t := range f.DateFields {
		names = append(names, t.Name)
		if v, k, ok := match(t.ID, t.Name); ok {
			s, err := str(k, v)
			if err != nil {
				return nil, err
			}
			t.Value, t.Locked = s, t.Locked || lock
		}
	}
	for _, t := range f.CheckBoxes {
		names = append(names, t.Name)
		if v, k, ok := match(t.ID, t.Name); ok {
			b, isBool := v.(bool)
			if !isBool {
				return nil, tool.Invalid("fields", fmt.Sprintf("check box %q takes true or false", k), "")
			}
			t.Value, t.Locked = b, t.Locked || lock
		}
	}
	choice := func(k string, v any, opts []string) (string, error) {
		s, err := str(k, v)
		if err != nil {
			return "", err
		}
		if len(opts) > 0 && !contains(opts, s) {
			return "", tool.Invalid("fields", fmt.Sprintf("%q is not an option of field %q", s, k), "options: "+strings.Join(opts, ", "))
		}
		return s, nil
	}
	for _, t := range f.RadioButtonGroups {
		names = append(names, t.Name)
		if v, k, ok := match(t.ID, t.Name); ok {
			s, err := choice(k, v, t.Options)
			if err != nil {
				return nil, err
			}
			t.Value, t.Locked = s, t.Locked || lock
		}
	}
	for _, t := range f.ComboBoxes {
		names = append(names, t.Name)
		if v, k, ok := match(t.ID, t.Name); ok {
			opts := t.Options
			if t.Editable {
				opts = nil
			}
			s, err := choice(k, v, opts)
			if err != nil {
				return nil, err
			}
			t.Value, t.Locked = s, t.Locked || lock
		}
	}
	for _, t := range f.ListBoxes {
		names = append(names, t.Name)
		if v, k, ok := match(t.ID, t.Name); ok {
			var vals []string
			switch x := v.(type) {
			case []any:
				for _, e := range x {
					s, err := choice(k, e, t.Options)
					if err != nil {
						return nil, err
					}
					vals = append(vals, s)
				}
			default:
				s, err := choice(k, v, t.Options)
				if err != nil {
					return nil, err
				}
				vals = []string{s}
			}
			t.Values, t.Locked = vals, t.Locked || lock
		}
	}
	var unknown []string
	for k := range values {
		if !used[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, tool.Invalid("fields", "no form field named "+strings.Join(unknown, ", "), "fields of this form: "+strings.Join(names, ", "))
	}
	raw, err := json.Marshal(fg)
	if err != nil {
		return nil, fmt.Errorf("fill_form: encode: %w", err)
	}
	w, err := p.writePDF(c, in, "fill_form", "_filled", func(w io.Writer) error { return api.FillForm(in.reader(), bytes.NewReader(raw), w, in.conf()) })
	if err != nil {
		return nil, err
	}
	filled := make([]string, 0, len(used))
	for k := range used {
		filled = append(filled, k)
	}
	sort.Strings(filled)
	return w.result(fmt.Sprintf("filled %s into %s", wording.Count(len(filled), "field", "fields"), w.rel), map[string]any{"filled": filled, "locked": lock}), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
