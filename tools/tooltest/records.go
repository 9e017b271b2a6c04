package tooltest

import (
	"testing"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// DepsOn is Deps on db's store (one engine of storetest.Each).
func DepsOn(t testing.TB, db *storetest.DB) *tool.Deps {
	t.Helper()
	d := Deps(t)
	d.Store = db.Open(t)
	return d
}

// Records builds a records tool (calendar, diary, finance...) on db's
// store with its days counted in the zone tz (its section's timezone), and
// returns the tool's state, the tool and its deps.
func Records[C, S any](t testing.TB, db *storetest.DB, lc tool.Stateful[C, S], tz string) (S, tool.Tool, *tool.Deps) {
	t.Helper()
	d := DepsOn(t, db)
	ConfigSection(t, d, lc.Name, "timezone: "+tz)
	x, tl, err := lc.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	return x, tl, d
}

// Count is the number a COUNT query on d's store answers.
func Count(t testing.TB, d *tool.Deps, query string, args ...any) int {
	t.Helper()
	var n int
	if err := d.Store.DB().QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
