package e2e

// cron through real MCP clients against the built binary over stdio: a job
// fires within a second of its time and the session gets a
// notifications/message; a server killed with SIGKILL and started again
// keeps its jobs and reports the run it missed once; two server processes
// on one data dir run each scheduled time once.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// cronNotes collects the cron notifications one client receives, with the
// time each arrived.
type cronNotes struct {
	mu   sync.Mutex
	list []cronNote
}

type cronNote struct {
	data    map[string]any
	arrived time.Time
}

func (n *cronNotes) of(event string) []cronNote {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []cronNote
	for _, x := range n.list {
		if x.data["event"] == event {
			out = append(out, x)
		}
	}
	return out
}

func (n *cronNotes) waitFor(t *testing.T, event string, count int, within time.Duration) []cronNote {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if got := n.of(event); len(got) >= count {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%d %s notifications within %s, want %d", len(n.of(event)), event, within, count)
	return nil
}

// cronServer is one server process with its client; kill ends it with
// SIGKILL, as a crash would.
type cronServer struct {
	c     *client.Client
	cmd   *exec.Cmd
	notes *cronNotes
}

func startCronServer(t *testing.T, e *env) *cronServer {
	t.Helper()
	s := &cronServer{notes: &cronNotes{}}
	tr := transport.NewStdioWithOptions(binPath, e.vars, []string{"serve"}, transport.WithCommandFunc(
		func(ctx context.Context, command string, env, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env = env
			s.cmd = cmd
			return cmd, nil
		}))
	s.c = client.NewClient(tr)
	s.c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/message" || n.Params.AdditionalFields["logger"] != "cron" {
			return
		}
		data, _ := n.Params.AdditionalFields["data"].(map[string]any)
		s.notes.mu.Lock()
		s.notes.list = append(s.notes.list, cronNote{data: data, arrived: time.Now()})
		s.notes.mu.Unlock()
	})
	if err := s.c.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.c.Close() })
	initialize(t, s.c, mcp.ProtocolVersion20250618)
	return s
}

func (s *cronServer) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
}

func cronEnv(t *testing.T, dataDir string) *env {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfg, []byte("exposure:\n  mode: full\ntools:\n  cron:\n    timezone: Asia/Shanghai\n    tick: 100ms\n    missed_after: 500ms\n"), 0o600)
	e := newEnv(t, "CLAWBRIDGE_CONFIG="+cfg)
	if dataDir != "" {
		e.vars = append(e.vars, "CLAWBRIDGE_DATA_DIR="+dataDir)
	}
	return e
}

func addJob(t *testing.T, c *client.Client, args map[string]any) string {
	t.Helper()
	args["action"] = "add"
	r := callTool(t, c, "cron", args)
	sc, _ := r.StructuredContent.(map[string]any)
	id, _ := sc["id"].(string)
	if r.IsError || id == "" {
		t.Fatalf("add: %s", text(r))
	}
	return id
}

