package e2e

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/clustertest"
)

// cluster is scripts/cluster.sh's three instances behind nginx, on a
// fresh PostgreSQL schema (internal/clustertest), with a handle on it.
type cluster struct {
	*clustertest.Cluster
	db *sql.DB // the test database, search_path at the cluster's schema
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	if prog := clustertest.Missing(); prog != "" {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") == "1" {
			t.Fatalf("%s is not installed (scripts/install-deps.sh)", prog)
		}
		t.Skipf("%s is not installed", prog)
	}
	c := &cluster{Cluster: clustertest.Start(t, clustertest.Options{Root: "..", Bin: binPath, Env: []string{"CLAWBRIDGE_CONFIRM=token"}})}
	db, err := sql.Open("pgx", c.DSN+"&search_path="+c.Schema)
	if err != nil {
		t.Fatal(err)
	}
	c.db = db
	t.Cleanup(func() { db.Close() })
	return c
}

// client is a stateless (2026-07-28) client of the cluster: every request
// is its own HTTP request, so nginx spreads them over the instances.
func (c *cluster) client(t *testing.T) *client.Client {
	t.Helper()
	cl := started(t)(client.NewStreamableHttpClient(c.URL, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + c.Token})))
	initialize(t, cl, mcp.ProtocolVersion20260728)
	return cl
}

func callErr(ctx context.Context, cl *client.Client, name string, args map[string]any) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	return cl.CallTool(ctx, req)
}

// confirmToken asks for the high call and returns the preview's token.
func confirmToken(r *mcp.CallToolResult) string {
	if m, ok := r.StructuredContent.(map[string]any); ok {
		tok, _ := m["confirm_token"].(string)
		return tok
	}
	return ""
}

// TestCluster_StatelessClientsShareViewsAndConfirmations: stateless clients
// whose requests nginx spreads over three instances all see the same list,
// which routing at one of them does not change, and a confirmation token
// issued at one instance runs the call once at another.
func TestCluster_StatelessClientsShareViewsAndConfirmations(t *testing.T) {
	c := startCluster(t)
	full := toolNames(t, c.client(t))
	r, err := callErr(ctxT(t), c.client(t), "find_tools", map[string]any{"request": "合并这三个PDF"})
	if err != nil || r.IsError {
		t.Fatalf("find_tools: %v %v", err, r)
	}
	if !strings.Contains(text(r), "pdf_tool") {
		t.Fatalf("find_tools: %s", text(r))
	}
	routed := toolNames(t, c.client(t))
	if !slices.Equal(routed, full) {
		t.Fatalf("the list changed with a routing: %v, before %v", routed, full)
	}
	for range 6 {
		if got := toolNames(t, c.client(t)); !slices.Equal(got, routed) {
			t.Fatalf("another request lists %v, want %v", got, routed)
		}
	}
	for i := range 4 {
		dir := fmt.Sprintf("confirmed-%d", i)
		args := map[string]any{"argv": []any{"mkdir", dir}}
		r, err := callErr(ctxT(t), c.client(t), "shell", args)
		tok := ""
		if err == nil {
			tok = confirmToken(r)
		}
		if tok == "" {
			t.Fatalf("no confirmation token: %v %v", err, r)
		}
		args["confirm_token"] = tok
		if r, err := callErr(ctxT(t), c.client(t), "shell", args); err != nil || r.IsError {
			t.Fatalf("redeem: %v %s", err, text(r))
		}
		if st, err := os.Stat(filepath.Join(c.Dir, "workspace", dir)); err != nil || !st.IsDir() {
			t.Fatalf("the confirmed call did not run: %v", err)
		}
		if r, err := callErr(ctxT(t), c.client(t), "shell", args); err != nil || !r.IsError {
			t.Fatalf("a spent token ran again: %v %v", err, r)
		}
	}
	if up := c.Upstreams(t); len(up) != 3 {
		t.Fatalf("requests reached %d instances (%v), want all 3", len(up), up)
	}
}

// TestCluster_KillingAnInstanceLosesNoConfirmationOrTrace: while workers
// confirm calls through nginx, one instance is stopped (SIGTERM). Every
// token that was issued still runs its call exactly once (a redeem that
// failed in flight is retried and finds it run or runs it), and every call
// that ran has its trace in the store.
func TestCluster_KillingAnInstanceLosesNoConfirmationOrTrace(t *testing.T) {
	c := startCluster(t)
	const workers, each = 4, 6
	var failed atomic.Int32 // requests that failed in flight
	var wg sync.WaitGroup
	killed := make(chan struct{})
	var started atomic.Int32
	for w := range workers {
		wg.Go(func() {
			cl := c.client(t)
			ctx := ctxT(t)
			retry := func(args map[string]any) *mcp.CallToolResult {
				for range 5 {
					r, err := callErr(ctx, cl, "shell", args)
					if err == nil {
						return r
					}
					failed.Add(1)
					time.Sleep(200 * time.Millisecond)
				}
				t.Errorf("5 tries failed: %v", args)
				return nil
			}
			for i := range each {
				if started.Add(1) == workers*each/3 {
					close(killed)
				}
				dir := fmt.Sprintf("w%d-%d", w, i)
				args := map[string]any{"argv": []any{"mkdir", dir}}
				r := retry(args)
				tok := ""
				if r != nil {
					tok = confirmToken(r)
				}
				if tok == "" {
					t.Errorf("%s: no token: %v", dir, r)
					return
				}
				args["confirm_token"] = tok
				r = retry(args)
				if r == nil {
					return
				}
				if r.IsError && !strings.Contains(text(r), "already used") {
					t.Errorf("%s: redeem: %s", dir, text(r))
				}
				if _, err := os.Stat(filepath.Join(c.Dir, "workspace", dir)); err != nil {
					t.Errorf("%s: the confirmed call did not run: %v", dir, err)
				}
			}
		})
	}
	<-killed
	pid, err := os.ReadFile(filepath.Join(c.Dir, "i2.pid"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
	if err := syscall.Kill(n, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	t.Logf("requests failed in flight and retried: %d", failed.Load())
	if syscall.Kill(n, 0) == nil {
		time.Sleep(5 * time.Second) // shutdown_grace
		if syscall.Kill(n, 0) == nil {
			t.Fatal("instance 2 is still running")
		}
	}
	if up := c.Upstreams(t); len(up) != 3 {
		t.Fatalf("requests reached %v; instance 2 served none before it stopped", up)
	}
	entries, _ := os.ReadDir(filepath.Join(c.Dir, "workspace"))
	if len(entries) != workers*each {
		t.Fatalf("%d directories made, want %d", len(entries), workers*each)
	}
	// The instances flush their trace queues on a graceful stop.
	if out, err := c.Script("stop"); err != nil {
		t.Fatalf("stop: %v %s", err, out)
	}
	for w := range workers {
		for i := range each {
			dir := fmt.Sprintf("w%d-%d", w, i)
			// One preview (status confirm) and one run (ok) per directory.
			var previews, ran int
			err := c.db.QueryRow(`SELECT count(*) FILTER (WHERE status = 'confirm'), count(*) FILTER (WHERE status = 'ok')
				FROM traces WHERE tool = 'shell' AND args LIKE $1`, "%\""+dir+"\"%").Scan(&previews, &ran)
			if err != nil || previews < 1 || ran != 1 {
				t.Errorf("%s: %d preview and %d run traces (%v), want at least 1 and exactly 1", dir, previews, ran, err)
			}
		}
	}
}
