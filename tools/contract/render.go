package contract

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// filled is a validated set of field values.
type filled struct {
	lang    string
	text    map[string]string // every given or defaulted field, as text
	amounts map[string]decimal.Decimal
	dates   map[string]time.Time
	given   map[string]bool
}

var dateLayouts = []string{"2006-01-02", "2006/01/02", "2006.01.02", "2006年1月2日", "2006-1-2", "2006/1/2"}

func parseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			if t.Year() < 1900 || t.Year() > 2200 {
				return time.Time{}, fmt.Errorf("date %q is out of range", s)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("date %q is not a valid calendar date in the form YYYY-MM-DD", s)
}

func valueText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case bool:
		return "", false
	}
	return "", false
}

// validate checks fields against the template and collects every problem
// at once, so the caller can fix them in one go.
func validate(t *templateDef, lang string, in map[string]any) (*filled, error) {
	f := &filled{lang: lang, text: map[string]string{}, amounts: map[string]decimal.Decimal{}, dates: map[string]time.Time{}, given: map[string]bool{}}
	known := map[string]fieldDef{}
	for _, d := range t.Fields {
		known[d.Name] = d
	}
	var unknown []string
	for k := range in {
		if _, ok := known[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		var names []string
		for _, d := range t.Fields {
			names = append(names, d.Name)
		}
		return nil, tool.Invalid("fields", fmt.Sprintf("unknown field(s) for %s: %s", t.ID, strings.Join(unknown, ", ")), "accepted fields: "+strings.Join(names, ", "))
	}
	var missing, problems []string
	for _, d := range t.Fields {
		raw, ok := in[d.Name]
		s := ""
		if ok && raw != nil {
			var good bool
			if s, good = valueText(raw); !good {
				problems = append(problems, fmt.Sprintf("%s must be text or a number", d.Name))
				continue
			}
		}
		if s == "" {
			if d.Required {
				missing = append(missing, fmt.Sprintf("%s (%s)", d.Name, d.label(lang)))
			} else if d.Default != nil {
				f.text[d.Name] = d.Default.in(lang)
			}
			continue
		}
		f.given[d.Name] = true
		s, problem := f.typed(d, s)
		if problem != "" {
			problems = append(problems, problem)
			continue
		}
		f.text[d.Name] = s
	}
	if len(missing) > 0 {
		return nil, tool.Invalid("fields", fmt.Sprintf("missing required field(s) for %s (%s): %s", t.ID, t.Title.in(lang), strings.Join(missing, "; ")), "add them to fields; list_templates shows every field")
	}
	if len(problems) > 0 {
		return nil, tool.Invalid("fields", "invalid field(s): "+strings.Join(problems, "; "), "fix these values and call again")
	}
	if err := derive(t, f); err != nil {
		return nil, err
	}
	return f, nil
}

// typed checks the text s of a typed field (amount, date, int, number),
// notes its value in f and returns its normal text, or a problem.
func (f *filled) typed(d fieldDef, s string) (string, string) {
	switch d.Type {
	case "amount":
		a, err := ParseAmount(s)
		if err != nil {
			return "", fmt.Sprintf("%s: %v", d.Name, err)
		}
		if a.IsZero() {
			return "", fmt.Sprintf("%s must be greater than zero", d.Name)
		}
		f.amounts[d.Name] = a
	case "date":
		dt, err := parseDate(s)
		if err != nil {
			return "", fmt.Sprintf("%s: %v", d.Name, err)
		}
		f.dates[d.Name] = dt
		s = dt.Format("2006-01-02")
	case "int", "number":
		n, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return "", fmt.Sprintf("%s: %q is not a number", d.Name, s)
		}
		if d.Type == "int" && n != math.Trunc(n) {
			return "", fmt.Sprintf("%s must be a whole number, got %s", d.Name, s)
		}
		if d.Min != nil && n < *d.Min || d.Max != nil && n > *d.Max || d.Min == nil && n <= 0 {
			lo, hi := "above 0", "no limit"
			if d.Min != nil {
				lo = strconv.FormatFloat(*d.Min, 'f', -1, 64)
			}
			if d.Max != nil {
				hi = strconv.FormatFloat(*d.Max, 'f', -1, 64)
			}
			return "", fmt.Sprintf("%s is %s; allowed range %s to %s", d.Name, s, lo, hi)
		}
		s = strconv.FormatFloat(n, 'f', -1, 64)
	}
	return s, ""
}

