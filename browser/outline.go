package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// outlineJS walks the DOM in the page and returns the accessibility tree
// as JSON (see the file's header).
//
//go:embed outline.js
var outlineJS string

// axNode is one node of the page's accessibility tree as outline.js reports
// it: hidden nodes and unnamed generic wrappers are already left out.
type axNode struct {
	Role     string            `json:"r"`
	Name     string            `json:"n"`
	Value    string            `json:"v"`
	Props    map[string]string `json:"p"`
	Ref      string            `json:"ref"` // set on nodes that may be acted on
	Children []*axNode         `json:"c"`
}

// refCounter numbers refs ("e12") within a tab. The page keeps which
// element has which ref (outline.js); the counter lives here so it never
// restarts within a tab, and a ref from a previous document can never point
// at a new element.
type refCounter struct{ counter int }

// Roles whose elements get refs.
var interactiveRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true,
	"radio": true, "combobox": true, "listbox": true, "option": true, "menuitem": true,
	"menuitemcheckbox": true, "menuitemradio": true, "tab": true, "switch": true,
	"slider": true, "spinbutton": true, "treeitem": true, "MenuListOption": true,
	"PopUpButton": true, "ToggleButton": true, "textField": true,
	"DisclosureTriangle": true, "summary": true,
}

// Roles dropped from the outline (their children move up).
var transparentRoles = map[string]bool{
	"generic": true, "none": true, "presentation": true, "InlineTextBox": true,
	"LineBreak": true, "RootWebArea": true, "WebArea": true,
	"Section": true, "GenericContainer": true, "Ignored": true, "IgnoredRole": true,
	"MenuListPopup": true, "rowgroup": true,
}

// States worth showing, in display order.
var shownStates = []string{"checked", "pressed", "selected", "expanded", "disabled", "required", "readonly", "invalid", "focused", "modal"}

// quote collapses white space, cuts s to max runes and quotes it.
func quote(s string, max int) string {
	if needsSquash(s) {
		s = strings.Join(strings.Fields(s), " ")
	}
	if len(s) > max { // only then can it have more than max runes
		if r := []rune(s); len(r) > max {
			s = string(r[:max]) + "…"
		}
	}
	return strconv.Quote(s)
}

// needsSquash reports white space other than single inner spaces (names
// and text from outline.js are already collapsed, so this is the rule).
func needsSquash(s string) bool {
	prevSpace := true // a leading space needs squashing
	for _, r := range s {
		switch {
		case r == ' ':
			if prevSpace {
				return true
			}
			prevSpace = true
		case unicode.IsSpace(r):
			return true
		default:
			prevSpace = false
		}
	}
	return prevSpace && s != ""
}

// worldName names the isolated world outline.js runs in: it sees the
// page's DOM but none of its scripts, so a page can neither break the
// outline (by replacing built-ins) nor read or forge the refs.
const worldName = "clawbridge-outline"

// world is the tab's isolated world for the current document. Chromium
// drops a document's worlds with it and never reuses an execution context
// id, so a call into the world of an earlier document fails instead of
// reaching the wrong page.
type world struct {
	id proto.RuntimeExecutionContextID
}

