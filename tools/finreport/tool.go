// Package finreport is the financial_report tool: a ledger (csv/xlsx) in,
// income statement, balance sheet and cash-flow statement out, as an xlsx
// whose subtotals, totals and ratios are live formulas, plus a Markdown
// summary. Money is exact decimal throughout.
package finreport

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type reporter struct{ d *tool.Deps }

// New builds financial_report.
func New(d *tool.Deps) (tool.Tool, error) {
	rp := &reporter{d: d}
	src := []tool.Param{
		{Name: "path", Type: tool.String, Required: true, Description: "Ledger .csv or .xlsx: a row per journal line with date, account, debit and credit (or a signed amount)."},
		{Name: "sheet", Type: tool.String, Description: "Worksheet (default the first)."},
		{Name: "start", Type: tool.String, Description: "First day, YYYY-MM-DD (default the earliest); earlier entries are opening balances."},
		{Name: "end", Type: tool.String, Description: "Last day, the balance-sheet date (default the latest)."},
		{Name: "columns", Type: tool.Object, Description: "Roles to headers when not recognised, e.g. {\"date\": \"Posted\", \"debit\": \"Dr\"}."},
		{Name: "language", Type: tool.String, Enum: []string{"zh", "en"}, Description: "Default from the ledger."},
	}
	out := []tool.Param{
		{Name: "company", Type: tool.String},
		tool.OutputParam("Default outputs/<ledger>_report.xlsx."),
		tool.Overwrite,
	}
	return tool.Tool{
		Name:        "financial_report",
		Title:       "Financial statements from a ledger",
		Description: "Builds an income statement, balance sheet and cash-flow statement with key ratios for a period from a ledger file, as an xlsx with live formulas plus a Markdown summary.",
		Actions: []tool.Action{
			{Name: "report", Handler: rp.report, Level: tool.Write, Timeout: tool.Normal, Params: append(append([]tool.Param{}, src...), out...)},
			{Name: "check", Handler: rp.check, Description: "balance check only, no files", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: src},
		},
		Examples: []string{
			"Generate financial statements from ledger.xlsx for Q1 2024",
			"Does my ledger balance? Check assets = liabilities + equity",
			"Make an income statement and balance sheet with ratios",
			"把今年的账目整理成三大财务报表",
			"根据这个账簿生成利润表、资产负债表和现金流量表",
			"算一下毛利率、净利率和资产负债率",
		},
	}, nil
}

var zh = map[string]string{
	"Revenue": "营业收入", "Cost of sales": "营业成本", "Other income": "其他收益", "Operating expenses": "期间费用", "Income tax": "所得税费用",
	"Current assets": "流动资产", "Non-current assets": "非流动资产", "Current liabilities": "流动负债", "Non-current liabilities": "非流动负债", "Equity": "所有者权益",
	"Retained earnings (income less expenses to date)": "未分配利润（累计损益）", "Operating activities": "经营活动", "Investing activities": "投资活动", "Financing activities": "筹资活动",
	"Net income": "净利润", "Depreciation and amortisation: ": "折旧与摊销：", "Change in ": "变动：", "Gross margin": "毛利率", "Net margin": "净利率",
	"Current ratio": "流动比率", "Debt ratio": "资产负债率", "Return on equity": "净资产收益率", "(revenue - cost of sales) / revenue": "（营业收入-营业成本）/营业收入",
	"net income / revenue": "净利润/营业收入", "current assets / current liabilities": "流动资产/流动负债", "total liabilities / total assets": "负债合计/资产总计",
	"net income / equity at end": "净利润/期末所有者权益", "net income / average equity": "净利润/平均所有者权益",
	"Income Statement": "利润表", "Balance Sheet": "资产负债表", "Cash Flow": "现金流量表", "Cash Flow Statement": "现金流量表", "Ratios": "财务比率", "Financial ratios": "财务比率",
	"Period": "期间", "As of": "截至", "Total revenue": "营业收入合计", "Total cost of sales": "营业成本合计", "Gross profit": "毛利",
	"Total operating expenses": "期间费用合计", "Operating profit": "营业利润", "Total other income": "其他收益合计", "Profit before tax": "利润总额",
	"Total income tax": "所得税合计", "Total current assets": "流动资产合计", "Total non-current assets": "非流动资产合计", "Total assets": "资产总计",
	"Total current liabilities": "流动负债合计", "Total non-current liabilities": "非流动负债合计", "Total liabilities": "负债合计", "Total equity": "所有者权益合计",
	"Total liabilities and equity": "负债和所有者权益总计", "Check: assets - (liabilities + equity)": "校验：资产-（负债+所有者权益）", "indirect method": "间接法",
	"Net cash from operating activities": "经营活动现金流量净额", "Net cash from investing activities": "投资活动现金流量净额", "Net cash from financing activities": "筹资活动现金流量净额",
	"Net change in cash": "现金净增加额", "Cash at beginning of period": "期初现金余额", "Cash at end of period": "期末现金余额",
	"Check: actual change in cash - net change": "校验：现金实际变动-现金净增加额", "Equity at beginning of period": "期初所有者权益",
}