// derive computes end dates and totals, and checks rules that span fields.
func derive(t *templateDef, f *filled) error {
	bad := func(msg string) error { return tool.Invalid("fields", msg, "fix the dates or terms and call again") }
	if start, ok := f.dates["start_date"]; ok {
		if n, err := strconv.Atoi(f.text["term_months"]); err == nil && f.given["term_months"] {
			f.dates["end_date"] = start.AddDate(0, n, -1)
		}
	}
	if eff, ok := f.dates["effective_date"]; ok {
		if n, err := strconv.Atoi(f.text["term_years"]); err == nil {
			f.dates["end_date"] = eff.AddDate(n, 0, -1)
		}
	}
	if end, ok := f.dates["end_date"]; ok {
		f.text["end_date"] = end.Format("2006-01-02")
		if start, ok := f.dates["start_date"]; ok && !end.After(start) {
			return bad(fmt.Sprintf("end_date %s must be after start_date %s", end.Format("2006-01-02"), start.Format("2006-01-02")))
		}
	}
	if q, ok := f.text["quantity"]; ok && f.given["quantity"] {
		if p, ok := f.amounts["unit_price"]; ok {
			qd, _ := decimal.NewFromString(q)
			total := qd.Mul(p).Round(2)
			if total.GreaterThanOrEqual(maxAmount) {
				return bad("quantity × unit_price is too large")
			}
			f.amounts["total_price"] = total
		}
	}
	if t.ID == "labour" {
		// 《劳动合同法》第十九条: probation limits by contract term.
		term, _ := strconv.Atoi(f.text["term_months"])
		prob, _ := strconv.Atoi(f.text["probation_months"])
		limit := 6
		switch {
		case term < 3:
			limit = 0
		case term < 12:
			limit = 1
		case term < 36:
			limit = 2
		}
		if prob > limit {
			return bad(fmt.Sprintf("probation_months %d is not allowed for a %d-month contract: the limit is %d (Labour Contract Law art. 19: under 3 months none, under 1 year 1 month, under 3 years 2 months, otherwise 6)", prob, term, limit))
		}
	}
	return nil
}

var currencyZH = map[string]string{"CNY": "人民币", "RMB": "人民币", "USD": "美元", "EUR": "欧元", "HKD": "港币", "JPY": "日元", "GBP": "英镑"}

// amount renders an amount; Chinese templates add the capital numerals.
func (f *filled) amount(name string) string {
	a, ok := f.amounts[name]
	if !ok {
		return ""
	}
	cur := strings.ToUpper(f.text["currency"])
	if cur == "" {
		cur = "CNY"
	}
	if f.lang == "zh" {
		cn := currencyZH[cur]
		if cn == "" {
			cn = cur
		}
		return fmt.Sprintf("%s%s元（大写：%s%s）", cn, FormatAmount(a), cn, ChineseCapital(a))
	}
	return cur + " " + FormatAmount(a)
}

func (f *filled) date(name string) string {
	d, ok := f.dates[name]
	if !ok {
		return ""
	}
	if f.lang == "zh" {
		return fmt.Sprintf("%d年%d月%d日", d.Year(), int(d.Month()), d.Day())
	}
	return d.Format("January 2, 2006")
}

var cnNum = []string{"零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"}

// articleNumber writes 1..99 as 一..九十九 for 第N条.
func articleNumber(n int) string {
	switch {
	case n <= 10:
		return cnNum[n]
	case n < 20:
		return "十" + cnNum[n-10]
	case n%10 == 0:
		return cnNum[n/10] + "十"
	}
	return cnNum[n/10] + "十" + cnNum[n%10]
}

type clauseOut struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Text  string `json:"-"`
}

func render(t *templateDef, f *filled, omit map[string]bool, extra []string) ([]clauseOut, error) {
	funcs := template.FuncMap{
		"v":    func(n string) string { return f.text[n] },
		"has":  func(n string) bool { return f.given[n] },
		"amt":  f.amount,
		"date": f.date,
	}
	var out []clauseOut
	for _, c := range t.clauses(f.lang) {
		if omit[c.ID] || (c.When != "" && !f.given[c.When]) {
			continue
		}
		tp, err := template.New(c.ID).Funcs(funcs).Option("missingkey=error").Parse(c.Text)
		if err != nil {
			return nil, fmt.Errorf("template %s clause %s: %w", t.ID, c.ID, err)
		}
		var b bytes.Buffer
		if err := tp.Execute(&b, nil); err != nil {
			return nil, fmt.Errorf("template %s clause %s: %w", t.ID, c.ID, err)
		}
		out = append(out, clauseOut{ID: c.ID, Title: c.Title, Text: strings.TrimSpace(b.String())})
	}
	// Extra terms go before the closing "misc" clause.
	if len(extra) > 0 {
		title := "Additional Terms"
		if f.lang == "zh" {
			title = "补充约定"
		}
		var adds []clauseOut
		for i, e := range extra {
			id := fmt.Sprintf("extra_%d", i+1)
			adds = append(adds, clauseOut{ID: id, Title: title, Text: strings.TrimSpace(e)})
		}
		at := len(out)
		if at > 0 && out[at-1].ID == "misc" {
			at--
		}
		out = append(out[:at], append(adds, out[at:]...)...)
	}
	for i := range out {
		if f.lang == "zh" {
			out[i].Title = "第" + articleNumber(i+1) + "条 " + out[i].Title
		} else {
			out[i].Title = strconv.Itoa(i+1) + ". " + out[i].Title
		}
	}
	return out, nil
}

