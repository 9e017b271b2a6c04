package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/clawbridge/clawbridge/exposure"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Per-session views. Every tool is registered once, globally, so that every
// tool stays callable in every session (mcp-go's tool filter would also
// block calls, and its stdio session has no per-session tools). The view a
// session sees is applied to the tools/list result in an after-hook: the
// session's exposure state picks, orders and tags the tools. The tagged
// descriptions are copies; the registry is never mutated.

// newRouter builds the router over the registered tools: their names decide
// what is offered, their own descriptions and examples feed the lexical index
// (the same router serves clients and `clawbridge route`).
func newRouter(cfg config.Exposure, registered []*tool.Tool) (*exposure.Router, error) {
	var tables *exposure.Tables
	if cfg.TablesFile != "" {
		b, err := os.ReadFile(cfg.TablesFile)
		if err != nil {
			return nil, fmt.Errorf("exposure.tables_file: %w", err)
		}
		tables = exposure.DefaultTables()
		if err := tables.OverrideJSON(b); err != nil {
			return nil, fmt.Errorf("exposure.tables_file %s: %w", cfg.TablesFile, err)
		}
		if err := tables.Validate(); err != nil {
			return nil, fmt.Errorf("exposure.tables_file %s: %w", cfg.TablesFile, err)
		}
	}
	names := []string{exposure.FindTools, exposure.CallTool}
	var texts []exposure.ToolText
	for _, t := range registered {
		names = append(names, t.Name)
		texts = append(texts, exposure.ToolText{Name: t.Name, Description: t.Description, Examples: t.Examples})
	}
	r, err := exposure.NewRouter(exposure.Config{
		Tables:            tables,
		Texts:             texts,
		RecommendedAt:     cfg.RecommendedAt,
		ExtendedAt:        cfg.ExtendedAt,
		Core:              cfg.Core,
		Registered:        names,
		FailuresToUpgrade: cfg.FailuresToUpgrade,
		NarrowAfterCalls:  narrowAfter(cfg.NarrowAfterCalls),
		PinCalls:          cfg.PinCalls,
	})
	if err == nil && cfg.TablesFile != "" {
		// The embedded tables are compiled by tests; a deployment's own are
		// compiled now, so a defect in them refuses the start. Otherwise
		// the detector is compiled by the first routed request.
		if err = r.Ready(); err != nil {
			err = fmt.Errorf("exposure.tables_file %s: %w", cfg.TablesFile, err)
		}
	}
	return r, err
}

// narrowAfter maps the config's 0 (never) to the router's negative.
func narrowAfter(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

func (s *Server) newSession(key, client string, kind sessionKind, limit int) *session {
	mode := s.router.Tables().ModeForClient(client, s.cfg.Exposure.Mode)
	if (kind == kindAnonymous || kind == kindPrincipal) && mode == exposure.ModeTiered {
		// 2026-07-28: tools/list must not vary per connection or as a
		// side effect of other requests, so a stateless caller, with a
		// token or without, gets a list that never changes: search (core +
		// find_tools + call_tool), where progressive exposure happens in
		// find_tools' answers and through call_tool. A client the table
		// gives full (Claude Code) or search keeps that.
		mode = exposure.ModeSearch
	}
	return &session{key: key, kind: kind, client: client, sem: make(chan struct{}, limit), exp: s.router.NewSession(mode)}
}

// filterList replaces the global tool list with the caller's view. The
// rendered list is cached twice: per session under the view's version (a
// re-list of an unchanged view is a version check), and per distinct view
// across sessions (new sessions mostly start in the same view). Cached
// slices are shared between responses and never modified after they are
// stored.
func (s *Server) filterList(ctx context.Context, id any, req *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
	if res == nil {
		return
	}
	res.Tools = s.listFor(s.sessionOf(ctx))
}

// viewList is one session's last rendered tools/list and the view version
// it was rendered from.
type viewList struct {
	mu      sync.Mutex
	ok      bool
	version uint64
	tools   []mcp.Tool
}

// listFor returns sess's current view as MCP tools.
func (s *Server) listFor(sess *session) []mcp.Tool {
	c := &sess.list
	v := sess.exp.Version()
	c.mu.Lock()
	if c.ok && c.version == v {
		tools := c.tools
		c.mu.Unlock()
		return tools
	}
	c.mu.Unlock()
	view, _, version := sess.exp.Snapshot()
	tools := s.views.get(view, func() []mcp.Tool { return s.viewTools(view) })
	c.mu.Lock()
	if !c.ok || version >= c.version {
		c.ok, c.version, c.tools = true, version, tools
	}
	c.mu.Unlock()
	return tools
}

// viewCache holds rendered lists by view content, shared by all sessions.
// Views are few (tier × detected intents × pins); the cache is
// emptied when it reaches maxViews, so it stays bounded whatever callers do.
type viewCache struct {
	mu sync.RWMutex
	m  map[string][]mcp.Tool
}

const maxViews = 512

func (c *viewCache) get(view []exposure.ViewTool, render func() []mcp.Tool) []mcp.Tool {
	var k strings.Builder
	for _, v := range view {
		k.WriteString("\x00" + v.Name + "\x01" + v.Tag)
	}
	key := k.String()
	c.mu.RLock()
	tools, ok := c.m[key]
	c.mu.RUnlock()
	if ok {
		return tools
	}
	tools = render()
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxViews {
		c.m = map[string][]mcp.Tool{}
	}
	c.m[key] = tools
	c.mu.Unlock()
	return tools
}

// reset drops every rendered list: a tool's published form changed.
func (c *viewCache) reset() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}

