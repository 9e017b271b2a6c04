package htmlmd

import (
	"strings"

	"golang.org/x/net/html"
)

// Text is the text of n and everything below it, white space as the source
// has it: what a title, a heading or a link says.
func Text(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