func translator(lang string) func(string) string {
	if lang != "zh" {
		return func(s string) string { return s }
	}
	return func(s string) string {
		if v, ok := zh[s]; ok {
			return v
		}
		return s
	}
}

func hasCJK(es []Entry) bool {
	for _, e := range es {
		for _, r := range e.Account {
			if unicode.Is(unicode.Han, r) {
				return true
			}
		}
	}
	return false
}

// report computes the statements and writes them; check only computes.
func (rp *reporter) report(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	return rp.run(ctx, c, true)
}

func (rp *reporter) check(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	return rp.run(ctx, c, false)
}

func (rp *reporter) run(ctx context.Context, c *tool.Call, write bool) (*tool.Result, error) {
	abs, err := rp.d.Sandbox.Resolve(c.Args.String("path"))
	if err != nil {
		return nil, tool.PathError("path", c.Args.String("path"), err)
	}
	r, err := table.Open(abs, table.Options{Sheet: c.Args.String("sheet")})
	if err != nil {
		if te, ok := tool.AsError(err); ok && te.Field == "" {
			te.Field = "path"
		}
		return nil, err
	}
	defer r.Close()
	mapping := map[string]string{}
	for k, v := range c.Args.Object("columns") {
		s, _ := v.(string)
		mapping[k] = s
	}
	entries, notes, err := readLedger(r, mapping)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Date < entries[j].Date })
	start, end, err := reportPeriod(c, entries)
	if err != nil {
		return nil, err
	}
	lang := c.Args.String("language")
	if lang == "" {
		lang = "en"
		if hasCJK(entries) {
			lang = "zh"
		}
	}
	t := translator(lang)
	rep := compute(entries, start, end, t)
	data := summaryData(rep)
	if len(notes) > 0 {
		data["notes"] = notes
	}
	balanced := rep.Gap.IsZero()
	sum := fmt.Sprintf("%s to %s: net income %s; assets %s = liabilities %s + equity %s", start, end, rep.NetIncome.StringFixed(2), rep.TotalAssets.StringFixed(2), rep.TotalLiabs.StringFixed(2), rep.TotalEquity.StringFixed(2))
	if !balanced {
		sum = fmt.Sprintf("%s to %s: the books do not balance — assets %s vs liabilities + equity %s (gap %s; debits %s vs credits %s)", start, end,
			rep.TotalAssets.StringFixed(2), rep.TotalLiabs.Add(rep.TotalEquity).StringFixed(2), rep.Gap.StringFixed(2), rep.DebitTotal.StringFixed(2), rep.CreditTotal.StringFixed(2))
	}
	if !write {
		return &tool.Result{Summary: sum, Data: data}, nil
	}
	out, err := tool.PlanOutput(rp.d.Sandbox, c.Args, tool.Output{Stem: tool.StemOf(abs) + "_report", Exts: []string{".xlsx", ".md"}, Inputs: []string{abs}})
	if err != nil {
		return nil, err
	}
	company := c.Args.String("company")
	var refs cellRefs
	xlsx, err := out.WriteFrom(".xlsx", func(w io.Writer) error {
		var err error
		refs, err = writeWorkbook(w, rep, company, t)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("financial_report: write workbook: %w", err)
	}
	md := markdown(rep, company, t, balanced)
	summary, err := out.Write(".md", []byte(md))
	if err != nil {
		return nil, fmt.Errorf("financial_report: write summary: %w", err)
	}
	data["cells"] = refs
	data["markdown"] = md
	data["outputs"] = []string{rp.d.Sandbox.Rel(xlsx.Path), rp.d.Sandbox.Rel(summary.Path)}
	return &tool.Result{Summary: sum + "; saved " + rp.d.Sandbox.Rel(xlsx.Path), Data: data, Files: []tool.File{xlsx, summary}}, nil
}