// viewTools renders a view as MCP tools with tagged description copies.
// The tags are always English: the same view is the same bytes whatever
// language the last request was in, so a client's cached prompt prefix
// survives a request in another language (find_tools answers in the
// request's terms).
func (s *Server) viewTools(view []exposure.ViewTool) []mcp.Tool {
	out := make([]mcp.Tool, 0, len(view))
	for _, v := range view {
		t, ok := s.publishedTool(v.Name)
		if !ok {
			continue
		}
		t.Description = exposure.Tag(t.Description, v.Tag, "en")
		out = append(out, t)
	}
	return out
}

// beforeCall pins a tool called from outside the session's view; the
// call's arguments are evidence of the task too.
func (s *Server) beforeCall(sess *session, name string, args map[string]any) {
	if sess.exp.CallStarted(name, args) {
		s.viewChanged(sess)
	}
}

// afterCall counts failures; two in a row widen the view.
func (s *Server) afterCall(sess *session, name string, ok bool) {
	if _, known := s.lookupTool(name); !known && ok {
		return
	}
	if sess.exp.CallFinished(name, ok) {
		s.viewChanged(sess)
	}
}

// viewChanged logs the transition and tells that session only.
func (s *Server) viewChanged(sess *session) {
	st := sess.exp.State()
	ev := s.log.Info().Str("kind", "exposure").Str("session", sess.key).Str("tier", string(st.Tier)).Int("tools", len(st.View))
	if n := len(st.History); n > 0 {
		ev = ev.Str("reason", st.History[n-1].Reason)
	}
	ev.Msg("view changed")
	if sess.kind == kindPrincipal {
		n := s.notifyListChanged(sess.key) // on its subscriptions/listen streams, if any
		s.metrics.listChanged.WithLabelValues("listen").Add(float64(n))
		return
	}
	if !sess.notifiable() {
		return // an anonymous stateless caller has nothing to be told on
	}
	target := sess.key
	if sess.kind == kindStdio {
		target = stdioSessionID // mcp-go's name for it
	}
	if err := s.mcp.SendNotificationToSpecificClient(target, mcp.MethodNotificationToolsListChanged, nil); err != nil {
		s.log.Debug().Err(err).Str("session", sess.key).Msg("list_changed not delivered")
	} else {
		s.metrics.listChanged.WithLabelValues("session").Inc()
	}
}

// The meta tools are described as registry tools are, so that their schemas
// and argument checks (exact-string leniency, unknown fields) are the same;
// their handlers are the server's own, and every call is audited.
var (
	findToolsDef = metaDef(exposure.FindTools, "Find tools", tool.Read,
		"Find the right tools for a request. Describe what the user wants in their own words (any language); "+
			"returns the best tools with one-line descriptions, narrows your tool list to them and notifies the client. "+
			"Set include_schemas to get each tool's input schema too (for clients that do not re-read the tool list). Every tool stays callable.",
		tool.Param{Name: "request", Type: tool.String, Required: true, Description: "The user's request or the task at hand, e.g. \"合并这三个PDF\" or \"chart sales by month\""},
		tool.Param{Name: "include_schemas", Type: tool.Boolean, Description: "Also return each chosen tool's full input schema (default false)"})
	callToolDef = metaDef(exposure.CallTool, "Call a tool by name", tool.High,
		"Run any clawbridge tool by name with its arguments. Use find_tools first (with include_schemas) to learn the tool's name and input schema.",
		tool.Param{Name: "name", Type: tool.String, Required: true, Description: "The tool's name, as find_tools returned it"},
		tool.Param{Name: "arguments", Type: tool.Object, Description: "The tool's arguments, matching its input schema (an object; a JSON string of one is accepted too)"})
)

