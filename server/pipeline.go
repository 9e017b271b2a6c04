package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"clawbridge/internal/logging"
	"clawbridge/tools/tool"
)

// handle is the MCP handler of every registered tool: the call pipeline of
// ARCHITECTURE.md, outermost first.
func (s *Server) handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	sess := s.sessionOf(ctx)
	s.adoptRoots(ctx, sess)
	return s.run(ctx, sess, req.Params.Name, req.GetArguments(), progressFunc(ctx, s.mcp, req)), nil
}

// run executes one call through the pipeline. It never returns a Go error:
// every failure is an isError result the model can read.
func (s *Server) run(ctx context.Context, sess *session, name string, args map[string]any, progress func(float64, float64, string)) (res *mcp.CallToolResult) {
	traceID := newTraceID()
	start := time.Now()
	action, _ := args["action"].(string)
	status := "ok"
	var failure *tool.Error

	// Recovery: a panic in a tool is a bug, reported as an internal error.
	defer func() {
		if p := recover(); p != nil {
			s.log.Error().Str("trace_id", traceID).Interface("panic", p).Bytes("stack", debug.Stack()).Msg("tool panicked")
			failure = tool.Errorf(tool.CodeFailed, "this is a bug in clawbridge; the trace id identifies it in the server log", "internal error in %s (trace %s)", name, traceID)
			res = errorResult(traceID, failure)
			status = "panic"
		}
		if res.IsError && status == "ok" {
			status = "error"
		}
		s.audit(traceID, sess, name, action, args, status, failure, time.Since(start))
		s.afterCall(sess, name, !res.IsError)
		if sess.kind == kindAnonymous && s.deps.Browser != nil {
			s.deps.Browser.CloseSession(sess.key) // its session ends with this request
		}
	}()

	t, ok := s.tools[name]
	if !ok {
		failure = tool.Errorf(tool.CodeNotFound, "call find_tools to see the available tools", "unknown tool %q", name)
		return errorResult(traceID, failure)
	}
	s.beforeCall(sess, name)

	// Loop guard: the same call again and again is refused.
	if n := sess.repeat(argsHash(name, args)); n > s.cfg.Limits.LoopRepeats {
		status = "refused"
		failure = tool.Errorf(tool.CodeDenied, "the previous identical calls gave their answer; change the arguments or try another approach",
			"loop guard: %s was called %d times in a row with the same arguments", name, n)
		return errorResult(traceID, failure)
	}

	// Validation against the schema, with precise errors.
	token, _ := args[confirmParam].(string)
	clean := make(map[string]any, len(args))
	for k, v := range args {
		if k != confirmParam {
			clean[k] = v
		}
	}
	call, err := t.Prepare(clean)
	if err != nil {
		failure = asToolError(err)
		return errorResult(traceID, failure)
	}
	call.Session = sess.key
	if progress != nil {
		call.Progress = progress
	}

	// Confirmation for high actions.
	if t.LevelOf(call) == tool.High {
		if r := s.confirm(ctx, traceID, sess, t, call, clean, token); r != nil {
			if r.IsError {
				status = "refused"
			} else {
				status = "confirm"
			}
			return r
		}
	}

	// Per-session concurrency cap, taken after confirmation: a call waiting
	// for a person holds no slot.
	select {
	case sess.sem <- struct{}{}:
		defer func() { <-sess.sem }()
	case <-time.After(5 * time.Second):
		status = "refused"
		failure = tool.Errorf(tool.CodeDenied, "wait for earlier calls to finish, then retry", "too many calls in flight for this session (limit %d)", cap(sess.sem))
		return errorResult(traceID, failure)
	case <-ctx.Done():
		failure = tool.Errorf(tool.CodeTimeout, "", "cancelled while waiting for a free slot")
		return errorResult(traceID, failure)
	}

	// Circuit breaker per external dependency and session: one session's
	// failures do not pause the tool for the others.
	if t.OpenWorld && !sess.breaker(name).allow() {
		status = "refused"
		failure = tool.Errorf(tool.CodeUnavailable, "wait a minute before retrying", "%s failed several times in a row; calls are paused for %s", name, breakerCooldown)
		return errorResult(traceID, failure)
	}

	a, _ := t.Action(call.Action)
	timeout := s.cfg.Timeout(string(a.Timeout))
	result, err := s.invoke(ctx, t, call, timeout)
	if a.Idempotent && a.Level == tool.Read && transient(err) {
		result, err = s.invoke(ctx, t, call, timeout) // retry once
	}
	if t.OpenWorld {
		sess.breaker(name).record(err == nil || isToolError(err, tool.CodeInvalid, tool.CodeNotFound, tool.CodeDenied))
	}
	if err != nil {
		failure = asToolError(err)
		if failure.Code == tool.CodeTimeout {
			status = "timeout"
		}
		return errorResult(traceID, failure)
	}
	if result == nil {
		result = &tool.Result{}
	}
	return s.shape(sess, traceID, result, s.cfg.Limits.ResultChars)
}

