package finance

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// An import reads a bill export into entries, all or nothing: a row whose
// date or amount cannot be read stops the import with its line and column,
// and nothing is written. Three layouts are known by their header row:
// Alipay's bill export (支付宝交易记录明细; the 2023+ layout with 交易时间 …
// 交易订单号 and the older one with 交易创建时间 … 交易号), WeChat Pay's
// (微信支付账单明细: 交易时间 … 交易单号) and any CSV through a column
// mapping (a bank statement). The lines before the header (account,
// period, totals, notices) and after the table are skipped.

// mapping names the columns of a generic CSV.
type mapping struct {
	Date     string `json:"date"`
	Amount   string `json:"amount"` // signed: negative is an expense (unless type says otherwise)
	Income   string `json:"income"` // or two columns, one of them filled per row
	Expense  string `json:"expense"`
	Type     string `json:"type"` // a column saying 收入/支出, income/expense, 贷/借, credit/debit
	Category string `json:"category"`
	Note     string `json:"note"`
	Account  string `json:"account"`
}

// parsed is one imported row before it is stored.
type parsed struct {
	entry
	line int
}

type importResult struct {
	Format  string
	Rows    []parsed
	Skipped map[string]int // why rows were left out: neutral, closed, ...
}

// decodeText returns the file as UTF-8: a BOM is dropped; text that is not
// valid UTF-8 is read as GB18030 (a superset of GBK, what Chinese banks and
// Alipay write) unless the encoding is named.
func decodeText(raw []byte, encoding string) (string, error) {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	switch strings.ToLower(strings.ReplaceAll(encoding, "-", "")) {
	case "utf8":
		if !utf8.Valid(raw) {
			return "", fmt.Errorf("the file is not valid UTF-8; leave encoding out or give gbk")
		}
		return string(raw), nil
	case "gbk", "gb2312", "gb18030":
	case "", "auto":
		if utf8.Valid(raw) {
			return string(raw), nil
		}
	default:
		return "", fmt.Errorf("unknown encoding %q (utf-8, gbk, gb18030)", encoding)
	}
	b, err := simplifiedchinese.GB18030.NewDecoder().Bytes(raw)
	if err != nil {
		return "", fmt.Errorf("the file is neither UTF-8 nor GBK: %v", err)
	}
	return string(b), nil
}

// readRows splits CSV text into trimmed cells, forgiving the stray quotes
// and ragged rows of bill exports. Cells lose the spaces and tabs the
// platforms pad them with (a tab keeps Excel from showing an order number
// as 4.2E+27).
func readRows(text string) ([][]string, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord, r.LazyQuotes = -1, true
	var rows [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		for i := range rec {
			rec[i] = strings.Trim(rec[i], " \t\u3000")
		}
		rows = append(rows, rec)
	}
}

// layout is a known export's header: the first column name found among
// the choices names each role.
type layout struct {
	name    string
	account string
	roles   map[string][]string
	need    []string
}

var layouts = []layout{
	{name: "alipay", account: "alipay", need: []string{"date", "amount", "direction", "id"}, roles: map[string][]string{
		"date": {"交易时间", "交易创建时间", "付款时间"}, "amount": {"金额", "金额（元）", "金额(元)"}, "direction": {"收/支"},
		"id": {"交易订单号", "交易号"}, "category": {"交易分类"}, "party": {"交易对方"}, "item": {"商品说明", "商品名称"},
		"status": {"交易状态"}, "method": {"收/付款方式"}, "remark": {"备注"}}},
	{name: "wechat", account: "wechat", need: []string{"date", "amount", "direction", "id"}, roles: map[string][]string{
		"date": {"交易时间"}, "amount": {"金额(元)", "金额（元）"}, "direction": {"收/支"}, "id": {"交易单号"},
		"type": {"交易类型"}, "party": {"交易对方"}, "item": {"商品"}, "status": {"当前状态"}, "method": {"支付方式"}, "remark": {"备注"}}},
}