func metaDef(name, title string, level tool.Level, desc string, params ...tool.Param) *tool.Tool {
	return &tool.Tool{Name: name, Title: title, Description: desc, OpenWorld: level == tool.High,
		// The server answers meta tools itself; the handler is never called.
		Actions: []tool.Action{{Level: level, Timeout: tool.Fast, Params: params,
			Handler: func(context.Context, *tool.Call) (*tool.Result, error) { return nil, nil }}}}
}

// metaTool publishes a meta tool: its schema and annotations as any tool's,
// without confirm_token (call_tool's inner call carries its own).
func metaTool(t *tool.Tool) mcp.Tool {
	m := mcpTool(t)
	raw, _ := json.Marshal(t.InputSchema())
	m.RawInputSchema = raw
	return m
}

// addMeta registers find_tools (always listed) and call_tool (listed in
// search mode; callable always).
func (s *Server) addMeta() {
	s.publish(metaTool(findToolsDef), s.findTools)
	s.publish(metaTool(callToolDef), s.callTool)
}

// publish registers a tool with mcp-go and keeps its published form, from
// which the views are rendered.
func (s *Server) publish(t mcp.Tool, h mcpserver.ToolHandlerFunc) {
	s.published[t.Name] = t
	s.mcp.AddTool(t, h)
}

