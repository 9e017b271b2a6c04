package server

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// handle is the MCP handler of every registered tool.
func (s *Server) handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	sess := s.sessionOf(ctx)
	s.adoptRoots(ctx, sess)
	return s.run(ctx, sess, req.Params.Name, req.GetArguments(), progressFunc(ctx, s.mcp, req)), nil
}

// callState is one call on its way through the pipeline. Stages fill it in
// as they learn things (the tool, the prepared call, the status for the
// audit); a stage that answers the call itself (a confirmation preview)
// sets answer.
type callState struct {
	traceID  string
	start    time.Time
	sess     *session
	name     string
	args     map[string]any // as the client sent them
	progress func(float64, float64, string)

	tool   *tool.Tool
	action *tool.Action
	call   *tool.Call
	clean  map[string]any // args without the confirm token
	token  string
	slot   *slot

	status string // for the audit: ok, error, refused, confirm, timeout, panic
	answer *mcp.CallToolResult
}

// next runs the rest of the pipeline.
type next func(ctx context.Context, c *callState) (*tool.Result, error)

// stage is one named step of the call pipeline: it does its part and calls
// next, or refuses the call with a tool error.
type stage struct {
	name string
	run  func(ctx context.Context, c *callState, next next) (*tool.Result, error)
}

// pipeline is the call pipeline of ARCHITECTURE.md, outermost first. One
// deliberate change to the documented order: confirmation runs before the
// per-session concurrency cap, so a call waiting for a person (`clawbridge
// approve`) holds no slot. Result shaping is the way back out: run applies
// it to what the chain returns, so a result that a timed-out handler
// returns late is never shaped or kept.
func (s *Server) pipeline() []stage {
	return []stage{
		{"recovery", s.recoveryStage},
		{"trace and audit", s.auditStage},
		{"exposure accounting", s.exposureStage},
		{"loop guard", s.loopGuardStage},
		{"argument validation", s.validationStage},
		{"confirmation", s.confirmationStage},
		{"concurrency cap", s.concurrencyStage},
		{"timeout by class", s.timeoutStage},
		{"retry transient reads", s.retryStage},
		{"circuit breaker", s.breakerStage},
	}
}

// chain joins stages around the handler call.
func chain(stages []stage, last next) next {
	h := last
	for i := len(stages) - 1; i >= 0; i-- {
		st, inner := stages[i], h
		h = func(ctx context.Context, c *callState) (*tool.Result, error) { return st.run(ctx, c, inner) }
	}
	return h
}

// callHandler is the end of the chain: the tool's own handler.
func callHandler(ctx context.Context, c *callState) (*tool.Result, error) {
	res, err := c.tool.Handle(ctx, c.call)
	if res != nil && len(c.call.Ignored) > 0 {
		// Said, not silent: a model that meant something by the field
		// learns it had no effect.
		res.Summary += fmt.Sprintf(" (ignored %s: not a parameter of %s)", strings.Join(c.call.Ignored, ", "), c.tool.Name)
	}
	return res, err
}

// run executes one call through the pipeline. It never returns a Go error:
// every failure is an isError result the model can read.
func (s *Server) run(ctx context.Context, sess *session, name string, args map[string]any, progress func(float64, float64, string)) *mcp.CallToolResult {
	c := &callState{traceID: newTraceID(), start: time.Now(), sess: sess, name: name, args: args, progress: progress, status: "ok"}
	defer func() {
		if sess.kind == kindAnonymous && s.deps.Sessions != nil {
			s.deps.Sessions.CloseSession(sess.key) // its session ends with this request
		}
	}()
	result, err := s.calls(ctx, c)
	var res *mcp.CallToolResult
	switch {
	case c.answer != nil:
		res = c.answer
	case err != nil:
		res = errorResult(c.traceID, asToolError(err))
	default:
		if result == nil {
			result = &tool.Result{}
		}
		res = s.shape(sess, c.traceID, result, s.cfg.Limits.ResultChars)
	}
	s.keepResult(c.traceID, c.tool, res) // what the model got, for the dashboard
	return res
}

// recoveryStage turns a panic in a tool into an internal error: a bug,
// reported with the trace id that finds its stack in the server log.
func (s *Server) recoveryStage(ctx context.Context, c *callState, next next) (r *tool.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, s.panicked(c, p)
		}
	}()
	return next(ctx, c)
}

