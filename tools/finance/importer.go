package finance

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// An import reads a bill export into entries, all or nothing: a row whose
// date or amount cannot be read stops the import with its line and column,
// and nothing is written, and so does a file that yields no entry at all.
// Four layouts are known by their header row: Alipay's bill export
// (支付宝交易记录明细; the 2023+ layout with 交易时间 … 交易订单号 and the
// older one with 交易创建时间 … 交易号), WeChat Pay's (微信支付账单明细:
// 交易时间 … 交易单号), JD's (京东交易流水: 交易时间, 商户名称 … 交易订单号)
// and any other table through a column mapping (a bank statement). The lines
// before the header (account, period, totals, notices) and after the table
// are skipped.

// mapping names the columns of a generic CSV.
type mapping struct {
	Date      string `json:"date"`
	Amount    string `json:"amount"` // signed: negative is an expense (unless type says otherwise)
	Income    string `json:"income"` // or two columns, one of them filled per row
	Expense   string `json:"expense"`
	Type      string `json:"type"` // a column saying 收入/支出/不计收支, income/expense, 贷/借, credit/debit
	Category  string `json:"category"`
	Note      string `json:"note"`
	Account   string `json:"account"`
	DateOrder string `json:"date_order"` // dmy or mdy, for 05/01/2024 when the file does not settle it
}

// parsed is one imported row before it is stored.
type parsed struct {
	entry
	line int
}

