package pdf

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
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
	fl := &filler{ctx: ctx, fields: fields}
	if err := fl.fill(f); err != nil {
		return err
	}
	if fl.redraw {
		if err := needAppearances(ctx); err != nil {
			return err
		}
	}
	return api.WriteContext(ctx, w)
}

// filler writes a form's values into the document's fields.
type filler struct {
	ctx    *model.Context
	fields []*formField
	redraw bool // a text value changed: viewers must draw the fields again
}

func (x *filler) fill(f *form.Form) error {
	var errs []error
	for _, t := range f.TextFields {
		errs = append(errs, x.set(t.ID, t.Name, t.Locked, func(fl *formField) { x.text(fl, textString(t.Value)) }))
	}
	for _, t := range f.DateFields {
		errs = append(errs, x.set(t.ID, t.Name, t.Locked, func(fl *formField) { x.text(fl, textString(t.Value)) }))
	}
	for _, t := range f.ComboBoxes {
		errs = append(errs, x.set(t.ID, t.Name, t.Locked, func(fl *formField) { x.text(fl, textString(t.Value)) }))
	}
	for _, t := range f.ListBoxes {
		errs = append(errs, x.set(t.ID, t.Name, t.Locked, func(fl *formField) { x.list(fl, t.Values) }))
	}
	for _, t := range f.CheckBoxes {
		errs = append(errs, x.set(t.ID, t.Name, t.Locked, func(fl *formField) { x.check(fl, t.Value) }))
	}
	for _, t := range f.RadioButtonGroups {
		errs = append(errs, x.set(t.ID, t.Name, t.Locked, func(fl *formField) {
			on := t.Value
			if on == "" {
				on = "Off"
			}
			switchState(x.ctx, fl, on)
		}))
	}
	for _, err := range errs {
		if err != nil {
			return err // the first, as the fields are listed
		}
	}
	return nil
}

// set applies a value to the field named name (or, unnamed, with id) and
// locks it when asked.
func (x *filler) set(id, name string, locked bool, apply func(fl *formField)) error {
	for _, fl := range x.fields {
		if (name != "" && fl.Name == name) || (name == "" && fl.ID == id) {
			apply(fl)
			if locked {
				fl.dict["Ff"] = types.Integer(fl.Flags | ffReadOnly)
			}
			return nil
		}
	}
	return fmt.Errorf("field %q not found", name)
}

// text sets a field's value and drops its drawn appearance.
func (x *filler) text(fl *formField, v types.Object) {
	fl.dict["V"] = v
	fl.dict.Delete("I")
	for _, wd := range widgetDicts(x.ctx, fl) {
		wd.Delete("AP")
	}
	x.redraw = true
}

// list selects values in a list box: the value, and the options' indices.
func (x *filler) list(fl *formField, values []string) {
	var v types.Object = types.Array{}
	if len(values) == 1 {
		v = textString(values[0])
	} else if len(values) > 1 {
		a := types.Array{}
		for _, s := range values {
			a = append(a, textString(s))
		}
		v = a
	}
	x.text(fl, v)
	var idx []int
	for i, o := range fl.Options {
		if slices.Contains(values, o) {
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
}

// check turns a check box on (its first "on" state) or off.
func (x *filler) check(fl *formField, value bool) {
	on := "Yes"
	if len(fl.Options) > 0 {
		on = fl.Options[0]
	}
	if !value {
		on = "Off"
	}
	switchState(x.ctx, fl, on)
}

// needAppearances asks viewers to draw the form's fields from their values.
func needAppearances(ctx *model.Context) error {
	root, err := ctx.Catalog()
	if err != nil {
		return err
	}
	af, err := ctx.DereferenceDict(root["AcroForm"])
	if err != nil || af == nil {
		return fmt.Errorf("AcroForm: %v", err)
	}
	af["NeedAppearances"] = types.Boolean(true)
	return nil
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
