package dataproc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestCancel_RowLoopsStopPromptly: every streaming row loop (read, describe,
// clean, export) stops within ctxEvery rows of its call being cancelled,
// answers with a timeout tool error, and leaves no output behind. The
// cancel comes from the first progress report (row 20000 of 200000), so
// the test needs no clock: a loop that kept going would report again at
// row 40000.
func TestCancel_RowLoopsStopPromptly(t *testing.T) {
	e := newEnv(t)
	var b strings.Builder
	b.WriteString("id,region,amount\n")
	const rows = 200_000
	for i := 1; i <= rows; i++ {
		fmt.Fprintf(&b, "%d,r%d,%d.5\n", i, i%7, i%1000)
	}
	tooltest.WriteFile(t, filepath.Join(e.root, "big.csv"), []byte(b.String()))

	for _, args := range []map[string]any{
		{"action": "read", "offset": rows - 10},
		{"action": "describe"},
		{"action": "clean", "output": "out/clean.csv"},
		{"action": "export", "output": "out/export.csv"},
	} {
		args["path"] = "big.csv"
		t.Run(args["action"].(string), func(t *testing.T) {
			c, err := e.tl.Prepare(args)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var reports []float64
			c.Progress = func(done, _ float64, _ string) {
				reports = append(reports, done)
				cancel()
			}
			_, err = e.tl.Handle(ctx, c)
			te := tooltest.ToolError(t, err, tool.CodeTimeout)
			if !strings.Contains(te.Message, context.Canceled.Error()) {
				t.Fatalf("message %q does not say the call was cancelled", te.Message)
			}
			if len(reports) != 1 {
				t.Fatalf("progress after the cancel: %v (the loop kept reading)", reports)
			}
			if out, ok := args["output"].(string); ok {
				if _, err := os.Stat(filepath.Join(e.root, out)); !os.IsNotExist(err) {
					t.Fatalf("a cancelled %s left %s (%v)", args["action"], out, err)
				}
			}
		})
	}

	// A call whose deadline has passed reads nothing.
	c, err := e.tl.Prepare(map[string]any{"action": "describe", "path": "big.csv"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	_, err = e.tl.Handle(ctx, c)
	te := tooltest.ToolError(t, err, tool.CodeTimeout)
	if !strings.Contains(te.Message, context.DeadlineExceeded.Error()) {
		t.Fatalf("message %q does not name the deadline", te.Message)
	}
}
