package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/exposure"
	downstream "github.com/clawbridge/clawbridge/internal/bridge"
	bridgetool "github.com/clawbridge/clawbridge/tools/bridge"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Bridged tools: the tools of downstream MCP servers configured `publish:
// tools`, published as first-class tools named <server>__<tool> (the
// manager decides which: allowed, pinned and unchanged, with a valid name
// that no other tool has). Each is a registry-shaped tool.Tool, so its calls
// go through the same pipeline as a native tool's (audit, loop guard,
// confirmation at its server's level, concurrency cap, timeout, result
// shaping), and then to the manager, which starts the server lazily. Its
// schema and annotations are published as the downstream server gave them.
//
// The set is rebuilt whole when a manifest changes (a downstream
// list_changed, a first start, an approval) and swapped atomically; the
// router gets the same set as its external tools, and every session whose
// view changed is told with list_changed, and no other: mcp-go notifies
// every session whenever its own registry changes, so downstream tools are
// not in it. mcp-go finds a tool before any handler runs, so a call to a
// <server>__<tool> name is pointed, in the before-call hook, at one
// registered dispatcher (never listed: lists are views), which runs the
// named tool through the pipeline.
//
// bridgedDispatch is the dispatcher's name; bridgedNameKey the _meta key
// that carries the called name to it.
const (
	bridgedDispatch = "clawbridge.downstream"
	bridgedNameKey  = "io.clawbridge/tool"
)

type bridgedSet struct {
	tools     map[string]*tool.Tool
	published map[string]mcp.Tool
}

type bridged struct {
	mu  sync.Mutex // serialises rebuilds
	set atomic.Pointer[bridgedSet]
}

// bridgedTool finds a published downstream tool.
func (s *Server) bridgedTool(name string) (*tool.Tool, bool) {
	set := s.bridged.set.Load()
	if set == nil {
		return nil, false
	}
	t, ok := set.tools[name]
	return t, ok
}

// lookupTool finds a native or a published downstream tool.
func (s *Server) lookupTool(name string) (*tool.Tool, bool) {
	if t, ok := s.tools[name]; ok {
		return t, true
	}
	return s.bridgedTool(name)
}

// publishedTool is the MCP form of a native, meta or downstream tool.
func (s *Server) publishedTool(name string) (mcp.Tool, bool) {
	if t, ok := s.published[name]; ok {
		return t, true
	}
	if set := s.bridged.set.Load(); set != nil {
		t, ok := set.published[name]
		return t, ok
	}
	return mcp.Tool{}, false
}

// startBridged publishes the downstream tools known from the cached
// manifests and follows their changes. A server's hint intents must be
// intent keys of the routing tables.
func (s *Server) startBridged() error {
	m := s.bridge
	if m == nil {
		return nil
	}
	var keys []string
	for _, in := range s.router.Tables().Intents {
		keys = append(keys, in.Name)
	}
	for _, name := range m.Names() {
		cfg, _ := m.Server(name)
		for _, in := range cfg.Intents {
			if !slices.Contains(keys, in) {
				return fmt.Errorf("config: bridge.servers.%s.intents: %q is not an intent of the routing tables (one of: %s)", name, in, strings.Join(keys, ", "))
			}
		}
	}
	m.ReserveNames(func(name string) bool {
		_, native := s.tools[name]
		return native || name == exposure.FindTools || name == exposure.CallTool
	})
	s.mcp.AddTool(mcp.NewTool(bridgedDispatch, mcp.WithDescription("Runs a downstream tool called by its own <server>__<tool> name; not called directly.")), s.handleBridged)
	s.syncBridged()
	m.OnToolsChanged(func(string) { s.syncBridged() })
	return nil
}

// pointAtDispatcher is the before-call hook: a call to a name of the form
// <server>__<tool> that is no native tool goes to the dispatcher, also when
// the tool is not published (held, left out), so that the pipeline says
// why rather than mcp-go "not found".
func (s *Server) pointAtDispatcher(ctx context.Context, id any, req *mcp.CallToolRequest) {
	name := req.Params.Name
	if _, native := s.published[name]; native || s.bridge == nil || !strings.Contains(name, downstream.PublishSep) {
		return
	}
	if req.Params.Meta == nil {
		req.Params.Meta = &mcp.Meta{}
	}
	if req.Params.Meta.AdditionalFields == nil {
		req.Params.Meta.AdditionalFields = map[string]any{}
	}
	req.Params.Meta.AdditionalFields[bridgedNameKey] = name
	req.Params.Name = bridgedDispatch
}

// handleBridged runs the downstream tool the hook named, as handle runs a
// native one.
func (s *Server) handleBridged(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var name string
	if req.Params.Meta != nil {
		name, _ = req.Params.Meta.AdditionalFields[bridgedNameKey].(string)
	}
	if _, native := s.published[name]; native || !strings.Contains(name, downstream.PublishSep) {
		return errorResult("", tool.NotFoundf("name", "call a downstream tool by its own <server>__<tool> name", "%s is not called directly", bridgedDispatch)), nil
	}
	sess := s.sessionOf(ctx)
	s.adoptRoots(ctx, sess)
	return s.run(ctx, sess, name, req.GetArguments(), progressFunc(ctx, s.mcp, req)), nil
}

// syncBridged rebuilds the published downstream tools from the manager,
// updates the router and tells the sessions whose view changed.
func (s *Server) syncBridged() {
	m := s.bridge
	s.bridged.mu.Lock()
	defer s.bridged.mu.Unlock()
	pubs, _ := m.Publishable()
	set := &bridgedSet{tools: map[string]*tool.Tool{}, published: map[string]mcp.Tool{}}
	var ext []exposure.ExternalTool
	for _, p := range pubs {
		cfg, _ := m.Server(p.Server)
		mt := mcp.Tool{Name: p.Name, Title: p.Def.Title, Description: p.Def.Description,
			RawInputSchema: p.Def.InputSchema, Annotations: p.Def.Annotations}
		if len(mt.RawInputSchema) == 0 {
			mt.RawInputSchema = json.RawMessage(`{"type":"object"}`)
		}
		if err := mcp.ValidateParamHeaderAnnotations(&mt); err != nil {
			s.log.Warn().Str("tool", p.Name).Err(err).Msg("bridge: downstream tool left out: its schema's x-mcp-header annotations are invalid")
			continue
		}
		set.tools[p.Name] = bridgedToolOf(m, p)
		set.published[p.Name] = mt
		ext = append(ext, exposure.ExternalTool{Name: p.Name, Group: p.Server, Title: p.Def.Title, Description: p.Def.Description,
			Params: schemaParams(p.Def.InputSchema), Intents: cfg.Intents, Keywords: cfg.Keywords})
	}
	s.bridged.set.Store(set)
	s.router.SetExternal(ext)
	s.views.reset()
	for _, sess := range s.sessions.all() {
		if sess.exp.Refresh() {
			s.viewChanged(sess)
		}
	}
}

// bridgedToolOf is the registry-shaped tool of one downstream tool: one
// action at its server's level (annotations lower it only for a server
// whose config trusts them), no parameters of its own (the pipeline passes
// the arguments through; the downstream server checks them against its
// schema).
func bridgedToolOf(m *downstream.Manager, p downstream.Published) *tool.Tool {
	title := p.Def.Title
	if title == "" {
		title = p.Name
	}
	server, name := p.Server, p.Def.Name
	return &tool.Tool{Name: p.Name, Title: title, Description: p.Def.Description, OpenWorld: true,
		Actions: []tool.Action{{Level: bridgetool.Level(m, server, name), Timeout: tool.Slow,
			Handler: func(ctx context.Context, c *tool.Call) (*tool.Result, error) {
				return bridgetool.Call(ctx, m, server, name, map[string]any(c.Args), c.Progress)
			}}}}
}

// schemaParams reads the top-level properties of a JSON schema, in name
// order, for the router's index.
func schemaParams(raw json.RawMessage) []exposure.ExternalParam {
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(raw, &s)
	out := make([]exposure.ExternalParam, 0, len(s.Properties))
	for n, p := range s.Properties {
		out = append(out, exposure.ExternalParam{Name: n, Description: p.Description})
	}
	slices.SortFunc(out, func(a, b exposure.ExternalParam) int {
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	return out
}

// dropClosedSchemaExtras leaves out of args the top-level fields a
// downstream tool's schema closes out (additionalProperties: false, with
// the fields it takes listed): a client's own additions (Gemini CLI's
// wait_for_previous) would fail the call there. It returns the fields
// left out; args itself is not changed.
func (s *Server) dropClosedSchemaExtras(name string, args map[string]any) (map[string]any, []string) {
	mt, ok := s.publishedTool(name)
	if !ok {
		return args, nil
	}
	return closedSchemaExtras(mt.RawInputSchema, args)
}

// closedSchemaExtras is dropClosedSchemaExtras on a schema's text.
func closedSchemaExtras(raw json.RawMessage, args map[string]any) (map[string]any, []string) {
	var schema struct {
		Properties           map[string]json.RawMessage `json:"properties"`
		AdditionalProperties *bool                      `json:"additionalProperties"`
	}
	if json.Unmarshal(raw, &schema) != nil || schema.AdditionalProperties == nil || *schema.AdditionalProperties || schema.Properties == nil {
		return args, nil
	}
	var dropped []string
	kept := make(map[string]any, len(args))
	for k, v := range args {
		if _, ok := schema.Properties[k]; ok {
			kept[k] = v
		} else {
			dropped = append(dropped, k)
		}
	}
	if len(dropped) == 0 {
		return args, nil
	}
	sort.Strings(dropped)
	return kept, dropped
}
