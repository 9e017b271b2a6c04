package mindmap

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// requireFont skips without a CJK font (tooltest.CJKFont's policy).
func requireFont(t testing.TB) { t.Helper(); tooltest.CJKFont(t) }

const outline = `# 项目计划 Project plan

## 目标 Goals
- 发布 1.0 版本
  - 完成文档
  - 性能测试 with a rather long label that must wrap onto several lines because it is far too wide
- Grow users

## 风险 Risks
- 人手不足
- Scope creep (and "quotes") [brackets]

## Timeline
1. Q1
2. Q2

## 预算
Some paragraph text.
`

func TestParseMarkdown(t *testing.T) {
	root, err := ParseMarkdown(outline, "")
	if err != nil {
		t.Fatal(err)
	}
	if root.Label != "项目计划 Project plan" || len(root.Children) != 4 {
		t.Fatalf("root %q with %d children", root.Label, len(root.Children))
	}
	goals := root.Children[0]
	if goals.Label != "目标 Goals" || len(goals.Children) != 2 || len(goals.Children[0].Children) != 2 {
		t.Fatalf("goals: %+v", goals)
	}
	if root.Children[3].Children[0].Label != "Some paragraph text." {
		t.Fatalf("paragraph: %+v", root.Children[3])
	}
	if _, err := ParseMarkdown("\n\n", ""); err == nil {
		t.Fatal("empty outline accepted")
	}
	multi, _ := ParseMarkdown("- a\n- b\n", "")
	if multi.Label != "Mind map" || len(multi.Children) != 2 {
		t.Fatalf("multi: %+v", multi)
	}
}