// findHeader returns the index of the first row holding every needed role.
func findHeader(rows [][]string, l layout) (int, map[string]int) {
	for i, row := range rows {
		cols := map[string]int{}
		for role, names := range l.roles {
			for _, n := range names {
				if j := indexOf(row, n); j >= 0 {
					cols[role] = j
					break
				}
			}
		}
		ok := true
		for _, n := range l.need {
			if _, has := cols[n]; !has {
				ok = false
			}
		}
		if ok {
			return i, cols
		}
	}
	return -1, nil
}

func indexOf(row []string, name string) int {
	for j, c := range row {
		if c == name {
			return j
		}
	}
	return -1
}

// parseImport reads rows in the given format (auto: Alipay or WeChat when
// their header is found, else the mapping). account and category fill
// what the file does not say.
func parseImport(rows [][]string, format string, m mapping, account, category string) (*importResult, error) {
	res := &importResult{Skipped: map[string]int{}}
	if format == "auto" || format == "" {
		format = "csv"
		for _, l := range layouts {
			if i, _ := findHeader(rows, l); i >= 0 {
				format = l.name
				break
			}
		}
	}
	res.Format = format
	if format == "csv" {
		return res, parseMapped(rows, m, account, category, res)
	}
	var l layout
	for _, x := range layouts {
		if x.name == format {
			l = x
		}
	}
	hi, cols := findHeader(rows, l)
	if hi < 0 {
		return nil, fieldErr{"format", fmt.Sprintf("no %s header row (%s) in the file", format, strings.Join(firsts(l), ", "))}
	}
	if account == "" {
		account = l.account
	}
	cell := func(row []string, role string) string {
		if j, ok := cols[role]; ok && j < len(row) {
			return row[j]
		}
		return ""
	}
	for i := hi + 1; i < len(rows); i++ {
		row, line := rows[i], i+1
		if len(row) <= cols["amount"] || isLabel(cell(row, "date")) {
			continue // the footer lines and blank rows
		}
		status := cell(row, "status")
		if strings.Contains(status, "关闭") || strings.Contains(status, "失败") {
			res.Skipped["closed or failed"]++
			continue
		}
		var kind string
		switch cell(row, "direction") {
		case "支出":
			kind = "expense"
		case "收入":
			kind = "income"
		default: // 不计收支, "/": transfers between own accounts, top-ups, refunds
			res.Skipped["neutral (不计收支)"]++
			continue
		}
		day, err := parseDay(cell(row, "date"))
		if err != nil {
			return nil, fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, l.roles["date"][0], err)}
		}
		cents, err := parseAmount(cell(row, "amount"))
		if err != nil {
			return nil, fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, l.roles["amount"][0], err)}
		}
		if cents < 0 {
			cents = -cents
		}
		cat := cell(row, "category")
		if cat == "" || cat == "/" {
			cat = category
		}
		note := strings.TrimSpace(strings.Join(nonEmpty(cell(row, "party"), cell(row, "item"), cell(row, "remark")), " "))
		id := cell(row, "id")
		e := entry{Kind: kind, Cents: cents, Category: cat, Account: account, Day: day, Note: note, Source: format}
		e.Hash = hashOf(format, id, kind, fmt.Sprint(cents))
		if id == "" {
			e.Hash = hashOf(append([]string{format}, row...)...)
		}
		res.Rows = append(res.Rows, parsed{entry: e, line: line})
	}
	return res, nil
}

