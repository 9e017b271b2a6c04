package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"clawbridge/exposure"
)

// session is clawbridge's state for one client session: the concurrency
// slots, the loop guard's memory and the exposure view.
type session struct {
	key    string
	client string
	sem    chan struct{}
	exp    *exposure.Session

	mu       sync.Mutex
	lastCall string // hash of the last call's tool and arguments
	repeats  int
	seen     time.Time

	rootsChecked bool // the client's MCP roots were asked for
}

// sessions maps session keys to state. Keys: the MCP session id for
// stdio/SSE/streamable sessions; for stateless 2026-07-28 requests, the
// authenticated principal ("principal:<hash>") or "" (anonymous).
type sessions struct {
	mu  sync.Mutex
	m   map[string]*session
	new func(key, client string) *session
}

func (ss *sessions) get(key, client string) *session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s, ok := ss.m[key]
	if !ok {
		s = ss.new(key, client)
		ss.m[key] = s
	}
	if client != "" && s.client == "" {
		s.client = client
	}
	s.seen = time.Now()
	return s
}

func (ss *sessions) drop(key string) {
	ss.mu.Lock()
	delete(ss.m, key)
	ss.mu.Unlock()
}

// sweep forgets sessions idle longer than ttl and returns their keys.
func (ss *sessions) sweep(ttl time.Duration) []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var gone []string
	for k, s := range ss.m {
		if time.Since(s.seen) > ttl {
			delete(ss.m, k)
			gone = append(gone, k)
		}
	}
	return gone
}

type principalKey struct{}

// withPrincipal marks a request context with its authenticated principal.
func withPrincipal(ctx context.Context, token string) context.Context {
	h := sha256.Sum256([]byte(token))
	return context.WithValue(ctx, principalKey{}, "principal:"+hex.EncodeToString(h[:8]))
}

// sessionKey identifies the caller's session from the request context.
func sessionKey(ctx context.Context) (key, client string, stateless bool) {
	if info := mcpserver.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		if info.ClientInfo != nil {
			client = info.ClientInfo.Name
		}
		p, _ := ctx.Value(principalKey{}).(string)
		return p, client, true
	}
	cs := mcpserver.ClientSessionFromContext(ctx)
	if cs == nil {
		return "local", "", false
	}
	if ci, ok := cs.(mcpserver.SessionWithClientInfo); ok {
		client = ci.GetClientInfo().Name
	}
	return cs.SessionID(), client, false
}
