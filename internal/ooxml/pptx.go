package ooxml

import (
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/tools/tool"
)

var slideName = regexp.MustCompile(`^ppt/slides/slide(\d+)\.xml$`)

// PptxSlides returns each slide's title and other paragraphs, in order.
func PptxSlides(data []byte) ([][2][]string, error) {
	p, err := openPkg(data, "pptx")
	if err != nil {
		return nil, err
	}
	// Slide order comes from presentation.xml; fall back to file numbers.
	var order []string
	if pres, err := p.xml("ppt/presentation.xml"); err == nil {
		rels := p.rels("ppt/presentation.xml")
		if lst := pres.child("sldIdLst"); lst != nil {
			for _, s := range lst.Nodes {
				if t := rels[s.attr("id")]; t != "" {
					order = append(order, path.Clean("ppt/"+t))
				}
			}
		}
	}
	if len(order) == 0 {
		type sl struct {
			n    int
			name string
		}
		var all []sl
		for name := range p.files {
			if m := slideName.FindStringSubmatch(name); m != nil {
				n, _ := strconv.Atoi(m[1])
				all = append(all, sl{n, name})
			}
		}
		sort.Slice(all, func(i, j int) bool { return all[i].n < all[j].n })
		for _, s := range all {
			order = append(order, s.name)
		}
	}
	var slides [][2][]string
	for _, name := range order {
		sx, err := p.xml(name)
		if err != nil {
			return nil, tool.Invalidf("path", "", "pptx: %v", err)
		}
		var title, body []string
		var shapes func(n *xnode)
		shapes = func(n *xnode) {
			for i := range n.Nodes {
				c := &n.Nodes[i]
				if c.XMLName.Local == "sp" {
					isTitle := false
					if nv := c.child("nvSpPr"); nv != nil {
						if np := nv.child("nvPr"); np != nil {
							if ph := np.child("ph"); ph != nil {
								t := ph.attr("type")
								isTitle = t == "title" || t == "ctrTitle"
							}
						}
					}
					for _, para := range paragraphs(c) {
						if isTitle {
							title = append(title, para)
						} else {
							body = append(body, para)
						}
					}
					continue
				}
				shapes(c)
			}
		}
		shapes(sx)
		slides = append(slides, [2][]string{title, body})
	}
	return slides, nil
}

// paragraphs collects the a:p texts under a shape (with bullet depth).
func paragraphs(n *xnode) []string {
	var out []string
	var walk func(n *xnode)
	walk = func(n *xnode) {
		for i := range n.Nodes {
			c := &n.Nodes[i]
			if c.XMLName.Local == "p" && c.XMLName.Space != "" && strings.Contains(c.XMLName.Space, "drawingml") {
				var b strings.Builder
				var lvl int
				if ppr := c.child("pPr"); ppr != nil {
					lvl, _ = strconv.Atoi(ppr.attr("lvl"))
					lvl = max(0, min(lvl, 8))
				}
				var texts func(n *xnode)
				texts = func(n *xnode) {
					for j := range n.Nodes {
						e := &n.Nodes[j]
						switch e.XMLName.Local {
						case "t":
							b.WriteString(e.Text)
						case "br":
							b.WriteString(" ")
						default:
							texts(e)
						}
					}
				}
				texts(c)
				if s := strings.TrimSpace(b.String()); s != "" {
					out = append(out, strings.Repeat("  ", lvl)+s)
				}
				continue
			}
			walk(c)
		}
	}
	walk(n)
	return out
}