func parseMapped(rows [][]string, m mapping, account, category string, res *importResult) error {
	if m.Date == "" {
		return fieldErr{"mapping", "mapping.date is required for a CSV that is not an Alipay or WeChat Pay export: the date column's header"}
	}
	if (m.Amount == "") == (m.Income == "" && m.Expense == "") {
		return fieldErr{"mapping", "give mapping.amount (one signed column) or mapping.income and/or mapping.expense, not both"}
	}
	hi := -1
	for i, row := range rows {
		if indexOf(row, m.Date) >= 0 {
			hi = i
			break
		}
	}
	if hi < 0 {
		return fieldErr{"mapping", fmt.Sprintf("no header row with a column %q (mapping.date)", m.Date)}
	}
	header := rows[hi]
	cols := map[string]int{}
	for role, name := range map[string]string{"date": m.Date, "amount": m.Amount, "income": m.Income, "expense": m.Expense, "type": m.Type, "category": m.Category, "note": m.Note, "account": m.Account} {
		if name == "" {
			continue
		}
		j := indexOf(header, name)
		if j < 0 {
			return fieldErr{"mapping", fmt.Sprintf("mapping.%s: no column %q in the header (%s)", role, name, strings.Join(header, ", "))}
		}
		cols[role] = j
	}
	cell := func(row []string, role string) string {
		if j, ok := cols[role]; ok && j < len(row) {
			return row[j]
		}
		return ""
	}
	seen := map[string]int{}
	for i := hi + 1; i < len(rows); i++ {
		row, line := rows[i], i+1
		if len(row) < len(header) || isLabel(cell(row, "date")) {
			res.Skipped["footer or blank"]++
			continue // 合计, Total, a blank line
		}
		day, err := parseDay(cell(row, "date"))
		if err != nil {
			return fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, m.Date, err)}
		}
		var cents int64
		var kind string
		if m.Amount != "" {
			if cents, err = parseAmount(cell(row, "amount")); err != nil {
				return fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, m.Amount, err)}
			}
			kind = "income"
			if cents < 0 {
				kind, cents = "expense", -cents
			}
		} else {
			in, out := cell(row, "income"), cell(row, "expense")
			var ci, co int64
			if in != "" && in != "-" {
				if ci, err = parseAmount(in); err != nil {
					return fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, m.Income, err)}
				}
			}
			if out != "" && out != "-" {
				if co, err = parseAmount(out); err != nil {
					return fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, m.Expense, err)}
				}
			}
			switch {
			case ci != 0 && co != 0:
				return fieldErr{"path", fmt.Sprintf("line %d: both %s and %s are filled", line, m.Income, m.Expense)}
			case ci != 0:
				kind, cents = "income", ci
			case co != 0:
				kind, cents = "expense", co
			default:
				res.Skipped["zero amount"]++
				continue
			}
			if cents < 0 {
				cents = -cents
			}
		}
		if m.Type != "" {
			switch t := strings.ToLower(cell(row, "type")); t {
			case "收入", "income", "贷", "credit", "cr", "收":
				kind = "income"
			case "支出", "expense", "借", "debit", "dr", "支":
				kind = "expense"
			default:
				return fieldErr{"path", fmt.Sprintf("line %d, column %s: %q is neither income nor expense (收入/支出, 贷/借)", line, m.Type, cell(row, "type"))}
			}
		}
		if cents == 0 {
			res.Skipped["zero amount"]++
			continue
		}
		e := entry{Kind: kind, Cents: cents, Category: category, Account: account, Day: day, Note: cell(row, "note"), Source: "csv"}
		if c := cell(row, "category"); c != "" {
			e.Category = c
		}
		if a := cell(row, "account"); a != "" {
			e.Account = a
		}
		// Two identical rows in one file are two purchases: the nth copy
		// gets its own hash, and the same file again gives the same ones.
		content := hashOf(append([]string{"csv"}, row...)...)
		seen[content]++
		e.Hash = hashOf(content, fmt.Sprint(seen[content]))
		res.Rows = append(res.Rows, parsed{entry: e, line: line})
	}
	return nil
}

// isLabel: a date cell with no digit is a footer's label (合计, Total, a
// rule line) or blank, not a row with a bad date.
func isLabel(s string) bool { return !strings.ContainsAny(s, "0123456789") }

// parseDay reads the date part of the layouts bill exports use.
func parseDay(s string) (string, error) {
	s = strings.TrimSpace(s)
	for _, l := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02", "2006/01/02 15:04:05", "2006/1/2 15:04:05", "2006/1/2 15:04", "2006/01/02", "2006/1/2", "20060102", "2006.01.02", "2006年1月2日", "2006-01-02T15:04:05Z07:00"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format("2006-01-02"), nil
		}
	}
	return "", fmt.Errorf("%q is not a date (2026-03-09, 2026/3/9, 20260309)", s)
}

func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" && s != "/" {
			out = append(out, s)
		}
	}
	return out
}

func firsts(l layout) []string {
	var out []string
	for _, n := range l.need {
		out = append(out, l.roles[n][0])
	}
	return out
}

// fieldErr is a bad input found while parsing, named by its argument.
type fieldErr struct{ field, msg string }

func (e fieldErr) Error() string { return e.msg }
