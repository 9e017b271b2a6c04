// Package server is everything that speaks MCP: it adapts the tool registry
// to an mcp-go server, runs the call pipeline, keeps per-session state and
// exposure views, and serves stdio, SSE and streamable HTTP. It is the only
// package that imports mcp-go's server.
package server

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Options configure a Server.
type Options struct {
	Config *config.Config
	Deps   *tool.Deps
	// Store is the database the server keeps traces and pending calls in
	// (Deps.Store is the same, as the tools see it).
	Store *store.Store
	// Bridge manages the downstream MCP servers it publishes (nil: none);
	// Deps.Bridge is the same, as mcp_bridge sees it.
	Bridge  *bridge.Manager
	Tools   []tool.Tool
	Log     zerolog.Logger
	Version string
}

// Server is a clawbridge MCP server.
type Server struct {
	inits     sync.Map // session id -> what its initialize declared (initialized.go)
	cfg       *config.Config
	deps      *tool.Deps
	store     *store.Store
	bridge    *bridge.Manager // nil: no downstream servers configured
	log       zerolog.Logger
	mcp       *mcpserver.MCPServer
	order     []*tool.Tool
	tools     map[string]*tool.Tool
	sessions  *sessions
	confirmer *confirmer
	results   *resultStore
	router    *exposure.Router
	live      *liveSessions           // HTTP sessions under http.max_sessions
	flight    *inFlight               // tool calls running, waited for at shutdown
	listeners *listeners              // stateless principals' subscriptions/listen streams
	traceLog  *store.Appender         // trace rows, group-committed; drained by Store.Close
	resultLog *store.Appender         // trace_results rows, likewise (callresults.go)
	published map[string]mcp.Tool     // every tool as mcp-go lists it, by name
	views     viewCache               // rendered tools/list views, shared by sessions
	host      *host                   // what tools that work between calls use (hosted.go)
	metrics   *metrics                // /metrics collectors (metrics.go)
	bridged   bridged                 // downstream tools published as tools (bridged.go)
	calls     next                    // the pipeline's stages joined once around the handler (pipeline.go)
	private   map[*tool.Tool][]string // each native tool's Private parameters, for the audit (audit.go)

	// stdioKey is the random key of this process's stdio session, set when
	// it serves stdio: every process's is different, so nothing one grants
	// (a confirm token, say) is valid in another on the same data dir.
	stdioKey string
}

// New builds the server from the registry.
func New(o Options) (*Server, error) {
	s := &Server{
		cfg:       o.Config,
		deps:      o.Deps,
		store:     o.Store,
		bridge:    o.Bridge,
		log:       o.Log,
		tools:     map[string]*tool.Tool{},
		results:   newResultStore(32),
		live:      newLiveSessions(o.Config.HTTP.MaxSessions, o.Config.HTTP.Instance),
		flight:    &inFlight{},
		listeners: &listeners{},
		published: map[string]mcp.Tool{},
		private:   map[*tool.Tool][]string{},
	}
	s.calls = chain(s.pipeline(), callHandler)
	limit := max(o.Config.Limits.ConcurrentCalls, 1)
	s.sessions = &sessions{m: map[string]*session{}, new: func(key, client string, kind sessionKind) *session {
		return s.newSession(key, client, kind, limit)
	}}
	if err := o.Store.MigrateVersions("traces", traceSteps...); err != nil {
		return nil, err
	}
	pruneTraces(o.Store, o.Log)
	s.traceLog = o.Store.Appender("traces", traceInsert, o.Log)
	s.resultLog = o.Store.Appender("trace_results", resultInsert, o.Log)
	c, err := newConfirmer(o.Store, o.Config.Confirm, o.Config.ApproveTimeout)
	if err != nil {
		return nil, err
	}
	s.confirmer = c
	if s.metrics, err = newMetrics(s); err != nil {
		return nil, err
	}

	s.host = newHost(s)
	s.mcp = mcpserver.NewMCPServer("clawbridge", o.Version,
		mcpserver.WithToolCapabilities(true),
		mcpserver.WithResourceCapabilities(false, false),
		mcpserver.WithPromptCapabilities(false),
		mcpserver.WithLogging(),
		mcpserver.WithInstructions(buildInstructions(registered(o.Tools), o.Config.Exposure.Core)),
		mcpserver.WithHooks(s.hooks()),
		mcpserver.WithRecovery(),
		mcpserver.WithToolHandlerMiddleware(s.flight.track),
		mcpserver.WithToolHandlerMiddleware(s.roundTrips),
	)
	if err := s.register(o.Tools); err != nil {
		return nil, err
	}
	for _, t := range s.order {
		if t.Attach != nil {
			if loop := t.Attach(s.host); loop != nil {
				s.host.loops = append(s.host.loops, loop)
			}
		}
	}
	if s.router, err = newRouter(o.Config.Exposure, s.order); err != nil {
		return nil, err
	}
	if err := s.startBridged(); err != nil {
		return nil, err
	}
	s.mcp.AddNotificationHandler("notifications/roots/list_changed", s.rootsChanged)
	s.addMeta()
	s.addResources()
	s.addPrompts()
	if addFixtures != nil {
		addFixtures(s)
	}
	return s, nil
}

