package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestSessionLeak_GoroutinesBackToBaseline: 50 streamable-HTTP sessions
// (with the GET stream) that list tools, route a request and call a tool,
// then end with DELETE /mcp, leave the server process (the load child) with
// no more goroutines than before them, within a small margin for the
// runtime's and net/http's own (a connection still closing).
func TestSessionLeak_GoroutinesBackToBaseline(t *testing.T) {
	const sessions, margin = 50, 2
	child := startLoadChild(t, "clawbridge")
	url := "http://" + child.addr + "/mcp"
	warmUp(t, url)
	child.settle()
	base, baseStacks := child.settle(), child.stacks()
	cs := openIdle(t, url, sessions, true)
	for i, c := range cs {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		for _, call := range []struct {
			name string
			args map[string]any
		}{
			{"find_tools", map[string]any{"request": mixedFinds[i%2][0]}},
			{"file", map[string]any{"action": "stat", "path": fmt.Sprintf("f%d.txt", i%loadCalls)}},
		} {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = call.name, call.args
			if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
				cancel()
				closeAll(cs)
				t.Fatalf("session %d: %s: %v %v", i, call.name, err, res)
			}
		}
		cancel()
	}
	// The open GET streams hold goroutines: without them this test could
	// not see a session's goroutines stay behind.
	if during := child.settle(); during < base+sessions {
		closeAll(cs)
		t.Fatalf("%d goroutines with %d listening sessions open, baseline %d: the sessions hold fewer than one each", during, sessions, base)
	}
	closeAll(cs)
	if after := settleTo(child, base+margin); after > base+margin {
		t.Fatalf("goroutines did not return to the baseline after %d sessions closed: %d, baseline %d (margin %d); more than at the baseline:\n%s",
			sessions, after, base, margin, grownStacks(baseStacks, child.stacks()))
	}
}

// grownStacks is the groups of a goroutine profile (debug=1: "N @ pcs"
// then the frames, groups separated by a blank line) that hold more
// goroutines in after than in before, with how many more.
func grownStacks(before, after string) string {
	groups := func(p string) map[string]int {
		m := map[string]int{}
		for g := range strings.SplitSeq(p, "\n\n") {
			head, frames, ok := strings.Cut(g, "\n")
			n, err := strconv.Atoi(strings.Fields(head + " x")[0])
			if ok && err == nil {
				m[frames] += n
			}
		}
		return m
	}
	was := groups(before)
	var b strings.Builder
	for frames, n := range groups(after) {
		if n > was[frames] {
			fmt.Fprintf(&b, "+%d goroutines:\n%s\n\n", n-was[frames], frames)
		}
	}
	return b.String()
}
