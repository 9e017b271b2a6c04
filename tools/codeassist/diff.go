package codeassist

import (
	"context"
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// maxDiffOut caps the diff text returned; the counts always cover all of it.
const maxDiffOut = 256 << 10

func (a *assistant) diff(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	var oldText, newText, oldLabel, newLabel string
	hasTexts := c.Args.Has("old_text") || c.Args.Has("new_text")
	switch {
	case hasTexts && c.Args.Has("paths"):
		return nil, tool.Invalid("paths", "give old_text and new_text, or paths, not both", "")
	case c.Args.Has("paths"):
		paths := c.Args.Strings("paths")
		for _, p := range paths { // a path outside the workspace is refused as such, whatever the count
			if _, err := a.d.Sandbox.Resolve(p); err != nil {
				return nil, tool.PathError("paths", p, err)
			}
		}
		if len(paths) != 2 {
			return nil, tool.Invalid("paths", fmt.Sprintf("paths needs exactly two files, got %d", len(paths)), `e.g. paths: ["v1/main.go", "v2/main.go"]`)
		}
		for i, p := range paths {
			_, data, err := a.readFile("paths", p)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				oldText, oldLabel = string(data), "a/"+strings.TrimPrefix(p, "/")
			} else {
				newText, newLabel = string(data), "b/"+strings.TrimPrefix(p, "/")
			}
		}
	case c.Args.Has("old_text") && c.Args.Has("new_text"):
		oldText, newText, oldLabel, newLabel = c.Args.String("old_text"), c.Args.String("new_text"), "old", "new"
		if len(oldText) > maxInput || len(newText) > maxInput {
			return nil, tool.Errorf(tool.CodeTooLarge, "diff files by paths instead", "each text may be at most %d bytes", maxInput)
		}
	default:
		field := "old_text"
		if c.Args.Has("old_text") {
			field = "new_text"
		}
		return nil, tool.Invalid(field, "give both old_text and new_text, or paths with two files", "")
	}
	edits, err := lineEdits(ctx, oldText, newText)
	if err != nil {
		return nil, tool.Errorf(tool.CodeTimeout, "diff smaller parts of the files", "the diff did not finish in time: %v", err)
	}
	u, err := udiff.ToUnifiedDiff(oldLabel, newLabel, oldText, edits, c.Args.Int("context", 3))
	if err != nil {
		return nil, fmt.Errorf("coding_assistant: diff: %w", err)
	}
	added, removed := 0, 0
	for _, h := range u.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				added++
			case udiff.Delete:
				removed++
			}
		}
	}
	text := u.String()
	data := map[string]any{"identical": len(u.Hunks) == 0, "added": added, "removed": removed, "hunks": len(u.Hunks), "diff": text}
	if len(text) > maxDiffOut {
		cut := strings.LastIndexByte(text[:maxDiffOut], '\n') + 1
		data["diff"] = text[:cut]
		data["truncated"] = fmt.Sprintf("diff cut at %d of %d bytes; lower context or diff smaller parts", cut, len(text))
	}
	summary := "the texts are identical"
	if len(u.Hunks) > 0 {
		summary = fmt.Sprintf("%d added, %d removed in %s", added, removed, wording.Count(len(u.Hunks), "hunk", "hunks"))
	}
	return &tool.Result{Summary: summary, Data: data}, nil
}