func TestParseJSON(t *testing.T) {
	root, err := ParseJSON([]byte(`{"name":"根","children":[{"text":"a","nodes":["x","y"]},"b"]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if root.Label != "根" || root.Count() != 5 || root.Children[0].Children[1].Label != "y" {
		t.Fatalf("%+v", root)
	}
	for _, bad := range []string{`{"children":[]}`, `[1,`, `{"label":"r","children":[{"children":[]}]}`, `42`} {
		if _, err := ParseJSON([]byte(bad), ""); err == nil {
			t.Fatalf("accepted %s", bad)
		}
	}
}

func noOverlap(t *testing.T, l *Layout) {
	t.Helper()
	for i, a := range l.Boxes {
		if a.X < 0 || a.Y < 0 || a.X+a.W > l.Width || a.Y+a.H > l.Height {
			t.Fatalf("box %q outside the canvas", a.Node.Label)
		}
		for _, b := range l.Boxes[i+1:] {
			if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
				t.Fatalf("boxes overlap: %q %+v and %q %+v", a.Node.Label, *a, b.Node.Label, *b)
			}
		}
	}
}

func bigTree(n int) *Node {
	root := &Node{Label: "根节点 Root"}
	count := 1
	for i := 0; count < n; i++ {
		br := &Node{Label: fmt.Sprintf("分支 Branch %d", i)}
		root.Children = append(root.Children, br)
		count++
		for j := 0; j < 6 && count < n; j++ {
			sub := &Node{Label: fmt.Sprintf("主题 %d.%d", i, j)}
			br.Children = append(br.Children, sub)
			count++
			for k := 0; k < 3 && count < n; k++ {
				sub.Children = append(sub.Children, &Node{Label: fmt.Sprintf("细节 detail %d.%d.%d", i, j, k)})
				count++
			}
		}
	}
	return root
}

func TestLayout(t *testing.T) {
	f, _ := cjkfont.Open("")
	root, _ := ParseMarkdown(outline, "")
	for _, mode := range []string{"right", "both", "auto"} {
		l := Compute(root, Options{Mode: mode, LabelWidth: 160}, f)
		noOverlap(t, l)
		if len(l.Boxes) != root.Count() {
			t.Fatalf("%d boxes for %d nodes", len(l.Boxes), root.Count())
		}
		// Children sit in a column beyond their parent, on their side.
		for _, b := range l.Boxes {
			for _, k := range b.Kids {
				if k.Side > 0 && k.X < b.X+b.W || k.Side < 0 && k.X+k.W > b.X {
					t.Fatalf("%s: child %q not beside parent %q", mode, k.Node.Label, b.Node.Label)
				}
			}
		}
	}
	// A long label wraps.
	l := Compute(root, Options{Mode: "right", LabelWidth: 160}, f)
	wrapped := false
	for _, b := range l.Boxes {
		if strings.HasPrefix(b.Node.Label, "性能测试") && len(b.Lines) >= 2 {
			wrapped = true
		}
		if b.W > 160+2*20+1 && b.Depth > 0 {
			t.Fatalf("box %q is %v wide", b.Node.Label, b.W)
		}
	}
	if !wrapped {
		t.Fatal("long label did not wrap")
	}
	// 300 nodes: no overlaps, both sides used, compact enough to read.
	big := bigTree(300)
	l = Compute(big, Options{Mode: "auto"}, f)
	noOverlap(t, l)
	left, right := 0, 0
	for _, b := range l.Boxes {
		if b.Side < 0 {
			left++
		} else if b.Side > 0 {
			right++
		}
	}
	if left < 100 || right < 100 {
		t.Fatalf("unbalanced: %d left, %d right", left, right)
	}
	if l.Height > 300*40 {
		t.Fatalf("layout too tall for 300 nodes: %v", l.Height)
	}
}

type opmlCheck struct {
	Title string     `xml:"head>title"`
	Body  []outlineX `xml:"body>outline"`
}
type outlineX struct {
	Text string     `xml:"text,attr"`
	Kids []outlineX `xml:"outline"`
}

func countOPML(o outlineX) int {
	n := 1
	for _, k := range o.Kids {
		n += countOPML(k)
	}
	return n
}

type mmCheck struct {
	Node mmX `xml:"node"`
}
type mmX struct {
	Text string `xml:"TEXT,attr"`
	Pos  string `xml:"POSITION,attr"`
	Kids []mmX  `xml:"node"`
}

func countMM(o mmX) int {
	n := 1
	for _, k := range o.Kids {
		n += countMM(k)
	}
	return n
}

// parseMermaid reads back our Mermaid mindmap: indentation gives depth;
// shapes root((..)), id[".."] or plain text give labels.
func parseMermaid(t *testing.T, s string) *Node {
	t.Helper()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if lines[0] != "mindmap" {
		t.Fatalf("first line %q", lines[0])
	}
	type fr struct {
		ind  int
		node *Node
	}
	var root *Node
	var stack []fr
	for _, line := range lines[1:] {
		ind := len(line) - len(strings.TrimLeft(line, " "))
		txt := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(txt, "root((") && strings.HasSuffix(txt, "))"):
			txt = strings.TrimSuffix(strings.TrimPrefix(txt, "root(("), "))")
			txt = strings.Trim(txt, `"`)
		case strings.Contains(txt, `["`) && strings.HasSuffix(txt, `"]`):
			txt = txt[strings.Index(txt, `["`)+2 : len(txt)-2]
		default:
			if strings.ContainsAny(txt, "()[]{}") {
				t.Fatalf("unquoted shape characters in %q", txt)
			}
		}
		txt = strings.ReplaceAll(txt, "#quot;", `"`)
		n := &Node{Label: txt}
		for len(stack) > 0 && stack[len(stack)-1].ind >= ind {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			if root != nil {
				t.Fatal("two roots")
			}
			root = n
		} else {
			p := stack[len(stack)-1].node
			p.Children = append(p.Children, n)
		}
		stack = append(stack, fr{ind, n})
	}
	return root
}

func sameTree(a, b *Node) bool {
	if a.Label != b.Label || len(a.Children) != len(b.Children) {
		return false
	}
	for i := range a.Children {
		if !sameTree(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}

func TestToolAllFormats(t *testing.T) {
	requireFont(t)
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, New, d)
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	res := tooltest.OK(t, tl, map[string]any{"text": outline, "formats": []any{"svg", "png", "mermaid", "opml", "mm", "md"}, "output": "maps/plan.svg"})
	if len(res.Files) != 6 || len(res.Images) != 1 {
		t.Fatalf("files %d images %d", len(res.Files), len(res.Images))
	}
	root, _ := ParseMarkdown(outline, "")
	data := res.Data.(map[string]any)
	read := func(ext string) []byte {
		return tooltest.ReadFile(t, d.Sandbox.Root()+"/maps/plan"+ext)
	}
	// SVG: well-formed XML with every label.
	svg := read(".svg")
	dec := xml.NewDecoder(bytes.NewReader(svg))
	texts := 0
	var all strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("svg not well-formed: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "text" {
			texts++
		}
		if cd, ok := tok.(xml.CharData); ok {
			all.Write(cd)
		}
	}
	if texts != root.Count() || !strings.Contains(all.String(), "人手不足") || !strings.Contains(all.String(), `"quotes"`) {
		t.Fatalf("svg: %d text elements for %d nodes", texts, root.Count())
	}
	// PNG decodes at the reported size.
	img, err := png.Decode(bytes.NewReader(read(".png")))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != data["png_width"] || img.Bounds().Dy() != data["png_height"] {
		t.Fatalf("png %v, reported %v x %v", img.Bounds(), data["png_width"], data["png_height"])
	}
	// Text was drawn: dark pixels inside a depth-2 box.
	inkInside(t, img, root, data)
	// Mermaid, OPML and FreeMind read back to the same tree.
	if back := parseMermaid(t, string(read(".mmd"))); !sameTree(root, back) {
		t.Fatalf("mermaid round trip differs:\n%s", read(".mmd"))
	}
	var o opmlCheck
	if err := xml.Unmarshal(read(".opml"), &o); err != nil || len(o.Body) != 1 || countOPML(o.Body[0]) != root.Count() || o.Body[0].Kids[1].Kids[0].Text != "人手不足" {
		t.Fatalf("opml: %v %+v", err, o)
	}
	var mm mmCheck
	if err := xml.Unmarshal(read(".mm"), &mm); err != nil || countMM(mm.Node) != root.Count() || mm.Node.Text != root.Label || mm.Node.Kids[0].Pos == "" {
		t.Fatalf("mm: %v %+v", err, mm)
	}
	md, _ := ParseMarkdown(string(read(".md")), "")
	if !sameTree(root, md) {
		t.Fatal("markdown export does not parse back to the same tree")
	}
	// Same output again is refused, with nothing changed.
	if _, err := tooltest.Run(t, tl, map[string]any{"text": outline, "output": "maps/plan.svg"}); err == nil {
		t.Fatal("overwrite without flag")
	} else if te, _ := tool.AsError(err); te.Code != tool.CodeExists {
		t.Fatal(err)
	}
}

// inkInside checks that every depth-2 box of the layout has dark (text)
// pixels inside its padding area in the PNG.
func inkInside(t *testing.T, img image.Image, root *Node, data map[string]any) {
	t.Helper()
	f, _ := cjkfont.Open("")
	l := Compute(root, Options{Mode: "auto", LabelWidth: 200}, f)
	if l.Width != data["layout_width"] {
		t.Fatalf("layout differs: %v vs %v", l.Width, data["layout_width"])
	}
	scale := float64(img.Bounds().Dx()) / l.Width
	for _, b := range l.Boxes {
		if b.Depth != 2 {
			continue
		}
		dark := 0
		for y := int((b.Y + 4) * scale); y < int((b.Y+b.H-4)*scale); y++ {
			for x := int((b.X + 6) * scale); x < int((b.X+b.W-6)*scale); x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if r>>8 < 100 && g>>8 < 100 && bl>>8 < 100 {
					dark++
				}
			}
		}
		if dark < 20 {
			t.Fatalf("no text pixels in box %q (%d)", b.Node.Label, dark)
		}
	}
}
func TestToolInputs(t *testing.T) {
	requireFont(t)
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, New, d)
	tree := map[string]any{"label": "机器学习", "children": []any{
		map[string]any{"label": "监督学习", "children": []any{"回归", "分类"}},
		map[string]any{"label": "无监督学习"},
	}}
	res := tooltest.OK(t, tl, map[string]any{"tree": tree, "formats": []any{"svg"}})
	if res.Data.(map[string]any)["nodes"] != 5 || !strings.Contains(res.Files[0].Path, "机器学习_mindmap.svg") {
		t.Fatalf("%v %v", res.Data, res.Files)
	}
	os.WriteFile(d.Sandbox.Root()+"/t.json", []byte(`{"title":"J","items":["a","b"]}`), 0o644)
	if res, err := tooltest.Run(t, tl, map[string]any{"path": "t.json", "formats": []any{"mermaid"}}); err != nil || res.Data.(map[string]any)["nodes"] != 3 {
		t.Fatalf("path json: %v", err)
	}
	for _, args := range []map[string]any{
		{},
		{"text": "x", "tree": tree},
		{"text": "   "},
		{"path": "missing.md"},
		{"tree": map[string]any{"children": []any{}}},
	} {
		if _, err := tooltest.Run(t, tl, args); err == nil {
			t.Fatalf("accepted %v", args)
		} else if _, ok := tool.AsError(err); !ok {
			t.Fatalf("not a tool error: %v", err)
		}
	}
}

