package bridge

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Publishing: a server configured `publish: tools` has each usable tool
// (allowed by config, its definition pinned and unchanged) published by the
// MCP server as a first-class tool named <server>__<tool>. A name that
// breaks MCP's tool name rule, or that another tool already has, is left
// out and reported in Status, never renamed.

// PublishSep joins a server's name and its tool's name.
const PublishSep = "__"

// mcpNameRE is MCP's rule for tool names (2025-11-25: 1-128 of these).
var mcpNameRE = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,128}$`)

// Published is one downstream tool published as a first-class tool.
type Published struct {
	Name   string // <server>__<tool>
	Server string
	Def    ToolDef
}

// Unpublished is a tool of a `publish: tools` server left out, and why.
type Unpublished struct {
	Tool   string `json:"tool"`
	Name   string `json:"name"` // the name it would have had
	Reason string `json:"reason"`
}

// reservedNames are the names other tools hold (set by the MCP server).
type reservedNames struct {
	v atomic.Pointer[func(string) bool]
}

// ReserveNames tells the manager which names other tools hold (the native
// tools and the server's own), so that a downstream tool that would take
// one is left out rather than shadow it.
func (m *Manager) ReserveNames(taken func(name string) bool) { m.reserved.v.Store(&taken) }

// Publishable lists the tools to publish, in config and manifest order, and
// per server the tools left out.
func (m *Manager) Publishable() ([]Published, map[string][]Unpublished) {
	taken := func(string) bool { return false }
	if f := m.reserved.v.Load(); f != nil {
		taken = *f
	}
	var out []Published
	left := map[string][]Unpublished{}
	count := map[string]int{}
	var cands []Published
	for _, name := range m.order {
		s := m.servers[name]
		if s.cfg.Publish != "tools" {
			continue
		}
		s.mu.Lock()
		tools := s.visible()
		s.mu.Unlock()
		for _, t := range tools {
			p := Published{Name: name + PublishSep + t.Name, Server: name, Def: t}
			switch {
			case !mcpNameRE.MatchString(p.Name):
				left[name] = append(left[name], Unpublished{t.Name, p.Name, "not a valid MCP tool name (1-128 of A-Z a-z 0-9 _ . -)"})
			case taken(p.Name):
				left[name] = append(left[name], Unpublished{t.Name, p.Name, "collides with a native tool of the same name"})
			default:
				count[p.Name]++
				cands = append(cands, p)
			}
		}
	}
	for _, p := range cands {
		if count[p.Name] > 1 {
			left[p.Server] = append(left[p.Server], Unpublished{p.Def.Name, p.Name, "collides with another downstream tool of the same published name"})
			continue
		}
		out = append(out, p)
	}
	for _, l := range left {
		sort.Slice(l, func(i, j int) bool { return l[i].Tool < l[j].Tool })
	}
	return out, left
}

// NotPublished explains why a name of the form <server>__<tool> is not a
// published tool: its definition changed and is held, config leaves it out,
// or its name was left out. It is nil for a name that is no server's, and
// for a held tool that `clawbridge bridge approve`, run in another process,
// has since released: the pins are read again, and the tools-changed
// function is called (republishing it) before NotPublished returns.
func (m *Manager) NotPublished(published string) error {
	name, tool, found := strings.Cut(published, PublishSep)
	s, known := m.servers[name]
	if !found || !known {
		return nil
	}
	s.mu.Lock()
	held := slices.Contains(s.held, tool)
	s.mu.Unlock()
	if held {
		s.reloadPins(m.o.DataDir)
		s.mu.Lock()
		held = slices.Contains(s.held, tool)
		s.mu.Unlock()
		if !held {
			m.changed(name)
		}
	}
	switch {
	case held:
		return toolerr.Errorf(toolerr.CodeDenied, fmt.Sprintf("a person must review it and run `clawbridge bridge approve %s`", name),
			"the definition of %s on %s changed since it was approved; it is held", tool, name)
	case s.cfg.Publish != "tools":
		return toolerr.NotFoundf("name", fmt.Sprintf("call it through mcp_bridge: {\"action\":\"call\",\"server\":%q,\"tool\":%q}", name, tool),
			"server %s is published bridge_only: its tools are not tools of their own", name)
	case !s.allowed(tool):
		return toolerr.Errorf(toolerr.CodeDenied, "the config's allow/deny lists for this server leave it out", "tool %s of %s is not allowed", tool, name)
	}
	_, left := m.Publishable()
	for _, u := range left[name] {
		if u.Tool == tool {
			return toolerr.NotFoundf("name", fmt.Sprintf("call it through mcp_bridge: {\"action\":\"call\",\"server\":%q,\"tool\":%q}", name, tool),
				"%s is not published: %s", published, u.Reason)
		}
	}
	s.mu.Lock()
	usable := slices.ContainsFunc(s.visible(), func(d ToolDef) bool { return d.Name == tool })
	s.mu.Unlock()
	if usable {
		return nil
	}
	return toolerr.Invalid("tool", fmt.Sprintf("server %s has no tool %q", name, tool), "list its tools with mcp_bridge list_tools, or call find_tools")
}