func (s *Server) panicked(c *callState, p any) error {
	s.log.Error().Str("trace_id", c.traceID).Interface("panic", p).Bytes("stack", debug.Stack()).Msg("tool panicked")
	c.status = "panic"
	return tool.Errorf(tool.CodeFailed, "this is a bug in clawbridge; the trace id identifies it in the server log", "internal error in %s (trace %s)", c.name, c.traceID)
}

// auditStage writes the audit line and trace row of every call, a
// panicking one included (its deferred write runs while the panic unwinds
// to recoveryStage).
func (s *Server) auditStage(ctx context.Context, c *callState, next next) (r *tool.Result, err error) {
	action, _ := c.args["action"].(string)
	done := false
	defer func() {
		var failure *tool.Error
		switch {
		case !done:
			c.status = "panic"
			failure = tool.Errorf(tool.CodeFailed, "", "internal error in %s (trace %s)", c.name, c.traceID)
		case err != nil:
			failure = asToolError(err)
			if c.status == "ok" {
				c.status = "error"
				if failure.Code == tool.CodeTimeout {
					c.status = "timeout"
				}
			}
		}
		s.audit(c.traceID, c.sess, c.name, action, s.withhold(c.tool, c.args), c.status, failure, time.Since(c.start))
	}()
	r, err = next(ctx, c)
	done = true
	return r, err
}

// exposureStage finds the tool and tells the session's exposure state that
// a call started and how it ended (failures widen the view).
func (s *Server) exposureStage(ctx context.Context, c *callState, next next) (r *tool.Result, err error) {
	ok := false
	defer func() { s.afterCall(c.sess, c.name, ok) }()
	t, known := s.lookupTool(c.name)
	if !known && s.bridge != nil {
		if why := s.bridge.NotPublished(c.name); why != nil {
			c.status = "refused"
			return nil, why
		}
		t, known = s.lookupTool(c.name) // released by an approval in another process
	}
	if !known {
		return nil, tool.NotFoundf("name", "call find_tools to see the available tools", "unknown tool %q", c.name)
	}
	c.tool = t
	s.beforeCall(c.sess, c.name, c.args)
	r, err = next(ctx, c)
	ok = err == nil && (c.answer == nil || !c.answer.IsError)
	return r, err
}

// loopGuardStage refuses the same call again and again.
func (s *Server) loopGuardStage(ctx context.Context, c *callState, next next) (*tool.Result, error) {
	if n := c.sess.repeat(argsHash(c.name, c.args)); n > s.cfg.Limits.LoopRepeats {
		c.status = "refused"
		return nil, tool.Errorf(tool.CodeDenied, "the previous identical calls gave their answer; change the arguments or try another approach",
			"loop guard: %s was called %d times in a row with the same arguments", c.name, n)
	}
	return next(ctx, c)
}

// validationStage checks the arguments against the schema, with precise
// errors, and prepares the call.
func (s *Server) validationStage(ctx context.Context, c *callState, next next) (*tool.Result, error) {
	c.token, _ = c.args[confirmParam].(string)
	_, downstream := s.bridgedTool(c.name)
	c.clean = c.args // Prepare and the confirmation only read it
	if _, hasToken := c.args[confirmParam]; hasToken || downstream {
		// A downstream tool gets its own copy: the audit reads the
		// client's arguments after it ran.
		c.clean = make(map[string]any, len(c.args))
		for k, v := range c.args {
			if k != confirmParam {
				c.clean[k] = v
			}
		}
	}
	var call *tool.Call
	if downstream {
		// A downstream tool's arguments are checked by its own server,
		// against the schema it published; fields a client added that a
		// closed schema does not take are left out, as for our own tools.
		var ignored []string
		c.clean, ignored = s.dropClosedSchemaExtras(c.name, c.clean)
		call = tool.NewCall("", c.clean)
		call.Ignored = ignored
	} else {
		var err error
		if call, err = c.tool.Prepare(c.clean); err != nil {
			return nil, err
		}
	}
	call.Session = c.sess.key
	call.Lang = c.sess.exp.Lang()
	if c.progress != nil {
		call.Progress = c.progress
	}
	if c.sess.canSample(ctx) {
		call.Sample = s.sampler()
	}
	c.call = call
	c.action, _ = c.tool.Action(call.Action)
	return next(ctx, c)
}