// reportPeriod is start to end, by default the ledger's (sorted) first and
// last dates.
func reportPeriod(c *tool.Call, entries []Entry) (start, end string, err error) {
	start, end = entries[0].Date, entries[len(entries)-1].Date
	for _, p := range []struct {
		name string
		dst  *string
	}{{"start", &start}, {"end", &end}} {
		if v := c.Args.String(p.name); v != "" {
			d, ok := table.ParseDate(v)
			if !ok {
				return "", "", tool.Invalid(p.name, fmt.Sprintf("%s %q is not a date", p.name, v), "use YYYY-MM-DD")
			}
			*p.dst = d[:10]
		}
	}
	if start > end {
		return "", "", tool.Invalid("start", fmt.Sprintf("start %s is after end %s", start, end), "")
	}
	return start, end, nil
}

func summaryData(r *Report) map[string]any {
	ratios := map[string]any{}
	for _, ra := range r.Ratios {
		if ra.Value == nil {
			ratios[ra.Key] = nil
		} else {
			ratios[ra.Key] = ra.Value.String()
		}
	}
	s := func(d decimal.Decimal) string { return d.StringFixed(2) }
	return map[string]any{
		"period":  map[string]string{"start": r.Start, "end": r.End},
		"entries": r.Entries,
		"income_statement": map[string]any{
			"revenue": s(r.Revenue.Total), "cost_of_sales": s(r.COGS.Total), "gross_profit": s(r.GrossProfit), "operating_expenses": s(r.Expenses.Total),
			"operating_profit": s(r.OperatingProfit), "other_income": s(r.OtherIncome.Total), "profit_before_tax": s(r.PreTax), "income_tax": s(r.Tax.Total), "net_income": s(r.NetIncome),
		},
		"balance_sheet": map[string]any{
			"current_assets": s(r.CurrentAssets.Total), "non_current_assets": s(r.NonCurrentAssets.Total), "total_assets": s(r.TotalAssets),
			"current_liabilities": s(r.CurrentLiabs.Total), "non_current_liabilities": s(r.NonCurrentLiabs.Total), "total_liabilities": s(r.TotalLiabs), "total_equity": s(r.TotalEquity),
		},
		"cash_flow": map[string]any{
			"operating": s(r.Operating.Total), "investing": s(r.Investing.Total), "financing": s(r.Financing.Total), "net_change": s(r.NetCashChange),
			"cash_opening": s(r.CashOpening), "cash_closing": s(r.CashClosing), "reconciliation_gap": s(r.CashReconGap),
		},
		"check": map[string]any{
			"balanced": r.Gap.IsZero(), "gap": s(r.Gap), "debits": s(r.DebitTotal), "credits": s(r.CreditTotal),
			"rule": "assets = liabilities + equity (equity includes income less expenses to date)",
		},
		"ratios": ratios,
	}
}

