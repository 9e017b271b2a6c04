package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
)

// liveSessions counts the HTTP sessions that hold server state — streamable
// HTTP sessions (Mcp-Session-Id) and open SSE streams — so that beyond
// http.max_sessions a new one is refused with 503 while existing ones keep
// working. It is the streamable server's session id manager: an id it made
// is live until DELETE or the idle sweep terminates it, which frees its
// slot. Stateless 2026-07-28 requests hold no session and are not counted.
type liveSessions struct {
	max    int
	prefix string // "mcp-session-", with http.instance and "-" when set

	mu      sync.Mutex
	ids     map[string]bool // live streamable session ids
	sse     int             // open SSE streams
	pending int             // initialize requests admitted and still running
}

func newLiveSessions(max int, instance string) *liveSessions {
	prefix := "mcp-session-"
	if instance != "" {
		prefix += instance + "-"
	}
	return &liveSessions{max: max, prefix: prefix, ids: map[string]bool{}}
}

// Generate makes an unguessable session id (128 random bits after the
// instance's prefix) and counts it.
func (l *liveSessions) Generate() string {
	var b [16]byte
	rand.Read(b[:])
	id := l.prefix + hex.EncodeToString(b[:])
	l.mu.Lock()
	l.ids[id] = true
	l.mu.Unlock()
	return id
}

// Validate accepts only live ids; an unknown or ended one gets 404 from
// mcp-go, telling the client to start a new session.
func (l *liveSessions) Validate(id string) (isTerminated bool, err error) {
	if !l.known(id) {
		return false, fmt.Errorf("session not found")
	}
	return false, nil
}

// Terminate ends a session and frees its slot.
func (l *liveSessions) Terminate(id string) (isNotAllowed bool, err error) {
	l.mu.Lock()
	delete(l.ids, id)
	l.mu.Unlock()
	return false, nil
}

func (l *liveSessions) known(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ids[id]
}

// inUse counts live sessions, SSE streams and admitted initializes. An
// initialize is counted twice between its Generate and its end: the cap
// may refuse a little early under a burst, never admit more than max.
func (l *liveSessions) inUse() int { return len(l.ids) + l.sse + l.pending }

// admit reserves a slot for a request that may create a session; release
// gives the reservation back when the request ends (a session it created
// is counted by its id from then on).
func (l *liveSessions) admit(sse bool) (release func(), ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inUse() >= l.max {
		return nil, false
	}
	if sse {
		l.sse++
		return func() { l.mu.Lock(); l.sse--; l.mu.Unlock() }, true
	}
	l.pending++
	return func() { l.mu.Lock(); l.pending--; l.mu.Unlock() }, true
}

// serve runs next for a request that opens a session (an SSE stream when
// sse) if a session is free, holding its place until next returns, and
// refuses it otherwise.
func (l *liveSessions) serve(w http.ResponseWriter, r *http.Request, next http.Handler, sse bool) {
	release, ok := l.admit(sse)
	if !ok {
		l.refuse(w)
		return
	}
	defer release()
	next.ServeHTTP(w, r)
}

// refuse answers a new session beyond the cap.
func (l *liveSessions) refuse(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "30")
	http.Error(w, fmt.Sprintf("too many sessions: all %d are in use (http.max_sessions); end an unused one with DELETE /mcp or retry later", l.max), http.StatusServiceUnavailable)
}
