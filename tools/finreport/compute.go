package finreport

import (
	"sort"

	"github.com/shopspring/decimal"
)

// Line is one statement line: an account (or computed item) and its amount.
type Line struct {
	Label  string          `json:"label"`
	Amount decimal.Decimal `json:"amount"`
}

// Section is a group of lines with a subtotal.
type Section struct {
	Key   string          `json:"key"`
	Title string          `json:"title"`
	Lines []Line          `json:"lines"`
	Total decimal.Decimal `json:"total"`
}

// Report holds the three statements, the checks and the ratios.
type Report struct {
	Start, End string
	// Income statement for [Start, End].
	Revenue, COGS, OtherIncome, Expenses, Tax       Section
	GrossProfit, OperatingProfit, PreTax, NetIncome decimal.Decimal
	// Balance sheet at End (and at the day before Start, for changes).
	CurrentAssets, NonCurrentAssets, CurrentLiabs, NonCurrentLiabs, EquitySec Section
	TotalAssets, TotalLiabs, TotalEquity, RetainedResult                      decimal.Decimal
	Gap                                                                       decimal.Decimal // assets - (liabilities + equity)
	OpeningEquity                                                             decimal.Decimal
	// Cash flow for [Start, End], indirect method.
	Operating, Investing, Financing                       Section
	NetCashChange, CashOpening, CashClosing, CashReconGap decimal.Decimal
	DebitTotal, CreditTotal                               decimal.Decimal
	Ratios                                                []Ratio
	Entries                                               int
}

// Ratio is a financial ratio; Value is nil when undefined (zero divisor).
type Ratio struct {
	Key     string           `json:"key"`
	Name    string           `json:"name"`
	Value   *decimal.Decimal `json:"value"`
	Formula string           `json:"formula"`
}

type acct struct {
	name  string
	class Class
}

// balances sums signed (natural-side) balances per account over entries
// that pass keep.
func balances(es []Entry, keep func(Entry) bool) map[acct]decimal.Decimal {
	out := map[acct]decimal.Decimal{}
	for _, e := range es {
		if !keep(e) {
			continue
		}
		k := acct{e.Account, e.Class}
		v := e.Debit.Sub(e.Credit)
		if e.Class.creditNormal() {
			v = v.Neg()
		}
		out[k] = out[k].Add(v)
	}
	return out
}

func section(key, title string, bal map[acct]decimal.Decimal, classes ...Class) Section {
	s := Section{Key: key, Title: title}
	var keys []acct
	for k := range bal {
		for _, c := range classes {
			if k.class == c {
				keys = append(keys, k)
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].name < keys[j].name })
	for _, k := range keys {
		v := bal[k]
		if k.class == ContraAsset {
			v = v.Neg() // shown as a negative asset
		}
		s.Lines = append(s.Lines, Line{Label: k.name, Amount: v})
		s.Total = s.Total.Add(v)
	}
	return s
}

func sumClass(bal map[acct]decimal.Decimal, classes ...Class) decimal.Decimal {
	t := decimal.Zero
	for k, v := range bal {
		for _, c := range classes {
			if k.class == c {
				t = t.Add(v)
			}
		}
	}
	return t
}

// result is revenue + other income - cogs - expenses - tax of a balance map.
func result(bal map[acct]decimal.Decimal) decimal.Decimal {
	return sumClass(bal, Revenue, OtherIncome).Sub(sumClass(bal, COGS, Expense, Tax))
}

// compute builds the report for [start, end] (ISO dates, inclusive).
func compute(es []Entry, start, end string, t func(string) string) *Report {
	r := &Report{Start: start, End: end, Entries: len(es)}
	for _, e := range es {
		r.DebitTotal = r.DebitTotal.Add(e.Debit)
		r.CreditTotal = r.CreditTotal.Add(e.Credit)
	}
	period := balances(es, func(e Entry) bool { return e.Date >= start && e.Date <= end })
	closing := balances(es, func(e Entry) bool { return e.Date <= end })
	opening := balances(es, func(e Entry) bool { return e.Date < start })

	r.Revenue = section("revenue", t("Revenue"), period, Revenue)
	r.COGS = section("cogs", t("Cost of sales"), period, COGS)
	r.OtherIncome = section("other_income", t("Other income"), period, OtherIncome)
	r.Expenses = section("expenses", t("Operating expenses"), period, Expense)
	r.Tax = section("tax", t("Income tax"), period, Tax)
	r.GrossProfit = r.Revenue.Total.Sub(r.COGS.Total)
	r.OperatingProfit = r.GrossProfit.Sub(r.Expenses.Total)
	r.PreTax = r.OperatingProfit.Add(r.OtherIncome.Total)
	r.NetIncome = r.PreTax.Sub(r.Tax.Total)

	r.CurrentAssets = section("current_assets", t("Current assets"), closing, Cash, CurrentAsset)
	r.NonCurrentAssets = section("non_current_assets", t("Non-current assets"), closing, NonCurrentAsset, ContraAsset)
	r.CurrentLiabs = section("current_liabilities", t("Current liabilities"), closing, CurrentLiability, Borrowing)
	r.NonCurrentLiabs = section("non_current_liabilities", t("Non-current liabilities"), closing, NonCurrentLiab)
	r.EquitySec = section("equity", t("Equity"), closing, Equity)
	// Income and expense accounts are not closed in a raw ledger: their
	// cumulative result belongs to equity as retained earnings.
	r.RetainedResult = result(closing)
	r.EquitySec.Lines = append(r.EquitySec.Lines, Line{Label: t("Retained earnings (income less expenses to date)"), Amount: r.RetainedResult})
	r.EquitySec.Total = r.EquitySec.Total.Add(r.RetainedResult)
	r.TotalAssets = r.CurrentAssets.Total.Add(r.NonCurrentAssets.Total)
	r.TotalLiabs = r.CurrentLiabs.Total.Add(r.NonCurrentLiabs.Total)
	r.TotalEquity = r.EquitySec.Total
	r.Gap = r.TotalAssets.Sub(r.TotalLiabs.Add(r.TotalEquity))
	r.OpeningEquity = sumClass(opening, Equity).Add(result(opening))

	cashFlow(r, opening, closing, t)
	r.Ratios = ratios(r, t)
	return r
}

