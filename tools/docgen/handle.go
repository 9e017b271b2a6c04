package docgen

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/docout"
	"github.com/clawbridge/clawbridge/internal/docx"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func (g *generator) handle(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	a := c.Args
	if _, err := a.ExactlyOne("text (Markdown), path (a Markdown file) or blocks; for example text: \"# Title\\n\\nBody\"", "text", "path", "blocks"); err != nil {
		return nil, err
	}
	opts := docx.Options{
		Title: a.String("title"), Author: a.String("author"),
		Header: a.String("header"), Footer: a.String("footer"),
		PageNumbers: a.Bool("page_numbers", true), TOC: a.Bool("toc", false),
		PageSize: a.StringOr("page_size", "A4"), Landscape: a.Bool("landscape", false),
		Font: a.String("font"), EastAsiaFont: a.String("east_asia_font"),
	}
	wantPDF := a.Bool("pdf", false)
	if wantPDF {
		if err := docout.CheckSoffice(); err != nil {
			return nil, err
		}
	}

	blocks, sample, err := g.content(a)
	if err != nil {
		return nil, err
	}
	if opts.Title != "" {
		blocks = append([]docx.Block{docx.Paragraph{Style: "Title", Runs: docx.Text(opts.Title)}}, blocks...)
		if opts.TOC && !hasTOC(blocks) {
			// The contents go after the title, not above it.
			blocks = append([]docx.Block{blocks[0], docx.TOC{}}, blocks[1:]...)
		}
	}
	lang := a.StringOr("language", "auto")
	if lang == "auto" {
		lang = "en-US"
		if wording.HanShare(opts.Title+sample) > 0.2 {
			lang = "zh-CN"
		}
	}
	opts.Language = lang

	data, err := docx.Write(blocks, opts)
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "", "writing the document failed: %v", err)
	}
	out, files, err := docout.SaveOffice(ctx, g.d.Sandbox, c, data, docout.Slug(opts.Title, "document"), ".docx", wantPDF, g.d.Run)
	if err != nil {
		return nil, err
	}
	st := stats(blocks)
	summary := fmt.Sprintf("Wrote %s (%s, %s, %s)", g.d.Sandbox.Rel(out), wording.Count(st["headings"], "heading", "headings"), wording.Count(st["tables"], "table", "tables"), wording.Count(st["images"], "image", "images"))
	return docout.Result(g.d.Sandbox, out, files, wantPDF, summary, map[string]any{
		"headings": st["headings"], "tables": st["tables"], "images": st["images"], "lists": st["lists"],
		"page_breaks": st["page_breaks"], "toc": st["toc"] > 0, "language": lang,
	}), nil
}

// content reads the document's blocks from blocks, or from Markdown in
// text or the file at path, with a sample of its text for the language.
func (g *generator) content(a tool.Args) (blocks []docx.Block, sample string, err error) {
	switch {
	case a.Has("blocks"):
		var raw []rawBlock
		if err := a.Decode("blocks", &raw); err != nil {
			return nil, "", err
		}
		if len(raw) == 0 {
			return nil, "", tool.Invalid("blocks", "blocks is empty", "give at least one block, e.g. {\"type\":\"paragraph\",\"text\":\"Hello\"}")
		}
		blocks, sample, err = g.fromBlocks(raw)
		if err != nil {
			return nil, "", err
		}
	default:
		md := []byte(a.String("text"))
		base := g.d.Sandbox.Root()
		if a.Has("path") {
			p, err := g.d.Sandbox.Resolve(a.String("path"))
			if err != nil {
				return nil, "", tool.PathError("path", a.String("path"), err)
			}
			md, err = tool.ReadRegular("path", a.String("path"), p, maxMarkdown)
			if err != nil {
				return nil, "", err
			}
			base = filepath.Dir(p)
		}
		if strings.TrimSpace(string(md)) == "" {
			return nil, "", tool.Invalid("text", "the Markdown is empty", "give the document content")
		}
		sample = string(md)
		blocks, err = docx.ParseMarkdown(md, g.imageLoader(base))
		if err != nil {
			return nil, "", imageErr("text", err)
		}
	}
	return blocks, sample, nil
}

// imageLoader reads images from the workspace, relative to base
// (tool.Deps.LoadImage).
func (g *generator) imageLoader(base string) func(string) ([]byte, error) {
	return func(src string) ([]byte, error) { return g.d.LoadImage(base, src) }
}

func imageErr(field string, err error) error {
	msg := err.Error()
	if errors.Is(err, sandbox.ErrOutside) {
		return tool.Invalid(field, msg, "images must be files inside the workspace")
	}
	if strings.Contains(msg, "image") {
		return tool.Invalid(field, msg, "images must be PNG, JPEG, GIF, BMP, TIFF or WebP files inside the workspace")
	}
	return tool.Errorf(tool.CodeFailed, "", "%s", msg)
}

func stats(blocks []docx.Block) map[string]int {
	st := map[string]int{}
	for _, b := range blocks {
		switch v := b.(type) {
		case docx.Heading:
			st["headings"]++
		case docx.Table:
			st["tables"]++
		case docx.Image:
			st["images"]++
		case docx.List:
			st["lists"]++
		case docx.PageBreak:
			st["page_breaks"]++
		case docx.TOC:
			st["toc"]++
		case docx.Quote:
			for k, n := range stats(v.Blocks) {
				st[k] += n
			}
		}
	}
	return st
}

func hasTOC(blocks []docx.Block) bool {
	for _, b := range blocks {
		if _, ok := b.(docx.TOC); ok {
			return true
		}
	}
	return false
}

// maxMarkdown bounds the Markdown file read from path.
const maxMarkdown = 64 << 20
