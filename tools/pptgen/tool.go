// Package pptgen is the ppt_generator tool: a PowerPoint deck (.pptx) from a
// Markdown outline or a JSON list of slides, with an optional PDF copy
// printed by LibreOffice.
package pptgen

import (
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/internal/pptx"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type generator struct{ d *tool.Deps }

func strArray(name, desc string) tool.Param {
	return tool.Param{Name: name, Type: tool.Array, Description: desc, Items: &tool.Param{Name: "item", Type: tool.String}}
}

// New builds the ppt_generator tool.
func New(d *tool.Deps) (tool.Tool, error) {
	g := &generator{d: d}
	slide := &tool.Param{Name: "slide", Type: tool.Object, Properties: []tool.Param{
		{Name: "layout", Type: tool.String, Default: "bullets", Enum: pptx.Kinds},
		{Name: "title", Type: tool.String},
		{Name: "subtitle", Type: tool.String, Description: "For title, section, closing."},
		strArray("bullets", "Two leading spaces for level 2; inline Markdown works."),
		{Name: "left_title", Type: tool.String},
		{Name: "right_title", Type: tool.String},
		strArray("left", "Left column bullets."),
		strArray("right", "Right column bullets."),
		{Name: "image", Type: tool.String, Description: "Image file."},
		{Name: "caption", Type: tool.String},
		strArray("header", ""),
		{Name: "rows", Type: tool.Array, Items: &tool.Param{Name: "row", Type: tool.Array, Items: &tool.Param{Name: "cell", Type: tool.String}}},
		{Name: "notes", Type: tool.String, Description: "Speaker notes."},
	}}
	params := []tool.Param{
		{Name: "text", Type: tool.String, Description: "Markdown outline: '# Title' (later '# X' are sections), '## Slide' with '- bullets', '### Left'/'### Right' columns, an image or a table, '> notes', a final '## Thank you'; or give path or slides."},
		{Name: "path", Type: tool.String, Description: "Markdown outline file."},
		{Name: "slides", Type: tool.Array, Description: "Slides in order.", Items: slide},
		{Name: "title", Type: tool.String, Description: "With slides, adds a title slide if none."},
		{Name: "subtitle", Type: tool.String, Description: "Of that title slide."},
		{Name: "theme_color", Type: tool.String, Description: "Hex RRGGBB.", Default: "1F4E79"},
		{Name: "font", Type: tool.String, Default: "Calibri", Description: "Latin font."},
		{Name: "east_asia_font", Type: tool.String, Default: "Microsoft YaHei", Description: "Chinese font."},
		{Name: "aspect", Type: tool.String, Enum: []string{"16:9", "4:3"}, Default: "16:9"},
		{Name: "author", Type: tool.String},
		tool.OutputParam("Default outputs/<title>.pptx."),
		{Name: "pdf", Type: tool.Boolean, Description: "Also write a PDF copy.", Default: false},
		tool.Overwrite,
	}
	return tool.Tool{
		Name:        "ppt_generator",
		Title:       "PowerPoint deck generator",
		Description: "Creates a PowerPoint presentation (.pptx) from a Markdown outline or a JSON list of slides. Use it whenever the user asks for a PPT, slides, a deck or a presentation (幻灯片/演示文稿) — not doc_generator, which makes Word documents.",
		Actions: []tool.Action{{
			Description: "Write a .pptx from text, path or slides.",
			Level:       tool.Write, Timeout: tool.Slow, Params: params,
			Handler: g.handle,
		}},
		Programs: tool.ProgramsOf(office.Program),
		Examples: []string{
			"Make a PPT about the development of AI",
			"Create a 10-slide presentation from this outline",
			"Turn these notes into slides with speaker notes and export a PDF",
			"帮我做个关于AI发展的PPT",
			"生成一份演示文稿，包含表格和图片",
			"把这个大纲做成幻灯片",
		},
	}, nil
}
