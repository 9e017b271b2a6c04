package records

import "database/sql"

// Scanner is a *sql.Row or *sql.Rows: what a tool's scan of one row reads.
// An alias, so a scan function may spell the interface out.
type Scanner = interface{ Scan(...any) error }

// Collect reads the rows of a query (rows and err as Query returned them)
// through scan, and closes them.
func Collect[T any](rows *sql.Rows, err error, scan func(Scanner) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Bit is b as the store keeps a flag: 1 or 0.
func Bit(b bool) int {
	if b {
		return 1
	}
	return 0
}