type importResult struct {
	Format  string
	Rows    []parsed
	Skipped map[string]int // why rows were left out: closed, zero amount, ...
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

// kindWords are the words a type or 收/支 cell says a row's kind with.
// Neutral is 不计收支: money that moved between the person's own accounts
// or came back (transfers, top-ups, refunds); it is kept but counted as
// neither income nor expense.
var kindWords = map[string]string{
	"收入": "income", "收": "income", "income": "income", "贷": "income", "credit": "income", "cr": "income",
	"支出": "expense", "支": "expense", "expense": "expense", "借": "expense", "debit": "expense", "dr": "expense",
	"不计收支": "neutral", "中性交易": "neutral", "neutral": "neutral", "/": "neutral",
}

// kindOf reads a type cell ("" when it says no kind, or two): one word, or
// the same kind in two languages as BOCOM writes it ("贷 Cr", "借 Dr").
func kindOf(s string) string {
	kind := ""
	for _, w := range strings.Fields(strings.ToLower(s)) {
		k := kindWords[w]
		if k == "" || kind != "" && k != kind {
			return ""
		}
		kind = k
	}
	return kind
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
	{name: "alipay", account: "alipay", need: []string{"date", "amount", "direction", "id", "party"}, roles: map[string][]string{
		"date": {"交易时间", "交易创建时间", "付款时间"}, "amount": {"金额", "金额（元）", "金额(元)"}, "direction": {"收/支"},
		"id": {"交易订单号", "交易号"}, "category": {"交易分类"}, "party": {"交易对方"}, "item": {"商品说明", "商品名称"},
		"status": {"交易状态"}, "method": {"收/付款方式"}, "remark": {"备注"}}},
	{name: "wechat", account: "wechat", need: []string{"date", "amount", "direction", "id"}, roles: map[string][]string{
		"date": {"交易时间"}, "amount": {"金额(元)", "金额（元）"}, "direction": {"收/支"}, "id": {"交易单号"},
		"type": {"交易类型"}, "party": {"交易对方"}, "item": {"商品"}, "status": {"当前状态"}, "method": {"支付方式"}, "remark": {"备注"}}},
	{name: "jd", account: "jd", need: []string{"date", "amount", "direction", "id", "party"}, roles: map[string][]string{
		"date": {"交易时间"}, "amount": {"金额"}, "direction": {"收/支"}, "id": {"交易订单号"}, "party": {"商户名称"},
		"item": {"交易说明"}, "category": {"交易分类"}, "status": {"交易状态"}, "method": {"收/付款方式"}, "remark": {"备注"}}},
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

// parseImport reads rows in the given format (auto: the mapping when one
// is given, else a known layout whose header is found). account and category fill what
// the file does not say.
func parseImport(sh sheet, format string, m mapping, account, category string) (*importResult, error) {
	res := &importResult{Skipped: map[string]int{}}
	if format == "auto" || format == "" {
		format = "csv"
		for _, l := range layouts {
			if m.Date != "" {
				break // a mapping given says how to read the file
			}
			if i, _ := findHeader(sh.rows, l); i >= 0 {
				format = l.name
				break
			}
		}
	}
	res.Format = format
	var hi int
	var err error
	if format == "csv" {
		hi, err = parseMapped(sh, m, account, category, res)
	} else {
		hi, err = parseLayout(sh, format, account, category, res)
	}
	if err != nil {
		return nil, err
	}
	if len(res.Rows) == 0 {
		// A file that yields nothing is a misread file or the wrong
		// file, never a successful import.
		why := fmt.Sprintf("no rows follow the header on line %d", sh.lines[hi])
		if n := len(sh.rows) - hi - 1; n > 0 {
			why = fmt.Sprintf("none of the %d rows after the header on line %d is an entry (%s)", n, sh.lines[hi], skippedText(res.Skipped))
		}
		return nil, fieldErr{"path", "nothing to import: " + why}
	}
	return res, nil
}

// skippedText says why rows were left out: "2 closed or failed, 1 zero amount".
func skippedText(s map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(s) {
		parts = append(parts, fmt.Sprintf("%d %s", s[k], k))
	}
	if len(parts) == 0 {
		return "none left out"
	}
	return strings.Join(parts, ", ")
}

// parseLayout reads a known export; it returns the header's row index.
func parseLayout(sh sheet, format, account, category string, res *importResult) (int, error) {
	var l layout
	for _, x := range layouts {
		if x.name == format {
			l = x
		}
	}
	rows := sh.rows
	hi, cols := findHeader(rows, l)
	if hi < 0 {
		return 0, fieldErr{"format", fmt.Sprintf("no %s header row (%s) in the file", format, strings.Join(firsts(l), ", "))}
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
	seen := map[string]int{}
	for i := hi + 1; i < len(rows); i++ {
		row, line := rows[i], sh.lines[i]
		if len(row) <= cols["amount"] || isLabel(cell(row, "date")) {
			res.Skipped["footer or blank"]++
			continue
		}
		status := cell(row, "status")
		if strings.Contains(status, "关闭") || strings.Contains(status, "失败") {
			res.Skipped["closed or failed"]++
			continue
		}
		// 支出, 收入, else neutral: 不计收支, WeChat's "/" and the old
		// Alipay layout's empty cell (transfers, top-ups, refunds).
		kind := kindOf(cell(row, "direction"))
		if kind == "" {
			kind = "neutral"
		}
		day, err := parseDay(cell(row, "date"), "")
		if err != nil {
			return 0, fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, l.roles["date"][0], err)}
		}
		cents, err := netAmount(cell(row, "amount"))
		if err != nil {
			return 0, fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, l.roles["amount"][0], err)}
		}
		if cents < 0 {
			cents = -cents
		}
		if cents == 0 {
			res.Skipped["zero amount"]++ // fully refunded
			continue
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
		// An order number is unique in a real export; a file that repeats
		// one still has two rows (the nth copy gets its own hash, the
		// first keeps the one earlier imports gave it).
		if seen[e.Hash]++; seen[e.Hash] > 1 {
			e.Hash = hashOf(e.Hash, fmt.Sprint(seen[e.Hash]))
		}
		res.Rows = append(res.Rows, parsed{entry: e, line: line})
	}
	return hi, nil
}

