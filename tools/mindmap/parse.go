package mindmap

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Node is one topic of the map.
type Node struct {
	Label    string  `json:"label"`
	Children []*Node `json:"children,omitempty"`
}

// Count returns the number of nodes in the tree.
func (n *Node) Count() int {
	c := 1
	for _, ch := range n.Children {
		c += ch.Count()
	}
	return c
}

// Depth returns the number of levels (a lone root is 1).
func (n *Node) Depth() int {
	d := 0
	for _, ch := range n.Children {
		d = max(d, ch.Depth())
	}
	return d + 1
}

var (
	headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	itemRE    = regexp.MustCompile(`^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$`)
	// inline Markdown that should not show in labels
	mdLinkRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdEmRE   = regexp.MustCompile("(\\*\\*|__|\\*|_|`|~~)")
)

// maxLabel caps a label (runes); a mind-map topic is a phrase, and very long
// text would only make an unreadable box.
const maxLabel = 300

func cleanLabel(s string) string {
	s = mdLinkRE.ReplaceAllString(s, "$1")
	s = mdEmRE.ReplaceAllString(s, "")
	s = strings.TrimPrefix(s, "[ ] ")
	s = strings.TrimPrefix(s, "[x] ")
	return capLabel(strings.TrimSpace(s))
}

func capLabel(s string) string {
	if r := []rune(s); len(r) > maxLabel {
		return string(r[:maxLabel-1]) + "…"
	}
	return s
}

// ParseMarkdown reads an outline: headings nest by level, list items nest
// by indentation under the nearest heading. A single top-level node becomes
// the root; several are put under a root named title (or "Mind map").
func ParseMarkdown(src, title string) (*Node, error) {
	type frame struct {
		level int // heading level 1-6, or 10+indent for list items
		node  *Node
	}
	virtual := &Node{}
	stack := []frame{{level: -1, node: virtual}}
	push := func(level int, label string) {
		for len(stack) > 1 && stack[len(stack)-1].level >= level {
			stack = stack[:len(stack)-1]
		}
		n := &Node{Label: label}
		parent := stack[len(stack)-1].node
		parent.Children = append(parent.Children, n)
		stack = append(stack, frame{level: level, node: n})
	}
	lastHeading := 0
	inFence := false
	for _, raw := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
		line := strings.ReplaceAll(raw, "\t", "    ")
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || trimmed == "" || strings.HasPrefix(trimmed, "<!--") {
			continue
		}
		if m := headingRE.FindStringSubmatch(trimmed); m != nil && !strings.HasPrefix(line, " ") {
			lastHeading = len(m[1])
			if l := cleanLabel(m[2]); l != "" {
				push(lastHeading, l)
			}
			continue
		}
		if m := itemRE.FindStringSubmatch(line); m != nil {
			if l := cleanLabel(m[2]); l != "" {
				push(10+lastHeading+len(m[1]), l)
			}
			continue
		}
		// A plain paragraph line: a topic under the current heading.
		if l := cleanLabel(trimmed); l != "" {
			push(10+lastHeading, l)
			stack = stack[:len(stack)-1] // paragraphs do not take children
		}
	}
	return rootOf(virtual.Children, title)
}

func rootOf(top []*Node, title string) (*Node, error) {
	switch {
	case len(top) == 0:
		return nil, fmt.Errorf("the outline has no topics: use headings (#, ##) or list items (-, *)")
	case len(top) == 1 && title == "":
		return top[0], nil
	case len(top) == 1 && title != "":
		if top[0].Label == title {
			return top[0], nil
		}
		return &Node{Label: title, Children: top}, nil
	}
	if title == "" {
		title = "Mind map"
	}
	return &Node{Label: title, Children: top}, nil
}

// ParseJSON reads a tree: an object with a label (label, text, name, title
// or topic) and children (children, nodes, items or subtopics), or an array
// of such objects, or nested strings.
func ParseJSON(raw []byte, title string) (*Node, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	return FromValue(v, title)
}

// FromValue converts a decoded JSON value into a tree.
func FromValue(v any, title string) (*Node, error) {
	switch x := v.(type) {
	case map[string]any:
		n, err := fromObject(x, 0)
		if err != nil {
			return nil, err
		}
		if title != "" && n.Label == "" {
			n.Label = title
		}
		if n.Label == "" {
			return nil, fmt.Errorf("the root has no label: give it a \"label\" (or text, name, title, topic)")
		}
		return n, nil
	case []any:
		var top []*Node
		for i, e := range x {
			n, err := fromAny(e, 1)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			top = append(top, n)
		}
		return rootOf(top, title)
	case string:
		return &Node{Label: x}, nil
	}
	return nil, fmt.Errorf("the tree must be an object with a label and children, or an array of them")
}

func fromAny(v any, depth int) (*Node, error) {
	if depth > 64 {
		return nil, fmt.Errorf("the tree is deeper than 64 levels")
	}
	switch x := v.(type) {
	case string:
		return &Node{Label: capLabel(strings.TrimSpace(x))}, nil
	case float64, bool:
		return &Node{Label: fmt.Sprint(x)}, nil
	case map[string]any:
		return fromObject(x, depth)
	}
	return nil, fmt.Errorf("a node must be an object or a string, got %T", v)
}

func fromObject(m map[string]any, depth int) (*Node, error) {
	n := &Node{}
	for _, k := range []string{"label", "text", "name", "title", "topic"} {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			n.Label = capLabel(strings.TrimSpace(s))
			break
		}
	}
	for _, k := range []string{"children", "nodes", "items", "subtopics"} {
		arr, ok := m[k].([]any)
		if !ok {
			continue
		}
		for i, e := range arr {
			ch, err := fromAny(e, depth+1)
			if err != nil {
				return nil, fmt.Errorf("%s[%d]: %w", k, i, err)
			}
			if ch.Label == "" {
				return nil, fmt.Errorf("%s[%d] has no label", k, i)
			}
			n.Children = append(n.Children, ch)
		}
		break
	}
	return n, nil
}
