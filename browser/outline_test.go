package browser

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"

	"github.com/clawbridge/clawbridge/fixtures/site"
)

// richPage holds the constructs the fixture pages do not: landmarks inside
// sections, lists, images, labelled and described controls, prefilled and
// hidden fields, a table with links, details/summary, ARIA widgets, shadow
// DOM and text hidden in several ways.
const richPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rich</title></head><body>
<header><h1>Shop <small>beta</small></h1><nav aria-label="Main"><ul><li><a href="/a">Alpha</a></li><li><a href="/b"><img src="x.png" alt="Bravo logo"></a></li><li><a href="/c" title="Charlie page"></a></li></ul></nav></header>
<main>
<section aria-label="Search area"><form role="search"><input type="search" aria-label="Search" value="shoes"><input type="submit" value="Go"></form></section>
<section><h2 id="fh">Filters</h2>
<div role="group" aria-labelledby="fh">
<label>Min <input type="number" value="3"></label>
<label>Colour <select><optgroup label="Warm"><option>Red</option><option selected>Orange</option></optgroup><option>Blue</option></select></label>
<input type="text" placeholder="Brand">
<input type="password" value="hunter2" aria-label="Password">
<input type="hidden" name="csrf" value="secret">
<input type="checkbox" id="c1" checked><label for="c1">In stock</label>
<input type="range" aria-label="Budget" min="0" max="10" value="4">
<textarea aria-label="Notes" readonly>first note</textarea>
<button aria-pressed="true">Bold</button>
<button aria-expanded="false" aria-haspopup="menu">More</button>
</div></section>
<article><header><h2>Post</h2></header><p>Some <strong>bold</strong> and <em>emphasis</em> and <code>code</code>.</p>
<blockquote>Quoted words.</blockquote>
<figure><img src="y.png" alt="A chart"><figcaption>Figure 1</figcaption></figure>
<footer>Posted today</footer></article>
<table><caption>Orders</caption><thead><tr><th>Item</th><th>Action</th></tr></thead>
<tbody><tr><th>Tea</th><td><a href="/tea">Open</a></td></tr><tr><td>Coffee</td><td>none</td></tr></tbody></table>
<details><summary>More info</summary><p>Hidden until opened.</p></details>
<details open><summary>Open info</summary><p>Shown text.</p></details>
<div role="tablist"><div role="tab" aria-selected="true" tabindex="0">One</div><div role="tab" aria-selected="false" tabindex="-1">Two</div></div>
<div role="checkbox" aria-checked="mixed" tabindex="0">Partial</div>
<div tabindex="0" aria-label="Focusable region">x</div>
<span role="button" tabindex="0">Span button</span>
<p style="display:none">display none</p><p hidden>hidden attr</p><p aria-hidden="true">aria hidden</p>
<p style="visibility:hidden">invisible <span style="visibility:visible">but this</span></p>
<ol><li>First</li><li>Second <a href="/s">link</a></li></ol>
<dl><dt>Term</dt><dd>Definition</dd></dl>
<hr>
<p>Line one<br>Line two</p>
<div id="host"></div>
<span id="hid" hidden>Hidden label</span><button aria-labelledby="hid">?</button>
<a onclick="1">No href</a>
<button role="none">Still a button</button>
<img src="z.png" alt=""><img src="z.png">
<svg width="10" height="10"><title>Logo svg</title><rect width="10" height="10"/></svg>
<select multiple aria-label="Many"><option>M1</option><option selected>M2</option></select>
<fieldset disabled><legend>Off</legend><input aria-label="Inside off"></fieldset>
<input type="file" aria-label="Upload">
<progress value="30" max="100" aria-label="Progress"></progress>
<meter value="0.5" aria-label="Meter"></meter>
<input aria-label="Bad" aria-invalid="true">
<output>42</output>
<p>At <time>noon</time> the <abbr title="World Health Organization">WHO</abbr> said</p>
<pre>pre   text</pre>
<div contenteditable="true">Editable text</div>
<iframe srcdoc="<p>inside frame</p>" title="Frame"></iframe>
<ul><li><label><input type="radio" name="r"> Wrapped radio</label></li></ul>
<div role="listbox" aria-label="Fruits"><div role="option" aria-selected="true">Apple</div></div>
<h3 aria-level="4">Level four</h3>
<table><tr><td>Layout a</td><td>Layout b</td></tr></table>
<style>.star::before{content:"\2605"}</style><button class="star"></button>
<div style="display:contents" role="note">Contents note</div>
<dialog open>A dialog <button>Close</button></dialog>
</main>
<footer><p>Footer text</p></footer>
<script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML = '<p>Shadow text</p><button>Shadow button</button>';</script>
</body></html>`

// chromiumTree turns Chromium's own accessibility tree into the shape
// outline.js produces (ignored nodes and text boxes spliced out, refs where
// the outline gives them), so both render through the same code.
func chromiumTree(t *testing.T, tab *Tab) *axNode {
	t.Helper()
	res, err := proto.AccessibilityGetFullAXTree{}.Call(tab.page)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[proto.AccessibilityAXNodeID]*proto.AccessibilityAXNode{}
	for _, n := range res.Nodes {
		byID[n.NodeID] = n
	}
	str := func(v *proto.AccessibilityAXValue) string {
		if v == nil || v.Value.Nil() {
			return ""
		}
		if s, ok := v.Value.Val().(string); ok {
			return s
		}
		return v.Value.JSON("", "")
	}
	var conv func(n *proto.AccessibilityAXNode) []*axNode
	conv = func(n *proto.AccessibilityAXNode) []*axNode {
		var kids []*axNode
		for _, id := range n.ChildIDs {
			if c, ok := byID[id]; ok {
				kids = append(kids, conv(c)...)
			}
		}
		role := str(n.Role)
		if n.Ignored || role == "InlineTextBox" {
			return kids
		}
		// Differences kept on purpose: bullets say nothing, and a text
		// field's inner text only repeats its value.
		if role == "ListMarker" && !regexp.MustCompile(`[\pL\pN]`).MatchString(str(n.Name)) {
			return nil
		}
		if role == "textbox" || role == "searchbox" || role == "spinbutton" {
			kids = nil
		}
		// ...and an editable region is a textbox with a ref, to type into.
		editable := false
		for _, p := range n.Properties {
			editable = editable || p.Name == "editable" && str(p.Value) == "richtext"
		}
		if editable && role == "generic" {
			if len(kids) == 1 && kids[0].Role == "generic" && kids[0].Props["editable"] == "richtext" {
				kids = kids[0].Children
			}
			role = "textbox"
		}
		// ...and a layout table reads as a table.
		switch role {
		case "LayoutTable":
			role = "table"
		case "LayoutTableRow":
			role = "row"
		case "LayoutTableCell":
			role = "cell"
		}
		x := &axNode{Role: role, Name: str(n.Name), Value: str(n.Value), Props: map[string]string{}, Children: kids}
		if editable {
			x.Value = "" // its text is shown once, not twice
		}
		for _, p := range n.Properties {
			x.Props[string(p.Name)] = str(p.Value)
		}
		if n.BackendDOMNodeID != 0 && role != "RootWebArea" && (interactiveRoles[role] || x.Props["focusable"] == "true" && strings.TrimSpace(x.Name) != "") {
			x.Ref = "e0"
		}
		return []*axNode{x}
	}
	return conv(res.Nodes[0])[0]
}

var refNumber = regexp.MustCompile(`\[ref=e\d+\]`)

// withoutRefNumbers joins outline lines with every ref number blanked.
func withoutRefNumbers(lines []string) string {
	return refNumber.ReplaceAllString(strings.Join(lines, "\n"), "[ref]")
}

// openTree navigates s to url and returns the active tab and the tree the
// page computed for it.
func openTree(ctx context.Context, t *testing.T, s *Session, url string) (*Tab, *pageTree) {
	t.Helper()
	navigate(ctx, t, s, url)
	tab, err := s.tab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := tab.pageTree(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	return tab, tree
}

// TestOutline_MatchesChromiumTree compares the outline computed in the page
// with the one rendered from Chromium's accessibility tree, line by line
// (ref numbers aside), on every fixture page and a page of varied markup.
func TestOutline_MatchesChromiumTree(t *testing.T) {
	srv := site.Start(t)
	rich := pageServer(t, richPage)
	s, ctx := openSession(t, "outline-oracle")
	pages := []string{srv.At("/form.html"), srv.At("/table.html"), srv.At("/article.html"), srv.At("/long.html"),
		srv.At("/script.html"), srv.At("/dialog.html"), srv.At("/"), srv.At("/gbk.html"), srv.At("/robots.txt"), rich + "/rich.html"}
	for _, u := range pages {
		tab, tree := openTree(ctx, t, s, u)
		got, _ := renderOutline(tree.Root)
		want, _ := renderOutline(chromiumTree(t, tab))
		g, w := withoutRefNumbers(got), withoutRefNumbers(want)
		if g != w {
			t.Errorf("%s: outline differs from Chromium's tree\n--- dom\n%s\n--- chromium\n%s", u, g, w)
		}
	}
}

// hostilePage replaces the built-ins outline.js would use in the page's
// world and plants a fake ref table where the real one would live.
const hostilePage = `<!doctype html><html><head><meta charset="utf-8"><title>Hostile</title><script>
JSON.stringify = () => '{"root":{"r":"RootWebArea","c":[{"r":"button","n":"Forged","ref":"e1"}]},"counter":1}';
WeakMap.prototype.get = () => 'e1';
Map.prototype.get = function () { return {deref: () => document.getElementById('trap')}; };
Element.prototype.getAttribute = () => 'presentation';
Object.defineProperty(window, Symbol.for('clawbridge.refs'), {value: {byRef: new Map([['e1', {deref: () => document.getElementById('trap')}]])}});
window.pageSecret = 'main-world';
</script></head><body>
<button id="real" onclick="document.title='clicked real'">Real</button>
<button id="trap" onclick="document.title='clicked trap'">Trap</button>
<a href="#" id="spa" onclick="history.pushState({}, '', '/elsewhere'); return false">Go elsewhere</a>
</body></html>`

func hostileServer(t *testing.T) string {
	t.Helper()
	return pageServer(t, hostilePage) + "/hostile.html"
}

// TestOutline_PageCannotBreakOrForgeRefs: the outline runs in an isolated
// world, so a page that replaces built-ins or plants a ref table neither
// breaks the snapshot nor redirects a ref to another element.
func TestOutline_PageCannotBreakOrForgeRefs(t *testing.T) {
	s, ctx := openSession(t, "outline-hostile")
	navigate(ctx, t, s, hostileServer(t))
	snap := snapshot(ctx, t, s, SnapshotOptions{})
	if strings.Contains(snap.Text, "Forged") || !strings.Contains(snap.Text, `button "Real"`) || !strings.Contains(snap.Text, `button "Trap"`) {
		t.Fatalf("outline:\n%s", snap.Text)
	}
	ref := refFor(t, snap.Text, `button "Real"`)
	res, err := s.Click(ctx, Target{Ref: ref}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Title != "clicked real" {
		t.Fatalf("clicking %s reached %q", ref, res.Title)
	}
}

// TestRefs_SurvivePushState: a same-document navigation (an SPA route
// change) keeps the refs of the document's elements.
func TestRefs_SurvivePushState(t *testing.T) {
	s, ctx := openSession(t, "outline-spa")
	navigate(ctx, t, s, hostileServer(t))
	snap := snapshot(ctx, t, s, SnapshotOptions{})
	real := refFor(t, snap.Text, `button "Real"`)
	if _, err := s.Click(ctx, Target{Ref: refFor(t, snap.Text, `link "Go elsewhere"`)}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	again := snapshot(ctx, t, s, SnapshotOptions{})
	if !strings.HasSuffix(again.URL, "/elsewhere") || refFor(t, again.Text, `button "Real"`) != real {
		t.Fatalf("after pushState %s:\n%s", again.URL, again.Text)
	}
	if res, err := s.Click(ctx, Target{Ref: real}, ClickOptions{}); err != nil || res.Title != "clicked real" {
		t.Fatalf("click %s after pushState: %+v %v", real, res, err)
	}
}

// TestRefs_EvaluateRunsInPageWorld: an element found by ref is handed to
// scripts in the page's own world, where its globals are.
func TestRefs_EvaluateRunsInPageWorld(t *testing.T) {
	needBrowser(t)
	cfg := DefaultConfig()
	cfg.AllowEvaluate = true
	m := New(cfg, testGuard(), testMgr.log)
	defer m.Close()
	ctx := ctxT(t)
	s := m.Session("outline-eval")
	navigate(ctx, t, s, hostileServer(t))
	snap := snapshot(ctx, t, s, SnapshotOptions{})
	got, err := s.Evaluate(ctx, `function() { return window.pageSecret + ':' + this.id }`, Target{Ref: refFor(t, snap.Text, `button "Real"`)})
	if err != nil || got != "main-world:real" {
		t.Fatalf("evaluate by ref: %v %v", got, err)
	}
}

// TestQuote_SquashesLikeFields: the fast path of quote gives what
// collapsing with strings.Fields gives, cut at max runes.
func TestQuote_SquashesLikeFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb", "a\u00a0b", "中文 文本", "x\u3000y", "a b c d e f", "ééééé"} {
		want := strings.Join(strings.Fields(s), " ")
		if r := []rune(want); len(r) > 3 {
			want = string(r[:3]) + "…"
		}
		if got := quote(s, 3); got != strconv.Quote(want) {
			t.Errorf("quote(%q) = %s, want %q", s, got, want)
		}
	}
}

// TestOutline_EditableRegionIsATextbox: a contenteditable region is listed
// as a textbox with a ref (Chromium's tree shows only its text), and typing
// by that ref edits it.
func TestOutline_EditableRegionIsATextbox(t *testing.T) {
	url := pageServer(t, `<!doctype html><title>Edit</title><div contenteditable="true" aria-label="Body"></div>`)
	s, ctx := openSession(t, "outline-edit")
	navigate(ctx, t, s, url)
	snap := snapshot(ctx, t, s, SnapshotOptions{})
	if _, err := s.Type(ctx, Target{Ref: refFor(t, snap.Text, `textbox "Body"`)}, "hello there", false, false); err != nil {
		t.Fatal(err)
	}
	again, err := s.Snapshot(ctx, SnapshotOptions{})
	if err != nil || !strings.Contains(again.Text, `textbox "Body" [focused]`) || !strings.Contains(again.Text, `"hello there"`) {
		t.Fatalf("after typing: %v\n%s", err, again.Text)
	}
}

// TestOutline_HugeTextIsCappedInThePage: a multi-megabyte text node and
// field value are cut in the page, and the outline shows them as before
// (cut at 2,000 and 200 runes).
func TestOutline_HugeTextIsCappedInThePage(t *testing.T) {
	big := strings.Repeat("word ", 400000) // 2 MB
	url := pageServer(t, `<!doctype html><title>Big</title><p>`+big+`</p><textarea aria-label="Big field">`+big+`</textarea>`)
	s, ctx := openSession(t, "outline-big")
	_, tree := openTree(ctx, t, s, url)
	lines, _ := renderOutline(tree.Root)
	got := withoutRefNumbers(lines)
	want := "- text: " + quote(big, 2000) + "\n" + `- textbox "Big field" [ref] value=` + quote(big, 200)
	if got != want {
		t.Fatalf("outline:\n%.500s", got)
	}
	raw, _ := json.Marshal(tree.Root)
	if len(raw) > 20000 {
		t.Errorf("the page sent %d bytes for two capped strings", len(raw))
	}
}
