// Package finance is the `finance` tool: personal bookkeeping in the store.
// Entries (income or expense, category, account, date, note) hold amounts
// as integer cents, read from integer cents or an exact decimal string and
// never through a float; sums are integer, percentages exact decimals.
// summary totals by month, category and account with month-over-month
// change; budgets are per category and month, checked against spending.
// import reads Alipay, WeChat Pay and JD bill exports and any CSV or xlsx
// through a column mapping (UTF-8 or GBK), and a content hash per row makes
// a second import of the same file add nothing; 不计收支 rows are kept as
// neutral, in no total. export writes an xlsx whose totals
// are live formulas. Deletes go to the trash and can be restored.
//
// It keeps one currency (a label from config) and does not convert, sync
// with banks or categorise by itself.
package finance

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type fintool struct {
	cfg Config
	st  tool.Records
	sb  *sandbox.Sandbox
	loc *time.Location
	now func() time.Time
}

// New builds the finance tool from the tools.finance section.
func New(d *tool.Deps) (tool.Tool, error) { return lifecycle.New(d) }

// lifecycle decodes the tools.finance section over the defaults, then
// provisions; its Build keeps the tool's state, which the tests drive.
var lifecycle = tool.Stateful[Config, *fintool]{Name: "finance", Defaults: DefaultConfig, Provision: provision}

