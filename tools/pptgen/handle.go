package pptgen

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/docout"
	"github.com/clawbridge/clawbridge/internal/pptx"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

const (
	maxSlides  = 300
	maxRows    = 18
	maxBullets = 16
)

type rawSlide struct {
	Layout     string     `json:"layout"`
	Title      string     `json:"title"`
	Subtitle   string     `json:"subtitle"`
	Bullets    []string   `json:"bullets"`
	LeftTitle  string     `json:"left_title"`
	RightTitle string     `json:"right_title"`
	Left       []string   `json:"left"`
	Right      []string   `json:"right"`
	Image      string     `json:"image"`
	Caption    string     `json:"caption"`
	Header     []string   `json:"header"`
	Rows       [][]string `json:"rows"`
	Notes      string     `json:"notes"`
}

func (g *generator) handle(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	a := c.Args
	if _, err := a.ExactlyOne("text (a Markdown outline), path (an outline file) or slides; for example text: \"# My talk\\n\\n## Agenda\\n- one\\n- two\"", "text", "path", "slides"); err != nil {
		return nil, err
	}
	color := a.StringOr("theme_color", "1F4E79")
	if !pptx.ValidColor(color) {
		return nil, tool.Invalid("theme_color", fmt.Sprintf("theme_color %q is not a hex colour", color), "use six hex digits RRGGBB, e.g. 1F4E79")
	}
	wantPDF := a.Bool("pdf", false)
	if wantPDF {
		if err := docout.CheckSoffice(); err != nil {
			return nil, err
		}
	}
	slides, err := g.slides(a)
	if err != nil {
		return nil, err
	}
	title := a.String("title")
	if title != "" && (len(slides) == 0 || slides[0].Kind != pptx.KindTitle) {
		slides = append([]pptx.Slide{{Kind: pptx.KindTitle, Title: title, Subtitle: a.String("subtitle")}}, slides...)
	}
	if title == "" && len(slides) > 0 {
		title = slides[0].Title
	}
	if err := check(slides); err != nil {
		return nil, err
	}
	data, err := pptx.Write(pptx.Deck{
		Title: title, Author: a.String("author"), Ratio: a.StringOr("aspect", "16:9"), Slides: slides,
		Theme: pptx.Theme{Color: color, Font: a.String("font"), EastAsiaFont: a.String("east_asia_font")},
	})
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "", "writing the deck failed: %v", err)
	}
	out, files, err := docout.SaveOffice(ctx, g.d.Sandbox, c, data, docout.Slug(title, "presentation"), ".pptx", wantPDF, g.d.Run)
	if err != nil {
		return nil, err
	}
	kinds := make([]string, len(slides))
	notes := 0
	for i, s := range slides {
		kinds[i] = s.Kind
		if strings.TrimSpace(s.Notes) != "" {
			notes++
		}
	}
	summary := fmt.Sprintf("Wrote %s with %s", g.d.Sandbox.Rel(out), wording.Count(len(slides), "slide", "slides"))
	return docout.Result(g.d.Sandbox, out, files, wantPDF, summary, map[string]any{
		"slides": len(slides), "kinds": kinds, "slides_with_notes": notes, "aspect": a.StringOr("aspect", "16:9"),
	}), nil
}

// slides reads the deck from slides, or from the Markdown outline in text
// or the file at path.
func (g *generator) slides(a tool.Args) ([]pptx.Slide, error) {
	if a.Has("slides") {
		var raw []rawSlide
		if err := a.Decode("slides", &raw); err != nil {
			return nil, err
		}
		return g.fromJSON(raw)
	}
	md := []byte(a.String("text"))
	base := g.d.Sandbox.Root()
	field := "text"
	if a.Has("path") {
		field = "path"
		p, err := g.d.Sandbox.Resolve(a.String("path"))
		if err != nil {
			return nil, tool.PathError("path", a.String("path"), err)
		}
		if md, err = tool.ReadRegular("path", a.String("path"), p, maxMarkdown); err != nil {
			return nil, err
		}
		base = filepath.Dir(p)
	}
	slides, err := pptx.FromMarkdown(md, g.loader(base))
	if err != nil {
		return nil, tool.Invalid(field, err.Error(), "images must be PNG, JPEG, GIF, BMP, TIFF or WebP files inside the workspace")
	}
	if len(slides) == 0 {
		return nil, tool.Invalid(field, "the outline has no slides", "start slides with '# Title' and '## Slide title' headings")
	}
	return slides, nil
}

