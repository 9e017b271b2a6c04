package contract

import (
	"context"
	"fmt"
	"strings"

	"github.com/clawbridge/clawbridge/internal/docout"
	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func (g *generator) list(_ context.Context, c *tool.Call) (*tool.Result, error) {
	lang := c.Args.StringOr("language", "en")
	ts, err := templates()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, id := range TypeIDs {
		if want := c.Args.String("contract_type"); want != "" && want != id {
			continue
		}
		t := ts[id]
		var fields []map[string]any
		for _, f := range t.Fields {
			m := map[string]any{"name": f.Name, "label": f.label(lang), "type": f.Type, "required": f.Required}
			if f.Default != nil {
				m["default"] = f.Default.in(lang)
			}
			if f.Min != nil {
				m["min"] = *f.Min
			}
			if f.Max != nil {
				m["max"] = *f.Max
			}
			fields = append(fields, m)
		}
		var clauses []string
		for _, cl := range t.clauses(lang) {
			clauses = append(clauses, cl.ID)
		}
		out = append(out, map[string]any{"contract_type": id, "title": t.Title.in(lang), "title_zh": t.Title.ZH, "title_en": t.Title.EN,
			"description": t.Description.in(lang), "fields": fields, "clauses": clauses})
	}
	return &tool.Result{Summary: fmt.Sprintf("%d contract templates.", len(out)), Data: map[string]any{"templates": out, "notice": notice(lang)}}, nil
}

func (g *generator) generate(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	a := c.Args
	ts, err := templates()
	if err != nil {
		return nil, err
	}
	t := ts[a.String("contract_type")]
	fields := a.Object("fields")
	lang := a.String("language")
	if lang == "" {
		lang = "en"
		for _, v := range fields {
			if s, ok := v.(string); ok && wording.HasHan(s) {
				lang = "zh"
				break
			}
		}
	}
	omit, err := omitted(t, lang, a.Strings("omit_clauses"))
	if err != nil {
		return nil, err
	}
	f, err := validate(t, lang, fields)
	if err != nil {
		return nil, err
	}
	format := a.StringOr("format", "docx")
	if format == "pdf" {
		if err := docout.CheckSoffice(); err != nil {
			return nil, err
		}
	}
	clauses, err := render(t, f, omit, a.Strings("extra_clauses"))
	if err != nil {
		return nil, fmt.Errorf("contract: %w", err)
	}
	md := markdown(t, f, clauses)
	base := docout.Slug(t.ID+"-"+f.text["party_b_name"], t.ID)
	out, err := tool.PlanOutput(g.d.Sandbox, c.Args, tool.Output{Stem: base, Exts: []string{"." + format}})
	if err != nil {
		return nil, err
	}
	data := []byte(md)
	if format != "md" {
		if data, err = contractDocx(t, f, md); err != nil {
			return nil, fmt.Errorf("contract: %w", err)
		}
	}
	if format == "pdf" {
		c.Progress(1, 2, "printing PDF with LibreOffice")
		if data, err = docout.PDFCopy(ctx, g.d.Run, ".docx", data); err != nil {
			return nil, err
		}
	}
	file, err := out.Write("."+format, data)
	if err != nil {
		return nil, err
	}
	used := make([]map[string]string, len(clauses))
	for i, cl := range clauses {
		used[i] = map[string]string{"id": cl.ID, "title": cl.Title}
	}
	amounts, dates := filledValues(f, lang)
	return &tool.Result{
		Summary: fmt.Sprintf("Wrote %s (%s, %d clauses). %s", g.d.Sandbox.Rel(file.Path), t.Title.in(lang), len(clauses), notice(lang)),
		Data: map[string]any{
			"path": g.d.Sandbox.Rel(file.Path), "contract_type": t.ID, "title": t.Title.in(lang), "language": lang, "format": format,
			"clauses": used, "amounts": amounts, "dates": dates, "notice": notice(lang), "not_legal_advice": true,
		},
		Files: []tool.File{file},
	}, nil
}

// omitted checks the clause ids to leave out against t's clauses.
func omitted(t *templateDef, lang string, ids []string) (map[string]bool, error) {
	omit := map[string]bool{}
	valid := map[string]bool{}
	for _, cl := range t.clauses(lang) {
		valid[cl.ID] = true
	}
	for _, id := range ids {
		if !valid[id] {
			var all []string
			for _, cl := range t.clauses(lang) {
				all = append(all, cl.ID)
			}
			return nil, tool.NotFoundf("omit_clauses", "clause ids: "+strings.Join(all, ", "), "no clause %q in %s", id, t.ID)
		}
		omit[id] = true
	}
	return omit, nil
}

// filledValues are the contract's amounts (with their Chinese capitals in
// a Chinese contract) and dates, for the result.
func filledValues(f *filled, lang string) (map[string]any, map[string]string) {
	amounts := map[string]any{}
	for k, v := range f.amounts {
		m := map[string]any{"value": v.StringFixed(2), "formatted": FormatAmount(v)}
		if lang == "zh" {
			m["chinese_capital"] = ChineseCapital(v)
		}
		amounts[k] = m
	}
	dates := map[string]string{}
	for k, v := range f.dates {
		dates[k] = v.Format("2006-01-02")
	}
	return amounts, dates
}

// contractDocx lays the contract out in Word: the title centred, articles
// as headings, a small footer with page numbers and the notice.
func contractDocx(t *templateDef, f *filled, md string) ([]byte, error) {
	blocks, err := docx.ParseMarkdown([]byte(md), nil)
	if err != nil {
		return nil, err
	}
	if h, ok := blocks[0].(docx.Heading); ok {
		blocks[0] = docx.Paragraph{Style: "Title", Runs: h.Runs}
	}
	opts := docx.Options{Title: t.Title.in(f.lang), PageNumbers: true, Language: "en-US"}
	if f.lang == "zh" {
		opts.Language = "zh-CN"
		opts.EastAsiaFont = "SimSun"
		opts.Footer = "本合同仅供参考，不构成法律意见"
	} else {
		opts.Footer = "Template for reference only; not legal advice"
	}
	return docx.Write(blocks, opts)
}
