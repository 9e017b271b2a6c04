package server

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// Several instances on one store (SQLite file or PostgreSQL schema), each a
// server.Server with its own store handle, reached by real MCP clients:
// state that must be shared is, and what must happen once does.

// pair is two servers on one database, both accepting bearer token tok-1.
func pair(t *testing.T, db *storetest.DB, policy string) (a, b *fixture) {
	t.Helper()
	a = newFixtureOn(t, policy, 3, db.Open(t))
	b = newFixtureOn(t, policy, 3, db.Open(t))
	a.s.cfg.HTTP.Token, b.s.cfg.HTTP.Token = "tok-1", "tok-1"
	return a, b
}

func stateless(t *testing.T, f *fixture) *client.Client {
	return dial(t, f.http(t), mcp.ProtocolVersion20260728, bearerHeader("tok-1"))
}

// TestSeveralInstances_TokenIssuedOnARedeemedOnB: a stateless principal's
// confirmation token from instance A runs the call once at instance B and
// is refused after, at either.
func TestSeveralInstances_TokenIssuedOnARedeemedOnB(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		a, b := pair(t, db, "token")
		ca, cb := stateless(t, a), stateless(t, b)
		args := map[string]any{"text": "x"}
		tok, _ := structured(t, call(t, ca, "danger", args))[confirmParam].(string)
		if tok == "" {
			t.Fatal("no token from A")
		}
		args[confirmParam] = tok
		if r := call(t, cb, "danger", args); r.IsError || b.runs.Load() != 1 {
			t.Fatalf("B refused A's token: %s", text(r))
		}
		for _, c := range []*client.Client{ca, cb} {
			if r := call(t, c, "danger", args); !r.IsError {
				t.Fatalf("a spent token ran again: %s", text(r))
			}
		}
		if a.runs.Load()+b.runs.Load() != 1 {
			t.Fatalf("runs A %d B %d, want one in all", a.runs.Load(), b.runs.Load())
		}
	})
}

// wins runs try in n goroutines at once, alternately on a's and b's
// confirmer, and counts those it returned true in.
func wins(n int, a, b *fixture, try func(c *confirmer) bool) int32 {
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		c := a.s.confirmer
		if i%2 == 1 {
			c = b.s.confirmer
		}
		wg.Go(func() {
			if try(c) {
				won.Add(1)
			}
		})
	}
	wg.Wait()
	return won.Load()
}

// TestSeveralInstances_TokenRaceOneWins: 20 goroutines redeeming one token
// at once through two instances: exactly one succeeds.
func TestSeveralInstances_TokenRaceOneWins(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		a, b := pair(t, db, "token")
		args := map[string]any{"text": "x"}
		ctx := context.Background()
		tok, _, err := a.s.confirmer.issue(ctx, "principal:p", "danger", args, "danger {\"text\":\"x\"}")
		if err != nil {
			t.Fatal(err)
		}
		won := wins(20, a, b, func(c *confirmer) bool {
			switch err := c.spend(ctx, tok, "principal:p", "danger", args, "danger {\"text\":\"x\"}"); err {
			case nil:
				return true
			case errBadToken:
			default:
				t.Errorf("spend: %v", err)
			}
			return false
		})
		if won != 1 {
			t.Fatalf("%d redeemed the token, want 1", won)
		}
	})
}

// TestSeveralInstances_PendingCallRunsOnce: a call waiting at A, approved
// through B's store (as `clawbridge approve` or B's dashboard would), is
// taken once even when both instances poll it at the same moment.
func TestSeveralInstances_PendingCallRunsOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		a, b := pair(t, db, "approve")
		ctx := context.Background()
		id, err := a.s.confirmer.propose(ctx, "principal:p", "danger", "", "danger {}", "h")
		if err != nil {
			t.Fatal(err)
		}
		calls, err := ListPending(ctx, b.s.store)
		if err != nil || len(calls) != 1 || calls[0].ID != id {
			t.Fatalf("B lists %+v %v", calls, err)
		}
		if err := Decide(ctx, b.s.store, id, true); err != nil {
			t.Fatal(err)
		}
		if err := Decide(ctx, a.s.store, id, false); err == nil {
			t.Fatal("a decided call was decided again")
		}
		runs := wins(10, a, b, func(c *confirmer) bool {
			d, _ := c.check(id)
			return d == decidedRun
		})
		if runs != 1 {
			t.Fatalf("the approval was taken %d times, want 1", runs)
		}
	})
}

// TestSeveralInstances_PrincipalListIsFixed: a stateless (2026-07-28)
// principal's tools/list is a function of its authorization alone: the same
// at both instances, byte for byte, before and after it routed and called
// through either, even with tiered configured; find_tools still answers.
func TestSeveralInstances_PrincipalListIsFixed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		var fs [2]*fixture
		for i := range fs {
			d := tooltest.Deps(t)
			d.Store = db.Open(t)
			d.Config.Exposure.Mode = exposure.ModeTiered
			d.Config.HTTP.Token = "tok-1"
			fs[i] = &fixture{s: newServer(t, d, allTools(t, d)...)}
		}
		ca, cb := stateless(t, fs[0]), stateless(t, fs[1])
		list := func(c *client.Client) string {
			res, err := c.ListTools(ctxFor(t), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res.Tools)
			return string(b)
		}
		first := list(cb)
		if first != list(ca) || !strings.Contains(first, `"call_tool"`) {
			t.Fatalf("the instances list differently, or not the constant search list:\n%s", first)
		}
		r := call(t, ca, exposure.FindTools, map[string]any{"request": "合并这三个PDF"})
		if r.IsError || !strings.Contains(text(r), "pdf_tool") {
			t.Fatalf("find_tools: %s", text(r))
		}
		call(t, cb, "file", map[string]any{"action": "list"})
		call(t, cb, exposure.FindTools, map[string]any{"request": "draw a mind map of my project plan"})
		if list(ca) != first || list(cb) != first {
			t.Fatal("the principal's list changed with its requests")
		}
	})
}

// TestSeveralInstances_TracesShared: a call's trace row written by A is
// read at B (the dashboard and the traces resource of any instance).
func TestSeveralInstances_TracesShared(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		a, b := pair(t, db, "token")
		if r := call(t, stateless(t, a), "echo", map[string]any{"text": "hi"}); r.IsError {
			t.Fatal(text(r))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := a.s.traceLog.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := b.s.store.Read().QueryRow(`SELECT count(*) FROM traces WHERE tool = $1 AND session = $2`, "echo", principalOf("tok-1")).Scan(&n); err != nil || n != 1 {
			t.Fatalf("B sees %d trace rows of A's call (%v)", n, err)
		}
	})
}