// parseMapped reads a table through the mapping; it returns the header's
// row index.
func parseMapped(sh sheet, m mapping, account, category string, res *importResult) (int, error) {
	if m.Date == "" {
		return 0, fieldErr{"mapping", "mapping.date is required for a table that is not an Alipay, WeChat Pay or JD export: the date column's header"}
	}
	if (m.Amount == "") == (m.Income == "" && m.Expense == "") {
		return 0, fieldErr{"mapping", "give mapping.amount (one signed column) or mapping.income and/or mapping.expense, not both"}
	}
	rows := sh.rows
	hi, cols, last, err := mappedColumns(rows, m)
	if err != nil {
		return 0, err
	}
	cell := func(row []string, role string) string {
		if j, ok := cols[role]; ok && j < len(row) {
			return row[j]
		}
		return ""
	}
	var dates []string
	for _, row := range rows[hi+1:] {
		dates = append(dates, cell(row, "date"))
	}
	order, err := dateOrder(dates, m.DateOrder)
	if err != nil {
		return 0, fieldErr{"mapping", fmt.Sprintf("column %s: %v", m.Date, err)}
	}
	seen := map[string]int{}
	for i := hi + 1; i < len(rows); i++ {
		row, line := rows[i], sh.lines[i]
		// A footer (合计, Total, a rule line) has no date; a data row may
		// end early (the empty cells a bank leaves off), but not before
		// its date and amount.
		if len(row) <= last || isLabel(cell(row, "date")) {
			res.Skipped["footer or blank"]++
			continue
		}
		day, err := parseDay(cell(row, "date"), order)
		if err != nil {
			return 0, fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, m.Date, err)}
		}
		signed, err := mappedAmount(row, cell, m, line)
		if err != nil {
			return 0, err
		}
		kind, cents := "income", signed
		if signed < 0 {
			kind, cents = "expense", -signed
		}
		if m.Type != "" {
			if kind = kindOf(cell(row, "type")); kind == "" {
				return 0, fieldErr{"path", fmt.Sprintf("line %d, column %s: %q is neither income, expense nor neutral (收入/支出/不计收支, 贷/借, credit/debit)", line, m.Type, cell(row, "type"))}
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
	return hi, nil
}

// mappedColumns finds the header row of a mapped table (the first with the
// date column) and each mapped role's column in it; last is the rightmost
// column a data row needs (date and amounts).
func mappedColumns(rows [][]string, m mapping) (hi int, cols map[string]int, last int, err error) {
	hi = -1
	for i, row := range rows {
		if indexOf(row, m.Date) >= 0 {
			hi = i
			break
		}
	}
	if hi < 0 {
		return 0, nil, 0, fieldErr{"mapping", fmt.Sprintf("no header row with a column %q (mapping.date)", m.Date)}
	}
	header := rows[hi]
	cols = map[string]int{}
	for role, name := range map[string]string{"date": m.Date, "amount": m.Amount, "income": m.Income, "expense": m.Expense, "type": m.Type, "category": m.Category, "note": m.Note, "account": m.Account} {
		if name == "" {
			continue
		}
		j := indexOf(header, name)
		if j < 0 {
			return 0, nil, 0, fieldErr{"mapping", fmt.Sprintf("mapping.%s: no column %q in the header (%s)", role, name, strings.Join(header, ", "))}
		}
		cols[role] = j
		if role == "date" || role == "amount" || role == "income" || role == "expense" {
			last = max(last, j)
		}
	}
	return hi, cols, last, nil
}

// mappedAmount is a mapped row's amount with income positive, from the one
// signed column or from the income and expense columns.
func mappedAmount(row []string, cell func([]string, string) string, m mapping, line int) (int64, error) {
	var signed int64
	var err error
	if m.Amount != "" {
		if signed, err = netAmount(cell(row, "amount")); err != nil {
			return 0, fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, m.Amount, err)}
		}
	} else {
		in, out := cell(row, "income"), cell(row, "expense")
		var ci, co int64
		if in != "" && in != "-" {
			if ci, err = netAmount(in); err != nil {
				return 0, fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, m.Income, err)}
			}
		}
		if out != "" && out != "-" {
			if co, err = netAmount(out); err != nil {
				return 0, fieldErr{"path", fmt.Sprintf("line %d, column %s: %v", line, m.Expense, err)}
			}
		}
		if ci != 0 && co != 0 {
			return 0, fieldErr{"path", fmt.Sprintf("line %d: both %s and %s are filled", line, m.Income, m.Expense)}
		}
		// A negative expense is money back (a card's refund or
		// repayment), a negative income money out.
		signed = ci - co
	}
	return signed, nil
}