type foundTool struct {
	Name        string          `json:"name"`
	Tag         string          `json:"tag,omitempty"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

func (s *Server) findTools(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	sess := s.sessionOf(ctx)
	args := req.GetArguments()
	return s.audited(sess, exposure.FindTools, args, func(traceID string) *mcp.CallToolResult {
		c, err := findToolsDef.Prepare(args)
		if err != nil {
			return errorResult(traceID, asToolError(err))
		}
		request := c.Args.String("request")
		if strings.TrimSpace(request) == "" {
			return errorResult(traceID, tool.Invalid("request", "field 'request' is empty", "describe the user's task in a sentence"))
		}
		return s.route(sess, request, c.Args.Bool("include_schemas", false))
	}), nil
}

// routeIn routes request in sess, records the decision and tells the
// session's client when its view changed, which it returns.
func (s *Server) routeIn(sess *session, request string) (exposure.Decision, bool) {
	dec, changed := sess.exp.Route(request)
	s.routed(dec)
	if changed {
		s.viewChanged(sess)
	}
	return dec, changed
}

func (s *Server) route(sess *session, request string, withSchemas bool) *mcp.CallToolResult {
	dec, changed := s.routeIn(sess, request)
	var found []foundTool
	for _, v := range dec.Tools {
		t, ok := s.lookupTool(v.Name)
		if !ok {
			continue
		}
		f := foundTool{Name: t.Name, Tag: v.Tag, Description: firstSentence(t.Description)}
		if withSchemas {
			p, _ := s.publishedTool(t.Name)
			f.InputSchema = p.RawInputSchema
		}
		found = append(found, f)
		if len(found) == 12 && dec.Tier != exposure.TierRecommended {
			break // wide tiers: the best dozen is enough to choose from
		}
	}
	out := map[string]any{
		"tier": dec.Tier, "intents": dec.Intents, "confidence": dec.Confidence, "tools": found,
		"note": "Your tool list now shows these tools. Any tool stays callable by name.",
	}
	if !changed {
		// An anonymous 2026-07-28 caller, full mode, or a view that already
		// held them: the list is as it was, and saying otherwise would send
		// the model looking for a change that never comes.
		out["note"] = "Call these tools by name; your tool list is unchanged and every tool stays callable."
	}
	if sess.exp.Mode() == exposure.ModeSearch {
		out["note"] = "Call these tools through call_tool(name, arguments)."
	}
	var lines []string
	for _, f := range found {
		tag := ""
		if f.Tag != "" {
			tag = " [" + f.Tag + "]"
		}
		lines = append(lines, "- "+f.Name+tag+": "+f.Description)
	}
	text := fmt.Sprintf("tier %s, confidence %.2f, intents %s\n%s", dec.Tier, dec.Confidence, strings.Join(dec.Intents, ", "), strings.Join(lines, "\n"))
	if withSchemas {
		b, _ := json.Marshal(out)
		text = string(b)
	}
	return mcp.NewToolResultStructured(out, text)
}

// callTool runs the named tool through the pipeline, which audits it under
// its own name; a call_tool call that never gets there is audited as
// call_tool.
func (s *Server) callTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	sess := s.sessionOf(ctx)
	args := req.GetArguments()
	var c *tool.Call
	if res := s.audited(sess, exposure.CallTool, args, func(traceID string) *mcp.CallToolResult {
		parsed, err := innerArguments(args)
		if err == nil {
			c, err = callToolDef.Prepare(parsed)
		}
		if err != nil {
			return errorResult(traceID, asToolError(err))
		}
		return nil
	}); res != nil {
		return res, nil
	}
	s.adoptRoots(ctx, sess)
	return s.run(ctx, sess, c.Args.String("name"), c.Args.Object("arguments"), progressFunc(ctx, s.mcp, req)), nil
}

// innerArguments returns call_tool's arguments with `arguments` decoded when
// a client sent the object as a JSON string.
func innerArguments(args map[string]any) (map[string]any, error) {
	raw, ok := args["arguments"].(string)
	if !ok {
		return args, nil
	}
	var inner map[string]any
	if strings.TrimSpace(raw) != "" {
		if err := json.Unmarshal([]byte(raw), &inner); err != nil || inner == nil {
			return nil, tool.Invalid("arguments", "field 'arguments' is a string that is not a JSON object", "pass the tool's arguments as an object, e.g. {\"path\": \"a.pdf\"}")
		}
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	out["arguments"] = inner
	return out, nil
}

// firstSentence is the summary find_tools gives of a description: up to the
// first full stop that ends a sentence, "。" or a "." followed by a space or
// the end, outside brackets ("(.pptx)" and "e.g. x" end nothing).
func firstSentence(s string) string {
	depth := 0
	for i, r := range s {
		switch r {
		case '(', '[', '{', '（':
			depth++
		case ')', ']', '}', '）':
			depth--
		}
		if depth != 0 || i <= 20 {
			continue
		}
		rest := s[i+len(string(r)):]
		if r == '。' || r == '.' && (rest == "" || rest[0] == ' ' && !strings.HasSuffix(s[:i], "e.g") && !strings.HasSuffix(s[:i], "i.e")) {
			return s[:i+len(string(r))]
		}
	}
	return s
}

// addPrompts registers `task` (routes a request, like find_tools, and
// returns guidance for it) and one guide prompt per intent family.
func (s *Server) addPrompts() {
	s.mcp.AddPrompt(mcp.NewPrompt("task",
		mcp.WithPromptDescription("Route a request to the right tools and get guidance for doing it well"),
		mcp.WithArgument("request", mcp.RequiredArgument(), mcp.ArgumentDescription("What the user wants, in their words")),
	), func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		sess := s.sessionOf(ctx)
		request := req.Params.Arguments["request"]
		if strings.TrimSpace(request) == "" {
			return nil, fmt.Errorf("the task prompt needs a request argument")
		}
		dec, _ := s.routeIn(sess, request)
		var names []string
		for _, v := range dec.Tools {
			if _, ok := s.lookupTool(v.Name); ok && v.Tag == exposure.TagRecommended {
				names = append(names, v.Name)
			}
		}
		text := fmt.Sprintf("Request: %s\nRecommended tools: %s\n\n%s", request, strings.Join(names, ", "), exposure.Guidance(dec.Intents))
		return mcp.NewGetPromptResult("Guidance for: "+request, []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text)),
		}), nil
	})
	for _, f := range exposure.Families() {
		f := f
		s.mcp.AddPrompt(mcp.NewPrompt("guide_"+f.Name,
			mcp.WithPromptDescription("How to choose tools for "+f.Title)),
			func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return mcp.NewGetPromptResult(f.Title, []mcp.PromptMessage{
					mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(exposure.FamilyGuide(f.Name))),
				}), nil
			})
	}
}

// exposureResource shows the caller's current view and its history.
func (s *Server) exposureResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	return jsonResource(req.Params.URI, s.sessionOf(ctx).exp.State())
}

// Router is the server's routing engine.
func (s *Server) Router() *exposure.Router { return s.router }

// ViewTokens estimates the tokens of the tools/list payload of a view: the
// real JSON of registered tools, the catalog estimate for the others.
func (s *Server) ViewTokens(names []string) int {
	total := 0
	var missing []string
	for _, n := range names {
		t, ok := s.publishedTool(n)
		if !ok {
			missing = append(missing, n)
			continue
		}
		b, _ := json.Marshal(t)
		total += exposure.EstimateTokens(string(b))
	}
	if len(missing) > 0 {
		total += s.router.EstimateViewTokens(missing)
	}
	return total
}