func provision(d *tool.Deps, cfg Config) (*fintool, tool.Tool, error) {
	loc, err := d.OpenRecords("finance", cfg.Timezone, migrations...)
	if err != nil {
		return nil, tool.Tool{}, err
	}
	f := &fintool{cfg: cfg, st: d.Store, sb: d.Sandbox, loc: loc, now: time.Now}
	kind := tool.Param{Name: "kind", Type: tool.String, Enum: tool.EnumValues("expense", "income", "neutral"), Description: "expense, income, or neutral (不计收支: imported transfers and refunds, in no total)."}
	category := tool.Param{Name: "category", Type: tool.String, Description: "Category (food, 交通, salary ...)."}
	account := tool.Param{Name: "account", Type: tool.String, Description: "Account (default " + cfg.Account + ")."}
	from := tool.Param{Name: "from", Type: tool.String, Description: "First day or month (2026-03-01, 2026-03)."}
	to := tool.Param{Name: "to", Type: tool.String, Description: "Last day or month, inclusive."}
	month := tool.Param{Name: "month", Type: tool.String, Description: "YYYY-MM (default: this month)."}
	id := tool.Param{Name: "id", Type: tool.String, Required: true, Description: "The entry id (from add or list)."}
	addKind := tool.Param{Name: "kind", Type: tool.String, Required: true, Enum: tool.EnumValues("expense", "income"), Description: "expense or income."}
	addCat := category
	addCat.Required = true
	t := tool.Tool{
		Name:  "finance",
		Title: "Personal finance",
		Description: "Personal bookkeeping: record income and expenses by category and account, list, monthly summaries with " +
			"month-over-month change, budgets, import Alipay/WeChat Pay/JD bills and bank CSV or xlsx statements, xlsx export.",
		Actions: []tool.Action{
			{Name: "add", Description: "Record one income or expense.", Level: tool.Write, Timeout: tool.Fast, Handler: f.add, Params: []tool.Param{
				addKind,
				{Name: "amount", Type: tool.String, Description: "Exact decimal, e.g. \"25.50\" (or give amount_cents)."},
				{Name: "amount_cents", Type: tool.Integer, Min: tool.Ptr(1), Description: "Amount in integer cents (2550 = 25.50)."},
				addCat, account,
				{Name: "date", Type: tool.String, Description: "YYYY-MM-DD (default today)."},
				{Name: "note", Type: tool.String, Description: "What it was."},
			}},
			{Name: "list", Description: "Entries in a range, filtered.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: f.list, Params: []tool.Param{from, to, kind, category, account}},
			{Name: "summary", Description: "Totals by month, category and account, with the change on the month before.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: f.summary, Params: []tool.Param{from, to, account}},
			{Name: "budget_set", Description: "Set a category's monthly budget (one month, or every month).", Level: tool.Write, Timeout: tool.Fast, Handler: f.budgetSet, Params: []tool.Param{
				addCat,
				{Name: "amount", Type: tool.String, Description: "Exact decimal limit (or amount_cents)."},
				{Name: "amount_cents", Type: tool.Integer, Min: tool.Ptr(0), Description: "Limit in integer cents."},
				{Name: "month", Type: tool.String, Description: "YYYY-MM, or \"*\" for every month (default \"*\")."},
			}},
			{Name: "budget_check", Description: "Spent and left per budgeted category in a month.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: f.budgetCheck, Params: []tool.Param{month}},
			{Name: "delete", Description: "Delete an entry to the trash.", Level: tool.Write, Timeout: tool.Fast, Handler: f.delete, Params: []tool.Param{id}},
			{Name: "restore", Description: "Bring a deleted entry back.", Level: tool.Write, Timeout: tool.Fast, Handler: f.restore, Params: []tool.Param{id}},
			{Name: "import", Description: "Import a bill export, CSV or xlsx; rows seen before are skipped.", Level: tool.Write, Timeout: tool.Normal, Handler: f.importFile, Params: []tool.Param{
				{Name: "path", Type: tool.String, Required: true, Description: "The CSV or xlsx file."},
				{Name: "format", Type: tool.String, Enum: tool.EnumValues("auto", "alipay", "wechat", "jd", "csv"), Default: "auto", Description: "auto uses mapping when given, else finds an Alipay, WeChat Pay or JD header; csv uses mapping."},
				{Name: "mapping", Type: tool.Object, Description: "For csv: column headers by role.", Properties: []tool.Param{
					{Name: "date", Type: tool.String, Description: "Date column."},
					{Name: "amount", Type: tool.String, Description: "Signed amount column (negative: expense)."},
					{Name: "income", Type: tool.String, Description: "Income (credit) column."},
					{Name: "expense", Type: tool.String, Description: "Expense (debit) column."},
					{Name: "type", Type: tool.String, Description: "Column saying 收入/支出/不计收支, 贷/借 or credit/debit."},
					{Name: "category", Type: tool.String, Description: "Category column."},
					{Name: "note", Type: tool.String, Description: "Note column."},
					{Name: "account", Type: tool.String, Description: "Account column."},
					{Name: "date_order", Type: tool.String, Enum: tool.EnumValues("dmy", "mdy"), Description: "How 05/01/2024 reads, when no date in the file settles it."},
				}},
				{Name: "encoding", Type: tool.String, Enum: tool.EnumValues("auto", "utf-8", "gbk", "gb18030"), Default: "auto", Description: "auto: UTF-8 when valid, else GBK."},
				{Name: "account", Type: tool.String, Description: "Account for the rows (default alipay, wechat, jd, or " + cfg.Account + ")."},
				{Name: "category", Type: tool.String, Description: "Category for rows the file gives none (default uncategorized)."},
			}},
			{Name: "export", Description: "Export entries to xlsx with formula totals.", Level: tool.Write, Timeout: tool.Normal, Handler: f.export, Params: []tool.Param{
				from, to,
				tool.OutputParam("Default outputs/finance.xlsx."),
				tool.Overwrite,
			}},
		},
		Examples: []string{
			"I spent 20 dollars on taxi",
			"how much did I spend on groceries this month",
			"set a monthly food budget of 2000",
			"import my bank statement csv",
			"import my alipay bill",
			"记一笔打车费25元",
			"本月支出汇总",
			"设置每月预算",
			"工资收入记一笔",
			"看看这个月花了多少钱",
			"导入微信账单",
		},
	}
	return f, t, nil
}

// kind is what the records skeleton calls a finance entry.
var kind = records.Kind{Tool: "finance", Component: "finance", Item: "entry", Noun: "finance entry", Hint: "list shows the entries and their ids"}

func (f *fintool) needStore() error { return kind.NeedStore(f.st) }

func (f *fintool) today() string { return f.now().In(f.loc).Format(records.DayLayout) }

// amountOf reads amount or amount_cents, exactly one of them.
func amountOf(a tool.Args, allowZero bool) (int64, error) {
	field, err := a.ExactlyOne("give the amount as a decimal string (\"25.50\") or as amount_cents (2550)", "amount", "amount_cents")
	if err != nil {
		return 0, err
	}
	var c int64
	if field == "amount" {
		if c, err = parseAmount(a.String("amount")); err != nil {
			return 0, tool.Invalid("amount", err.Error(), "e.g. \"25.50\"")
		}
	} else {
		c = int64(a.Int("amount_cents", 0))
	}
	if c < 0 || (c == 0 && !allowZero) {
		return 0, tool.Invalid(field, fmt.Sprintf("%s must be positive (kind says income or expense)", field), "")
	}
	if c > maxCents {
		return 0, tool.Invalid(field, field+" is too large", "")
	}
	return c, nil
}

func view(e *entry) map[string]any {
	v := map[string]any{"id": e.ID, "kind": e.Kind, "amount": money(e.Cents), "amount_cents": e.Cents, "category": e.Category, "account": e.Account, "date": e.Day}
	if e.Note != "" {
		v["note"] = e.Note
	}
	if e.Source != "" {
		v["source"] = e.Source
	}
	return v
}

func (f *fintool) add(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := f.needStore(); err != nil {
		return nil, err
	}
	a := call.Args
	cents, err := amountOf(a, false)
	if err != nil {
		return nil, err
	}
	e := &entry{ID: records.NewID("f"), Kind: a.String("kind"), Cents: cents, Category: strings.TrimSpace(a.String("category")),
		Account: f.cfg.Account, Day: f.today(), Note: a.String("note"), Created: f.now().UnixMilli()}
	e.Hash = e.ID
	if e.Kind != "income" && e.Kind != "expense" {
		return nil, tool.Invalid("kind", fmt.Sprintf("kind %q is neither income nor expense", e.Kind), "")
	}
	if e.Category == "" {
		return nil, tool.Invalid("category", "category is empty", "say what it was for: food, transport, salary")
	}
	if a.Has("account") {
		e.Account = strings.TrimSpace(a.String("account"))
	}
	if e.Account == "" {
		return nil, tool.Invalid("account", "account is empty", "leave it out for "+f.cfg.Account)
	}
	if a.Has("date") {
		d, err := records.Day("date", a.String("date"))
		if err != nil {
			return nil, err
		}
		e.Day = d
	}
	if err := f.st.Tx(ctx, func(tx *sql.Tx) error { return insertEntry(tx, e) }); err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Recorded %s %s %s (%s, %s) on %s as %s.", e.Kind, money(e.Cents), f.cfg.Currency, e.Category, e.Account, e.Day, e.ID), Data: view(e)}, nil
}

// rangeFilter is the store check, then the filter of the days a's from and
// to give (days or months, to inclusive).
func (f *fintool) rangeFilter(a tool.Args) (filter, error) {
	if err := f.needStore(); err != nil {
		return filter{}, err
	}
	from, to, err := records.Range(a.String("from"), a.String("to"))
	return filter{From: from, To: to}, err
}

func (f *fintool) list(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	a := call.Args
	fl, err := f.rangeFilter(a)
	if err != nil {
		return nil, err
	}
	fl.Kind, fl.Category, fl.Account = a.String("kind"), a.String("category"), a.String("account")
	es, err := loadEntries(f.st.Read(), fl, f.cfg.MaxList+1)
	if err != nil {
		return nil, err
	}
	more := len(es) > f.cfg.MaxList
	if more {
		es = es[:f.cfg.MaxList]
	}
	out := make([]map[string]any, 0, len(es))
	var sum totals
	for _, e := range es {
		out = append(out, view(e))
		sum.add(e)
	}
	data := map[string]any{"entries": out, "income": money(sum.in), "expense": money(sum.ex), "currency": f.cfg.Currency}
	s := fmt.Sprintf("%s: income %s, expense %s %s.", wording.Count(len(out), "entry", "entries"), money(sum.in), money(sum.ex), f.cfg.Currency)
	if sum.nt != 0 {
		data["neutral"] = money(sum.nt)
		s += fmt.Sprintf(" Not counted (neutral): %s.", money(sum.nt))
	}
	if more {
		data["truncated"] = true
		s += fmt.Sprintf(" Only the first %d; narrow from/to.", f.cfg.MaxList)
	}
	return &tool.Result{Summary: s, Data: data}, nil
}

// totals sums entries by kind; neutral (不计收支: own transfers,
// refunds) is kept apart and is neither income nor expense.
type totals struct{ in, ex, nt int64 }

func (t *totals) add(e *entry) {
	switch e.Kind {
	case "income":
		t.in += e.Cents
	case "expense":
		t.ex += e.Cents
	default:
		t.nt += e.Cents
	}
}

func (t totals) view() map[string]any {
	v := map[string]any{"income": money(t.in), "expense": money(t.ex), "net": money(t.in - t.ex)}
	if t.nt != 0 {
		v["neutral"] = money(t.nt)
	}
	return v
}

func (f *fintool) summary(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	fl, err := f.rangeFilter(call.Args)
	if err != nil {
		return nil, err
	}
	fl.Account = call.Args.String("account")
	es, err := loadEntries(f.st.Read(), fl, 0)
	if err != nil {
		return nil, err
	}
	var all totals
	months, cats, accts := map[string]*totals{}, map[string]*totals{}, map[string]*totals{}
	get := func(m map[string]*totals, k string) *totals {
		if m[k] == nil {
			m[k] = &totals{}
		}
		return m[k]
	}
	for _, e := range es {
		get(months, e.Day[:7]).add(e)
		get(cats, e.Kind+"\x00"+e.Category).add(e)
		get(accts, e.Account).add(e)
		all.add(e)
	}
	// Every calendar month from the range's first (with no from: the
	// first with entries) to the last with entries is listed, an empty
	// one too, and compared with the calendar month before it: a quiet
	// month is a change, not a month to skip over. The first is compared
	// with the month before it, read for that; with no from, nothing
	// comes before it.
	var byMonth []map[string]any
	var prev *totals
	if len(es) > 0 {
		first, _ := time.Parse("2006-01", es[0].Day[:7])
		last, _ := time.Parse("2006-01", es[len(es)-1].Day[:7])
		if fl.From != "" {
			first, _ = time.Parse("2006-01", fl.From[:7])
			before, err := loadEntries(f.st.Read(), filter{From: first.AddDate(0, -1, 0).Format("2006-01-02"), To: first.Format("2006-01-02"), Account: fl.Account}, 0)
			if err != nil {
				return nil, err
			}
			prev = &totals{}
			for _, e := range before {
				prev.add(e)
			}
		}
		for m := first; !m.After(last); m = m.AddDate(0, 1, 0) {
			t := get(months, m.Format("2006-01"))
			v := t.view()
			v["month"] = m.Format("2006-01")
			if prev != nil {
				v["expense_change"] = money(t.ex - prev.ex)
				v["income_change"] = money(t.in - prev.in)
				if p := percent(prev.ex, t.ex); p != "" {
					v["expense_change_percent"] = p
				}
			}
			prev = t
			byMonth = append(byMonth, v)
		}
	}
	var byCat []map[string]any
	for _, k := range sortedKeys(cats) {
		kind, cat, _ := strings.Cut(k, "\x00")
		t := cats[k]
		byCat = append(byCat, map[string]any{"kind": kind, "category": cat, "amount": money(t.in + t.ex + t.nt)})
	}
	var byAcct []map[string]any
	for _, k := range sortedKeys(accts) {
		v := accts[k].view()
		v["account"] = k
		byAcct = append(byAcct, v)
	}
	data := all.view()
	data["currency"], data["entries"], data["by_month"], data["by_category"], data["by_account"] = f.cfg.Currency, len(es), byMonth, byCat, byAcct
	return &tool.Result{Summary: fmt.Sprintf("%s over %s: income %s, expense %s, net %s %s.", wording.Count(len(es), "entry", "entries"), wording.Count(len(byMonth), "month", "months"), money(all.in), money(all.ex), money(all.in-all.ex), f.cfg.Currency), Data: data}, nil
}

func (f *fintool) budgetSet(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := f.needStore(); err != nil {
		return nil, err
	}
	a := call.Args
	cat := strings.TrimSpace(a.String("category"))
	if cat == "" {
		return nil, tool.Invalid("category", "category is empty", "")
	}
	mo := strings.TrimSpace(a.StringOr("month", "*"))
	if mo != "*" {
		if _, err := time.Parse("2006-01", mo); err != nil {
			return nil, tool.Invalid("month", fmt.Sprintf("%q is not a month (YYYY-MM) or \"*\"", mo), "")
		}
	}
	cents, err := amountOf(a, true)
	if err != nil {
		return nil, err
	}
	err = f.st.Tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO finance_budgets (category, month, amount_cents, updated_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (category, month) DO UPDATE SET amount_cents = excluded.amount_cents, updated_at = excluded.updated_at`, cat, mo, cents, f.now().Unix())
		return err
	})
	if err != nil {
		return nil, err
	}
	when := "every month"
	if mo != "*" {
		when = mo
	}
	return &tool.Result{Summary: fmt.Sprintf("Budget for %s, %s: %s %s.", cat, when, money(cents), f.cfg.Currency), Data: map[string]any{"category": cat, "month": mo, "amount": money(cents)}}, nil
}

func (f *fintool) budgetCheck(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := f.needStore(); err != nil {
		return nil, err
	}
	mo := f.now().In(f.loc).Format("2006-01")
	if call.Args.Has("month") {
		t, err := time.Parse("2006-01", strings.TrimSpace(call.Args.String("month")))
		if err != nil {
			return nil, tool.Invalid("month", fmt.Sprintf("%q is not a month (YYYY-MM)", call.Args.String("month")), "")
		}
		mo = t.Format("2006-01")
	}
	bs, err := loadBudgets(f.st.Read())
	if err != nil {
		return nil, err
	}
	limits := map[string]int64{} // a month's own budget wins over "*"
	for _, b := range bs {
		if b.Month == mo || (b.Month == "*" && !hasMonth(bs, b.Category, mo)) {
			limits[b.Category] = b.Cents
		}
	}
	start, _ := time.Parse("2006-01", mo)
	es, err := loadEntries(f.st.Read(), filter{From: start.Format("2006-01-02"), To: start.AddDate(0, 1, 0).Format("2006-01-02"), Kind: "expense"}, 0)
	if err != nil {
		return nil, err
	}
	spent := map[string]int64{}
	for _, e := range es {
		spent[e.Category] += e.Cents
	}
	var out []map[string]any
	var over []string
	for _, cat := range sortedKeys(limits) {
		lim, sp := limits[cat], spent[cat]
		v := map[string]any{"category": cat, "budget": money(lim), "spent": money(sp), "remaining": money(lim - sp), "over_budget": sp > lim}
		if sp > lim {
			over = append(over, fmt.Sprintf("%s by %s", cat, money(sp-lim)))
		}
		out = append(out, v)
	}
	s := fmt.Sprintf("%d budgets in %s; none over.", len(out), mo)
	if len(over) > 0 {
		s = fmt.Sprintf("%d budgets in %s; over budget: %s.", len(out), mo, strings.Join(over, ", "))
	}
	return &tool.Result{Summary: s, Data: map[string]any{"month": mo, "budgets": out, "over_budget": len(over), "currency": f.cfg.Currency}}, nil
}

func hasMonth(bs []budget, cat, mo string) bool {
	for _, b := range bs {
		if b.Category == cat && b.Month == mo {
			return true
		}
	}
	return false
}

func getEntry(q records.Querier, id string) (*entry, error) {
	return scanEntry(q.QueryRow(`SELECT `+entryCols+` FROM finance_entries WHERE id = $1`, id))
}

func (f *fintool) delete(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	id := call.Args.String("id")
	e, err := records.Change(ctx, f.st, kind, id, getEntry, func(tx *sql.Tx, e *entry) error {
		return kind.Delete(tx, id, fmt.Sprintf("%s %s %s %s", e.Day, e.Kind, money(e.Cents), e.Category), e, `DELETE FROM finance_entries WHERE id = $1`)
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Deleted %s (%s %s on %s) to the trash; restore with its id.", id, e.Kind, money(e.Cents), e.Day), Data: view(e)}, nil
}

func (f *fintool) restore(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	id := call.Args.String("id")
	var e entry
	err := kind.Restore(ctx, f.st, id, &e, func(tx *sql.Tx) error {
		if ok, err := insertNew(tx, &e); err != nil {
			return err
		} else if !ok {
			return tool.Existsf("id", "", "the same row was imported again since it was deleted; nothing restored")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Restored %s.", id), Data: view(&e)}, nil
}

func (f *fintool) importFile(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := f.needStore(); err != nil {
		return nil, err
	}
	a := call.Args
	p := a.String("path")
	_, raw, err := tool.ReadInput(f.sb, "path", p, int64(f.cfg.MaxImportMB)<<20, "split the file, or raise tools.finance.max_import_mb")
	if err != nil {
		return nil, err
	}
	sh, err := readTable(raw, a.String("encoding"))
	if err != nil {
		var fe fieldErr
		if errors.As(err, &fe) {
			return nil, tool.Invalid(fe.field, p+": "+fe.msg, "")
		}
		return nil, err
	}
	var m mapping
	if a.Has("mapping") {
		if err := a.Decode("mapping", &m); err != nil {
			return nil, tool.Invalid("mapping", err.Error(), "")
		}
	}
	account := strings.TrimSpace(a.String("account"))
	res, err := parseImport(sh, a.StringOr("format", "auto"), m, account, strings.TrimSpace(a.StringOr("category", "uncategorized")))
	if err != nil {
		var fe fieldErr
		if errors.As(err, &fe) {
			return nil, tool.Invalid(fe.field, p+": "+fe.msg, "nothing was imported")
		}
		return nil, err
	}
	added := 0
	now := f.now().UnixMilli()
	err = f.st.Tx(ctx, func(tx *sql.Tx) error {
		for i := range res.Rows {
			e := &res.Rows[i].entry
			if e.Account == "" {
				e.Account = f.cfg.Account
			}
			e.ID, e.Created, e.Source = records.NewID("f"), now, res.Format+":"+p
			ok, err := insertNew(tx, e)
			if err != nil {
				return err
			}
			if ok {
				added++
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	dup := len(res.Rows) - added
	skipped := 0
	for _, n := range res.Skipped {
		skipped += n
	}
	return &tool.Result{Summary: fmt.Sprintf("Imported %s (%s): %s, %d new, %d already imported; %d left out (%v).", p, res.Format, wording.Count(len(res.Rows), "row", "rows"), added, dup, skipped, res.Skipped),
		Data: map[string]any{"format": res.Format, "rows": len(res.Rows), "added": added, "duplicates": dup, "skipped": res.Skipped}}, nil
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
