package mindmap

import (
	"encoding/xml"
	"fmt"
	"strings"
	"time"
)

// Mermaid writes a Mermaid mindmap. Labels that contain Mermaid's shape
// characters are quoted as id["..."] so they are shown verbatim.
func Mermaid(root *Node) string {
	var b strings.Builder
	b.WriteString("mindmap\n")
	id := 0
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		ind := strings.Repeat("  ", depth+1)
		label := mermaidText(n.Label)
		if depth == 0 {
			fmt.Fprintf(&b, "%sroot((%s))\n", ind, mermaidQuoted(label))
		} else if needsQuote(label) {
			id++
			fmt.Fprintf(&b, "%sn%d[%s]\n", ind, id, mermaidQuoted(label))
		} else {
			fmt.Fprintf(&b, "%s%s\n", ind, label)
		}
		for _, c := range n.Children {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return b.String()
}

func mermaidText(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func needsQuote(s string) bool {
	return strings.ContainsAny(s, "()[]{}\"`:;#%<>") || strings.HasPrefix(s, "::") || s == "root"
}

// mermaidQuoted wraps a label in double quotes; a double quote inside
// becomes Mermaid's #quot; entity.
func mermaidQuoted(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, "#quot;") + `"`
}

// OPML outline types.
type opmlDoc struct {
	XMLName xml.Name    `xml:"opml"`
	Version string      `xml:"version,attr"`
	Title   string      `xml:"head>title"`
	Created string      `xml:"head>dateCreated,omitempty"`
	Body    []opmlOutln `xml:"body>outline"`
}

type opmlOutln struct {
	Text     string      `xml:"text,attr"`
	Children []opmlOutln `xml:"outline"`
}

func toOPML(n *Node) opmlOutln {
	o := opmlOutln{Text: n.Label}
	for _, c := range n.Children {
		o.Children = append(o.Children, toOPML(c))
	}
	return o
}

// OPML writes an OPML 2.0 outline (readable by outliners and most mind-map
// programs).
func OPML(root *Node, now time.Time) ([]byte, error) {
	doc := opmlDoc{Version: "2.0", Title: root.Label, Created: now.UTC().Format(time.RFC1123Z), Body: []opmlOutln{toOPML(root)}}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("opml: %w", err)
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

// FreeMind .mm types.
type mmMap struct {
	XMLName xml.Name `xml:"map"`
	Version string   `xml:"version,attr"`
	Node    mmNode   `xml:"node"`
}

type mmNode struct {
	ID       string   `xml:"ID,attr"`
	Text     string   `xml:"TEXT,attr"`
	Position string   `xml:"POSITION,attr,omitempty"`
	Folded   string   `xml:"FOLDED,attr,omitempty"`
	Children []mmNode `xml:"node"`
}

// FreeMind writes a FreeMind 1.0 .mm file (also opened by Freeplane and
// XMind's importer). Sides follow the layout when one is given.
func FreeMind(root *Node, l *Layout) ([]byte, error) {
	side := map[*Node]int{}
	if l != nil {
		for _, b := range l.Boxes {
			side[b.Node] = b.Side
		}
	}
	id := 0
	var conv func(n *Node, depth int) mmNode
	conv = func(n *Node, depth int) mmNode {
		id++
		m := mmNode{ID: fmt.Sprintf("ID_%d", id), Text: n.Label}
		if depth == 1 {
			m.Position = "right"
			if side[n] < 0 {
				m.Position = "left"
			}
		}
		for _, c := range n.Children {
			m.Children = append(m.Children, conv(c, depth+1))
		}
		return m
	}
	doc := mmMap{Version: "1.0.1", Node: conv(root, 0)}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("freemind: %w", err)
	}
	return append(out, '\n'), nil
}

// Outline writes the tree back as a Markdown outline.
func Outline(root *Node) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", root.Label)
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		for _, c := range n.Children {
			fmt.Fprintf(&b, "%s- %s\n", strings.Repeat("  ", depth), strings.ReplaceAll(c.Label, "\n", " "))
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return b.String()
}