// hooks are the server's MCP hooks: sessions coming and going, the list
// filtered per session, calls pointed at the dispatcher, results and
// prompts guarded, listen streams tracked.
func (s *Server) hooks() *mcpserver.Hooks {
	hooks := &mcpserver.Hooks{}
	hooks.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, _ *mcp.InitializeResult) {
		s.initialized(ctx, req)
		s.host.sessionUp(ctx)
	})
	hooks.AddAfterListTools(s.filterList)
	hooks.AddBeforeCallTool(s.pointAtDispatcher)
	hooks.AddBeforeReadResource(s.hideUnreadableResults)
	hooks.AddBeforeGetPrompt(s.requirePromptArguments)
	hooks.AddBeforeSubscriptionsListen(s.listenOpened)
	hooks.AddAfterSubscriptionsListen(func(ctx context.Context, id any, _ *mcp.SubscriptionsListenRequest, _ *mcp.SubscriptionsListenResult) {
		s.listenClosed(ctx)
	})
	hooks.AddOnError(func(ctx context.Context, id any, method mcp.MCPMethod, _ any, _ error) {
		if method == mcp.MethodSubscriptionsListen {
			s.listenClosed(ctx)
		}
	})
	hooks.AddOnUnregisterSession(func(ctx context.Context, cs mcpserver.ClientSession) {
		s.inits.Delete(cs.SessionID())
		s.host.sessionDown(cs.SessionID())
		if cs.SessionID() == stdioSessionID && s.stdioKey != "" {
			s.forget(s.stdioKey)
			return
		}
		s.forget(cs.SessionID())
	})
	return hooks
}

// register validates and publishes the tools, in order; a name may be
// registered once.
func (s *Server) register(tools []tool.Tool) error {
	for i := range tools {
		t := &tools[i]
		if err := t.Validate(); err != nil {
			return err
		}
		if _, dup := s.tools[t.Name]; dup {
			return fmt.Errorf("tool %q registered twice", t.Name)
		}
		s.tools[t.Name] = t
		s.private[t] = privateNames(t)
		s.order = append(s.order, t)
		s.publish(mcpTool(t), s.handle)
	}
	return nil
}

func registered(ts []tool.Tool) []*tool.Tool {
	out := make([]*tool.Tool, len(ts))
	for i := range ts {
		out[i] = &ts[i]
	}
	return out
}

// Tools lists the registered tools in registry order.
func (s *Server) Tools() []*tool.Tool { return s.order }

// Call runs one tool locally through the same pipeline as a client's call
// (the CLI's `call` command).
func (s *Server) Call(ctx context.Context, name string, args map[string]any) *mcp.CallToolResult {
	return s.CallProgress(ctx, name, args, func(float64, float64, string) {})
}

// CallProgress is Call with the call's progress reports (a call waiting for
// approval says through it what to run).
func (s *Server) CallProgress(ctx context.Context, name string, args map[string]any, progress func(done, total float64, msg string)) *mcp.CallToolResult {
	sess := s.sessions.get("local", "cli", kindLocal)
	return s.run(ctx, sess, name, args, progress)
}

// sweepLoop forgets idle sessions (stateless principals have no end of
// session to wait for) and closes their browser contexts.
func (s *Server) sweepLoop(ctx context.Context) {
	ttl := s.cfg.HTTP.SessionIdleTTL
	if ttl <= 0 {
		return
	}
	t := time.NewTicker(ttl / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, key := range s.sessions.sweep(ttl) {
				s.results.drop(key)
				if s.deps.Sessions != nil {
					s.deps.Sessions.CloseSession(key)
				}
			}
		}
	}
}
