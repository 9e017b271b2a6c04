package browser

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"clawbridge/internal/toolerr"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// refTable maps short refs ("e12") to DOM nodes. A node keeps its ref across
// snapshots of the same document, so refs from an older snapshot still work
// while their element exists; the counter never restarts within a tab, so a
// ref from a previous document can never point at a new element.
type refTable struct {
	doc     proto.DOMBackendNodeID // backend id of the document the refs belong to
	byNode  map[proto.DOMBackendNodeID]string
	byRef   map[string]proto.DOMBackendNodeID
	counter int
}

func (r *refTable) reset(doc proto.DOMBackendNodeID) {
	r.doc = doc
	r.byNode = map[proto.DOMBackendNodeID]string{}
	r.byRef = map[string]proto.DOMBackendNodeID{}
}

func (r *refTable) ref(id proto.DOMBackendNodeID) string {
	if ref, ok := r.byNode[id]; ok {
		return ref
	}
	r.counter++
	ref := "e" + strconv.Itoa(r.counter)
	r.byNode[id] = ref
	r.byRef[ref] = id
	return ref
}

// SnapshotOptions select a window of the outline.
type SnapshotOptions struct {
	Offset int  // character offset into the full outline
	Limit  int  // characters; 0: the configured budget
	Diff   bool // only what changed since this tab's previous snapshot
}

