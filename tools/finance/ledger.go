package finance

import (
	"database/sql"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/records"
)

// The finance tables. An entry's amount is positive cents, its kind says
// income or expense; day is the local date (YYYY-MM-DD) in the configured
// zone, so months are string prefixes. hash is unique: an import's rows
// carry a hash of their content, so the same file twice adds nothing; a
// hand-made entry's hash is its id. A budget row is one category's limit
// for one month (YYYY-MM), or for every month ("*").
var migrations = []records.Migration{{Version: 1, Stmts: []string{
	`CREATE TABLE IF NOT EXISTS finance_entries (
		id TEXT PRIMARY KEY, kind TEXT NOT NULL, amount_cents BIGINT NOT NULL, category TEXT NOT NULL,
		account TEXT NOT NULL, day TEXT NOT NULL, note TEXT NOT NULL, source TEXT NOT NULL,
		hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL)`,
	`CREATE INDEX IF NOT EXISTS finance_entries_day ON finance_entries (day)`,
	`CREATE TABLE IF NOT EXISTS finance_budgets (
		category TEXT NOT NULL, month TEXT NOT NULL, amount_cents BIGINT NOT NULL, updated_at BIGINT NOT NULL,
		PRIMARY KEY (category, month))`,
}}}

// entry is one row.
type entry struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"` // income | expense
	Cents    int64  `json:"amount_cents"`
	Category string `json:"category"`
	Account  string `json:"account"`
	Day      string `json:"date"`
	Note     string `json:"note,omitempty"`
	Source   string `json:"source,omitempty"`
	Hash     string `json:"hash"`
	Created  int64  `json:"created_at"`
}

const entryCols = `id, kind, amount_cents, category, account, day, note, source, hash, created_at`

func (e *entry) columns() []any {
	return []any{e.ID, e.Kind, e.Cents, e.Category, e.Account, e.Day, e.Note, e.Source, e.Hash, e.Created}
}

func scanEntry(r records.Scanner) (*entry, error) {
	e := &entry{}
	return e, r.Scan(&e.ID, &e.Kind, &e.Cents, &e.Category, &e.Account, &e.Day, &e.Note, &e.Source, &e.Hash, &e.Created)
}

func insertEntry(tx *sql.Tx, e *entry) error {
	_, err := tx.Exec(`INSERT INTO finance_entries (`+entryCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, e.columns()...)
	return err
}

// insertNew inserts e unless an entry with its hash is there; it reports
// whether it did. ON CONFLICT DO NOTHING is the same on SQLite and PostgreSQL.
func insertNew(tx *sql.Tx, e *entry) (bool, error) {
	r, err := tx.Exec(`INSERT INTO finance_entries (`+entryCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (hash) DO NOTHING`, e.columns()...)
	if err != nil {
		return false, err
	}
	n, err := r.RowsAffected()
	return n == 1, err
}

// filter selects entries: days in [From, To) (either may be ""), and
// exact kind, category and account when given.
type filter struct {
	From, To                string
	Kind, Category, Account string
}

func (f filter) where() (string, []any) {
	var conds []string
	var args []any
	add := func(cond, v string) {
		if v != "" {
			args = append(args, v)
			conds = append(conds, strings.Replace(cond, "?", "$"+strconv.Itoa(len(args)), 1))
		}
	}
	add("day >= ?", f.From)
	add("day < ?", f.To)
	add("kind = ?", f.Kind)
	add("category = ?", f.Category)
	add("account = ?", f.Account)
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

func loadEntries(db *sql.DB, f filter, limit int) ([]*entry, error) {
	w, args := f.where()
	q := `SELECT ` + entryCols + ` FROM finance_entries` + w + ` ORDER BY day, created_at, id`
	if limit > 0 {
		args = append(args, limit)
		q += ` LIMIT $` + strconv.Itoa(len(args))
	}
	rows, err := db.Query(q, args...)
	return records.Collect(rows, err, scanEntry)
}

// budget is one category's limit in one month ("*": every month).
type budget struct {
	Category string
	Month    string
	Cents    int64
}

func loadBudgets(db *sql.DB) ([]budget, error) {
	rows, err := db.Query(`SELECT category, month, amount_cents FROM finance_budgets ORDER BY category, month`)
	return records.Collect(rows, err, func(r records.Scanner) (budget, error) {
		var b budget
		err := r.Scan(&b.Category, &b.Month, &b.Cents)
		return b, err
	})
}
