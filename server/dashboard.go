package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// The dashboard: /ui is one embedded page (no external assets, so it works
// offline) and /ui/api/ its JSON, read from the state the server keeps
// anyway: the sessions map and their exposure state, the store's trace rows,
// the pending-call queue `clawbridge approve` reads, and the router. It
// keeps no state of its own beyond a bounded cache of view token counts.
//
// Authentication is the bearer token of /mcp and /metrics. A browser cannot
// send that header, so /ui also accepts the token once as ?token=, answers
// with an HttpOnly SameSite=Strict cookie scoped to /ui and redirects to
// the bare /ui (the token leaves the address bar and history). The cookie
// holds a hash of the token, not the token, and is accepted on /ui paths
// only: it opens the dashboard, never /mcp or /metrics. POSTs must be JSON,
// which a cross-site form cannot send; the Origin check of guardHTTP and
// SameSite=Strict cover the rest.

//go:embed dashboard.html
var dashboardPage []byte

const uiCookie = "clawbridge_ui"

// uiCookieValue is what the dashboard cookie holds for token.
func uiCookieValue(token string) string {
	h := sha256.Sum256([]byte("clawbridge-ui-cookie\x00" + token))
	return hex.EncodeToString(h[:])
}

func isUIPath(p string) bool { return p == "/ui" || strings.HasPrefix(p, "/ui/") }

// authorized reports whether r carries the configured token: the bearer
// header anywhere; on /ui paths also the dashboard cookie, and on the page
// itself ?token=.
func authorized(r *http.Request, token string) bool {
	if subtle.ConstantTimeCompare([]byte(bearer(r)), []byte(token)) == 1 {
		return true
	}
	if !isUIPath(r.URL.Path) {
		return false
	}
	if c, err := r.Cookie(uiCookie); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(uiCookieValue(token))) == 1 {
		return true
	}
	q := r.URL.Query().Get("token")
	return r.URL.Path == "/ui" && q != "" && subtle.ConstantTimeCompare([]byte(q), []byte(token)) == 1
}

// peerInfo is what a session's client said about itself, kept for the
// dashboard.
type peerInfo struct {
	mu       sync.Mutex
	version  string
	protocol string
}

// noted records the client's version and protocol version when known.
func (s *session) noted(impl *mcp.Implementation, protocol string) *session {
	s.peer.mu.Lock()
	if impl != nil && impl.Version != "" {
		s.peer.version = impl.Version
	}
	if protocol != "" {
		s.peer.protocol = protocol
	}
	s.peer.mu.Unlock()
	return s
}

// dashboard serves /ui and /ui/api/.
type dashboard struct {
	s      *Server
	mu     sync.Mutex
	tokens map[string]int // view tokens by the view's names, bounded by maxViews
}

func (s *Server) dashboard() *dashboard { return &dashboard{s: s, tokens: map[string]int{}} }

func (d *dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	switch r.URL.Path {
	case "/ui", "/ui/":
		d.page(w, r)
	case "/ui/api/sessions":
		d.get(w, r, func(ctx context.Context) (any, error) { return d.sessions(), nil })
	case "/ui/api/calls":
		d.get(w, r, func(ctx context.Context) (any, error) { return d.calls(ctx, r) })
	case "/ui/api/tools":
		d.get(w, r, d.usage)
	case "/ui/api/pending":
		d.get(w, r, func(ctx context.Context) (any, error) {
			p, err := ListPending(ctx, d.s.store)
			return map[string]any{"policy": d.s.confirmer.policy, "pending": orEmpty(p)}, err
		})
	case "/ui/api/decide":
		d.post(w, r, d.decide)
	case "/ui/api/route":
		d.post(w, r, d.route)
	default:
		if id, ok := strings.CutPrefix(r.URL.Path, "/ui/api/calls/"); ok {
			d.callDetail(w, r, id)
			return
		}
		uiError(w, http.StatusNotFound, tool.NotFoundf("path", "the dashboard's data is under /ui/api/ (sessions, calls, calls/<trace id>, tools, pending, decide, route)", "no such dashboard path %s", r.URL.Path))
	}
}

