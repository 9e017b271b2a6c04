// Package pdf is pdf_tool: page operations, encryption, stamps, forms, images
// and text on existing PDF files, built on pdfcpu (pure Go) with poppler's
// pdftotext for text extraction (pdfcpu has no text extractor).
package pdf

import (
	"context"
	"errors"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/api"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: pdf_tool: ...).
type Section struct {
	// MaxMB caps the size of an input PDF; larger files are refused.
	MaxMB int `yaml:"max_mb"`
	// MaxPages caps the pages of an input PDF for page-wise work.
	MaxPages int `yaml:"max_pages"`
	// Font is a TTF/TTC used to draw non-Latin watermark text (default: a
	// CJK font found on the system).
	Font string `yaml:"font"`
}

// Validate refuses limits below one megabyte or one page.
func (s *Section) Validate() error {
	return errors.Join(config.AtLeast("max_mb", s.MaxMB, 1), config.AtLeast("max_pages", s.MaxPages, 1))
}

var configOnce sync.Once

// configure turns off pdfcpu's config directory once per process: no
// ~/.config/pdfcpu is written and the built-in defaults are used.
func configure() { configOnce.Do(api.DisableConfigDir) }

type pdfTool struct {
	d   *tool.Deps
	cfg Section
}

// New builds pdf_tool.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Section]{Name: "pdf_tool", Defaults: func() Section { return Section{MaxMB: 300, MaxPages: 5000} }, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Section) (tool.Tool, error) {
	configure()
	p := &pdfTool{d: d, cfg: cfg}
	return tool.Tool{
		Name:        "pdf_tool",
		Title:       "PDF tool",
		Description: "Works on existing PDF files: merge, split, pages, encryption, watermarks, forms, text and images. Use it for any operation on a PDF that already exists; use format_converter to turn other formats into PDF.",
		Actions:     p.actions(),
		Programs:    tool.ProgramsOf("pdftotext"),
		Examples: []string{
			"merge these three PDFs into one",
			"split report.pdf into single pages",
			"encrypt contract.pdf with a password",
			"add a CONFIDENTIAL watermark to every page",
			"extract the text of pages 2-5 of paper.pdf",
			"合并这三个PDF文件",
			"拆分pdf，每10页一个文件",
			"给PDF加密并禁止复制",
			"提取PDF里的文字",
		},
	}, nil
}

// guard runs an action with pdfcpu's panics turned into tool errors: pdfcpu
// is defensive since v0.12, but a malformed file must never take the server
// down.
func (p *pdfTool) guard(h tool.Handler) tool.Handler {
	return func(ctx context.Context, c *tool.Call) (res *tool.Result, err error) {
		defer func() {
			if r := recover(); r != nil {
				field := "path" // the input: path, or paths for merge and images_to_pdf
				if c.Args.Has("paths") {
					field = "paths"
				}
				res, err = nil, tool.Invalidf(field, "check that the file is a valid PDF; try action validate", "%s: the PDF could not be processed: %v", c.Action, r)
			}
		}()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return h(ctx, c)
	}
}

// watermarkAction places text or an image behind (stamp: on top of) pages.
func (p *pdfTool) watermarkAction(onTop bool) tool.Handler {
	return func(ctx context.Context, c *tool.Call) (*tool.Result, error) { return p.watermark(ctx, c, onTop) }
}
