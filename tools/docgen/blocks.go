package docgen

import (
	"fmt"
	"strings"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// rawBlock is one structured block as the model sends it.
type rawBlock struct {
	Type    string     `json:"type"`
	Text    string     `json:"text"`
	Level   int        `json:"level"`
	Items   []string   `json:"items"`
	Header  []string   `json:"header"`
	Rows    [][]string `json:"rows"`
	Path    string     `json:"path"`
	Caption string     `json:"caption"`
	WidthMM float64    `json:"width_mm"`
	Align   string     `json:"align"`
}

func (g *generator) fromBlocks(raw []rawBlock) ([]docx.Block, string, error) {
	var out []docx.Block
	var sample strings.Builder
	load := g.imageLoader(g.d.Sandbox.Root())
	for i, b := range raw {
		field := fmt.Sprintf("blocks[%d]", i)
		if name, ok := blockNeeds(b); !ok {
			return nil, "", tool.Invalid("blocks", fmt.Sprintf("%s (%s) needs %s", field, b.Type, name), "see the block fields in the schema")
		}
		sample.WriteString(b.Text)
		switch b.Type {
		case "heading":
			lvl := b.Level
			if lvl == 0 {
				lvl = 1
			}
			out = append(out, docx.Heading{Level: lvl, Runs: docx.InlineMarkdown(b.Text)})
		case "paragraph":
			for _, para := range strings.Split(b.Text, "\n\n") {
				out = append(out, docx.Paragraph{Runs: docx.InlineMarkdown(para), Align: b.Align})
			}
		case "quote":
			out = append(out, docx.Quote{Blocks: []docx.Block{docx.Paragraph{Runs: docx.InlineMarkdown(b.Text)}}})
		case "code":
			out = append(out, docx.CodeBlock{Text: b.Text})
		case "bullets", "numbered":
			for _, it := range b.Items {
				sample.WriteString(it)
			}
			out = append(out, nestList(b.Items, b.Type == "numbered"))
		case "table":
			for _, h := range b.Header {
				sample.WriteString(h)
			}
			out = append(out, tableBlock(b))
		case "image":
			data, err := load(b.Path)
			if err != nil {
				return nil, "", tool.Invalid("blocks", fmt.Sprintf("%s: image %q: %v", field, b.Path, err), "images must be PNG, JPEG, GIF, BMP, TIFF or WebP files inside the workspace")
			}
			if _, _, _, _, err := docx.NormalizeImage(data); err != nil {
				return nil, "", tool.Invalid("blocks", fmt.Sprintf("%s: %q: %v", field, b.Path, err), "")
			}
			out = append(out, docx.Image{Data: data, Caption: b.Caption, Alt: b.Caption, WidthMM: b.WidthMM})
		case "page_break":
			out = append(out, docx.PageBreak{})
		case "toc":
			out = append(out, docx.TOC{Title: b.Text, Levels: b.Level})
		default:
			return nil, "", tool.Invalid("blocks", fmt.Sprintf("%s has unknown type %q", field, b.Type), "one of: "+strings.Join(blockTypes, ", "))
		}
	}
	return out, sample.String(), nil
}

// blockNeeds names the field a block of its type cannot do without, and
// whether b has it.
func blockNeeds(b rawBlock) (string, bool) {
	switch b.Type {
	case "heading", "paragraph", "quote", "code":
		return "text", b.Text != ""
	case "bullets", "numbered":
		return "items", len(b.Items) > 0
	case "table":
		return "header or rows", len(b.Header) > 0 || len(b.Rows) > 0
	case "image":
		return "path", b.Path != ""
	}
	return "", true
}

// tableBlock is a table block's header and rows, as inline Markdown.
func tableBlock(b rawBlock) docx.Table {
	t := docx.Table{}
	for _, h := range b.Header {
		t.Header = append(t.Header, docx.Cell(docx.InlineMarkdown(h)))
	}
	for _, r := range b.Rows {
		var row []docx.Cell
		for _, c := range r {
			row = append(row, docx.Cell(docx.InlineMarkdown(c)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// nestList builds a list where two leading spaces (or a tab) per level nest
// an entry under the previous one.
func nestList(items []string, ordered bool) docx.List {
	type entry struct {
		depth int
		text  string
	}
	var es []entry
	for _, it := range items {
		d := 0
		for {
			if strings.HasPrefix(it, "  ") {
				it, d = it[2:], d+1
			} else if strings.HasPrefix(it, "\t") {
				it, d = it[1:], d+1
			} else {
				break
			}
		}
		es = append(es, entry{d, strings.TrimSpace(it)})
	}
	var build func(i, depth int) (docx.List, int)
	build = func(i, depth int) (docx.List, int) {
		l := docx.List{Ordered: ordered}
		for i < len(es) && es[i].depth >= depth {
			if es[i].depth > depth && len(l.Items) > 0 {
				sub, next := build(i, es[i].depth)
				last := &l.Items[len(l.Items)-1]
				last.Children = append(last.Children, sub)
				i = next
				continue
			}
			l.Items = append(l.Items, docx.ListItem{Runs: docx.InlineMarkdown(es[i].text)})
			i++
		}
		return l, i
	}
	l, _ := build(0, 0)
	return l
}