func markdown(r *Report, company string, t func(string) string, balanced bool) string {
	var b strings.Builder
	money := func(d decimal.Decimal) string { return wording.Commas(d.StringFixed(2)) }
	title := strings.TrimSpace(company + " " + t("Income Statement"))
	fmt.Fprintf(&b, "# %s\n\n%s: %s – %s\n\n", title, t("Period"), r.Start, r.End)
	table := func(title string, rows [][2]string) {
		fmt.Fprintf(&b, "## %s\n\n| | |\n|---|---:|\n", title)
		for _, row := range rows {
			fmt.Fprintf(&b, "| %s | %s |\n", row[0], row[1])
		}
		b.WriteString("\n")
	}
	table(t("Income Statement"), [][2]string{
		{t("Total revenue"), money(r.Revenue.Total)}, {t("Total cost of sales"), money(r.COGS.Total)}, {"**" + t("Gross profit") + "**", "**" + money(r.GrossProfit) + "**"},
		{t("Total operating expenses"), money(r.Expenses.Total)}, {t("Operating profit"), money(r.OperatingProfit)}, {t("Total other income"), money(r.OtherIncome.Total)},
		{t("Total income tax"), money(r.Tax.Total)}, {"**" + t("Net income") + "**", "**" + money(r.NetIncome) + "**"},
	})
	table(t("Balance Sheet")+" ("+t("As of")+" "+r.End+")", [][2]string{
		{t("Total current assets"), money(r.CurrentAssets.Total)}, {t("Total non-current assets"), money(r.NonCurrentAssets.Total)}, {"**" + t("Total assets") + "**", "**" + money(r.TotalAssets) + "**"},
		{t("Total current liabilities"), money(r.CurrentLiabs.Total)}, {t("Total non-current liabilities"), money(r.NonCurrentLiabs.Total)}, {t("Total liabilities"), money(r.TotalLiabs)},
		{t("Total equity"), money(r.TotalEquity)}, {"**" + t("Total liabilities and equity") + "**", "**" + money(r.TotalLiabs.Add(r.TotalEquity)) + "**"},
	})
	table(t("Cash Flow Statement"), [][2]string{
		{t("Net cash from operating activities"), money(r.Operating.Total)}, {t("Net cash from investing activities"), money(r.Investing.Total)},
		{t("Net cash from financing activities"), money(r.Financing.Total)}, {"**" + t("Net change in cash") + "**", "**" + money(r.NetCashChange) + "**"},
		{t("Cash at beginning of period"), money(r.CashOpening)}, {t("Cash at end of period"), money(r.CashClosing)},
	})
	var rows [][2]string
	for _, ra := range r.Ratios {
		v := "—"
		if ra.Value != nil {
			if ra.Key == "current_ratio" {
				v = ra.Value.StringFixed(2)
			} else {
				v = ra.Value.Mul(decimal.NewFromInt(100)).StringFixed(2) + "%"
			}
		}
		rows = append(rows, [2]string{ra.Name + " (" + ra.Formula + ")", v})
	}
	table(t("Financial ratios"), rows)
	if balanced {
		fmt.Fprintf(&b, "✅ %s = %s + %s (%s = %s + %s)\n", t("Total assets"), t("Total liabilities"), t("Total equity"), money(r.TotalAssets), money(r.TotalLiabs), money(r.TotalEquity))
	} else {
		fmt.Fprintf(&b, "⚠️ %s: %s ≠ %s + %s — gap %s (debits %s, credits %s)\n", t("Check: assets - (liabilities + equity)"), money(r.TotalAssets), money(r.TotalLiabs), money(r.TotalEquity), money(r.Gap), money(r.DebitTotal), money(r.CreditTotal))
	}
	if !r.CashReconGap.IsZero() {
		fmt.Fprintf(&b, "\n⚠️ %s: %s\n", t("Check: actual change in cash - net change"), money(r.CashReconGap))
	}
	return b.String()
}
