package aiwriter

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// output is the JSON result of every action.
type output struct {
	Action   string   `json:"action"`
	Title    string   `json:"title,omitempty"`
	Sections []string `json:"sections,omitempty"`
	Text     string   `json:"text"`
	Words    int      `json:"words"`
	Model    string   `json:"model,omitempty"`
	Source   string   `json:"source"` // "sampling" (the client's model) or "endpoint"
	File     string   `json:"file,omitempty"`
}

const systemPrompt = "You are a skilled writer and editor. Answer with the requested text only, in Markdown where structure helps: no preamble, no notes about what you did."

// model is one way to reach a model, and its name for the result.
type model struct {
	source string
	ask    func(ctx context.Context, req tool.SampleRequest, progress func(int)) (*tool.SampleResult, error)
}

// modelFor picks the client's model when it offers sampling, else the
// configured endpoint; with neither the call fails saying how to get one.
func (w *writer) modelFor(c *tool.Call) (*model, error) {
	if c.Sample != nil {
		return &model{source: "sampling", ask: func(ctx context.Context, req tool.SampleRequest, _ func(int)) (*tool.SampleResult, error) {
			req.ModelHints = w.cfg.ModelHints
			req.IntelligencePriority = 0.8
			res, err := c.Sample(ctx, req)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, tool.Errorf(tool.CodeFailed, "accept the sampling request in the client, or configure tools.ai_writer.endpoint", "the client's model did not answer: %v", err)
			}
			return res, nil
		}}, nil
	}
	if w.chat != nil {
		return &model{source: "endpoint", ask: w.chat.complete}, nil
	}
	return nil, tool.Errorf(tool.CodeUnavailable,
		"use a client that supports MCP sampling, or set tools.ai_writer.endpoint in the config: {base_url: https://api.openai.com/v1, model: gpt-4o-mini, api_key_env: OPENAI_API_KEY} "+
			"(any OpenAI-compatible server; a local one such as http://127.0.0.1:11434/v1 must also be in network.allow_hosts)",
		"no model is available: the client did not offer MCP sampling and no chat-completions endpoint is configured")
}

// ask sends one prompt and returns the answer's text.
func (w *writer) ask(ctx context.Context, m *model, prompt string, maxTokens int, progress func(int)) (*tool.SampleResult, error) {
	if maxTokens <= 0 || maxTokens > w.cfg.MaxTokens {
		maxTokens = w.cfg.MaxTokens
	}
	res, err := m.ask(ctx, tool.SampleRequest{System: systemPrompt, Messages: []tool.SampleMessage{{Role: "user", Text: prompt}}, MaxTokens: maxTokens}, progress)
	if err != nil {
		return nil, err
	}
	res.Text = strings.TrimSpace(res.Text)
	if res.Text == "" {
		return nil, tool.Errorf(tool.CodeFailed, "try again", "the model answered with no text")
	}
	return res, nil
}

// tokensFor is a token budget for about words words (a Chinese character
// or an English word is one to two tokens), within max_tokens.
func (w *writer) tokensFor(words int) int {
	return min(w.cfg.MaxTokens, max(256, words*2+200))
}

// source reads the text to work on from text or path.
func (w *writer) source(c *tool.Call) (string, error) {
	which, err := c.Args.ExactlyOne("give the text itself in text, or a workspace file in path", "text", "path")
	if err != nil {
		return "", err
	}
	text := c.Args.String("text")
	if which == "path" {
		p := c.Args.String("path")
		abs, err := w.d.Sandbox.Resolve(p)
		if err != nil {
			return "", tool.PathError("path", p, err)
		}
		// A UTF-8 character is at most 4 bytes: a larger file is over the
		// character limit whatever it holds.
		b, err := tool.ReadRegular("path", p, abs, int64(w.cfg.MaxInputChars)*utf8.UTFMax)
		if te, ok := tool.AsError(err); ok && te.Code == tool.CodeTooLarge {
			te.Hint = "give a part of it, or raise tools.ai_writer.max_input_chars"
		}
		if err != nil {
			return "", err
		}
		if !utf8.Valid(b) {
			return "", tool.Invalid("path", fmt.Sprintf("%s is not UTF-8 text", c.Args.String("path")), "give a .txt or .md file; convert other documents first (format_converter)")
		}
		text = string(b)
	}
	if strings.TrimSpace(text) == "" {
		return "", tool.Invalid(which, which+" is empty", "give the text to work on")
	}
	if n := utf8.RuneCountInString(text); n > w.cfg.MaxInputChars {
		return "", tool.Errorf(tool.CodeTooLarge, "give a part of it, or raise tools.ai_writer.max_input_chars",
			"the text has %d characters, more than the %d allowed", n, w.cfg.MaxInputChars)
	}
	return text, nil
}

