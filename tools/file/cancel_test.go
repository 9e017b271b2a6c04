package file

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// cancelAfter is a context that reports itself cancelled from its n-th Err
// check on, and counts the checks: a loop that checks ctx stops right
// after, with no clock involved.
type cancelAfter struct {
	context.Context
	n      int64
	checks atomic.Int64
}

func (c *cancelAfter) Err() error {
	if c.checks.Add(1) >= c.n {
		return context.Canceled
	}
	return c.Context.Err()
}

// TestCancel_WalksStopPromptly: find, grep and zip over 2000 files
// stop at the first check after their call is cancelled (the 50th entry),
// answer with context.Canceled, and zip leaves no archive behind. (tree is
// bounded by its limit of 500 entries and checks ctx per directory.)
func TestCancel_WalksStopPromptly(t *testing.T) {
	f := newFixture(t, "")
	for i := range 2000 {
		dir := filepath.Join(f.root, "many", fmt.Sprintf("d%02d", i%40))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		tooltest.WriteFile(t, filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), []byte("needle\n"))
	}
	for _, args := range []map[string]any{
		{"action": "find", "path": "many", "pattern": "**/*.txt", "limit": 5000},
		{"action": "grep", "path": "many", "query": "needle", "limit": 5000},
		{"action": "zip", "paths": []any{"many"}, "output": "many.zip"},
	} {
		t.Run(args["action"].(string), func(t *testing.T) {
			c, err := f.tl.Prepare(args)
			if err != nil {
				t.Fatal(err)
			}
			ctx := &cancelAfter{Context: t.Context(), n: 50}
			_, err = f.tl.Handle(ctx, c)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			// A few checks past the cancel are fine (a check per entry and
			// per file read); hundreds would mean the walk went on.
			if n := ctx.checks.Load(); n > 60 {
				t.Fatalf("%d ctx checks: the walk went on after the cancel", n)
			}
			if _, err := os.Stat(filepath.Join(f.root, "many.zip")); !os.IsNotExist(err) {
				t.Fatalf("a cancelled call left many.zip (%v)", err)
			}
		})
	}
}
