package cli

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/clawbridge/clawbridge/tools"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// wrapTools makes the composition root build the real registry and then
// hands the tools to change before the server gets them; undone after t.
func wrapTools(t *testing.T, change func(d *tool.Deps, ts []tool.Tool)) {
	t.Cleanup(func() { buildTools = tools.All })
	buildTools = func(d *tool.Deps) ([]tool.Tool, error) {
		ts, err := tools.All(d)
		if err == nil {
			change(d, ts)
		}
		return ts, err
	}
}

// closeRecorder is a tool's Closer that counts its calls and checks that
// the shared store is still open when it runs (a tool may need it to
// close).
type closeRecorder struct {
	mu       sync.Mutex
	calls    int
	storeErr error
	store    tool.Records
}

func (c *closeRecorder) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	c.storeErr = c.store.DB().Ping()
	return nil
}

// TestLifecycle_ToolCloserRunsAtShutdown: the Closer of a tool that has one
// is closed once when the server shuts down (stdio at end of input), and
// when a one-off `call` ends, before the store it may use is closed.
func TestLifecycle_ToolCloserRunsAtShutdown(t *testing.T) {
	cliEnv(t)
	for _, args := range [][]string{{"serve"}, {"call", "file", "--args", `{"action":"list"}`}} {
		var rec *closeRecorder
		wrapTools(t, func(d *tool.Deps, ts []tool.Tool) {
			rec = &closeRecorder{store: d.Store}
			ts[len(ts)/2].Closer = rec
		})
		if out, err := runCLI(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if rec == nil || rec.calls != 1 {
			t.Fatalf("%v: the tool's Closer ran %v times, want once", args, rec)
		}
		if rec.storeErr != nil {
			t.Errorf("%v: the store was closed before the tool: %v", args, rec.storeErr)
		}
	}
}

// TestDoctor_RunsEveryToolsChecks: doctor runs the Checks of every tool the
// registry builds and reports each (a failing one with its fix), naming no
// tool itself.
func TestDoctor_RunsEveryToolsChecks(t *testing.T) {
	cliEnv(t)
	var mu sync.Mutex
	ran := map[string]int{}
	var names []string
	wrapTools(t, func(_ *tool.Deps, ts []tool.Tool) {
		names = names[:0]
		for i := range ts {
			name := "check-of-" + ts[i].Name
			names = append(names, name)
			run := func() (string, error) {
				mu.Lock()
				defer mu.Unlock()
				ran[name]++
				if strings.HasSuffix(name, "_tool") {
					return "broken here", errors.New("broken")
				}
				return "fine here", nil
			}
			ts[i].Checks = append(ts[i].Checks, tool.Check{Name: name, Run: run, Fix: "fix " + name})
		}
	})
	out, _ := runCLI(t, "doctor")
	if len(names) < 30 {
		t.Fatalf("only %d tools built", len(names))
	}
	for _, name := range names {
		if ran[name] != 1 {
			t.Errorf("%s ran %d times", name, ran[name])
		}
		want := "ok  " + name + "  fine here"
		if strings.HasSuffix(name, "_tool") {
			want = "MISSING  " + name + "  broken here — fix " + name
		}
		if !containsSpaced(out, want) {
			t.Errorf("doctor does not report %q:\n%s", want, out)
		}
	}
}

// containsSpaced is strings.Contains with any run of spaces (tabwriter's
// padding) matching any other.
func containsSpaced(s, sub string) bool {
	return strings.Contains(strings.Join(strings.Fields(s), " "), strings.Join(strings.Fields(sub), " "))
}
