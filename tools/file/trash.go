package file

// delete and restore go through the workspace trash (internal/trash), which
// email's delete_draft uses too.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func (ft *fileTool) delete(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	src, _, err := ft.source(c.Args.String("path"), false)
	if err != nil {
		return nil, err
	}
	rec, err := trash.Put(ctx, ft.sb, src, "delete")
	if err != nil {
		return nil, err
	}
	return &tool.Result{
		Summary: fmt.Sprintf("Moved %s to the trash (id %s); restore brings it back", rec.Rel, rec.ID),
		Data:    map[string]any{"path": rec.Rel, "trash_id": rec.ID, "type": rec.Type, "trash": ft.rel(filepath.Join(ft.sb.TrashDir(), rec.ID))},
	}, nil
}

func (ft *fileTool) restore(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	var rec trash.Record
	switch {
	case c.Args.String("id") != "":
		r, err := trash.Read(ft.sb, c.Args.String("id"))
		if err != nil {
			return nil, err
		}
		rec = r
	case c.Args.String("path") != "":
		p := c.Args.String("path")
		abs, err := ft.resolveLink("path", p)
		if err != nil {
			return nil, err
		}
		found := false
		for _, r := range trash.List(ft.sb) { // newest first
			if r.Original == abs {
				rec, found = r, true
				break
			}
		}
		if !found {
			return nil, tool.NotFoundf("path", "call restore without id or path to list the trash",
				"nothing from %s is in the trash", p)
		}
	default:
		recs := trash.List(ft.sb)
		if len(recs) > 100 {
			recs = recs[:100]
		}
		if recs == nil {
			recs = []trash.Record{}
		}
		return &tool.Result{Summary: fmt.Sprintf("The trash holds %d item(s); restore one with id", len(recs)),
			Data: map[string]any{"items": recs}}, nil
	}
	payload := trash.Payload(ft.sb, rec.ID)
	if _, err := os.Lstat(payload); err != nil {
		field := "path"
		if c.Args.String("id") != "" {
			field = "id"
		}
		return nil, tool.NotFoundf(field, "", "trash item %s has no content left", rec.ID)
	}
	dst, err := ft.restoreTarget(c, rec)
	if err != nil {
		return nil, err
	}
	if err := ft.checkWrite("output", rec.Original, dst); err != nil {
		return nil, err
	}
	if exists(dst) {
		return nil, tool.Existsf("output", "move the existing item away first, or pass output=another path",
			"%s already exists; restore never overwrites", ft.rel(dst))
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, fmt.Errorf("restore: create parents: %w", err)
	}
	if err := trash.Move(ctx, ft.sb, payload, dst); err != nil {
		return nil, fmt.Errorf("restore %s: %w", rec.ID, err)
	}
	if err := os.RemoveAll(filepath.Join(ft.sb.TrashDir(), rec.ID)); err != nil {
		ft.d.Log.Warn().Err(err).Str("id", rec.ID).Msg("file: restore: remove trash record")
	}
	return &tool.Result{
		Summary: fmt.Sprintf("Restored %s from the trash", ft.rel(dst)),
		Data:    map[string]any{"path": ft.rel(dst), "trash_id": rec.ID, "type": rec.Type},
	}, nil
}

// restoreTarget is where rec goes back to: output (a file, or a directory
// to restore into) or its original path.
func (ft *fileTool) restoreTarget(c *tool.Call, rec trash.Record) (dst string, err error) {
	if out := c.Args.String("output"); out != "" {
		dst, err = ft.resolveLink("output", out)
		if err == nil {
			if info, serr := os.Stat(dst); serr == nil && info.IsDir() {
				// Into a directory: resolved through links, so that a link
				// to the trash is seen as the trash.
				var dir string
				if dir, err = ft.resolveWrite("output", out); err == nil {
					dst = filepath.Join(dir, filepath.Base(rec.Original))
				}
			}
		}
	} else {
		// Re-resolve: the roots may have changed since the delete.
		dst, err = ft.resolveLink("path", rec.Original)
	}
	return dst, err
}