// confirmationStage asks for confirmation of high actions; a preview or a
// refusal answers the call without running it.
func (s *Server) confirmationStage(ctx context.Context, c *callState, next next) (*tool.Result, error) {
	// A scheduled call's High level was confirmed when its job was added
	// (cron's add is High then); the scheduler re-checks the level at fire.
	if c.tool.LevelOf(c.call) == tool.High && c.sess.kind != kindScheduled {
		waits := c.sess.kind == kindLocal
		r := s.confirm(ctx, c.traceID, c.sess, c.tool, c.call, c.clean, c.token, waits)
		s.confirmed(r)
		if r != nil {
			c.status = "confirm"
			if r.IsError {
				c.status = "refused"
			}
			c.answer = r
			return nil, nil
		}
	}
	return next(ctx, c)
}

// slotWait is how long a call waits for a free slot of its session.
const slotWait = 5 * time.Second

// concurrencyStage bounds the calls in flight per session. A slot is held
// until the handler really ends, even one the timeout stage gave up on.
func (s *Server) concurrencyStage(ctx context.Context, c *callState, next next) (*tool.Result, error) {
	sem := c.sess.sem
	select {
	case sem <- struct{}{}: // a free slot: no timer
		c.slot = &slot{sem: sem}
		defer c.slot.free()
		return next(ctx, c)
	default:
	}
	wait := time.NewTimer(slotWait)
	defer wait.Stop()
	select {
	case sem <- struct{}{}:
		c.slot = &slot{sem: sem}
		defer c.slot.free()
	case <-wait.C:
		c.status = "refused"
		return nil, tool.Errorf(tool.CodeDenied, "wait for earlier calls to finish, then retry", "too many calls in flight for this session (limit %d)", cap(sem))
	case <-ctx.Done():
		return nil, tool.Errorf(tool.CodeTimeout, "", "cancelled while waiting for a free slot")
	}
	return next(ctx, c)
}

// slot is a concurrency slot that the timeout stage can keep past the end
// of the call, for a handler still running after its deadline.
type slot struct {
	mu    sync.Mutex
	kept  bool
	freed bool
	sem   chan struct{} // the session's semaphore, one token taken
}

func (s *slot) release() { <-s.sem }

// free gives the slot back unless it was kept.
func (s *slot) free() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.kept && !s.freed {
		s.freed = true
		s.release()
	}
}

// keep takes the slot over; the returned func gives it back.
func (s *slot) keep() func() {
	s.mu.Lock()
	s.kept = true
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.freed {
			s.freed = true
			s.release()
		}
	}
}

// timeoutStage bounds the call by its action's timeout class. The deadline
// holds even for a handler that ignores its ctx: the rest of the chain runs
// in its own goroutine on a copy of the call state, and at the deadline the
// call answers a timeout error; the goroutine is left to finish, its result
// is dropped with a log line, and it keeps the session's slot until then.
func (s *Server) timeoutStage(ctx context.Context, c *callState, next next) (*tool.Result, error) {
	class := tool.Normal
	if c.action != nil {
		class = c.action.Timeout
	}
	timeout := s.cfg.Limits.Timeout(class)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	type outcome struct {
		r   *tool.Result
		err error
	}
	done := make(chan outcome, 1)
	inner := *c
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{err: s.panicked(&inner, p)}
			}
		}()
		r, err := next(ctx, &inner)
		done <- outcome{r, err}
	}()
	timedOut := func() error {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return tool.Errorf(tool.CodeTimeout, "narrow the request or raise limits in config", "%s timed out after %s", c.name, timeout)
		}
		return tool.Errorf(tool.CodeTimeout, "", "cancelled")
	}
	notice := time.NewTimer(longCallNotice)
	defer notice.Stop()
wait:
	for {
		select {
		case o := <-done:
			*c = inner
			if o.err != nil && ctx.Err() != nil {
				return nil, timedOut()
			}
			return o.r, o.err
		case <-notice.C:
			s.tellClient(ctx, mcp.LoggingLevelInfo, fmt.Sprintf("%s is still running after %s (it may take up to %s)", c.name, longCallNotice, timeout))
		case <-ctx.Done():
			break wait
		}
	}
	select {
	case o := <-done: // finished just as the deadline passed
		*c = inner
		if o.err != nil {
			return nil, timedOut()
		}
		return o.r, o.err
	default:
	}
	freeSlot := func() {}
	if c.slot != nil {
		freeSlot = c.slot.keep()
	}
	s.log.Warn().Str("trace_id", c.traceID).Str("tool", c.name).Dur("timeout", timeout).Msg("handler still running after its deadline; its result will be dropped")
	s.tellClient(ctx, mcp.LoggingLevelWarning, fmt.Sprintf("%s timed out after %s; its result will be dropped", c.name, timeout))
	go func() {
		o := <-done
		freeSlot()
		s.log.Warn().Str("trace_id", c.traceID).Str("tool", c.name).Bool("failed", o.err != nil).Dur("after", time.Since(c.start)).Msg("late result of a timed-out call dropped")
	}()
	return nil, timedOut()
}