func bullets(lines []string) []pptx.Bullet {
	var out []pptx.Bullet
	for _, l := range lines {
		lvl := 0
		if strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t") {
			lvl = 1
		}
		t := strings.TrimSpace(l)
		t = strings.TrimPrefix(strings.TrimPrefix(t, "- "), "* ")
		if t != "" {
			out = append(out, pptx.Bullet{Text: t, Level: lvl})
		}
	}
	return out
}

func (g *generator) fromJSON(raw []rawSlide) ([]pptx.Slide, error) {
	if len(raw) == 0 {
		return nil, tool.Invalid("slides", "slides is empty", "give at least one slide, e.g. {\"title\":\"Agenda\",\"bullets\":[\"one\"]}")
	}
	load := g.loader(g.d.Sandbox.Root())
	var out []pptx.Slide
	for i, r := range raw {
		field := fmt.Sprintf("slides[%d]", i)
		kind := r.Layout
		if kind == "" {
			switch {
			case r.Image != "":
				kind = pptx.KindImage
			case len(r.Header) > 0 || len(r.Rows) > 0:
				kind = pptx.KindTable
			case len(r.Left) > 0 || len(r.Right) > 0:
				kind = pptx.KindTwoColumn
			default:
				kind = pptx.KindBullets
			}
		}
		s := pptx.Slide{Kind: kind, Title: r.Title, Subtitle: r.Subtitle, Bullets: bullets(r.Bullets),
			LeftTitle: r.LeftTitle, RightTitle: r.RightTitle, Left: bullets(r.Left), Right: bullets(r.Right),
			Caption: r.Caption, Header: r.Header, Rows: r.Rows, Notes: r.Notes}
		bad := func(msg string) error {
			return tool.Invalid("slides", fmt.Sprintf("%s (%s): %s", field, kind, msg), "see the slide fields in the schema")
		}
		switch kind {
		case pptx.KindTitle, pptx.KindSection, pptx.KindClosing:
			if r.Title == "" {
				return nil, bad("needs a title")
			}
		case pptx.KindBullets:
			if r.Title == "" && len(s.Bullets) == 0 {
				return nil, bad("needs a title or bullets")
			}
		case pptx.KindTwoColumn:
			if len(s.Left) == 0 && len(s.Right) == 0 {
				return nil, bad("needs left or right bullets")
			}
		case pptx.KindImage:
			if r.Image == "" {
				return nil, bad("needs image, a workspace file path")
			}
			data, err := load(r.Image)
			if err != nil {
				return nil, bad(fmt.Sprintf("image %q: %v", r.Image, err))
			}
			s.Image = data
		case pptx.KindTable:
			if len(r.Header) == 0 && len(r.Rows) == 0 {
				return nil, bad("needs header or rows")
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// check refuses slides that cannot be laid out legibly.
func check(slides []pptx.Slide) error {
	if len(slides) > maxSlides {
		return tool.Invalid("slides", fmt.Sprintf("%s; at most %d in one deck", wording.Count(len(slides), "slide", "slides"), maxSlides), "split the deck")
	}
	for i, s := range slides {
		if len(s.Rows) > maxRows {
			return tool.Invalid("slides", fmt.Sprintf("slide %d (%q): the table has %s; at most %d fit on a slide", i+1, s.Title, wording.Count(len(s.Rows), "row", "rows"), maxRows), "split the table over several slides")
		}
		for _, col := range [][]pptx.Bullet{s.Bullets, s.Left, s.Right} {
			if len(col) > maxBullets {
				return tool.Invalid("slides", fmt.Sprintf("slide %d (%q) has %d bullets; at most %d fit", i+1, s.Title, len(col), maxBullets), "split the content over several slides")
			}
		}
		if s.Kind == pptx.KindImage {
			if _, _, _, _, err := docxNormalize(s.Image); err != nil {
				return tool.Invalid("slides", fmt.Sprintf("slide %d (%q): %v", i+1, s.Title, err), "use a PNG, JPEG, GIF, BMP, TIFF or WebP image")
			}
		}
	}
	return nil
}

func (g *generator) loader(base string) func(string) ([]byte, error) {
	return func(src string) ([]byte, error) { return g.d.LoadImage(base, src) }
}

// maxMarkdown bounds the Markdown file read from path.
const maxMarkdown = 64 << 20
