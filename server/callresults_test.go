package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/internal/store/storetest"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// resultServer is a server on st (nil: a SQLite store of its own) with two tools: say (returns its text)
// and jot (takes a Private body and returns it), behind token tok-ui, with
// a result cap far above the dashboard's, so the dashboard's own cap shows.
func resultServer(t *testing.T, st *store.Store) (*Server, string) {
	t.Helper()
	d := tooltest.Deps(t)
	if st != nil {
		d.Store = st
	}
	d.Config.Limits.ResultChars = 20000
	d.Config.HTTP.Token = "tok-ui"
	text := tool.Param{Name: "text", Type: tool.String, Required: true, Description: "text"}
	tools := []tool.Tool{
		{Name: "say", Title: "Say", Description: "Returns its text.", Examples: []string{"say"},
			Actions: []tool.Action{{Level: tool.Read, Timeout: tool.Fast, Params: []tool.Param{text},
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
					return &tool.Result{Summary: "said: " + c.Args.String("text")}, nil
				}}}},
		{Name: "jot", Title: "Jot", Description: "Keeps a private note and shows it back.", Examples: []string{"jot"},
			Actions: []tool.Action{{Level: tool.Write, Timeout: tool.Fast,
				Params: []tool.Param{{Name: "body", Type: tool.String, Required: true, Private: true, Description: "the note"}},
				Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
					return &tool.Result{Summary: "kept: " + c.Args.String("body")}, nil
				}}}},
	}
	s := newServer(t, d, tools...)
	ts := httptest.NewServer(testHandler(t, s, "127.0.0.1:0"))
	t.Cleanup(ts.Close)
	return s, ts.URL
}

// callTrace is the trace id of tool name's newest call.
func callTrace(t *testing.T, s *Server, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.traceLog.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var id string
	if err := s.store.DB().QueryRow(`SELECT trace_id FROM traces WHERE tool = $1 ORDER BY at DESC LIMIT 1`, name).Scan(&id); err != nil {
		t.Fatalf("trace of %s: %v", name, err)
	}
	return id
}

// TestCallResult_ShownCappedRedacted: a real call through the pipeline
// keeps what the model got; /ui/api/calls/<trace id> returns it with the
// redacted arguments, a secret-looking value in the result masked and a
// long result cut at keptResultChars with a note of the cut. An error
// answer is kept too; an unknown id is 404. On both engines.
func TestCallResult_ShownCappedRedacted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		s, base := resultServer(t, db.Open(t))
		ck := uiLogin(t, base, "tok-ui")
		c := dial(t, base+"/mcp", mcp.ProtocolVersion20251125, bearerHeader("tok-ui"))

		long := "deploy with token=s3cr3t-value-9f8e7d then " + strings.Repeat("x", 5000) + " END"
		if r := call(t, c, "say", map[string]any{"text": long}); r.IsError || !strings.Contains(text(r), "s3cr3t-value-9f8e7d") {
			t.Fatalf("say: the model gets the whole text (the redaction is the dashboard's): %.80s", text(r))
		}
		var got uiCallDetail
		uiGetJSON(t, base+"/ui/api/calls/"+callTrace(t, s, "say"), ck, &got)
		if got.Tool != "say" || got.Status != "ok" || got.Result == nil {
			t.Fatalf("detail %+v", got)
		}
		res := *got.Result
		if strings.Contains(res, "s3cr3t-value-9f8e7d") || strings.Contains(string(got.Args), "s3cr3t-value-9f8e7d") {
			t.Errorf("the secret reached the dashboard: result %.80s, args %.80s", res, got.Args)
		}
		if !strings.HasPrefix(res, "said: deploy with token=") || strings.Contains(res, "END") ||
			!strings.Contains(res, "[cut for the dashboard: ") || len([]rune(res)) > keptResultChars+100 {
			t.Errorf("result not capped with a note: %d chars, starts %.60q, ends %q", len([]rune(res)), res, res[max(0, len(res)-80):])
		}

		call(t, c, "say", map[string]any{}) // invalid: the error answer is what the model got
		uiGetJSON(t, base+"/ui/api/calls/"+callTrace(t, s, "say"), ck, &got)
		if got.Status != "error" || got.Result == nil || !strings.Contains(*got.Result, "text") || !strings.Contains(*got.Result, tool.CodeInvalid) {
			t.Errorf("error call detail %+v", got)
		}

		for _, id := range []string{"0123456789abcdef", "x' OR '1'='1", strings.Repeat("a", 300)} {
			if res := uiDo(t, http.MethodGet, base+"/ui/api/calls/"+id, "", nil, ck); res.StatusCode != http.StatusNotFound {
				t.Errorf("unknown trace id %.20q: %s, want 404", id, res.Status)
			}
		}
		if res := uiDo(t, http.MethodPost, base+"/ui/api/calls/"+got.TraceID, `{}`, nil, ck); res.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST to a call: %s, want 405", res.Status)
		}
	})
}

