// Package aiwriter is the `ai_writer` tool: outline, draft (section by
// section, with progress), continue, polish, summarise and translate long
// texts, optionally saved as Markdown or .docx (internal/docx). The words
// come from a model: the client's own through MCP sampling when the client
// declared it (tool.Call.Sample), else an OpenAI-compatible chat-completions
// endpoint from config; with neither, a clear error says how to get one.
// It never produces canned text.
package aiwriter

import (
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Name is the catalog name of the tool.
const Name = "ai_writer"

type writer struct {
	cfg  Config
	d    *tool.Deps
	chat *chatClient // nil without an endpoint
}

// New builds the tool from the tools.ai_writer section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: Name, Defaults: DefaultConfig, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	w := &writer{cfg: cfg, d: d}
	if cfg.Endpoint.BaseURL != "" && cfg.Endpoint.Model != "" {
		w.chat = &chatClient{http: d.HTTPClient(cfg.Endpoint.Timeout), ep: cfg.Endpoint}
	}
	return w.tool(), nil
}

func (w *writer) tool() tool.Tool {
	source := []tool.Param{
		{Name: "text", Type: tool.String, Description: "Text to work on, or give path."},
		{Name: "path", Type: tool.String, Description: "Text or Markdown file instead of text."},
	}
	common := []tool.Param{
		{Name: "language", Type: tool.String, Description: "e.g. English, 中文 (default: the text's or the request's)."},
		{Name: "instructions", Type: tool.String, Description: "Anything else to follow."},
		{Name: "save", Type: tool.String, Enum: tool.EnumValues("md", "docx"), Description: "Save the result as this."},
		tool.OutputParam("Default outputs/<title>.md|.docx; implies save."),
		tool.Overwrite,
	}
	topic := tool.Param{Name: "topic", Type: tool.String, Required: true, Description: "Subject and key points."}
	kind := tool.Param{Name: "kind", Type: tool.String, Enum: tool.EnumValues("article", "paper_section", "story_chapter", "blog_post", "essay", "report"), Description: "Default article."}
	length := tool.Param{Name: "length", Type: tool.Integer, Min: tool.Ptr(20), Max: tool.Ptr(20000), Description: "Target words (characters for Chinese)."}
	with := func(ps ...[]tool.Param) []tool.Param {
		var out []tool.Param
		for _, p := range ps {
			out = append(out, p...)
		}
		return out
	}
	act := func(name, desc string, h tool.Handler, params ...[]tool.Param) tool.Action {
		// Writing only reads; saving the result is what writes.
		return tool.Action{Name: name, Description: desc, Level: tool.Write, OptionalOutput: true, Timeout: tool.Slow, Params: with(params...), Handler: h}
	}
	return tool.Tool{
		Name:  Name,
		Title: "AI writer",
		Description: "Long-form writing with the client's own model (MCP sampling) or a configured endpoint: outline and draft articles, papers, stories and blog posts " +
			"section by section, continue, polish, summarise, translate.",
		Actions: []tool.Action{
			act("outline", "section headings", w.outline,
				[]tool.Param{topic, kind, {Name: "sections", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(30), Description: "Default 5."}}, common),
			act("draft", "a whole text, section by section (from outline, or one made first)", w.draft,
				[]tool.Param{topic, kind, length, {Name: "outline", Type: tool.Array, Items: &tool.Param{Name: "heading", Type: tool.String}, Description: "Section headings to follow."},
					{Name: "title", Type: tool.String, Description: "Default: the model's."}}, common),
			act("continue", "", w.continueText, source, []tool.Param{length}, common),
			act("polish", "improve style in a tone, keeping the meaning", w.polish, source,
				[]tool.Param{{Name: "tone", Type: tool.String, Description: "e.g. formal, friendly, academic."}}, common),
			act("summarise", "", w.summarise, source, []tool.Param{length}, common),
			act("translate", "into language", w.translate, source, common),
		},
		Examples: []string{
			"write a blog post about remote work",
			"translate this text into English",
			"summarize this long article",
			"continue the story from here",
			"draft an essay outline",
			"polish this paragraph to sound more formal",
			"写一篇关于环保的作文",
			"帮我润色这段文字",
			"把这篇文章翻译成中文",
			"续写这个故事",
			"写一篇产品推广文案",
		},
	}
}