func TestBigMapPNG(t *testing.T) {
	requireFont(t)
	d := tooltest.Deps(t)
	tl := tooltest.Build(t, New, d)
	big := bigTree(300)
	var toAny func(n *Node) map[string]any
	toAny = func(n *Node) map[string]any {
		var kids []any
		for _, c := range n.Children {
			kids = append(kids, toAny(c))
		}
		return map[string]any{"label": n.Label, "children": kids}
	}
	res := tooltest.OK(t, tl, map[string]any{"tree": toAny(big), "formats": []any{"png", "svg"}, "scale": 1.0})
	data := res.Data.(map[string]any)
	if data["nodes"] != 300 {
		t.Fatalf("nodes %v", data["nodes"])
	}
	if res.Files[1].MIME != "image/png" {
		t.Fatalf("files: %+v", res.Files)
	}
	f, err := os.Open(res.Files[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	// Legible: drawn at scale >= 1, i.e. at least the layout size (14 px text).
	if float64(cfg.Width) < data["layout_width"].(float64) || cfg.Width != data["png_width"] {
		t.Fatalf("png %dx%d for layout %v", cfg.Width, cfg.Height, data["layout_width"])
	}
}

func BenchmarkLayout300(b *testing.B) {
	f, _ := cjkfont.Open("")
	big := bigTree(300)
	for b.Loop() {
		Compute(big, Options{}, f)
	}
}
