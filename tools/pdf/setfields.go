package pdf

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/form"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// setFields fills a form pdfcpu's form package cannot: it draws every
// field's appearance itself and fails when it cannot (a LibreOffice form
// whose fonts are embedded subsets, "font ... not available"). Here the
// values are written into the field tree, check boxes and radio buttons
// switch to their existing "on" appearances, and text and choice fields
// lose their old appearance with /NeedAppearances set, so the viewer draws
// the new value (as Acrobat, poppler and pdf.js do). Only the fields in f
// are touched.
func setFields(in *input, f *form.Form, w io.Writer) error {
	ctx, err := api.ReadContext(in.reader(), in.conf())
	if err != nil {
		return err
	}
	fields, err := formFields(ctx)
	if err != nil {
		return err
	}
	find := func(id, name string) *formField {
		for _, fl := range fields {
			if (name != "" && fl.Name == name) || (name == "" && fl.ID == id) {
				return fl
			}
		}
		return nil
	}
	redraw := false
	set := func(id, name string, locked bool, apply func(fl *formField)) error {
		fl := find(id, name)
		if fl == nil {
			return fmt.Errorf("field %q not found", name)
		}
		apply(fl)
		if locked {
			fl.dict["Ff"] = types.Integer(fl.Flags | ffReadOnly)
		}
		return nil
	}
	text := func(fl *formField, v types.Object) {
		fl.dict["V"] = v
		fl.dict.Delete("I")
		for _, wd := range widgetDicts(ctx, fl) {
			wd.Delete("AP")
		}
		redraw = true
	}
	for _, t := range f.TextFields {
		if err := set(t.ID, t.Name, t.Locked, func(fl *formField) { text(fl, textString(t.Value)) }); err != nil {
			return err
		}
	}
	for _, t := range f.DateFields {
		if err := set(t.ID, t.Name, t.Locked, func(fl *formField) { text(fl, textString(t.Value)) }); err != nil {
			return err
		}
	}
	for _, t := range f.ComboBoxes {
		if err := set(t.ID, t.Name, t.Locked, func(fl *formField) { text(fl, textString(t.Value)) }); err != nil {
			return err
		}
	}
	for _, t := range f.ListBoxes {
		err := set(t.ID, t.Name, t.Locked, func(fl *formField) {
			var v types.Object = types.Array{}
			if len(t.Values) == 1 {
				v = textString(t.Values[0])
			} else if len(t.Values) > 1 {
				a := types.Array{}
				for _, s := range t.Values {
					a = append(a, textString(s))
				}
				v = a
			}
			text(fl, v)
			var idx []int
			for i, o := range fl.Options {
				if contains(t.Values, o) {
					idx = append(idx, i)
				}
			}
			sort.Ints(idx)
			if len(idx) > 0 {
				a := types.Array{}
				for _, i := range idx {
					a = append(a, types.Integer(i))
				}
				fl.dict["I"] = a
			}
		})
		if err != nil {
			return err
		}
	}
	for _, t := range f.CheckBoxes {
		err := set(t.ID, t.Name, t.Locked, func(fl *formField) {
			on := "Yes"
			if len(fl.Options) > 0 {
				on = fl.Options[0]
			}
			if !t.Value {
				on = "Off"
			}
			switchState(ctx, fl, on)
		})
		if err != nil {
			return err
		}
	}
	for _, t := range f.RadioButtonGroups {
		err := set(t.ID, t.Name, t.Locked, func(fl *formField) {
			on := t.Value
			if on == "" {
				on = "Off"
			}
			switchState(ctx, fl, on)
		})
		if err != nil {
			return err
		}
	}
	if redraw {
		root, err := ctx.Catalog()
		if err != nil {
			return err
		}
		af, err := ctx.DereferenceDict(root["AcroForm"])
		if err != nil || af == nil {
			return fmt.Errorf("AcroForm: %v", err)
		}
		af["NeedAppearances"] = types.Boolean(true)
	}
	return api.WriteContext(ctx, w)
}

// switchState sets a button field's value and shows state on the widgets
// that have it (Off on the others).
func switchState(ctx *model.Context, fl *formField, state string) {
	fl.dict["V"] = types.Name(state)
	for _, wd := range widgetDicts(ctx, fl) {
		as := "Off"
		if ap, err := ctx.DereferenceDict(wd["AP"]); err == nil && ap != nil {
			if n, err := ctx.DereferenceDict(ap["N"]); err == nil && n != nil {
				if _, ok := n[state]; ok {
					as = state
				}
			}
		}
		wd["AS"] = types.Name(as)
	}
}

func widgetDicts(ctx *model.Context, fl *formField) []types.Dict {
	var out []types.Dict
	for _, w := range fl.widgets {
		if wd, err := ctx.DereferenceDict(w); err == nil && wd != nil {
			out = append(out, wd)
		}
	}
	return out
}

// textString encodes s as a PDF text string: literal when it is ASCII,
// UTF-16BE otherwise.
func textString(s string) types.Object {
	for _, r := range s {
		if r >= 0x80 {
			return types.HexLiteral(hex.EncodeToString([]byte(types.EncodeUTF16String(s))))
		}
	}
	return types.StringLiteral(escapeLiteral([]byte(s)))
}

// fillWith fills with pdfcpu (which draws appearances) and falls back to
// setFields when pdfcpu's form package fails on the form; fallback is then
// pdfcpu's reason. pdfcpu's validation errors are returned for the
// caller's salvage.
func fillWith(in *input, data, raw []byte, f *form.Form, w io.Writer) (fallback string, err error) {
	var b bytes.Buffer
	perr := api.FillForm(bytes.NewReader(data), bytes.NewReader(raw), &b, in.conf())
	if perr == nil {
		_, err = w.Write(b.Bytes())
		return "", err
	}
	if isValidation(perr) {
		return "", perr
	}
	if err := setFields(in, f, w); err != nil {
		return "", fmt.Errorf("%v; writing the values directly failed too: %w", perr, err)
	}
	msg := perr.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.Contains(msg, "font") {
		msg = msg[strings.Index(msg, "font"):]
	}
	return msg, nil
}
