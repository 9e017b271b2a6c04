// Package mindmap is mind_map: a Markdown outline or JSON tree laid out as a
// tidy tree by our own code and rendered to SVG and PNG (Chinese labels
// through a system CJK font), plus Mermaid mindmap, OPML and FreeMind .mm
// exports.
package mindmap

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/cjkfont"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: mind_map: ...).
type Section struct {
	// Font is a TTF/TTC/OTF file with CJK glyphs (default: found on the system).
	Font string `yaml:"font"`
	// MaxNodes caps the size of a map.
	MaxNodes int `yaml:"max_nodes"`
}

// Validate refuses a map size limit below one node.
func (s *Section) Validate() error { return config.AtLeast("max_nodes", s.MaxNodes, 1) }

type mindMap struct {
	d   *tool.Deps
	cfg Section
}

var allFormats = []string{"svg", "png", "mermaid", "opml", "mm", "md"}

// New builds mind_map.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Section]{Name: "mind_map", Defaults: func() Section { return Section{MaxNodes: 2000} }, Provision: provision}.New(d)
}

// provision builds mind_map from its decoded section.
func provision(d *tool.Deps, cfg Section) (tool.Tool, error) {
	m := &mindMap{d: d, cfg: cfg}
	return tool.Tool{
		Name:        "mind_map",
		Title:       "Mind map",
		Description: "Draws a mind map from a Markdown outline or a JSON tree as SVG and PNG (plus Mermaid, OPML, FreeMind, Markdown). Use it for 思维导图/脑图 requests and to visualise an outline.",
		Actions: []tool.Action{{
			Description: "render a mind map",
			Level:       tool.Write,
			Timeout:     tool.Normal,
			Params: []tool.Param{
				{Name: "text", Type: tool.String, Description: "Markdown outline: '# Root', '## Branch', '- item' (indent to nest); or give tree or path."},
				{Name: "tree", Type: tool.Object, Description: `JSON tree: {"label": "Root", "children": [{"label": "A", "children": [...]}, ...]} (or text/name/title/topic for label).`},
				{Name: "path", Type: tool.String, Description: "Outline (.md, .txt) or tree (.json) file."},
				{Name: "title", Type: tool.String, Description: "Root label when there are several top topics."},
				{Name: "formats", Type: tool.Array, Items: &tool.Param{Name: "format", Type: tool.String, Enum: allFormats},
					Description: "Default svg, png, mermaid."},
				tool.OutputParam("Default outputs/<title>.<ext>."),
				{Name: "layout", Type: tool.String, Enum: []string{"auto", "right", "both"}, Default: "auto", Description: "Where branches go."},
				{Name: "label_width", Type: tool.Number, Min: tool.Ptr(80), Max: tool.Ptr(600), Default: 200.0, Description: "Pixels before wrapping."},
				{Name: "scale", Type: tool.Number, Min: tool.Ptr(1), Max: tool.Ptr(4), Default: 2.0, Description: "PNG pixel density."},
				tool.Overwrite,
			},
			Handler: m.handle,
		}},
		Examples: []string{
			"make a mind map of this outline",
			"draw a mind map of the project plan as PNG",
			"turn these notes into a mermaid mindmap",
			"用思维导图梳理一下这本书的章节结构",
			"把这个大纲画成脑图",
			"生成一张关于机器学习的思维导图，导出 FreeMind",
		},
	}, nil
}

