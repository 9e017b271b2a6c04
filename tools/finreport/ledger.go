package finreport

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Class is where an account goes in the statements.
type Class string

const (
	Cash             Class = "cash"
	CurrentAsset     Class = "current_asset"
	NonCurrentAsset  Class = "non_current_asset"
	ContraAsset      Class = "accumulated_depreciation" // credit-normal, reduces assets; its change is a non-cash charge
	CurrentLiability Class = "current_liability"
	Borrowing        Class = "borrowing" // short- or long-term loans: financing
	NonCurrentLiab   Class = "non_current_liability"
	Equity           Class = "equity"
	Revenue          Class = "revenue"
	OtherIncome      Class = "other_income"
	COGS             Class = "cogs"
	Expense          Class = "expense"
	Tax              Class = "income_tax"
)

// classWords map category texts and account names to classes; the first
// match wins, so specific words come first.
var classWords = []struct {
	class Class
	words []string
}{
	{ContraAsset, []string{"accumulated_depreciation", "accumulated depreciation", "accumulated amortization", "累计折旧", "累计摊销"}},
	{Cash, []string{"cash", "bank", "现金", "银行存款", "库存现金", "货币资金", "其他货币资金"}},
	{Tax, []string{"income_tax", "income tax", "所得税"}},
	{COGS, []string{"cogs", "cost_of_sales", "cost of sales", "cost of goods", "营业成本", "主营业务成本", "其他业务成本", "销售成本"}},
	{NonCurrentLiab, []string{"non_current_liability", "long-term", "long term", "bonds payable", "长期借款", "长期负债", "应付债券", "长期应付款", "非流动负债"}},
	{Borrowing, []string{"borrowing", "loan", "借款", "贷款"}},
	{CurrentLiability, []string{"current_liability", "liability", "liabilities", "payable", "accrued", "unearned", "负债", "应付", "预收", "应交税费", "应付职工薪酬"}},
	{NonCurrentAsset, []string{"non_current_asset", "fixed_asset", "fixed asset", "equipment", "property", "intangible", "固定资产", "无形资产", "长期股权投资", "在建工程", "非流动资产"}},
	{CurrentAsset, []string{"current_asset", "asset", "assets", "receivable", "inventory", "prepaid", "资产", "应收", "存货", "库存商品", "原材料", "预付", "交易性金融资产"}},
	{Equity, []string{"equity", "capital", "retained", "owner", "share", "所有者权益", "权益", "实收资本", "股本", "资本公积", "盈余公积", "未分配利润", "利润分配"}},
	{Expense, []string{"expense", "expenses", "cost", "费用", "管理费用", "销售费用", "财务费用", "营业外支出", "税金及附加", "折旧", "工资"}},
	{OtherIncome, []string{"other_income", "other income", "interest income", "营业外收入", "投资收益", "其他收益"}},
	{Revenue, []string{"revenue", "income", "sales", "收入", "营业收入", "主营业务收入", "其他业务收入", "销售收入"}},
}

func classify(text string) (Class, bool) {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "" {
		return "", false
	}
	for _, cw := range classWords {
		if string(cw.class) == t {
			return cw.class, true
		}
	}
	for _, cw := range classWords {
		for _, w := range cw.words {
			if strings.Contains(t, w) {
				return cw.class, true
			}
		}
	}
	return "", false
}

// creditNormal reports classes whose balances are shown as credit - debit.
func (c Class) creditNormal() bool {
	switch c {
	case ContraAsset, CurrentLiability, Borrowing, NonCurrentLiab, Equity, Revenue, OtherIncome:
		return true
	}
	return false
}

// Entry is one ledger line.
type Entry struct {
	Date    string
	Account string
	Class   Class
	Debit   decimal.Decimal
	Credit  decimal.Decimal
}

// columnRoles are the header words that identify each ledger column.
var columnRoles = map[string][]string{
	"date":      {"date", "日期", "记账日期", "凭证日期", "交易日期"},
	"account":   {"account", "account_name", "科目", "会计科目", "科目名称", "账户"},
	"debit":     {"debit", "dr", "借方", "借方金额", "借"},
	"credit":    {"credit", "cr", "贷方", "贷方金额", "贷"},
	"amount":    {"amount", "金额", "发生额"},
	"category":  {"category", "type", "class", "account_type", "类别", "类型", "科目类别", "分类"},
	"direction": {"direction", "side", "dr_cr", "借贷", "借贷方向", "方向"},
}

// readLedger reads and validates the ledger; errors name the bad cell.
func readLedger(r *table.Reader, mapping map[string]string) ([]Entry, []string, error) {
	idx, err := ledgerColumns(r, mapping)
	if err != nil {
		return nil, nil, err
	}
	var out []Entry
	var notes []string
	for {
		cells, row, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err // a table reading error is already a tool error
		}
		e, err := ledgerEntry(r, idx, cells, row)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, nil, tool.Invalid("path", "the ledger has no entries", "")
	}
	if idx["amount"] >= 0 && idx["debit"] < 0 {
		notes = append(notes, "single amount column read as debit-positive (credits negative) unless a direction column says otherwise")
	}
	return out, notes, nil
}