func langLine(c *tool.Call) string {
	if l := c.Args.String("language"); l != "" {
		return "Write in " + l + ".\n"
	}
	return ""
}

func extra(c *tool.Call) string {
	if s := c.Args.String("instructions"); s != "" {
		return "Also: " + s + "\n"
	}
	return ""
}

func kindOf(c *tool.Call) string {
	return strings.ReplaceAll(c.Args.StringOr("kind", "article"), "_", " ")
}

var (
	numbered  = regexp.MustCompile(`^\s*(?:\d+[.)、]|[-*•]|#{1,6})\s*(.+)$`)
	titleLine = regexp.MustCompile(`^\s*(?:#\s+|(?i:title)\s*[:：]\s*)(.+)$`)
)

// parseOutline reads "Title: ..." and numbered or bulleted headings.
func parseOutline(text string) (title string, sections []string) {
	for _, line := range strings.Split(text, "\n") {
		if title == "" && len(sections) == 0 {
			if m := titleLine.FindStringSubmatch(line); m != nil {
				title = strings.Trim(strings.TrimSpace(m[1]), "*")
				continue
			}
		}
		if m := numbered.FindStringSubmatch(line); m != nil {
			if h := strings.Trim(strings.TrimSpace(m[1]), "*#"); h != "" {
				sections = append(sections, strings.TrimSpace(h))
			}
		}
	}
	return title, sections
}