// cashFlow fills the cash flow statement, indirect method: net income,
// non-cash charges and working capital changes (operating); non-current
// assets (investing); borrowings, long-term liabilities and owners' equity
// (financing).
func cashFlow(r *Report, opening, closing map[acct]decimal.Decimal, t func(string) string) {
	r.Operating = Section{Key: "operating", Title: t("Operating activities")}
	r.Operating.Lines = append(r.Operating.Lines, Line{Label: t("Net income"), Amount: r.NetIncome})
	r.Operating.Total = r.NetIncome
	addLines(&r.Operating, balanceChange(opening, closing, ContraAsset), 1, t("Depreciation and amortisation: "))
	addLines(&r.Operating, balanceChange(opening, closing, CurrentAsset), -1, t("Change in "))
	addLines(&r.Operating, balanceChange(opening, closing, CurrentLiability), 1, t("Change in "))
	r.Investing = Section{Key: "investing", Title: t("Investing activities")}
	addLines(&r.Investing, balanceChange(opening, closing, NonCurrentAsset), -1, t("Change in "))
	r.Financing = Section{Key: "financing", Title: t("Financing activities")}
	addLines(&r.Financing, balanceChange(opening, closing, Borrowing, NonCurrentLiab, Equity), 1, t("Change in "))
	r.NetCashChange = r.Operating.Total.Add(r.Investing.Total).Add(r.Financing.Total)
	r.CashOpening = sumClass(opening, Cash)
	r.CashClosing = sumClass(closing, Cash)
	r.CashReconGap = r.CashClosing.Sub(r.CashOpening).Sub(r.NetCashChange)
}

// balanceChange is each account's change from opening to closing over the
// given classes.
func balanceChange(opening, closing map[acct]decimal.Decimal, classes ...Class) map[string]decimal.Decimal {
	out := map[string]decimal.Decimal{}
	for k, v := range closing {
		for _, c := range classes {
			if k.class == c {
				out[k.name] = out[k.name].Add(v)
			}
		}
	}
	for k, v := range opening {
		for _, c := range classes {
			if k.class == c {
				out[k.name] = out[k.name].Sub(v)
			}
		}
	}
	return out
}

// addLines adds one line per account of m (sorted by name, signed by
// sign, zero ones left out) to s and its total.
func addLines(s *Section, m map[string]decimal.Decimal, sign int64, prefix string) {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := m[n].Mul(decimal.NewFromInt(sign))
		if v.IsZero() {
			continue
		}
		s.Lines = append(s.Lines, Line{Label: prefix + n, Amount: v})
		s.Total = s.Total.Add(v)
	}
}

// ratios are the financial ratios of r; a ratio over zero has no value.
func ratios(r *Report, t func(string) string) []Ratio {
	div := func(a, b decimal.Decimal) *decimal.Decimal {
		if b.IsZero() {
			return nil
		}
		v := a.DivRound(b, 4)
		return &v
	}
	avgEquity := r.TotalEquity
	roeFormula := t("net income / equity at end")
	if !r.OpeningEquity.IsZero() {
		avgEquity = r.TotalEquity.Add(r.OpeningEquity).Div(decimal.NewFromInt(2))
		roeFormula = t("net income / average equity")
	}
	return []Ratio{
		{Key: "gross_margin", Name: t("Gross margin"), Value: div(r.GrossProfit, r.Revenue.Total), Formula: t("(revenue - cost of sales) / revenue")},
		{Key: "net_margin", Name: t("Net margin"), Value: div(r.NetIncome, r.Revenue.Total), Formula: t("net income / revenue")},
		{Key: "current_ratio", Name: t("Current ratio"), Value: div(r.CurrentAssets.Total, r.CurrentLiabs.Total), Formula: t("current assets / current liabilities")},
		{Key: "debt_ratio", Name: t("Debt ratio"), Value: div(r.TotalLiabs, r.TotalAssets), Formula: t("total liabilities / total assets")},
		{Key: "roe", Name: t("Return on equity"), Value: div(r.NetIncome, avgEquity), Formula: roeFormula},
	}
}