// Notice is the not-legal-advice statement every contract carries.
func notice(lang string) string {
	if lang == "zh" {
		return "提示：本合同由模板自动生成，仅供参考，不构成法律意见。签署前请核对全部内容，并根据实际情况咨询执业律师。"
	}
	return "Notice: this contract was generated from a template for reference only and is not legal advice. Check every term and consult a qualified lawyer before signing."
}

// markdown renders the whole contract.
func markdown(t *templateDef, f *filled, clauses []clauseOut) string {
	var b strings.Builder
	zh := f.lang == "zh"
	b.WriteString("# " + t.Title.in(f.lang) + "\n\n")
	if n := f.text["contract_number"]; n != "" {
		if zh {
			b.WriteString("合同编号：" + mdEsc(n) + "\n\n")
		} else {
			b.WriteString("Contract No.: " + mdEsc(n) + "\n\n")
		}
	}
	party := func(p string, role i18n) {
		sep := ": "
		if zh {
			sep = "："
		}
		lines := []string{"**" + role.in(f.lang) + "**" + sep + mdEsc(f.text["party_"+p+"_name"])}
		labels := map[string][2]string{"id": {"证件号码", "ID / Registration No."}, "address": {"地址", "Address"}, "phone": {"联系电话", "Phone"}, "representative": {"代表人", "Representative"}}
		for _, k := range []string{"id", "address", "phone", "representative"} {
			if v := f.text["party_"+p+"_"+k]; v != "" {
				l := labels[k][1]
				if zh {
					l = labels[k][0]
				}
				lines = append(lines, l+sep+mdEsc(v))
			}
		}
		b.WriteString(strings.Join(lines, "  \n") + "\n\n")
	}
	party("a", t.Parties.A)
	party("b", t.Parties.B)
	if zh {
		b.WriteString("根据《中华人民共和国民法典》及相关法律法规的规定，甲乙双方在平等、自愿、公平、诚实信用的基础上，经协商一致，订立本合同，共同遵守。\n\n")
	} else {
		b.WriteString("The parties, on the basis of equality and good faith, agree as follows.\n\n")
	}
	for _, c := range clauses {
		b.WriteString("## " + mdEsc(c.Title) + "\n\n" + mdEsc(c.Text) + "\n\n")
	}
	// Signature block: the parties side by side, a blank where no date is given.
	in := func(zh, en string) string { return i18n{ZH: zh, EN: en}.in(f.lang) }
	seal := in("（签章）", "")
	b.WriteString("## " + in("签署", "Signatures") + "\n\n| " + t.Parties.A.in(f.lang) + seal + " | " + t.Parties.B.in(f.lang) + seal + " |\n|---|---|\n")
	b.WriteString("| " + mdEsc(f.text["party_a_name"]) + " | " + mdEsc(f.text["party_b_name"]) + " |\n")
	sign := in("签字：", "Signature:")
	b.WriteString("| " + sign + " | " + sign + " |\n")
	d := in("日期：____年__月__日", "Date: ____________")
	if f.given["sign_date"] {
		d = in("日期：", "Date: ") + f.date("sign_date")
	}
	b.WriteString("| " + d + " | " + d + " |\n\n")
	if p := f.text["sign_place"]; p != "" {
		b.WriteString(in("签订地点：", "Signed at: ") + mdEsc(p) + "\n\n")
	}
	b.WriteString("> " + notice(f.lang) + "\n")
	return b.String()
}

// mdEsc keeps user text literal in Markdown.
func mdEsc(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, "|", `\|`, "#", `\#`, "\n", " ")
	return r.Replace(s)
}
