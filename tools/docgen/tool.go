// Package docgen is the doc_generator tool: a Word document (.docx) from
// Markdown or from structured blocks, with an optional PDF copy printed by
// LibreOffice.
package docgen

import (
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type generator struct{ d *tool.Deps }

// New builds the doc_generator tool.
func New(d *tool.Deps) (tool.Tool, error) {
	g := &generator{d: d}
	blockItem := &tool.Param{Name: "block", Type: tool.Object, Properties: []tool.Param{
		{Name: "type", Type: tool.String, Required: true, Enum: blockTypes},
		{Name: "text", Type: tool.String, Description: "Inline Markdown."},
		{Name: "level", Type: tool.Integer, Description: "Heading level, or toc depth.", Min: tool.Ptr(1), Max: tool.Ptr(6)},
		{Name: "items", Type: tool.Array, Description: "List entries; two leading spaces nest one level.", Items: &tool.Param{Name: "item", Type: tool.String}},
		{Name: "header", Type: tool.Array, Items: &tool.Param{Name: "cell", Type: tool.String}},
		{Name: "rows", Type: tool.Array, Items: &tool.Param{Name: "row", Type: tool.Array, Items: &tool.Param{Name: "cell", Type: tool.String}}},
		{Name: "path", Type: tool.String},
		{Name: "caption", Type: tool.String},
		{Name: "width_mm", Type: tool.Number},
		{Name: "align", Type: tool.String, Enum: []string{"left", "center", "right", "justify"}},
	}}
	params := []tool.Param{
		{Name: "text", Type: tool.String, Description: "Markdown (GFM tables, images as workspace paths, [TOC], <!-- pagebreak -->); or give path or blocks."},
		{Name: "path", Type: tool.String, Description: "Markdown file."},
		{Name: "blocks", Type: tool.Array, Description: "Content blocks in order.", Items: blockItem},
		tool.OutputParam("Default outputs/<title>.docx."),
		{Name: "title", Type: tool.String},
		{Name: "author", Type: tool.String},
		{Name: "header", Type: tool.String},
		{Name: "footer", Type: tool.String},
		{Name: "page_numbers", Type: tool.Boolean, Description: "Page N of M.", Default: true},
		{Name: "toc", Type: tool.Boolean, Description: "Table of contents.", Default: false},
		{Name: "page_size", Type: tool.String, Enum: []string{"A4", "Letter", "A3", "A5", "Legal"}, Default: "A4"},
		{Name: "landscape", Type: tool.Boolean, Default: false},
		{Name: "font", Type: tool.String, Default: "Calibri", Description: "Latin font."},
		{Name: "east_asia_font", Type: tool.String, Default: "Microsoft YaHei", Description: "CJK font."},
		{Name: "language", Type: tool.String, Description: "e.g. zh-CN.", Default: "auto"},
		{Name: "pdf", Type: tool.Boolean, Description: "Also a PDF copy.", Default: false},
		tool.Overwrite,
	}
	return tool.Tool{
		Name:  "doc_generator",
		Title: "Word document generator",
		Description: "Writes a Word .docx from Markdown or blocks (headings, lists, tables, images, TOC). " +
			"Use it to assemble a report from content other tools made; for slides use ppt_generator, to convert existing files format_converter.",
		Actions: []tool.Action{{
			Description: "Write a .docx from text, path or blocks.",
			Level:       tool.Write, Timeout: tool.Slow, Params: params,
			Handler: g.handle,
		}},
		Programs: tool.ProgramsOf(office.Program),
		Examples: []string{
			"Generate a Word document from this Markdown report",
			"Put the weather summary and the chart image into a docx",
			"Create a report.docx with a table of contents and page numbers",
			"帮我生成一份Word文档，包含标题、表格和图片",
			"把这些内容整理成docx报告",
			"制作文档并导出PDF",
		},
	}, nil
}

var blockTypes = []string{"heading", "paragraph", "bullets", "numbered", "table", "image", "page_break", "toc", "code", "quote"}