func (w *writer) outline(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	m, err := w.modelFor(c)
	if err != nil {
		return nil, err
	}
	n := c.Args.Int("sections", 5)
	title, sections, res, err := w.makeOutline(ctx, m, c, n)
	if err != nil {
		return nil, err
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# %s\n\n", title)
	for i, s := range sections {
		fmt.Fprintf(&md, "%d. %s\n", i+1, s)
	}
	o := &output{Action: "outline", Title: title, Sections: sections, Text: md.String(), Model: res.Model, Source: m.source}
	return w.finish(c, o, fmt.Sprintf("Outline of %d sections for %q", len(sections), title))
}

func (w *writer) makeOutline(ctx context.Context, m *model, c *tool.Call, n int) (string, []string, *tool.SampleResult, error) {
	prompt := fmt.Sprintf("Make an outline for a %s about:\n%s\n\nAnswer with a first line \"Title: <title>\", then exactly %d numbered section headings, one per line, nothing else.\n%s%s",
		kindOf(c), c.Args.String("topic"), n, langLine(c), extra(c))
	res, err := w.ask(ctx, m, prompt, 600, nil)
	if err != nil {
		return "", nil, nil, err
	}
	title, sections := parseOutline(res.Text)
	if len(sections) == 0 {
		return "", nil, nil, tool.Errorf(tool.CodeFailed, "try again, or give the headings yourself in outline", "the model's outline had no section headings: %.200q", res.Text)
	}
	if title == "" {
		title = firstWords(c.Args.String("topic"), 8)
	}
	return title, sections, res, nil
}

func (w *writer) draft(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	m, err := w.modelFor(c)
	if err != nil {
		return nil, err
	}
	sections := c.Args.Strings("outline")
	title := c.Args.String("title")
	model := ""
	if len(sections) == 0 {
		c.Progress(0, 0, "making an outline")
		t, s, res, err := w.makeOutline(ctx, m, c, 5)
		if err != nil {
			return nil, err
		}
		sections, model = s, res.Model
		if title == "" {
			title = t
		}
	}
	if title == "" {
		title = firstWords(c.Args.String("topic"), 8)
	}
	if len(sections) > w.cfg.MaxSections {
		return nil, tool.Invalid("outline", fmt.Sprintf("%d sections are more than the %d allowed", len(sections), w.cfg.MaxSections), "merge sections, or raise tools.ai_writer.max_sections")
	}
	words := c.Args.Int("length", 800)
	per := max(50, words/len(sections))
	var md strings.Builder
	fmt.Fprintf(&md, "# %s\n\n", title)
	total := float64(len(sections))
	for i, h := range sections {
		c.Progress(float64(i), total, fmt.Sprintf("writing section %d of %d: %s", i+1, len(sections), h))
		prev := lastChars(md.String(), 1500)
		prompt := fmt.Sprintf("You are writing a %s titled %q about:\n%s\n\nIts sections: %s.\n\nWrite section %d, %q, in about %d words. Start with the body text, without the heading. Continue naturally from what comes before:\n---\n%s\n---\n%s%s",
			kindOf(c), title, c.Args.String("topic"), strings.Join(sections, "; "), i+1, h, per, prev, langLine(c), extra(c))
		res, err := w.ask(ctx, m, prompt, w.tokensFor(per), nil)
		if err != nil {
			return nil, err
		}
		model = res.Model
		fmt.Fprintf(&md, "## %s\n\n%s\n\n", h, stripHeading(res.Text, h))
	}
	c.Progress(total, total, "draft written")
	o := &output{Action: "draft", Title: title, Sections: sections, Text: strings.TrimSpace(md.String()) + "\n", Model: model, Source: m.source}
	return w.finish(c, o, fmt.Sprintf("Drafted %q in %d sections", title, len(sections)))
}

// transform is the shape of continue, polish, summarise and translate:
// one prompt over the source text.
func (w *writer) transform(ctx context.Context, c *tool.Call, action, instruction string, tokens int) (*tool.Result, error) {
	text, err := w.source(c)
	if err != nil {
		return nil, err
	}
	if action == "translate" && c.Args.String("language") == "" {
		return nil, tool.Invalid("language", "translate needs the target language", `give language, e.g. "English" or "中文"`)
	}
	m, err := w.modelFor(c)
	if err != nil {
		return nil, err
	}
	c.Progress(0, 1, action+"…")
	if tokens == 0 {
		tokens = w.tokensFor(len(strings.Fields(text)) + utf8.RuneCountInString(text)/4)
	}
	res, err := w.ask(ctx, m, fmt.Sprintf("%s\n%s%s\nThe text:\n---\n%s\n---", instruction, langLine(c), extra(c), text), tokens, nil)
	if err != nil {
		return nil, err
	}
	c.Progress(1, 1, "done")
	out := res.Text
	o := &output{Action: action, Title: firstWords(firstLine(out), 8), Text: out, Model: res.Model, Source: m.source}
	return w.finish(c, o, fmt.Sprintf("%s: %d words", action, countWords(res.Text)))
}

func (w *writer) continueText(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	words := c.Args.Int("length", 300)
	return w.transform(ctx, c, "continue", fmt.Sprintf("Continue the text below with about %d more words, in the same voice, style and language. Answer with the continuation only.", words), w.tokensFor(words))
}

func (w *writer) polish(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	tone := c.Args.StringOr("tone", "clear and natural")
	return w.transform(ctx, c, "polish", "Polish the text below: tone "+tone+"; fix grammar, flow and word choice; keep its meaning, facts, structure and language. Answer with the polished text only.", 0)
}

func (w *writer) summarise(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	words := c.Args.Int("length", 150)
	return w.transform(ctx, c, "summarise", fmt.Sprintf("Summarise the text below in about %d words, keeping its key points and figures. Answer with the summary only.", words), w.tokensFor(words))
}

func (w *writer) translate(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	lang := c.Args.String("language") // transform refuses it empty
	return w.transform(ctx, c, "translate", "Translate the text below into "+lang+", faithfully, keeping its Markdown structure. Answer with the translation only.", 0)
}

// finish counts words and saves the text when asked.
func (w *writer) finish(c *tool.Call, o *output, summary string) (*tool.Result, error) {
	o.Words = countWords(o.Text)
	res := &tool.Result{Data: o}
	format := c.Args.String("save")
	if format == "" && c.Args.Has("output") {
		format = "md"
		if strings.EqualFold(strings.TrimSpace(extOf(c.Args.String("output"))), ".docx") {
			format = "docx"
		}
	}
	if format != "" {
		ext := "." + format
		plan, err := tool.PlanOutput(w.d.Sandbox, c.Args, tool.Output{Stem: safeStem(o.Title, o.Action), Exts: []string{ext}})
		if err != nil {
			return nil, err
		}
		data := []byte(o.Text)
		if format == "docx" {
			if data, err = docx.FromMarkdown(data, docx.Options{Title: o.Title}); err != nil {
				return nil, fmt.Errorf("ai_writer: docx: %w", err)
			}
		}
		f, err := plan.Write(ext, data)
		if err != nil {
			return nil, err
		}
		o.File = w.d.Sandbox.Rel(f.Path)
		res.Files = []tool.File{f}
		summary += ", saved to " + o.File
	}
	res.Summary = summary + " (" + o.Source + " model" + modelName(o.Model) + ")"
	return res, nil
}
