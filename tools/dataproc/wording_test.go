package dataproc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestWording_ReadSummaries: a read of no rows, one row or several says so
// in words: never "rows 1-0 … (0 rows in total)" or "1 rows".
func TestWording_ReadSummaries(t *testing.T) {
	e := newEnv(t)
	os.WriteFile(filepath.Join(e.root, "data", "empty.csv"), []byte("a,b\n"), 0o644)
	os.WriteFile(filepath.Join(e.root, "data", "one.csv"), []byte("a,b\n1,2\n"), 0o644)
	os.WriteFile(filepath.Join(e.root, "data", "three.csv"), []byte("a,b\n1,2\n3,4\n5,6\n"), 0o644)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "read", "path": "data/empty.csv"}, "no rows in empty.csv"},
		{map[string]any{"action": "read", "path": "data/one.csv"}, "row 1 of one.csv (1 row in total)"},
		{map[string]any{"action": "read", "path": "data/three.csv"}, "rows 1-3 of three.csv (3 rows in total)"},
		{map[string]any{"action": "read", "path": "data/three.csv", "offset": 5}, "no rows at offset 5 of three.csv (3 rows in total)"},
		{map[string]any{"action": "query", "paths": []any{"data/one.csv"}, "sql": "SELECT * FROM one"}, "query returned 1 row"},
	} {
		res, err := tooltest.Run(t, e.tl, c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if res.Summary != c.want {
			t.Errorf("%v: summary %q, want %q", c.args, res.Summary, c.want)
		}
		if strings.Contains(res.Summary, "1 rows") || strings.Contains(res.Summary, "-0 ") {
			t.Errorf("%v: %q", c.args, res.Summary)
		}
	}
}