// callInWorld calls fn in the tab's isolated world. With create, a world
// is made when there is none or its document is gone; without, such a call
// fails with an error isContextGone recognises.
func (t *Tab) callInWorld(ctx context.Context, create bool, fn string, byValue bool, args ...any) (*proto.RuntimeRemoteObject, error) {
	p := t.page.Context(ctx)
	for attempt := 0; ; attempt++ {
		if t.world.id == 0 && create {
			w, err := proto.PageCreateIsolatedWorld{FrameID: t.page.FrameID, WorldName: worldName}.Call(p)
			if err != nil {
				return nil, fmt.Errorf("snapshot: isolated world: %w", err)
			}
			t.world = world{id: w.ExecutionContextID}
		}
		callArgs := make([]*proto.RuntimeCallArgument, len(args))
		for i, a := range args {
			callArgs[i] = &proto.RuntimeCallArgument{Value: gson.New(a)}
		}
		res, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: fn, ExecutionContextID: t.world.id,
			Arguments: callArgs, ReturnByValue: byValue}.Call(p)
		if err == nil && res.ExceptionDetails != nil {
			err = fmt.Errorf("%s", res.ExceptionDetails.Text)
			if res.ExceptionDetails.Exception != nil {
				err = fmt.Errorf("%s", res.ExceptionDetails.Exception.Description)
			}
		}
		if err != nil && ctx.Err() == nil && isContextGone(err) {
			// A new document replaced the world's.
			t.world = world{}
			if create && attempt == 0 {
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		return res.Result, nil
	}
}

// isContextGone reports a call into an execution context that no longer
// exists (its document was replaced).
func isContextGone(err error) bool {
	return strings.Contains(err.Error(), "Cannot find context")
}

// pageTree is what outline.js returns.
type pageTree struct {
	Version string  `json:"ver"`
	URL     string  `json:"url"`
	Title   string  `json:"title"`
	Counter int     `json:"counter"`
	Root    *axNode `json:"root"` // nil when the version equals the known one
}

// pageTree runs outline.js in the tab's main frame; known is the version
// of the outline already rendered.
func (t *Tab) pageTree(ctx context.Context, known string) (*pageTree, error) {
	roles := make([]string, 0, len(interactiveRoles))
	for r, on := range interactiveRoles {
		if on {
			roles = append(roles, r)
		}
	}
	res, err := t.callInWorld(ctx, true, outlineJS, true, roles, t.refs.counter, known)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	var out pageTree
	if err := json.Unmarshal([]byte(res.Value.Str()), &out); err != nil {
		return nil, fmt.Errorf("snapshot: decode the tree: %w", err)
	}
	t.refs.counter = max(t.refs.counter, out.Counter)
	return &out, nil
}

// renderOutline writes the tree as indented lines, one per node worth
// showing, and counts the refs written.
func renderOutline(root *axNode) ([]string, int) {
	var lines []string
	refs := 0
	var walk func(n *axNode, depth int, parentName string)
	walk = func(n *axNode, depth int, parentName string) {
		role := n.Role
		name := strings.TrimSpace(n.Name)
		children := func(d int, pn string) {
			for _, c := range n.Children {
				walk(c, d, pn)
			}
		}
		if (transparentRoles[role] && name == "") || role == "RootWebArea" {
			children(depth, parentName)
			return
		}
		indent := strings.Repeat("  ", depth)
		// A label or legend made only of text repeats the name its control
		// or group already carries.
		if role == "LabelText" || role == "Legend" {
			if _, ok := onlyText(n); ok {
				return
			}
		}
		// A table row of plain cells becomes one line.
		if role == "row" {
			if cells, ok := plainRow(n); ok {
				lines = append(lines, indent+"- row: "+strings.Join(cells, " | "))
				return
			}
		}
		// An unnamed paragraph or group around a single element adds a line
		// and a level for nothing.
		if (role == "paragraph" || role == "group") && name == "" && len(visibleChildren(n)) == 1 {
			children(depth, parentName)
			return
		}
		if role == "StaticText" {
			if name == "" || strings.Contains(parentName, name) {
				return
			}
			lines = append(lines, indent+"- text: "+quote(name, 2000))
			return
		}
		line := nodeLine(n, indent, role, name)
		if n.Ref != "" {
			refs++
		}
		// A node whose children are only text is written on one line.
		if text, ok := onlyText(n); ok && text != "" && !strings.Contains(name, text) {
			lines = append(lines, line+": "+quote(text, 2000))
			return
		}
		lines = append(lines, line)
		children(depth+1, name)
	}
	walk(root, 0, "")
	return lines, refs
}

// nodeLine is a node's outline line: its role, name, heading level,
// states, ref and value.
func nodeLine(n *axNode, indent, role, name string) string {
	var b strings.Builder
	b.WriteString(indent)
	b.WriteString("- ")
	b.WriteString(role)
	if name != "" {
		b.WriteString(" ")
		b.WriteString(quote(name, 150))
	}
	if lv := n.Props["level"]; lv != "" && role == "heading" {
		b.WriteString(" [level=" + lv + "]")
	}
	for _, st := range shownStates {
		v, ok := n.Props[st]
		if !ok || v == "false" || v == "" {
			continue
		}
		if v == "true" {
			b.WriteString(" [" + st + "]")
		} else {
			b.WriteString(" [" + st + "=" + v + "]")
		}
	}
	if n.Ref != "" {
		b.WriteString(" [ref=" + n.Ref + "]")
	}
	if v := n.Value; v != "" && v != name {
		b.WriteString(" value=" + quote(v, 200))
	}
	return b.String()
}

// visibleChildren lists the children that appear in the outline, looking
// through transparent nodes.
func visibleChildren(n *axNode) []*axNode {
	var out []*axNode
	for _, c := range n.Children {
		if transparentRoles[c.Role] && strings.TrimSpace(c.Name) == "" {
			out = append(out, visibleChildren(c)...)
			continue
		}
		if c.Role == "StaticText" && strings.TrimSpace(c.Name) == "" {
			continue
		}
		if c.Role == "LabelText" || c.Role == "Legend" {
			if _, ok := onlyText(c); ok {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// plainRow returns the quoted cell texts of a row whose cells hold only
// text (no links, inputs or other interactive content).
func plainRow(row *axNode) ([]string, bool) {
	var cells []string
	for _, c := range row.Children {
		switch c.Role {
		case "cell", "gridcell", "columnheader", "rowheader":
		default:
			return nil, false
		}
		text, ok := onlyText(c)
		if !ok && len(c.Children) > 0 {
			return nil, false
		}
		if text == "" {
			text = strings.TrimSpace(c.Name)
		}
		cells = append(cells, quote(text, 200))
	}
	return cells, len(cells) > 0
}

// onlyText returns the joined text when every visible descendant of n is text.
func onlyText(n *axNode) (string, bool) {
	var parts []string
	var visit func(x *axNode) bool
	visit = func(x *axNode) bool {
		for _, c := range x.Children {
			switch {
			case c.Role == "StaticText":
				if s := strings.TrimSpace(c.Name); s != "" {
					parts = append(parts, s)
				}
			case c.Role == "InlineTextBox" || c.Role == "LineBreak" || ((c.Role == "generic" || c.Role == "none") && c.Name == ""):
				if !visit(c) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if len(n.Children) == 0 || !visit(n) {
		return "", false
	}
	return strings.Join(parts, " "), true
}

// resolveJS finds a ref's element in the page: the element, or "unknown"
// (not a ref of this document) or "gone" (its element was removed).
const resolveJS = `(ref) => {
  const st = window[Symbol.for('clawbridge.refs')];
  const w = st && st.byRef.get(ref);
  if (!w) return 'unknown';
  const el = w.deref();
  return el && el.isConnected ? el : 'gone';
}`

// resolve finds the element of a ref, failing clearly when the ref is
// unknown or its element is gone. The element is handed out in the page's
// own world, where scripts given to evaluate expect to run.
func (t *Tab) resolve(ctx context.Context, ref string) (*rod.Element, error) {
	ref = strings.TrimPrefix(strings.TrimSpace(ref), "ref=")
	state := "unknown"
	if t.world.id != 0 {
		obj, err := t.callInWorld(ctx, false, resolveJS, false, ref)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, err
		case err != nil:
			// The world's document is gone: the tab navigated.
		case obj.Subtype == proto.RuntimeRemoteObjectSubtypeNode:
			p := t.page.Context(ctx)
			node, err := proto.DOMDescribeNode{ObjectID: obj.ObjectID}.Call(p)
			if err != nil {
				return nil, fmt.Errorf("resolve ref %s: %w", ref, err)
			}
			main, err := proto.DOMResolveNode{BackendNodeID: node.Node.BackendNodeID}.Call(p)
			if err != nil {
				return nil, fmt.Errorf("resolve ref %s: %w", ref, err)
			}
			return p.ElementFromObject(main.Object)
		default:
			state = obj.Value.Str()
		}
	}
	if state == "gone" {
		return nil, toolerr.NotFoundf("ref", "take a new snapshot and use its refs",
			"ref %s is stale: its element was removed from the page", ref)
	}
	n, err := strconv.Atoi(strings.TrimPrefix(ref, "e"))
	if err == nil && strings.HasPrefix(ref, "e") && n >= 1 && n <= t.refs.counter {
		return nil, toolerr.NotFoundf("ref", "take a new snapshot and use its refs",
			"ref %s is stale: it belongs to an earlier page of tab %s (the page navigated or reloaded since that snapshot)", ref, t.ID)
	}
	return nil, toolerr.NotFoundf("ref", "refs look like e12 and come from the latest snapshot of the current tab; take a snapshot first",
		"unknown ref %q in tab %s", ref, t.ID)
}
