// Package browsertool is the `browser` tool: a real headless Chromium driven
// step by step (navigate, snapshot with element refs, click, type, tabs,
// waits, screenshots, PDF). Each MCP session gets its own isolated browser
// context from the shared browser.Manager.
package browsertool

import (
	"github.com/clawbridge/clawbridge/browser"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Parameters shared by several actions.
var (
	pRef      = tool.Param{Name: "ref", Type: tool.String, Description: "Element ref from the latest snapshot, e.g. e12."}
	pSelector = tool.Param{Name: "selector", Type: tool.String, Description: "CSS selector, when no ref is at hand."}
	pURL      = tool.Param{Name: "url", Type: tool.String, Description: "Absolute http(s) URL.", Required: true}
)

// Actions of the browser tool, in the order clients see them.
func actions() []tool.Action {
	return []tool.Action{
		{Name: "navigate", Description: "url in the current tab", Level: tool.Write, Timeout: tool.Normal,
			Params: []tool.Param{pURL}},
		{Name: "back", Level: tool.Write, Timeout: tool.Normal},
		{Name: "forward", Level: tool.Write, Timeout: tool.Normal},
		{Name: "reload", Level: tool.Write, Timeout: tool.Normal},
		{Name: "snapshot", Description: "page outline with element refs, paged", Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
			Params: []tool.Param{
				{Name: "offset", Type: tool.Integer, Description: "next_offset of the previous window.", Min: tool.Ptr(0)},
				{Name: "limit", Type: tool.Integer, Description: "Characters to return.", Min: tool.Ptr(500), Max: tool.Ptr(100000)},
				{Name: "diff", Type: tool.Boolean, Description: "Only lines changed since the previous snapshot."},
			}},
		{Name: "click", Level: tool.Write, Timeout: tool.Normal,
			Params: []tool.Param{pRef, pSelector,
				{Name: "double", Type: tool.Boolean},
				{Name: "button", Type: tool.String, Enum: []string{"left", "right", "middle"}}}},
		{Name: "type", Description: "into a field (replaces unless append)", Level: tool.Write, Timeout: tool.Normal,
			Params: []tool.Param{pRef, pSelector,
				{Name: "text", Type: tool.String, Description: "Text to type.", Required: true},
				{Name: "submit", Type: tool.Boolean, Description: "Press Enter afterwards."},
				{Name: "append", Type: tool.Boolean, Description: "Add to the existing content."}}},
		{Name: "press", Description: "a key, on an element if given", Level: tool.Write, Timeout: tool.Normal,
			Params: []tool.Param{{Name: "key", Type: tool.String, Description: "Key, e.g. Enter or Control+a.", Required: true}, pRef, pSelector}},
		{Name: "select", Description: "options", Level: tool.Write, Timeout: tool.Normal,
			Params: []tool.Param{pRef, pSelector,
				{Name: "values", Type: tool.Array, Items: &tool.Param{Name: "value", Type: tool.String}, Description: "Option values or texts.", Required: true}}},
		{Name: "hover", Level: tool.Write, Timeout: tool.Normal, Params: []tool.Param{pRef, pSelector}},
		{Name: "scroll", Description: "element into view, by dx/dy, or to top/bottom", Level: tool.Write, Timeout: tool.Normal,
			Params: []tool.Param{pRef, pSelector,
				{Name: "dx", Type: tool.Number, Description: "Horizontal pixels."},
				{Name: "dy", Type: tool.Number, Description: "Vertical pixels (default: most of a screen down)."},
				{Name: "to", Type: tool.String, Description: "Page top or bottom.", Enum: []string{"top", "bottom"}}}},
		{Name: "wait_for", Description: "text, text_gone, a selector or seconds", Level: tool.Read, Timeout: tool.Normal,
			Params: []tool.Param{
				{Name: "text", Type: tool.String, Description: "Text to wait for."},
				{Name: "text_gone", Type: tool.String, Description: "Text to wait to disappear."},
				{Name: "selector", Type: tool.String, Description: "CSS selector to wait to be visible."},
				{Name: "seconds", Type: tool.Number, Description: "Fixed pause in seconds.", Min: tool.Ptr(0), Max: tool.Ptr(60)},
				{Name: "timeout", Type: tool.Number, Default: 10.0, Description: "Seconds before giving up.", Min: tool.Ptr(0.1), Max: tool.Ptr(120)}}},
		{Name: "screenshot", Description: "PNG of the viewport, page or element", Level: tool.Write, OptionalOutput: true, Timeout: tool.Normal,
			Params: []tool.Param{pRef, pSelector,
				{Name: "full_page", Type: tool.Boolean, Description: "Capture the whole scrollable page."},
				{Name: "save", Type: tool.Boolean, Description: "Also save it under outputs/."},
				tool.OutputParam("PNG path to write."),
				tool.Overwrite}},
		{Name: "pdf", Description: "print the page", Level: tool.Write, Timeout: tool.Slow,
			Params: []tool.Param{
				tool.OutputParam("PDF path (default outputs/page.pdf)."),
				{Name: "page_size", Type: tool.String, Enum: browser.PageSizes()},
				{Name: "landscape", Type: tool.Boolean},
				tool.Overwrite}},
		{Name: "tabs", Description: "list, open, select or close", Level: tool.Write, Timeout: tool.Normal,
			Params: []tool.Param{
				{Name: "mode", Type: tool.String, Default: "list", Description: "Tab operation.", Enum: []string{"list", "new", "select", "close"}},
				{Name: "tab", Type: tool.String, Description: "Tab id (t1, t2...); close defaults to the current tab."},
				{Name: "url", Type: tool.String, Description: "URL to open in the new tab."}}},
		{Name: "console", Description: "recent messages and errors", Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
			Params: []tool.Param{{Name: "limit", Type: tool.Integer, Default: 50, Description: "Messages to return.", Min: tool.Ptr(1), Max: tool.Ptr(200)}}},
		{Name: "evaluate", Description: "run JavaScript (the element is `this`); off unless configured", Level: tool.High, Timeout: tool.Normal,
			Params: []tool.Param{{Name: "script", Type: tool.String, Description: "JavaScript expression or function source.", Required: true}, pRef, pSelector}},
	}
}

// New builds the browser tool over the shared manager m. m may be nil: every
// call then says that no browser is available.
func New(d *tool.Deps, m *browser.Manager) tool.Tool {
	r := NewRunner(d, m)
	acts := actions()
	for i := range acts {
		// Every action runs its own verb in the call's browser session.
		if v, ok := verbs[acts[i].Name]; ok {
			acts[i].Handler = r.handler(v)
		}
	}
	return tool.Tool{
		Name:        "browser",
		Title:       "Web browser (Chromium)",
		Description: "Drive a real headless Chromium step by step: navigate, snapshot (an outline whose elements carry refs like e12), then click, type, select or wait by ref or CSS selector; also tabs, screenshots and PDF.",
		Actions:     acts,
		OpenWorld:   true,
		Programs:    map[string]string{"chromium": "chromium"},
		Examples: []string{
			"open https://example.com and click the login button",
			"fill in the search box on this page and press Enter",
			"take a screenshot of the current page",
			"save this web page as a PDF",
			"打开这个网页并截图",
			"在网页上填写表单并提交",
			"用浏览器打开新标签页访问这个网址",
		},
	}
}

// Manager is the shared browser in d.Browser; nil when none is configured.
// The contract names the browser by an interface (it does not link go-rod);
// the tools that drive pages need the manager itself.
func Manager(d *tool.Deps) *browser.Manager {
	m, _ := d.Browser.(*browser.Manager)
	return m
}
