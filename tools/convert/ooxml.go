package convert

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/ooxml"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// docxToMD writes the document's images into <output stem>_media/ next to
// the Markdown file, which links them relatively.
func (cv *converter) docxToMD(_ context.Context, _ *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	var saved []string
	var saveErr error
	done := map[string]bool{}
	save := func(name string, data []byte) string {
		if src.out == "" {
			return "media/" + name
		}
		dir := strings.TrimSuffix(src.out, filepath.Ext(src.out)) + "_media"
		if done[name] { // the same image shown again
			return filepath.Base(dir) + "/" + name
		}
		done[name] = true
		if err := os.MkdirAll(dir, 0o755); err != nil {
			saveErr = err
		} else if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			saveErr = err
		}
		saved = append(saved, cv.d.Sandbox.Rel(filepath.Join(dir, name)))
		return filepath.Base(dir) + "/" + name
	}
	md, err := ooxml.DocxWith(src.data, true, save)
	if err != nil {
		return nil, nil, err
	}
	if saveErr != nil {
		return nil, nil, fmt.Errorf("convert: save images: %w", saveErr)
	}
	var facts map[string]any
	if len(saved) > 0 {
		facts = map[string]any{"images": saved}
	}
	return []byte(md), facts, nil
}

func (cv *converter) docxToText(_ context.Context, _ *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	t, err := ooxml.Docx(src.data, false)
	return []byte(t), nil, err
}

func (cv *converter) docxToHTML(ctx context.Context, c *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	md, err := ooxml.Docx(src.data, true)
	if err != nil {
		return nil, nil, err
	}
	body, heading, _, err := cv.renderMarkdown([]byte(md), src.dir)
	if err != nil {
		return nil, nil, err
	}
	return page(cv.title(c, src, heading), body), nil, nil
}

// ---- PowerPoint ----

func (cv *converter) pptxToText(_ context.Context, _ *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	slides, err := ooxml.PptxSlides(src.data)
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	for i, s := range slides {
		fmt.Fprintf(&b, "--- Slide %d ---\n", i+1)
		for _, t := range s[0] {
			b.WriteString(t + "\n")
		}
		for _, t := range s[1] {
			b.WriteString(t + "\n")
		}
		b.WriteString("\n")
	}
	return []byte(b.String()), map[string]any{"slides": len(slides)}, nil
}

func (cv *converter) pptxToMD(_ context.Context, _ *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	slides, err := ooxml.PptxSlides(src.data)
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	for i, s := range slides {
		title := strings.Join(s[0], " ")
		if title == "" {
			title = fmt.Sprintf("Slide %d", i+1)
		}
		fmt.Fprintf(&b, "## %s\n\n", strings.TrimSpace(title))
		for _, t := range s[1] {
			ind := len(t) - len(strings.TrimLeft(t, " "))
			b.WriteString(strings.Repeat(" ", ind) + "- " + ooxml.EscapeMarkdown(strings.TrimSpace(t)) + "\n")
		}
		b.WriteString("\n")
	}
	return []byte(b.String()), map[string]any{"slides": len(slides)}, nil
}