func (d *dashboard) page(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		uiError(w, http.StatusMethodNotAllowed, tool.Invalid("method", "the page answers GET", "open /ui in a browser"))
		return
	}
	if token := d.s.cfg.HTTP.Token; token != "" && r.URL.Query().Has("token") {
		// guardHTTP admitted the request, by this token or by another
		// credential; only the configured token earns the cookie.
		if subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), []byte(token)) == 1 {
			http.SetCookie(w, &http.Cookie{Name: uiCookie, Value: uiCookieValue(token), Path: "/ui",
				HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
		}
		http.Redirect(w, r, "/ui", http.StatusSeeOther)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Write(dashboardPage)
}

func (d *dashboard) get(w http.ResponseWriter, r *http.Request, f func(context.Context) (any, error)) {
	if r.Method != http.MethodGet {
		uiError(w, http.StatusMethodNotAllowed, tool.Invalid("method", "this endpoint answers GET", "use GET"))
		return
	}
	v, err := f(r.Context())
	if err != nil {
		d.s.log.Warn().Err(err).Str("path", r.URL.Path).Msg("dashboard data")
		uiError(w, http.StatusInternalServerError, tool.Errorf(tool.CodeFailed, "see the server log", "dashboard data not read: %v", err))
		return
	}
	uiJSON(w, http.StatusOK, v)
}

// post decodes a JSON body into f's argument; f answers with a status.
func (d *dashboard) post(w http.ResponseWriter, r *http.Request, f func(context.Context, map[string]any) (int, any)) {
	if r.Method != http.MethodPost {
		uiError(w, http.StatusMethodNotAllowed, tool.Invalid("method", "this endpoint answers POST", "POST a JSON object"))
		return
	}
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); strings.TrimSpace(strings.ToLower(ct)) != "application/json" {
		uiError(w, http.StatusUnsupportedMediaType, tool.Invalid("Content-Type", "the body must be application/json", "send Content-Type: application/json"))
		return
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		uiError(w, http.StatusBadRequest, tool.Invalid("body", "the body is not a JSON object: "+err.Error(), "POST a JSON object"))
		return
	}
	code, v := f(r.Context(), body)
	if e, ok := v.(*tool.Error); ok {
		uiError(w, code, e)
		return
	}
	uiJSON(w, code, v)
}

func uiJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func uiError(w http.ResponseWriter, code int, e *tool.Error) {
	uiJSON(w, code, map[string]any{"error": e})
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// uiSession is one live session as the dashboard shows it.
type uiSession struct {
	ID            string                `json:"id"` // a hash of the key: the page never holds a session id
	Client        string                `json:"client"`
	ClientVersion string                `json:"client_version"`
	Transport     string                `json:"transport"`
	Protocol      string                `json:"protocol"`
	Mode          string                `json:"mode"`
	Tier          exposure.Tier         `json:"tier"`
	Intents       []string              `json:"intents"`
	Primary       string                `json:"primary_intent"`
	Confidence    float64               `json:"confidence"`
	Pinned        []string              `json:"pinned"`
	ViewSize      int                   `json:"view_size"`
	ViewTokens    int                   `json:"view_tokens"`
	Calls         int                   `json:"calls"`
	LastSeen      time.Time             `json:"last_seen"`
	History       []exposure.Transition `json:"history"`
}

// shortID names a session on the page: stable, and not the key itself (an
// Mcp-Session-Id is what a client authenticates its session with).
func shortID(key string) string {
	if key == "" {
		return ""
	}
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:6])
}

func (d *dashboard) sessions() []uiSession {
	s := d.s
	type held struct {
		sess *session
		seen time.Time
	}
	s.sessions.mu.Lock()
	all := make([]held, 0, len(s.sessions.m))
	for _, sess := range s.sessions.m {
		all = append(all, held{sess, sess.seen})
	}
	s.sessions.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].seen.After(all[j].seen) })
	out := make([]uiSession, 0, len(all))
	for _, h := range all {
		st := h.sess.exp.State()
		names := make([]string, len(st.View))
		for i, v := range st.View {
			names[i] = v.Name
		}
		h.sess.peer.mu.Lock()
		version, protocol := h.sess.peer.version, h.sess.peer.protocol
		h.sess.peer.mu.Unlock()
		out = append(out, uiSession{ID: shortID(h.sess.key), Client: h.sess.client, ClientVersion: version,
			Transport: s.transportOf(h.sess), Protocol: protocol, Mode: st.Mode, Tier: st.Tier,
			Intents: orEmpty(st.Intents), Primary: st.Primary, Confidence: st.Confidence, Pinned: orEmpty(st.Pinned),
			ViewSize: len(names), ViewTokens: d.viewTokens(names), Calls: st.Calls, LastSeen: h.seen,
			History: orEmpty(st.History)})
	}
	return out
}