// longCallNotice is how long a call runs before the client is told, with a
// notifications/message, that it is still at work.
var longCallNotice = 10 * time.Second

// tellClient sends a notifications/message to the calling client, at a
// level it asked for (logging/setLevel, or the request's level under
// 2026-07-28); a client that asked for none gets nothing.
func (s *Server) tellClient(ctx context.Context, level mcp.LoggingLevel, msg string) {
	_ = s.mcp.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(level, "clawbridge", msg))
}

// retryStage runs an idempotent read once more after a transient error
// (see transient.go); anything else is answered as it is. A read is the
// call's level: OCR that saves its text is not retried, OCR that does not is.
func (s *Server) retryStage(ctx context.Context, c *callState, next next) (*tool.Result, error) {
	r, err := next(ctx, c)
	if c.action != nil && c.action.Idempotent && c.tool.LevelOf(c.call) == tool.Read && transient(err) && ctx.Err() == nil {
		s.log.Info().Str("trace_id", c.traceID).Str("tool", c.name).Str("error", logging.RedactString(err.Error())).Msg("transient error; retrying once")
		r, err = next(ctx, c)
	}
	return r, err
}

// breakerStage is the circuit breaker per external dependency and session:
// one session's failures do not pause the tool for the others. Only network
// (open-world) tools have one; bad input does not count as a failure.
func (s *Server) breakerStage(ctx context.Context, c *callState, next next) (*tool.Result, error) {
	if !c.tool.OpenWorld {
		return next(ctx, c)
	}
	b := c.sess.breaker(c.name)
	if !b.allow() {
		c.status = "refused"
		return nil, tool.Errorf(tool.CodeUnavailable, "wait a minute before retrying", "%s failed several times in a row; calls are paused for %s", c.name, breakerCooldown)
	}
	r, err := next(ctx, c)
	b.record(err == nil || isToolError(err, tool.CodeInvalid, tool.CodeNotFound, tool.CodeDenied))
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

// newTraceID is this process's random prefix and the next value of its
// counter, 16 hex digits. Ids in a row of calls are in order, so the trace
// rows' primary-key index takes each group commit's rows at one place
// instead of dirtying a page per row all over the index (with random ids
// the appender's commits cost ~2.5 times the CPU: BenchmarkCallOverhead's
// profile, 16.6 against 6.4 µs a call). Two processes on one database
// collide only if their 32-bit prefixes do.
func newTraceID() string {
	var b [8]byte
	binary.BigEndian.PutUint32(b[:4], tracePrefix)
	binary.BigEndian.PutUint32(b[4:], traceSeq.Add(1))
	return hex.EncodeToString(b[:])
}

var (
	tracePrefix = func() uint32 {
		var b [4]byte
		rand.Read(b[:])
		return binary.BigEndian.Uint32(b[:])
	}()
	traceSeq atomic.Uint32
)

// progressFunc sends MCP progress notifications when the client asked for
// them with a progress token; nil when it did not (the call's Progress
// stays a no-op, and a call for approval does not wait: see confirm).
func progressFunc(ctx context.Context, srv *mcpserver.MCPServer, req mcp.CallToolRequest) func(float64, float64, string) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
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
		if srv.SendNotificationToClient(ctx, "notifications/progress", params) == nil {
			awaitTaken(ctx)
		}
	}
}

// awaitTaken waits, for at most awaitTakenMax, until the notifications
// queued on the request's session have been taken off its channel. Under
// streamable HTTP, mcp-go (v1.2.1) hands them to the request's forwarder,
// which drops one it takes after the request ended: a progress
// notification sent just before the tool returns was lost that way (2 of 3
// arrived). Waiting until it is taken lets the forwarder write it while the
// response is still open.
func awaitTaken(ctx context.Context) {
	cs := mcpserver.ClientSessionFromContext(ctx)
	if cs == nil {
		return
	}
	ch := cs.NotificationChannel()
	for deadline := time.Now().Add(awaitTakenMax); len(ch) > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Microsecond)
	}
	runtime.Gosched() // the forwarder that took it reaches its lock before the handler returns
}

// awaitTakenMax bounds awaitTaken: a client that reads nothing must not
// hold the call.
const awaitTakenMax = 20 * time.Millisecond

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