func TestCron_FiresWithinASecondAndNotifiesTheSession(t *testing.T) {
	s := startCronServer(t, cronEnv(t, ""))
	id := addJob(t, s.c, map[string]any{"schedule": "@every 1s", "message": "drink water"})
	fired := s.notes.waitFor(t, "cron_fired", 2, 5*time.Second)
	for _, f := range fired[:2] {
		sched, err := time.Parse(time.RFC3339, f.data["scheduled"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if late := f.arrived.Sub(sched); late < 0 || late > time.Second {
			t.Errorf("notification for %s arrived %s after its time", sched, late)
		}
		if f.data["job"] != id || f.data["message"] != "drink water" || f.data["outcome"] != "ok" {
			t.Errorf("notification %v", f.data)
		}
	}
	r := callTool(t, s.c, "cron", map[string]any{"action": "history", "id": id})
	runs, _ := r.StructuredContent.(map[string]any)["runs"].([]any)
	if r.IsError || len(runs) < 2 || runs[0].(map[string]any)["outcome"] != "ok" {
		t.Fatalf("history: %s", text(r))
	}
}

func TestCron_KilledServerKeepsJobsAndReportsTheMissedRunOnce(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	e := cronEnv(t, data)
	a := startCronServer(t, e)
	id := addJob(t, a.c, map[string]any{"phrase": "每隔3秒", "message": "stand up"})
	a.kill(t)
	time.Sleep(4 * time.Second) // its first time passes while no server runs

	b := startCronServer(t, e)
	missed := b.notes.waitFor(t, "cron_missed", 1, 3*time.Second)
	if missed[0].data["job"] != id || missed[0].data["missed"] != float64(1) {
		t.Fatalf("missed report %v", missed[0].data)
	}
	first := missed[0].data["first_missed"]
	r := callTool(t, b.c, "cron", map[string]any{"action": "list"})
	jobs, _ := r.StructuredContent.(map[string]any)["jobs"].([]any)
	if len(jobs) != 1 || jobs[0].(map[string]any)["id"] != id {
		t.Fatalf("jobs after restart: %s", text(r))
	}
	b.notes.waitFor(t, "cron_fired", 1, 4*time.Second) // and it goes on after the restart
	b.kill(t)

	c := startCronServer(t, e)
	time.Sleep(1500 * time.Millisecond)
	for _, m := range c.notes.of("cron_missed") {
		if m.data["first_missed"] == first {
			t.Fatalf("the missed run was reported again: %v", m.data)
		}
	}
	if n := len(b.notes.of("cron_missed")); n != 1 {
		t.Fatalf("the first restart reported %d missed runs", n)
	}
}

func TestCron_TwoProcessesOnOneStoreRunEachTimeOnce(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	e := cronEnv(t, data)
	a := startCronServer(t, e)
	b := startCronServer(t, e)
	id := addJob(t, a.c, map[string]any{"schedule": "@every 1s", "message": "tick"})
	time.Sleep(4500 * time.Millisecond)
	callTool(t, a.c, "cron", map[string]any{"action": "pause", "id": id})
	seen := map[string]int{}
	for _, s := range []*cronServer{a, b} {
		for _, f := range s.notes.of("cron_fired") {
			if f.data["job"] == id {
				seen[f.data["scheduled"].(string)]++
			}
		}
	}
	// Each fire is broadcast to the sessions of the process that ran it only.
	for at, n := range seen {
		if n != 1 {
			t.Errorf("%s was notified %d times", at, n)
		}
	}
	if len(seen) < 3 {
		t.Fatalf("only %d scheduled times fired in 4.5s: %v", len(seen), seen)
	}
	r := callTool(t, b.c, "cron", map[string]any{"action": "history", "id": id})
	runs, _ := r.StructuredContent.(map[string]any)["runs"].([]any)
	if len(runs) != len(seen) {
		t.Fatalf("%d runs recorded for %d fired times: %s", len(runs), len(seen), text(r))
	}
}

// TestCron_HighToolCallNeedsConfirmationWhenAdded: under the token policy,
// a job whose call is notify send (high) is not stored until the call is
// confirmed; a plain reminder needs no confirmation.
func TestCron_HighToolCallNeedsConfirmationWhenAdded(t *testing.T) {
	e := cronEnv(t, "")
	e.vars = append(e.vars, "CLAWBRIDGE_CONFIRM=token")
	s := startCronServer(t, e)
	args := map[string]any{"action": "add", "phrase": "every day at 8", "message": "status", "tool": "notify", "tool_action": "send",
		"args": map[string]any{"target": "team", "text": "daily status"}}
	r := callTool(t, s.c, "cron", args)
	sc, _ := r.StructuredContent.(map[string]any)
	tok, _ := sc["confirm_token"].(string)
	if r.IsError || tok == "" {
		t.Fatalf("a job calling notify send was not held for confirmation: %s", text(r))
	}
	list := func() int {
		r := callTool(t, s.c, "cron", map[string]any{"action": "list"})
		jobs, _ := r.StructuredContent.(map[string]any)["jobs"].([]any)
		return len(jobs)
	}
	if n := list(); n != 0 {
		t.Fatalf("%d jobs stored before confirmation", n)
	}
	args["confirm_token"] = tok
	if r := callTool(t, s.c, "cron", args); r.IsError || list() != 1 {
		t.Fatalf("confirmed add: %s", text(r))
	}
	addJob(t, s.c, map[string]any{"schedule": "@every 1h", "message": "plain reminder"})
	if n := list(); n != 2 {
		t.Fatalf("%d jobs after a plain reminder", n)
	}
}