// viewTokens is Server.ViewTokens, cached: views are few, polls many.
func (d *dashboard) viewTokens(names []string) int {
	key := strings.Join(names, ",")
	d.mu.Lock()
	n, ok := d.tokens[key]
	d.mu.Unlock()
	if ok {
		return n
	}
	n = d.s.ViewTokens(names)
	d.mu.Lock()
	if len(d.tokens) >= maxViews {
		clear(d.tokens)
	}
	d.tokens[key] = n
	d.mu.Unlock()
	return n
}

// uiCall is one trace row: arguments as the audit wrote them (redacted,
// private parameters withheld).
type uiCall struct {
	TraceID    string          `json:"trace_id"`
	At         string          `json:"at"`
	Session    string          `json:"session"`
	Client     string          `json:"client"`
	Tool       string          `json:"tool"`
	Action     string          `json:"action"`
	Status     string          `json:"status"`
	ErrorCode  string          `json:"error_code,omitempty"`
	DurationMS int64           `json:"duration_ms"`
	Args       json.RawMessage `json:"args"`
}

// flushTraces commits the trace rows queued so far, so a poll sees the
// calls that just finished; a slow disk only delays what the page shows.
func (d *dashboard) flushTraces(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_ = d.s.traceLog.Flush(ctx)
}