// Snapshot is one window of a page's accessibility outline.
type Snapshot struct {
	Tab        string `json:"tab"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	Text       string `json:"snapshot"`
	Offset     int    `json:"offset"`
	NextOffset int    `json:"next_offset,omitempty"` // where the next window starts; 0 when done
	TotalChars int    `json:"total_chars"`
	Truncated  bool   `json:"truncated"`
	Refs       int    `json:"refs"` // interactive elements in the whole outline
	Diff       bool   `json:"diff,omitempty"`
	Removed    int    `json:"removed_lines,omitempty"`
}

// Roles whose elements get refs.
var interactiveRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true,
	"radio": true, "combobox": true, "listbox": true, "option": true, "menuitem": true,
	"menuitemcheckbox": true, "menuitemradio": true, "tab": true, "switch": true,
	"slider": true, "spinbutton": true, "treeitem": true, "MenuListOption": true,
	"MenuListPopup": false, "PopUpButton": true, "ToggleButton": true, "textField": true,
	"DisclosureTriangle": true, "summary": true,
}

// Roles dropped from the outline (their children move up).
var transparentRoles = map[string]bool{
	"generic": true, "none": true, "presentation": true, "InlineTextBox": true,
	"LineBreak": true, "LayoutTable": false, "RootWebArea": true, "WebArea": true,
	"Section": true, "GenericContainer": true, "Ignored": true, "IgnoredRole": true,
	"MenuListPopup": true, "rowgroup": true,
}

// States worth showing, in display order.
var shownStates = []string{"checked", "pressed", "selected", "expanded", "disabled", "required", "readonly", "invalid", "focused", "modal"}

type axTree struct {
	nodes map[proto.AccessibilityAXNodeID]*proto.AccessibilityAXNode
}

func axStr(v *proto.AccessibilityAXValue) string {
	if v == nil || v.Value.Nil() {
		return ""
	}
	switch x := v.Value.Val().(type) {
	case string:
		return x
	default:
		return v.Value.JSON("", "")
	}
}

func quote(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return strconv.Quote(s)
}

// outline renders the accessibility tree of the tab's main frame.
func (t *Tab) outline(ctx context.Context) ([]string, int, error) {
	p := t.page.Context(ctx)
	res, err := proto.AccessibilityGetFullAXTree{}.Call(p)
	if err != nil {
		return nil, 0, fmt.Errorf("snapshot: accessibility tree: %w", err)
	}
	if len(res.Nodes) == 0 {
		return nil, 0, nil
	}
	tree := axTree{nodes: make(map[proto.AccessibilityAXNodeID]*proto.AccessibilityAXNode, len(res.Nodes))}
	for _, n := range res.Nodes {
		tree.nodes[n.NodeID] = n
	}
	root := res.Nodes[0]
	if t.refs.byNode == nil || t.refs.doc != root.BackendDOMNodeID {
		t.refs.reset(root.BackendDOMNodeID)
	}
	var lines []string
	refs := 0
	var walk func(n *proto.AccessibilityAXNode, depth int, parentName string)
	walk = func(n *proto.AccessibilityAXNode, depth int, parentName string) {
		role := axStr(n.Role)
		name := strings.TrimSpace(axStr(n.Name))
		children := func(d int, pn string) {
			for _, id := range n.ChildIDs {
				if c, ok := tree.nodes[id]; ok {
					walk(c, d, pn)
				}
			}
		}
		if n.Ignored || (transparentRoles[role] && name == "") || role == "RootWebArea" {
			children(depth, parentName)
			return
		}
		indent := strings.Repeat("  ", depth)
		// A label or legend made only of text repeats the name its control
		// or group already carries.
		if role == "LabelText" || role == "Legend" {
			if _, ok := onlyText(&tree, n); ok {
				return
			}
		}
		// A table row of plain cells becomes one line.
		if role == "row" {
			if cells, ok := plainRow(&tree, n); ok {
				lines = append(lines, indent+"- row: "+strings.Join(cells, " | "))
				return
			}
		}
		// An unnamed paragraph or group around a single element adds a line
		// and a level for nothing.
		if (role == "paragraph" || role == "group") && name == "" && len(visibleChildren(&tree, n)) == 1 {
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
		var b strings.Builder
		b.WriteString(indent)
		b.WriteString("- ")
		b.WriteString(role)
		if name != "" {
			b.WriteString(" ")
			b.WriteString(quote(name, 150))
		}
		states := map[string]string{}
		for _, prop := range n.Properties {
			states[string(prop.Name)] = axStr(prop.Value)
		}
		if lv := states["level"]; lv != "" && role == "heading" {
			b.WriteString(" [level=" + lv + "]")
		}
		for _, st := range shownStates {
			v, ok := states[st]
			if !ok || v == "false" || v == "" {
				continue
			}
			if v == "true" {
				b.WriteString(" [" + st + "]")
			} else {
				b.WriteString(" [" + st + "=" + v + "]")
			}
		}
		focusable := states["focusable"] == "true"
		if n.BackendDOMNodeID != 0 && (interactiveRoles[role] || (focusable && name != "" && role != "RootWebArea")) {
			b.WriteString(" [ref=" + t.refs.ref(n.BackendDOMNodeID) + "]")
			refs++
		}
		if v := axStr(n.Value); v != "" && v != name {
			b.WriteString(" value=" + quote(v, 200))
		}
		// A node whose children are only text is written on one line.
		if text, ok := onlyText(&tree, n); ok && text != "" && !strings.Contains(name, text) {
			b.WriteString(": " + quote(text, 2000))
			lines = append(lines, b.String())
			return
		}
		lines = append(lines, b.String())
		pn := name
		children(depth+1, pn)
	}
	walk(root, 0, "")
	return lines, refs, nil
}

// visibleChildren lists the children that appear in the outline, looking
// through ignored and transparent nodes.
func visibleChildren(tree *axTree, n *proto.AccessibilityAXNode) []*proto.AccessibilityAXNode {
	var out []*proto.AccessibilityAXNode
	for _, id := range n.ChildIDs {
		c, ok := tree.nodes[id]
		if !ok {
			continue
		}
		role := axStr(c.Role)
		if c.Ignored || (transparentRoles[role] && strings.TrimSpace(axStr(c.Name)) == "") {
			out = append(out, visibleChildren(tree, c)...)
			continue
		}
		if role == "StaticText" && strings.TrimSpace(axStr(c.Name)) == "" {
			continue
		}
		if role == "LabelText" || role == "Legend" {
			if _, ok := onlyText(tree, c); ok {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// plainRow returns the quoted cell texts of a row whose cells hold only
// text (no links, inputs or other interactive content).
func plainRow(tree *axTree, row *proto.AccessibilityAXNode) ([]string, bool) {
	var cells []string
	for _, id := range row.ChildIDs {
		c, ok := tree.nodes[id]
		if !ok || c.Ignored {
			continue
		}
		switch axStr(c.Role) {
		case "cell", "gridcell", "columnheader", "rowheader":
		default:
			return nil, false
		}
		text, ok := onlyText(tree, c)
		if !ok && len(c.ChildIDs) > 0 {
			return nil, false
		}
		if text == "" {
			text = strings.TrimSpace(axStr(c.Name))
		}
		cells = append(cells, quote(text, 200))
	}
	return cells, len(cells) > 0
}

// onlyText returns the joined text when every visible descendant of n is text.
func onlyText(tree *axTree, n *proto.AccessibilityAXNode) (string, bool) {
	var parts []string
	var visit func(x *proto.AccessibilityAXNode) bool
	visit = func(x *proto.AccessibilityAXNode) bool {
		for _, id := range x.ChildIDs {
			c, ok := tree.nodes[id]
			if !ok {
				continue
			}
			role := axStr(c.Role)
			switch {
			case role == "StaticText":
				if s := strings.TrimSpace(axStr(c.Name)); s != "" {
					parts = append(parts, s)
				}
			case c.Ignored || role == "InlineTextBox" || role == "LineBreak" || ((role == "generic" || role == "none") && axStr(c.Name) == ""):
				if !visit(c) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if len(n.ChildIDs) == 0 || !visit(n) {
		return "", false
	}
	return strings.Join(parts, " "), true
}

// versionJS returns a token that changes whenever the document changes: a
// per-document id plus a counter bumped by DOM mutations and form input. An
// unchanged token lets paging reuse the previous outline instead of
// rebuilding the accessibility tree of a huge page.
const versionJS = `() => {
  const k = Symbol.for('clawbridge.version');
  if (!window[k]) {
    const st = {id: Math.random().toString(36).slice(2), n: 0};
    const bump = () => { st.n++; };
    new MutationObserver(bump).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    for (const ev of ['input', 'change', 'focusin', 'focusout']) document.addEventListener(ev, bump, true);
    Object.defineProperty(window, k, {value: st});
  }
  return location.href + '#' + window[k].id + ':' + window[k].n;
}`

func (t *Tab) version(ctx context.Context) string {
	r, err := t.page.Context(ctx).Eval(versionJS)
	if err != nil {
		return ""
	}
	return r.Value.Str()
}

// snapshot renders and windows the outline. Called with the session locked.
func (t *Tab) snapshot(ctx context.Context, opts SnapshotOptions) (*Snapshot, error) {
	var lines []string
	var refs int
	ver := t.version(ctx)
	if ver != "" && ver == t.cache.version {
		lines, refs = t.cache.lines, t.cache.refs
	} else {
		var err error
		lines, refs, err = t.outline(ctx)
		if err != nil {
			return nil, err
		}
		// The tree walk itself may not change the version; read it again
		// so that a change during the walk is not cached as current.
		if ver != "" && ver == t.version(ctx) {
			t.cache.version, t.cache.lines, t.cache.refs = ver, lines, refs
		} else {
			t.cache.version = ""
		}
	}
	pi := t.info(ctx)
	snap := &Snapshot{Tab: t.ID, URL: pi.URL, Title: pi.Title, Refs: refs, Offset: opts.Offset}
	body := lines
	if opts.Diff && t.lastSnapshot != nil {
		body, snap.Removed = diffLines(t.lastSnapshot, lines)
		snap.Diff = true
	}
	if opts.Offset == 0 || !opts.Diff {
		t.lastSnapshot = lines
	}
	full := strings.Join(body, "\n")
	if snap.Diff && full == "" {
		full = "(no changes since the previous snapshot)"
	}
	snap.TotalChars = len(full)
	limit := opts.Limit
	if limit <= 0 {
		limit = t.s.m.cfg.SnapshotChars
	}
	snap.Text, snap.NextOffset = window(full, opts.Offset, limit)
	snap.Truncated = snap.NextOffset > 0
	return snap, nil
}

// window cuts text[offset:offset+limit] back to the last line end, so no
// line is split (a single line longer than limit is cut inside). next is 0
// when the text is exhausted.
func window(text string, offset, limit int) (string, int) {
	if offset >= len(text) {
		return "", 0
	}
	if offset < 0 {
		offset = 0
	}
	end := offset + limit
	if end >= len(text) {
		return text[offset:], 0
	}
	if nl := strings.LastIndexByte(text[offset:end], '\n'); nl > 0 {
		end = offset + nl + 1
	} else {
		for end > offset && !utf8Start(text[end]) {
			end--
		}
	}
	return strings.TrimRight(text[offset:end], "\n"), end
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// diffLines returns the lines of cur that are new or changed compared with
// prev, each with its ancestors as context ("  " prefix) and marked "+ ",
// and the number of lines of prev that are gone.
func diffLines(prev, cur []string) ([]string, int) {
	count := map[string]int{}
	for _, l := range prev {
		count[l]++
	}
	added := make([]bool, len(cur))
	for i, l := range cur {
		if count[l] > 0 {
			count[l]--
		} else {
			added[i] = true
		}
	}
	removed := 0
	for _, n := range count {
		removed += n
	}
	var out []string
	shown := make([]bool, len(cur))
	for i, l := range cur {
		if !added[i] {
			continue
		}
		// ancestors: nearest earlier lines with smaller indentation
		var ctxIdx []int
		ind := indentOf(l)
		for j := i - 1; j >= 0 && ind > 0; j-- {
			if d := indentOf(cur[j]); d < ind {
				ctxIdx = append(ctxIdx, j)
				ind = d
			}
		}
		for k := len(ctxIdx) - 1; k >= 0; k-- {
			j := ctxIdx[k]
			if !shown[j] {
				shown[j] = true
				prefix := "  "
				if added[j] {
					prefix = "+ "
				}
				out = append(out, prefix+cur[j])
			}
		}
		if !shown[i] {
			shown[i] = true
			out = append(out, "+ "+l)
		}
	}
	return out, removed
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// resolve finds the element of a ref, failing clearly when the ref is
// unknown or its element is gone.
func (t *Tab) resolve(ctx context.Context, ref string) (*rod.Element, error) {
	ref = strings.TrimPrefix(strings.TrimSpace(ref), "ref=")
	id, ok := t.refs.byRef[ref]
	if !ok {
		n, err := strconv.Atoi(strings.TrimPrefix(ref, "e"))
		if err == nil && strings.HasPrefix(ref, "e") && n >= 1 && n <= t.refs.counter {
			return nil, &toolerr.Error{Code: toolerr.CodeNotFound, Field: "ref",
				Message: fmt.Sprintf("ref %s is stale: it belongs to an earlier page of tab %s (the page navigated or reloaded since that snapshot)", ref, t.ID),
				Hint:    "take a new snapshot and use its refs"}
		}
		return nil, &toolerr.Error{Code: toolerr.CodeNotFound, Field: "ref",
			Message: fmt.Sprintf("unknown ref %q in tab %s", ref, t.ID),
			Hint:    "refs look like e12 and come from the latest snapshot of the current tab; take a snapshot first"}
	}
	p := t.page.Context(ctx)
	obj, err := proto.DOMResolveNode{BackendNodeID: id}.Call(p)
	if err == nil && obj.Object != nil {
		el, err := p.ElementFromObject(obj.Object)
		if err == nil {
			if r, err := el.Eval(`() => this.isConnected`); err == nil && r.Value.Bool() {
				return el, nil
			}
		}
	}
	return nil, &toolerr.Error{Code: toolerr.CodeNotFound, Field: "ref",
		Message: fmt.Sprintf("ref %s is stale: its element was removed from the page", ref),
		Hint:    "take a new snapshot and use its refs"}
}