// isLabel: a date cell with no digit is a footer's label (合计, Total, a
// rule line) or blank, not a row with a bad date.
func isLabel(s string) bool { return !strings.ContainsAny(s, "0123456789") }

// netAmount reads an amount cell. JD writes a partly refunded payment as
// "131.77(已退款89.84)" and counts what is left (its own 支出 total does),
// and a fully refunded one as "223.10(已全额退款)": nothing left.
func netAmount(s string) (int64, error) {
	paid, note, ok := strings.Cut(s, "(")
	if !ok || !strings.HasSuffix(note, ")") {
		return parseAmount(s)
	}
	c, err := parseAmount(paid)
	if err != nil {
		return 0, err
	}
	note = strings.TrimSuffix(note, ")")
	if note == "已全额退款" {
		return 0, nil
	}
	back, ok := strings.CutPrefix(note, "已退款")
	if !ok {
		return 0, fmt.Errorf("%q is not a decimal amount (e.g. 12.50)", s)
	}
	r, err := parseAmount(back)
	if err != nil || r < 0 || r > c || c < 0 {
		return 0, fmt.Errorf("%q: the refund is not an amount within the payment", s)
	}
	return c - r, nil
}

// numericDate is a date written with its day and month as bare numbers
// before a four-digit year: 31/03/2025 (HSBC), 05/31/2023 (TD), 1.2.2024.
var numericDate = regexp.MustCompile(`^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(.*)$`)

// dateOrder decides how a column's numeric dates read: day first when one
// of them has a first part over 12, month first when one has a second part
// over 12; the mapping's date_order when it is given or nothing in the
// file settles it. "" when the column has no such dates.
func dateOrder(cells []string, given string) (string, error) {
	switch given {
	case "dmy", "mdy":
		return given, nil
	case "":
	default:
		return "", fmt.Errorf("date_order %q is neither dmy (31/03/2025) nor mdy (03/31/2025)", given)
	}
	var example, dmy, mdy string
	for _, c := range cells {
		p := numericDate.FindStringSubmatch(c)
		if p == nil {
			continue
		}
		example = c
		a, _ := strconv.Atoi(p[1])
		b, _ := strconv.Atoi(p[2])
		if a > 12 && dmy == "" {
			dmy = c
		}
		if b > 12 && mdy == "" {
			mdy = c
		}
	}
	switch {
	case example == "":
		return "", nil
	case dmy != "" && mdy != "":
		return "", fmt.Errorf("dates read both day first (%s) and month first (%s)", dmy, mdy)
	case dmy != "":
		return "dmy", nil
	case mdy != "":
		return "mdy", nil
	}
	return "", fmt.Errorf("dates like %s read day first or month first; give mapping.date_order: dmy or mdy", example)
}

// parseDay reads the date part of the layouts bill exports use; order
// (dmy, mdy) says how a numeric 05/01/2024 reads.
func parseDay(s, order string) (string, error) {
	s = strings.TrimSpace(s)
	if p := numericDate.FindStringSubmatch(s); p != nil && order != "" {
		d, _ := strconv.Atoi(p[1])
		m, _ := strconv.Atoi(p[2])
		if order == "mdy" {
			d, m = m, d
		}
		s = fmt.Sprintf("%s-%02d-%02d%s", p[3], m, d, p[4])
	}
	for _, l := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02", "2006/01/02 15:04:05", "2006/1/2 15:04:05", "2006/1/2 15:04", "2006/01/02", "2006/1/2", "20060102", "2006.01.02", "2006年1月2日", "2006-01-02T15:04:05Z07:00"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format("2006-01-02"), nil
		}
	}
	return "", fmt.Errorf("%q is not a date (2026-03-09, 2026/3/9, 20260309; 09/03/2026 with a day-first or month-first file)", s)
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