// invoke runs the handler with the class timeout.
func (s *Server) invoke(ctx context.Context, t *tool.Tool, call *tool.Call, timeout time.Duration) (*tool.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	r, err := t.Handler(ctx, call)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, tool.Errorf(tool.CodeTimeout, "narrow the request or raise limits in config", "%s timed out after %s", t.Name, timeout)
	}
	return r, err
}

func asToolError(err error) *tool.Error {
	if te, ok := tool.AsError(err); ok {
		return te
	}
	if errors.Is(err, context.Canceled) {
		return tool.Errorf(tool.CodeTimeout, "", "cancelled")
	}
	return &tool.Error{Code: tool.CodeFailed, Message: logging.RedactString(err.Error())}
}

func isToolError(err error, codes ...string) bool {
	te, ok := tool.AsError(err)
	if !ok {
		return false
	}
	for _, c := range codes {
		if te.Code == c {
			return true
		}
	}
	return false
}

// transient reports errors worth one retry: Go errors (not tool errors) that
// are not cancellations.
func transient(err error) bool {
	if err == nil {
		return false
	}
	if _, ok := tool.AsError(err); ok {
		return false
	}
	return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// repeat records a call and returns how many times in a row it was made.
func (s *session) repeat(h string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h == s.lastCall {
		s.repeats++
	} else {
		s.lastCall, s.repeats = h, 1
	}
	return s.repeats
}

func newTraceID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// progressFunc sends MCP progress notifications when the client asked for
// them with a progress token.
func progressFunc(ctx context.Context, srv *mcpserver.MCPServer, req mcp.CallToolRequest) func(float64, float64, string) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return func(float64, float64, string) {}
	}
	tok := req.Params.Meta.ProgressToken
	return func(done, total float64, msg string) {
		params := map[string]any{"progressToken": tok, "progress": done}
		if total > 0 {
			params["total"] = total
		}
		if msg != "" {
			params["message"] = msg
		}
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", params)
	}
}

// Circuit breaker: after breakerFailures consecutive failures of a network
// tool in a session, that session's calls to it are refused for
// breakerCooldown.
const (
	breakerFailures = 5
	breakerCooldown = time.Minute
)

type circuit struct {
	mu        sync.Mutex
	failures  int
	openUntil time.Time
}

func (s *session) breaker(name string) *circuit {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.breakers[name]
	if !ok {
		c = &circuit{}
		if s.breakers == nil {
			s.breakers = map[string]*circuit{}
		}
		s.breakers[name] = c
	}
	return c
}

func (c *circuit) allow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().After(c.openUntil)
}

func (c *circuit) record(ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok {
		c.failures = 0
		return
	}
	c.failures++
	if c.failures >= breakerFailures {
		c.openUntil = time.Now().Add(breakerCooldown)
		c.failures = 0
	}
}

func mcpNotFound(uri string) error { return fmt.Errorf("resource %s not found", uri) }