// calls lists the newest trace rows (?limit=, default 100, at most 500).
func (d *dashboard) calls(ctx context.Context, r *http.Request) ([]uiCall, error) {
	limit := 100
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, errors.New("limit must be a positive number")
		}
		limit = min(n, 500)
	}
	d.flushTraces(ctx)
	rows, err := d.s.store.DB().QueryContext(ctx, `SELECT trace_id, at, COALESCE(session,''), COALESCE(client,''), COALESCE(tool,''),
		COALESCE(action,''), COALESCE(args,''), COALESCE(status,''), COALESCE(error_code,''), COALESCE(duration_ms,0)
		FROM traces ORDER BY at DESC LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []uiCall{}
	for rows.Next() {
		var c uiCall
		var key, args string
		if err := rows.Scan(&c.TraceID, &c.At, &key, &c.Client, &c.Tool, &c.Action, &args, &c.Status, &c.ErrorCode, &c.DurationMS); err != nil {
			return nil, err
		}
		c.Session = shortID(key)
		if json.Valid([]byte(args)) {
			c.Args = json.RawMessage(args)
		} else {
			c.Args = json.RawMessage("null")
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// uiCallDetail is one call with the text its answer gave the model, as
// callresults.go kept it (redacted, capped; withheld for private tools).
// Result is null when none was kept (a row from before results were kept,
// or one the appender dropped).
type uiCallDetail struct {
	uiCall
	Result *string `json:"result"`
}

// callDetail answers /ui/api/calls/<trace id>; an unknown id is 404.
func (d *dashboard) callDetail(w http.ResponseWriter, r *http.Request, id string) {
	if r.Method != http.MethodGet {
		uiError(w, http.StatusMethodNotAllowed, tool.Invalid("method", "this endpoint answers GET", "use GET"))
		return
	}
	ctx := r.Context()
	d.flushTraces(ctx)
	fctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	_ = d.s.resultLog.Flush(fctx)
	cancel()
	var c uiCallDetail
	var key, args string
	var result sql.NullString
	var chars sql.NullInt64
	err := d.s.store.DB().QueryRowContext(ctx, `SELECT t.trace_id, t.at, COALESCE(t.session,''), COALESCE(t.client,''), COALESCE(t.tool,''),
		COALESCE(t.action,''), COALESCE(t.args,''), COALESCE(t.status,''), COALESCE(t.error_code,''), COALESCE(t.duration_ms,0), r.result, r.chars
		FROM traces t LEFT JOIN trace_results r ON r.trace_id = t.trace_id WHERE t.trace_id = $1`, id).
		Scan(&c.TraceID, &c.At, &key, &c.Client, &c.Tool, &c.Action, &args, &c.Status, &c.ErrorCode, &c.DurationMS, &result, &chars)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		uiError(w, http.StatusNotFound, tool.NotFoundf("id", "take the trace id from /ui/api/calls; traces are kept 30 days", "no call with trace id %q", id))
		return
	case err != nil:
		d.s.log.Warn().Err(err).Str("path", r.URL.Path).Msg("dashboard data")
		uiError(w, http.StatusInternalServerError, tool.Errorf(tool.CodeFailed, "see the server log", "dashboard data not read: %v", err))
		return
	}
	c.Session = shortID(key)
	c.Args = json.RawMessage("null")
	if json.Valid([]byte(args)) {
		c.Args = json.RawMessage(args)
	}
	if result.Valid {
		shown := shownText(result.String, int(chars.Int64))
		c.Result = &shown
	}
	uiJSON(w, http.StatusOK, c)
}

// uiToolUsage is one tool's calls over the last day.
type uiToolUsage struct {
	Tool   string `json:"tool"`
	Calls  int    `json:"calls"`
	Errors int    `json:"errors"` // error, refused, timeout, panic: not ok and not a confirmation preview
	P50MS  int64  `json:"p50_ms"`
	P95MS  int64  `json:"p95_ms"`
	MaxMS  int64  `json:"max_ms"`
}

// usageWindow and usageRows bound the per-tool figures: the last day, at
// most that many rows, whatever the trace table holds.
const (
	usageWindow = 24 * time.Hour
	usageRows   = 20000
)

func (d *dashboard) usage(ctx context.Context) (any, error) {
	d.flushTraces(ctx)
	since := time.Now().Add(-usageWindow).UTC().Format(time.RFC3339Nano)
	rows, err := d.s.store.DB().QueryContext(ctx, `SELECT COALESCE(tool,''), COALESCE(status,''), COALESCE(duration_ms,0)
		FROM traces WHERE at >= $1 ORDER BY at DESC LIMIT $2`, since, usageRows)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	durs := map[string][]int64{}
	errs := map[string]int{}
	for rows.Next() {
		var name, status string
		var ms int64
		if err := rows.Scan(&name, &status, &ms); err != nil {
			return nil, err
		}
		durs[name] = append(durs[name], ms)
		if status != "ok" && status != "confirm" {
			errs[name]++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := []uiToolUsage{}
	for name, ds := range durs {
		slices.Sort(ds)
		at := func(q float64) int64 { return ds[min(len(ds)-1, int(q*float64(len(ds))))] }
		out = append(out, uiToolUsage{Tool: name, Calls: len(ds), Errors: errs[name], P50MS: at(.5), P95MS: at(.95), MaxMS: ds[len(ds)-1]})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Calls != out[j].Calls {
			return out[i].Calls > out[j].Calls
		}
		return out[i].Tool < out[j].Tool
	})
	return out, nil
}

// decide approves or rejects a pending call: {"id": "...", "approve": true}.
func (d *dashboard) decide(ctx context.Context, body map[string]any) (int, any) {
	id, _ := body["id"].(string)
	approve, ok := body["approve"].(bool)
	if id == "" || !ok {
		return http.StatusBadRequest, tool.Invalid("id", "send {\"id\": \"<pending id>\", \"approve\": true|false}", "take the id from /ui/api/pending")
	}
	if err := Decide(ctx, d.s.store, id, approve); err != nil {
		if errors.Is(err, ErrNoPendingCall) {
			return http.StatusNotFound, tool.NotFoundf("id", "reload the pending list", "%s", err.Error())
		}
		return http.StatusInternalServerError, tool.Errorf(tool.CodeFailed, "see the server log", "decision not stored: %v", err)
	}
	verb := "rejected"
	if approve {
		verb = "approved"
	}
	d.s.log.Info().Str("kind", "approval").Str("pending_id", id).Str("decision", verb).Str("via", "dashboard").Msg("pending call decided")
	return http.StatusOK, map[string]any{"id": id, "decision": verb}
}

// maxPlaygroundRequest bounds a playground request, as find_tools' own
// requests are sentences.
const maxPlaygroundRequest = 2000

// route runs the router on {"request": "..."} without touching any
// session: the decision, the view and its tokens.
func (d *dashboard) route(ctx context.Context, body map[string]any) (int, any) {
	req, _ := body["request"].(string)
	if strings.TrimSpace(req) == "" {
		return http.StatusBadRequest, tool.Invalid("request", "field 'request' is empty", "type the user's task in a sentence, in English or Chinese")
	}
	if utf8.RuneCountInString(req) > maxPlaygroundRequest {
		return http.StatusBadRequest, tool.Invalid("request", "the request is longer than 2000 characters", "type the task in a sentence or two")
	}
	dec := d.s.router.Route(req)
	names := dec.Names()
	return http.StatusOK, map[string]any{"tier": dec.Tier, "intents": orEmpty(dec.Intents), "primary_intent": dec.Primary,
		"confidence": dec.Confidence, "lang": dec.Lang, "tools": orEmpty(dec.Tools), "view_size": len(names), "view_tokens": d.viewTokens(names)}
}
