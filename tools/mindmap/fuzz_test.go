package mindmap

import (
	"encoding/xml"
	"testing"
)

// FuzzParseMarkdown: any outline either fails cleanly or gives a tree whose
// layout has no overlaps and whose exports are well-formed.
func FuzzParseMarkdown(f *testing.F) {
	f.Add(outline)
	f.Add("- a\n  - b\n    - c\n- d")
	f.Add("# x\n```\n# not a heading\n```\n## y")
	f.Add("#\n##\n- \n")
	f.Fuzz(func(t *testing.T, s string) {
		root, err := ParseMarkdown(s, "")
		if err != nil {
			return
		}
		if root.Count() > 500 {
			return
		}
		l := Compute(root, Options{}, nil)
		if len(l.Boxes) != root.Count() {
			t.Fatalf("%d boxes for %d nodes", len(l.Boxes), root.Count())
		}
		for i, a := range l.Boxes {
			for _, b := range l.Boxes[i+1:] {
				if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
					t.Fatalf("overlap %q %q", a.Node.Label, b.Node.Label)
				}
			}
		}
		if err := xml.Unmarshal(SVG(l, root.Label), new(struct{})); err != nil {
			t.Fatalf("svg: %v", err)
		}
		if mm, err := FreeMind(root, l); err != nil || xml.Unmarshal(mm, new(struct{})) != nil {
			t.Fatalf("mm: %v", err)
		}
	})
}
