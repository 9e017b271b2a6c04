package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/clawbridge/clawbridge/exposure"
)

// sessionKind says where a session's key comes from, and so what it may
// keep between requests and whether it can be notified.
type sessionKind int

const (
	kindConnection sessionKind = iota // SSE or streamable HTTP session: the Mcp-Session-Id
	kindStdio                         // the one client of a stdio server process: a random key per process
	kindPrincipal                     // stateless (2026-07-28) requests with a checked bearer token: its hash
	kindAnonymous                     // a stateless request without a token: a random key for this request only
	kindLocal                         // the CLI's `call` command in this process
	kindScheduled                     // the cron scheduler's calls (hosted.go): confirmed when their job was added
)

// session is clawbridge's state for one client session: the concurrency
// slots, the loop guard's memory, the circuit breakers and the exposure view.
// Nothing in it is shared with another session.
type session struct {
	key    string
	kind   sessionKind
	client string
	sem    chan struct{}
	peer   peerInfo // client version and protocol, for the dashboard (dashboard.go)
	exp    *exposure.Session

	mu       sync.Mutex
	lastCall string // hash of the last call's tool and arguments
	repeats  int
	seen     time.Time
	breakers map[string]*circuit // by tool name

	rootsChecked bool // the client's MCP roots were asked for

	list viewList // the last rendered tools/list of this session
}

// notifiable reports whether the session has a connection that server
// notifications can reach; stateless callers re-list on every request.
func (s *session) notifiable() bool { return s.kind == kindConnection || s.kind == kindStdio }

// sessions maps session keys to state. Anonymous stateless requests are not
// kept: each gets a fresh session that ends with its request.
type sessions struct {
	mu  sync.Mutex
	m   map[string]*session
	new func(key, client string, kind sessionKind) *session
}

func (ss *sessions) get(key, client string, kind sessionKind) *session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s, ok := ss.m[key]
	if !ok {
		s = ss.new(key, client, kind)
		ss.m[key] = s
	}
	if client != "" && s.client == "" {
		s.client = client
	}
	s.seen = time.Now()
	return s
}

// all lists the live sessions.
func (ss *sessions) all() []*session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]*session, 0, len(ss.m))
	for _, s := range ss.m {
		out = append(out, s)
	}
	return out
}

// anonymous makes the session of one anonymous stateless request.
func (ss *sessions) anonymous(client string) *session {
	s := ss.new(randomKey("anon:"), client, kindAnonymous)
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

// randomKey is prefix plus 128 random bits: unique and unguessable.
func randomKey(prefix string) string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return short)
	return prefix + hex.EncodeToString(b[:])
}

type principalKey struct{}

// withPrincipal marks a request context with its authenticated principal.
func withPrincipal(ctx context.Context, token string) context.Context {
	h := sha256.Sum256([]byte(token))
	return context.WithValue(ctx, principalKey{}, "principal:"+hex.EncodeToString(h[:16]))
}

// stdioSessionID is the id mcp-go gives the one session of its stdio server.
const stdioSessionID = "stdio"

// sessionOf resolves the caller of the request in ctx to its session:
// stateless requests by their checked principal (or a fresh session when
// there is none), stdio by this process's random key, SSE and streamable
// HTTP sessions by their Mcp-Session-Id.
func (s *Server) sessionOf(ctx context.Context) *session {
	if info := mcpserver.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		client := ""
		if info.ClientInfo != nil {
			client = info.ClientInfo.Name
		}
		if p, _ := ctx.Value(principalKey{}).(string); p != "" {
			return s.sessions.get(p, client, kindPrincipal).noted(info.ClientInfo, info.ProtocolVersion)
		}
		return s.sessions.anonymous(client)
	}
	cs := mcpserver.ClientSessionFromContext(ctx)
	if cs == nil {
		return s.sessions.anonymous("")
	}
	client := ""
	var impl *mcp.Implementation
	if ci := s.healed(ctx); ci != nil {
		i := ci.GetClientInfo()
		client, impl = i.Name, &i
	}
	protocol := mcpserver.RequestProtocolVersion(ctx)
	if key := s.stdioKey; key != "" && cs.SessionID() == stdioSessionID {
		return s.sessions.get(key, client, kindStdio).noted(impl, protocol)
	}
	return s.sessions.get(cs.SessionID(), client, kindConnection).noted(impl, protocol)
}

// forget ends a session: its state, kept results and browser context.
func (s *Server) forget(key string) {
	s.sessions.drop(key)
	s.results.drop(key)
	if s.deps.Sessions != nil {
		s.deps.Sessions.CloseSession(key) // its cookies and tabs go with it
	}
}
