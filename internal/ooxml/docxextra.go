package ooxml

import (
	"path"
	"strconv"
	"strings"
)

// The parts of a Word document outside the paragraph text: inline code,
// footnotes and endnotes, text boxes and images.

// monoFonts are fonts that mark a run as code when no code style does.
var monoFonts = []string{"consolas", "courier", "menlo", "monaco", "mono", "lucida console", "source code"}

// monospace reports whether a run is code: a character style named like
// code (our writer's "Code Char", Word's "HTML Code", pandoc's
// "Verbatim Char"), or a monospace font.
func (r *docxReader) monospace(rpr *xnode) bool {
	if rs := rpr.child("rStyle"); rs != nil {
		name := r.styles[rs.attr("val")]
		if name == "" {
			name = strings.ToLower(rs.attr("val"))
		}
		if strings.Contains(name, "code") || strings.Contains(name, "verbatim") {
			return true
		}
	}
	if f := rpr.child("rFonts"); f != nil {
		font := strings.ToLower(f.attr("ascii") + " " + f.attr("hAnsi"))
		for _, m := range monoFonts {
			if strings.Contains(font, m) {
				return true
			}
		}
	}
	return false
}

// codeSpan writes text as a Markdown code span, with a fence longer than any
// run of backticks inside.
func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// noteRef records a footnote or endnote reference and returns its marker:
// [^1] for footnotes, [^e1] for endnotes ([1] and [e1] in plain text).
func (r *docxReader) noteRef(e *xnode) string {
	kind, prefix := "footnotes", ""
	if e.XMLName.Local == "endnoteReference" {
		kind, prefix = "endnotes", "e"
	}
	id := e.attr("id")
	if id == "" {
		return ""
	}
	n := 1
	for _, x := range r.notes {
		if x.kind == kind {
			if x.id == id {
				return r.noteMarker(x.label)
			}
			n++
		}
	}
	label := prefix + strconv.Itoa(n)
	r.notes = append(r.notes, note{kind: kind, id: id, label: label})
	return r.noteMarker(label)
}

func (r *docxReader) noteMarker(label string) string {
	if r.markdown {
		return "[^" + label + "]"
	}
	return "[" + label + "]"
}

// writeNotes appends the referenced notes' text, in reference order.
func (r *docxReader) writeNotes(out *strings.Builder) {
	if len(r.notes) == 0 {
		return
	}
	parts := map[string]map[string]*xnode{}
	for _, kind := range []string{"footnotes", "endnotes"} {
		name := "word/" + kind + ".xml"
		for _, t := range r.rels {
			if strings.EqualFold(path.Base(t), kind+".xml") {
				name = partName(t)
			}
		}
		parts[kind] = map[string]*xnode{}
		if doc, err := r.pkg.xml(name); err == nil {
			for i := range doc.Nodes {
				if n := &doc.Nodes[i]; n.attr("type") == "" || n.attr("type") == "normal" {
					parts[kind][n.attr("id")] = n
				}
			}
		}
	}
	sep(out, false)
	for _, x := range r.notes {
		n := parts[x.kind][x.id]
		if n == nil {
			continue
		}
		var paras []string
		for i := range n.Nodes {
			if n.Nodes[i].XMLName.Local != "p" {
				continue
			}
			var b strings.Builder
			r.runs(&n.Nodes[i], &b)
			if t := strings.TrimSpace(b.String()); t != "" {
				paras = append(paras, t)
			}
		}
		text := strings.Join(paras, "\n\n    ")
		if r.markdown {
			out.WriteString("[^" + x.label + "]: " + text + "\n")
		} else {
			out.WriteString("[" + x.label + "] " + text + "\n")
		}
	}
}

// alternative picks one branch of markup-compatibility content: the first
// choice (what current Word writes), else the fallback. Reading both would
// show a text box or image twice.
func alternative(ac *xnode) *xnode {
	for i := range ac.Nodes {
		if ac.Nodes[i].XMLName.Local == "Choice" {
			return &ac.Nodes[i]
		}
	}
	return ac.child("Fallback")
}

// objects walks a drawing, VML picture or embedded object: text boxes are
// kept for after the paragraph, images become Markdown image links.
func (r *docxReader) objects(n *xnode) []string {
	var out []string
	switch n.XMLName.Local {
	case "AlternateContent":
		if alt := alternative(n); alt != nil {
			return r.objects(alt)
		}
		return nil
	case "txbxContent":
		r.boxes = append(r.boxes, n)
		return nil
	case "docPr":
		r.alt = n.attr("descr")
		if r.alt == "" {
			r.alt = n.attr("title")
		}
	case "blip", "imagedata":
		id := n.attr("embed")
		if id == "" {
			id = n.attr("id")
		}
		if img := r.imageLink(id); img != "" {
			out = append(out, img)
		}
	}
	for i := range n.Nodes {
		out = append(out, r.objects(&n.Nodes[i])...)
	}
	return out
}

// imageLink saves the image a relationship points at and returns its
// Markdown (or, in plain text, its description).
func (r *docxReader) imageLink(id string) string {
	target, ok := r.rels[id]
	if !ok || strings.Contains(target, "://") {
		return ""
	}
	alt := strings.TrimSpace(r.alt)
	r.alt = ""
	if !r.markdown {
		if alt == "" {
			return "[image]"
		}
		return "[image: " + alt + "]"
	}
	name := partName(target)
	link := name
	if r.image != nil {
		data, err := r.pkg.read(name)
		if err != nil {
			return ""
		}
		link = r.image(path.Base(name), data)
	}
	return "![" + EscapeMarkdown(alt) + "](" + strings.ReplaceAll(link, " ", "%20") + ")"
}

// flushBoxes writes the text boxes met in the last paragraph as blocks of
// their own, and reports whether there were any.
func (r *docxReader) flushBoxes(out *strings.Builder) bool {
	if len(r.boxes) == 0 {
		return false
	}
	boxes := r.boxes
	r.boxes = nil
	for _, b := range boxes {
		r.flushCode(out)
		r.body(b, out)
	}
	return true
}

// partName resolves a relationship target of word/document.xml.
func partName(target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(target, "/")
	}
	return path.Join("word", target)
}