// TestCallResult_PrivateToolWithheld: a tool that takes private content
// keeps only the length of its answer, so neither the result row nor the
// detail holds the private value the answer repeats.
func TestCallResult_PrivateToolWithheld(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		s, base := resultServer(t, db.Open(t))
		ck := uiLogin(t, base, "tok-ui")
		c := dial(t, base+"/mcp", mcp.ProtocolVersion20251125, bearerHeader("tok-ui"))
		const secret = "my private thought about the merger"
		if r := call(t, c, "jot", map[string]any{"body": secret}); r.IsError || !strings.Contains(text(r), secret) {
			t.Fatalf("jot: %s", text(r))
		}
		id := callTrace(t, s, "jot")
		var got uiCallDetail
		uiGetJSON(t, base+"/ui/api/calls/"+id, ck, &got)
		if got.Result == nil || !strings.Contains(*got.Result, "[withheld: jot takes private content") || strings.Contains(*got.Result, "merger") {
			t.Errorf("private tool's result %v", got.Result)
		}
		if strings.Contains(string(got.Args), "merger") {
			t.Errorf("private argument in the detail: %s", got.Args)
		}
		var n int
		if err := s.store.DB().QueryRow(`SELECT count(*) FROM trace_results WHERE result LIKE $1`, "%merger%").Scan(&n); err != nil || n != 0 {
			t.Errorf("rows holding the private value: %d (%v)", n, err)
		}
	})
}

// TestCallResult_Unauthorized401: a call's detail needs the token like the
// rest of /ui (the 401 suite of uiEndpoints covers the credential variants).
func TestCallResult_Unauthorized401(t *testing.T) {
	s, base := resultServer(t, nil)
	c := dial(t, base+"/mcp", mcp.ProtocolVersion20251125, bearerHeader("tok-ui"))
	call(t, c, "say", map[string]any{"text": "hello"})
	id := callTrace(t, s, "say")
	if res := uiDo(t, http.MethodGet, base+"/ui/api/calls/"+id, "", nil, nil); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("detail without the token: %s, want 401", res.Status)
	}
	if res := uiDo(t, http.MethodGet, base+"/ui/api/calls/"+id, "", bearerHeader("tok-ui"), nil); res.StatusCode != http.StatusOK {
		t.Errorf("detail with the bearer: %s, want 200", res.Status)
	}
}

// TestCallResult_RetentionPrunes: trace retention deletes old results with
// their traces and keeps recent ones.
func TestCallResult_RetentionPrunes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		st := db.Open(t)
		resultServer(t, st) // migrates the tables
		old := time.Now().Add(-traceRetention - time.Hour)
		for id, at := range map[string]time.Time{"old": old, "new": time.Now()} {
			if _, err := st.DB().Exec(`INSERT INTO trace_results(trace_id, result, chars, at) VALUES ($1, $2, 1, $3)`, id, "r", at.UnixMilli()); err != nil {
				t.Fatal(err)
			}
		}
		pruneTraces(st, zerolog.Nop())
		var ids []string
		rows, err := st.DB().Query(`SELECT trace_id FROM trace_results ORDER BY trace_id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			rows.Scan(&id)
			ids = append(ids, id)
		}
		if strings.Join(ids, ",") != "new" {
			t.Errorf("after pruning: %v, want only the new result", ids)
		}
	})
}

// TestCallResult_SecretAcrossTheCutMasked: a private key that begins
// before the dashboard's cut and ends after it is masked whole, not shown
// up to the cut.
func TestCallResult_SecretAcrossTheCutMasked(t *testing.T) {
	body := strings.Repeat("MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n", 30)
	pem := "-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----"
	parts := []string{strings.Repeat("a", keptResultChars-500), pem, strings.Repeat("b", 3000)}
	got := shownText(storedText(nil, parts), len(strings.Join(parts, "\n")))
	if strings.Contains(got, "MIIEowIBAAKCAQEA") || !strings.Contains(got, "[cut for the dashboard: ") {
		t.Fatalf("kept text holds the key or lacks the cut note: …%s", got[max(0, len(got)-300):])
	}
}