func (m *mindMap) handle(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	root, err := m.input(c)
	if err != nil {
		return nil, err
	}
	n := root.Count()
	if n > m.cfg.MaxNodes {
		return nil, tool.Errorf(tool.CodeTooLarge, "split the map into several maps or raise tools.mind_map.max_nodes", "the map has %d nodes, above the limit of %d", n, m.cfg.MaxNodes)
	}
	if d := root.Depth(); d > 64 {
		return nil, tool.Invalid("text", fmt.Sprintf("the outline is %d levels deep; a mind map of more than 64 levels cannot be drawn legibly", d), "flatten the outline")
	}
	formats := c.Args.Strings("formats")
	if len(formats) == 0 {
		formats = []string{"svg", "png", "mermaid"}
	}
	want := map[string]bool{}
	for _, f := range formats {
		want[f] = true
	}

	// The font drives both the layout's text metrics and the PNG. Without
	// one the SVG is still made (estimated metrics); PNG needs it.
	font, fontErr := cjkfont.Open(m.cfg.Font)
	if fontErr != nil && want["png"] {
		if errors.Is(fontErr, cjkfont.ErrNoFont) {
			return nil, tool.Missing("a CJK font", "fonts-noto-cjk")
		}
		return nil, tool.Errorf(tool.CodeUnavailable, "set tools.mind_map.font to a TTF/TTC/OTF file with Chinese glyphs", "font: %v", fontErr)
	}
	l := Compute(root, Options{Mode: c.Args.StringOr("layout", "auto"), LabelWidth: c.Args.Float("label_width", 200)}, font)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	var pngW, pngH int
	var pngData []byte
	products := map[string]product{
		"svg":     {".svg", "image/svg+xml", func() ([]byte, error) { return SVG(l, root.Label), nil }},
		"mermaid": {".mmd", "text/vnd.mermaid", func() ([]byte, error) { return []byte(Mermaid(root)), nil }},
		"opml":    {".opml", "text/x-opml", func() ([]byte, error) { return OPML(root, time.Now()) }},
		"mm":      {".mm", "application/x-freemind", func() ([]byte, error) { return FreeMind(root, l) }},
		"md":      {".md", "text/markdown", func() ([]byte, error) { return []byte(Outline(root)), nil }},
		"png": {".png", "image/png", func() ([]byte, error) {
			var err error
			pngData, pngW, pngH, err = PNG(l, font, PNGScale(l, c.Args.Float("scale", 2)))
			return pngData, err
		}},
	}
	targets, res, files, err := m.writeProducts(ctx, c, root, want, products)
	if err != nil {
		return nil, err
	}
	data := map[string]any{
		"title": root.Label, "nodes": n, "depth": root.Depth(), "branches": len(root.Children),
		"layout_width": l.Width, "layout_height": l.Height, "files": files,
	}
	if pngData != nil {
		data["png_width"], data["png_height"] = pngW, pngH
		if len(pngData) <= 400<<10 {
			res.Images = append(res.Images, tool.Image{MIME: "image/png", Data: pngData})
		}
	}
	if mm := Mermaid(root); len(mm) <= 4000 {
		data["mermaid"] = mm
	}
	if fontErr != nil {
		data["warning"] = "no CJK font found; SVG text widths are estimated (install fonts-noto-cjk)"
	} else {
		data["font"] = font.Path
	}
	res.Data = data
	res.Summary = fmt.Sprintf("mind map %q with %s saved as %s", root.Label, wording.Count(n, "node", "nodes"), strings.Join(targets, ", "))
	return res, nil
}

// product is one output format: its extension, MIME type and how to make
// its bytes.
type product struct {
	ext, mime string
	data      func() ([]byte, error)
}

// writeProducts writes the wanted formats, in allFormats order, after
// planning every target so nothing is half-written on a refusal. It
// returns the formats written, a result holding their files and the
// workspace path of each.
func (m *mindMap) writeProducts(ctx context.Context, c *tool.Call, root *Node, want map[string]bool, products map[string]product) ([]string, *tool.Result, map[string]string, error) {
	var targets, exts []string
	for _, f := range allFormats {
		if want[f] {
			targets = append(targets, f)
			exts = append(exts, products[f].ext)
		}
	}
	out, err := tool.PlanOutput(m.d.Sandbox, c.Args, tool.Output{Stem: defaultStem(root.Label), Exts: exts})
	if err != nil {
		return nil, nil, nil, err
	}
	res := &tool.Result{}
	files := map[string]string{}
	for i, f := range targets {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		p := products[f]
		data, err := p.data()
		if err != nil {
			return nil, nil, nil, fmt.Errorf("mind_map: %s: %w", f, err)
		}
		file, err := out.Write(p.ext, data)
		if err != nil {
			return nil, nil, nil, err
		}
		file.MIME = p.mime
		res.Files = append(res.Files, file)
		files[f] = m.d.Sandbox.Rel(file.Path)
		c.Progress(float64(i+1), float64(len(targets)), f)
	}
	return targets, res, files, nil
}

// input reads the tree from text, tree or path (exactly one).
func (m *mindMap) input(c *tool.Call) (*Node, error) {
	if _, err := c.Args.ExactlyOne("text is a Markdown outline, tree a JSON object, path a file; e.g. text: \"# Plan\\n## Goals\\n- ship\"", "text", "tree", "path"); err != nil {
		return nil, err
	}
	title := strings.TrimSpace(c.Args.String("title"))
	var root *Node
	var err error
	field := "text"
	switch {
	case c.Args.Has("text"):
		root, err = ParseMarkdown(c.Args.String("text"), title)
	case c.Args.Has("tree"):
		field = "tree"
		root, err = FromValue(c.Args.Object("tree"), title)
	default:
		field = "path"
		abs, rerr := m.d.Sandbox.Resolve(c.Args.String("path"))
		if rerr != nil {
			return nil, tool.PathError("path", c.Args.String("path"), rerr)
		}
		raw, rerr := tool.ReadRegular("path", c.Args.String("path"), abs, 4<<20)
		if rerr != nil {
			return nil, rerr
		}
		if strings.EqualFold(filepath.Ext(abs), ".json") {
			root, err = ParseJSON(raw, title)
		} else {
			root, err = ParseMarkdown(string(raw), title)
		}
	}
	if err != nil {
		return nil, tool.Invalid(field, err.Error(), "")
	}
	return root, nil
}

var unsafeName = regexp.MustCompile(`[\\/:*?"<>|\x00-\x1f]+`)

// defaultStem is the default output name from the map's title.
func defaultStem(title string) string {
	name := strings.TrimSpace(unsafeName.ReplaceAllString(title, "_"))
	if r := []rune(name); len(r) > 40 {
		name = string(r[:40])
	}
	if name == "" {
		name = "mindmap"
	}
	return name + "_mindmap"
}