// ledgerColumns finds the column of each role (-1 when absent): as mapped,
// else by its usual header names. Date, account and the amounts are needed.
func ledgerColumns(r *table.Reader, mapping map[string]string) (map[string]int, error) {
	idx := map[string]int{}
	for role := range columnRoles {
		idx[role] = -1
	}
	for role, col := range mapping {
		if _, ok := columnRoles[role]; !ok {
			return nil, tool.Invalid("columns", fmt.Sprintf("unknown role %q", role), "roles: date, account, debit, credit, amount, category, direction")
		}
		found := false
		for i, h := range r.Header {
			if strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(col)) || strings.EqualFold(r.Names[i], col) {
				idx[role], found = i, true
			}
		}
		if !found {
			return nil, tool.Invalid("columns", fmt.Sprintf("column %q (for %s) not found", col, role), "columns: "+strings.Join(r.Header, ", "))
		}
	}
	for i, h := range r.Header {
		hl := strings.ToLower(strings.TrimSpace(h))
		for role, words := range columnRoles {
			if idx[role] >= 0 {
				continue
			}
			for _, w := range words {
				if hl == w {
					idx[role] = i
				}
			}
		}
	}
	if idx["date"] < 0 || idx["account"] < 0 {
		return nil, tool.Invalid("path", "the ledger needs a date column and an account column", "found columns: "+strings.Join(r.Header, ", ")+"; map them with columns: {\"date\": \"...\", \"account\": \"...\"}")
	}
	if idx["amount"] < 0 && (idx["debit"] < 0 || idx["credit"] < 0) {
		return nil, tool.Invalid("path", "the ledger needs debit and credit columns, or an amount column", "found columns: "+strings.Join(r.Header, ", "))
	}
	return idx, nil
}

// ledgerEntry reads the entry of one row.
func ledgerEntry(r *table.Reader, idx map[string]int, cells []string, row int) (Entry, error) {
	e := Entry{Account: cells[idx["account"]]}
	date, ok := table.ParseDate(cells[idx["date"]])
	if !ok {
		return e, tool.Invalid("path", fmt.Sprintf("%s: date %q is not a date", r.CellRef(row, idx["date"]), cells[idx["date"]]), "write dates like 2024-03-31")
	}
	e.Date = date[:10]
	if e.Account == "" {
		return e, tool.Invalid("path", fmt.Sprintf("%s: the account is empty", r.CellRef(row, idx["account"])), "")
	}
	catText := ""
	if idx["category"] >= 0 {
		catText = cells[idx["category"]]
	}
	cls, ok := classify(catText)
	if !ok {
		cls, ok = classify(e.Account)
	}
	if !ok {
		ref := r.CellRef(row, idx["account"])
		if catText != "" {
			ref = r.CellRef(row, idx["category"])
		}
		return e, tool.Invalid("path", fmt.Sprintf("%s: cannot tell what kind of account %q is", ref, e.Account),
			"add a category column with one of: cash, current_asset, non_current_asset, accumulated_depreciation, current_liability, borrowing, non_current_liability, equity, revenue, other_income, cogs, expense, income_tax (Chinese names such as 资产/负债/收入/费用 work too)")
	}
	e.Class = cls
	var err error
	if idx["debit"] >= 0 && idx["credit"] >= 0 {
		if e.Debit, err = ledgerAmount(r, cells[idx["debit"]], row, idx["debit"], "debit"); err != nil {
			return e, err
		}
		e.Credit, err = ledgerAmount(r, cells[idx["credit"]], row, idx["credit"], "credit")
		return e, err
	}
	amt, err := ledgerAmount(r, cells[idx["amount"]], row, idx["amount"], "amount")
	if err != nil {
		return e, err
	}
	dir := ""
	if idx["direction"] >= 0 {
		dir = strings.ToLower(strings.TrimSpace(cells[idx["direction"]]))
	}
	switch dir {
	case "credit", "cr", "c", "贷", "贷方":
		amt = amt.Neg()
	case "", "debit", "dr", "d", "借", "借方":
	default:
		return e, tool.Invalid("path", fmt.Sprintf("%s: direction %q is neither debit nor credit", r.CellRef(row, idx["direction"]), dir), "use debit/credit or 借/贷")
	}
	// A signed amount is debit-positive.
	if amt.IsNegative() {
		e.Credit = amt.Neg()
	} else {
		e.Debit = amt
	}
	return e, nil
}

// ledgerAmount reads the amount s in cell (row, col); empty or "-" is zero and
// parentheses mean negative.
func ledgerAmount(r *table.Reader, s string, row, col int, what string) (decimal.Decimal, error) {
	s = strings.TrimSpace(strings.NewReplacer(",", "", "¥", "", "￥", "", "$", "", " ", "").Replace(s))
	if s == "" || s == "-" {
		return decimal.Zero, nil
	}
	neg := false
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s, neg = s[1:len(s)-1], true
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, tool.Invalid("path", fmt.Sprintf("%s: %s %q is not an amount", r.CellRef(row, col), what, s), "amounts are plain numbers like 1234.56")
	}
	if neg {
		d = d.Neg()
	}
	return d, nil
}
