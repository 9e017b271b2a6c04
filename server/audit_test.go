package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTraces_ConcurrentSessionsNoBusyAndOwnCallsVisible: 100 streamable
// sessions calling at once get every call answered, the server logs no
// "database is locked" (trace rows are group-committed by one writer), and
// each session's traces resource, read right after its calls, lists all of
// them — the queue is flushed before the read.
func TestTraces_ConcurrentSessionsNoBusyAndOwnCallsVisible(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.Deps(t)
		d.Store = db.Open(t)
		d.Config.Confirm = "auto"
		d.Config.HTTP.MaxSessions = 200
		logs := &syncBuffer{}
		log := zerolog.New(logs).Level(zerolog.WarnLevel)
		echo := echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
			return &tool.Result{Summary: c.Args.String("text")}, nil
		})
		s, err := New(Options{Config: d.Config, Deps: d, Store: storeOf(d), Tools: []tool.Tool{echo}, Log: log, Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewUnstartedServer(nil)
		hs.Config.Handler = testHandler(t, s, hs.Listener.Addr().String())
		hs.Start()
		t.Cleanup(hs.Close)

		const sessions, calls = 100, 5
		var wg sync.WaitGroup
		for w := range sessions {
			wg.Go(func() {
				c, err := streamClient(t, hs.URL)
				if err != nil {
					t.Errorf("session %d: %v", w, err)
					return
				}
				defer c.Close()
				for i := range calls {
					if r, err := callEcho(c, fmt.Sprintf("s%d-%d", w, i)); err != nil || r.IsError {
						t.Errorf("session %d call %d: %v %v", w, i, err, r)
						return
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				raw, err := read(c, ctx, "clawbridge://session/traces")
				if err != nil {
					t.Errorf("session %d traces: %v", w, err)
					return
				}
				var tr sessionTraces
				if err := json.Unmarshal([]byte(raw), &tr); err != nil {
					t.Errorf("session %d traces: %v in %s", w, err, raw)
					return
				}
				if len(tr.Calls) != calls {
					t.Errorf("session %d sees %d of its %d calls: %s", w, len(tr.Calls), calls, raw)
				}
			})
		}
		wg.Wait()
		if strings.Contains(logs.String(), "locked") || strings.Contains(logs.String(), "BUSY") || strings.Contains(logs.String(), "not stored") {
			t.Fatalf("warnings under load:\n%s", logs.String())
		}
	})
}

// echoCalls is a server over d with an echo tool that answers "ok", after n
// calls of it in session key, with texts "0", "1"...
func echoCalls(t *testing.T, d *tool.Deps, key string, n int) (*Server, *session) {
	t.Helper()
	s := newServer(t, d, echoTool(func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
		return &tool.Result{Summary: "ok"}, nil
	}))
	sess := s.sessions.get(key, "", kindConnection)
	for i := range n {
		if r := s.run(context.Background(), sess, "echo", map[string]any{"text": fmt.Sprint(i)}, nil); r.IsError {
			t.Fatal(text(r))
		}
	}
	return s, sess
}

// TestTraces_DrainedOnClose: the trace rows of calls that just returned are
// on disk once the store is closed (the graceful-shutdown path), though
// the flush interval has not passed.
func TestTraces_DrainedOnClose(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		d := tooltest.Deps(t)
		d.Store = db.Open(t)
		_, sess := echoCalls(t, d, "drain", 50)
		if err := storeOf(d).Close(); err != nil {
			t.Fatal(err)
		}
		st := db.Open(t) // a new handle: what was written is in the database
		var n int
		if err := st.Read().QueryRow(`SELECT count(*) FROM traces WHERE session = $1`, sess.key).Scan(&n); err != nil || n != 50 {
			t.Fatalf("%d trace rows after Close, %v; want 50", n, err)
		}
	})
}

// TestTraces_IDsInCallOrder: trace ids are 16 hex digits, distinct, and in
// the order of the calls (so a group commit adds its rows at one place of
// the primary-key index), also when taken from many goroutines; a row's
// time is RFC 3339 UTC text, formatted when the appender writes it.
func TestTraces_IDsInCallOrder(t *testing.T) {
	d := tooltest.Deps(t)
	s, sess := echoCalls(t, d, "order", 20)
	if err := s.traceLog.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows, err := d.Store.Read().Query(`SELECT trace_id, at, args FROM traces WHERE session = $1 ORDER BY trace_id`, sess.key)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id, at, args string
		if err := rows.Scan(&id, &at, &args); err != nil {
			t.Fatal(err)
		}
		if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Errorf("trace id %q: want 16 hex digits", id)
		}
		if want := fmt.Sprintf(`{"text":"%d"}`, n); args != want {
			t.Errorf("row %d by trace id holds %s, want %s: ids not in call order", n, args, want)
		}
		if ts, err := time.Parse(time.RFC3339Nano, at); err != nil || ts.Location() != time.UTC || time.Since(ts) > time.Minute {
			t.Errorf("at %q: want recent RFC 3339 UTC text (%v)", at, err)
		}
		n++
	}
	if n != 20 {
		t.Fatalf("%d trace rows, want 20", n)
	}

	seen := sync.Map{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			prev := ""
			for range 1000 {
				id := newTraceID()
				if id <= prev {
					t.Errorf("trace id %s after %s in one goroutine", id, prev)
				}
				if _, dup := seen.LoadOrStore(id, true); dup {
					t.Errorf("trace id %s given twice", id)
				}
				prev = id
			}
		})
	}
	wg.Wait()
}

// TestAudit_PrivateWithheldAllActions: the Private parameters found at New
// are withheld from the trace row of an accepted call and of a call that
// sends one to an action without it (refused as an unknown field, but its
// arguments are recorded all the same).
func TestAudit_PrivateWithheldAllActions(t *testing.T) {
	d := tooltest.Deps(t)
	h := func(ctx context.Context, c *tool.Call) (*tool.Result, error) { return &tool.Result{Summary: "ok"}, nil }
	jot := tool.Tool{Name: "jot", Title: "Jot", Description: "Keeps a note; for audit tests.", Examples: []string{"jot"}, Actions: []tool.Action{
		{Name: "add", Level: tool.Read, Timeout: tool.Fast, Handler: h, Params: []tool.Param{{Name: "body", Type: tool.String, Description: "note", Private: true, Required: true}}},
		{Name: "list", Level: tool.Read, Timeout: tool.Fast, Handler: h},
	}}
	s := newServer(t, d, jot)
	sess := s.sessions.get("private", "", kindConnection)
	if r := s.run(context.Background(), sess, "jot", map[string]any{"action": "add", "body": "the merger plan"}, nil); r.IsError {
		t.Fatal(text(r))
	}
	if r := s.run(context.Background(), sess, "jot", map[string]any{"action": "list", "body": "the merger plan, again"}, nil); !r.IsError {
		t.Fatalf("list with a body: %s, want an unknown-field error", text(r))
	}
	if err := s.traceLog.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows, err := d.Store.Read().Query(`SELECT args FROM traces WHERE session = $1 ORDER BY trace_id`, sess.key)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var a string
		rows.Scan(&a)
		got = append(got, a)
	}
	want := []string{`{"action":"add","body":"[withheld: 15 chars]"}`, `{"action":"list","body":"[withheld: 22 chars]"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("trace args:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
