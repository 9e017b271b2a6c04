package file

// Trash bookkeeping lives in the trash directory itself, one small JSON
// record per item (<trash>/<id>/record.json beside <trash>/<id>/data), not in
// the SQLite store. Why: the record then travels with the item (a workspace
// moved, backed up or shared keeps a working trash, and the store never holds
// records for files in a workspace it no longer sees); and one record per
// item, written atomically before the item moves, needs no shared index, so
// several clawbridge processes on the same workspace (a desktop app and an
// editor each spawn one over stdio) cannot lose each other's updates.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"clawbridge/internal/atomicfile"
	"clawbridge/internal/sandbox"
	"clawbridge/tools/tool"
)

type trashRecord struct {
	ID        string    `json:"id"`
	Original  string    `json:"original"` // absolute path when deleted
	Rel       string    `json:"rel"`      // workspace-relative, for display
	Type      string    `json:"type"`
	Size      int64     `json:"size,omitempty"`
	DeletedAt time.Time `json:"deleted_at"`
	Reason    string    `json:"reason"`
}

var trashIDRE = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{9}-[0-9a-f]{8}$`)

const (
	recordName  = "record.json"
	payloadName = "data"
)

func newTrashID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return sandbox.Stamp() + "-" + hex.EncodeToString(b[:])
}

// trashRoot returns the trash directory, created if needed. It must be a
// real directory: a .trash symlink planted by other means would otherwise
// carry deleted files out of the workspace.
func (ft *fileTool) trashRoot() (string, error) {
	dir := ft.sb.TrashDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("trash: create %s: %w", dir, err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("trash: %w", err)
	}
	if !info.IsDir() || info.Mode()&fs.ModeSymlink != 0 {
		return "", tool.Errorf(tool.CodeDenied, "remove or rename it so the trash can be recreated", "%s is not a plain directory", dir)
	}
	return dir, nil
}

// newRecord prepares the record and directory for abs.
func (ft *fileTool) newRecord(abs, reason string) (trashRecord, string, error) {
	root, err := ft.trashRoot()
	if err != nil {
		return trashRecord{}, "", err
	}
	info, err := os.Lstat(abs)
	if err != nil {
		return trashRecord{}, "", err
	}
	rec := trashRecord{ID: newTrashID(), Original: abs, Rel: ft.rel(abs), Type: typeOf(info.Mode()),
		DeletedAt: time.Now().UTC(), Reason: reason}
	if info.Mode().IsRegular() {
		rec.Size = info.Size()
	}
	dir := filepath.Join(root, rec.ID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return trashRecord{}, "", fmt.Errorf("trash: %w", err)
	}
	raw, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		os.RemoveAll(dir)
		return trashRecord{}, "", err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, recordName), raw, 0o600); err != nil {
		os.RemoveAll(dir)
		return trashRecord{}, "", fmt.Errorf("trash: record: %w", err)
	}
	return rec, dir, nil
}

// toTrash moves abs into the trash.
func (ft *fileTool) toTrash(ctx context.Context, abs, reason string) (trashRecord, error) {
	rec, dir, err := ft.newRecord(abs, reason)
	if err != nil {
		return rec, err
	}
	if err := ft.moveAny(ctx, abs, filepath.Join(dir, payloadName)); err != nil {
		os.RemoveAll(dir)
		return rec, fmt.Errorf("trash: move %s: %w", ft.rel(abs), err)
	}
	return rec, nil
}

// trashSnapshot keeps a copy of a file that is about to be replaced: a hard
// link when possible (instant; the atomic rename then swaps the name while
// the trash keeps the old inode), else a full copy.
func (ft *fileTool) trashSnapshot(ctx context.Context, abs, reason string) (trashRecord, error) {
	rec, dir, err := ft.newRecord(abs, reason)
	if err != nil {
		return rec, err
	}
	dst := filepath.Join(dir, payloadName)
	if err := os.Link(abs, dst); err == nil {
		return rec, nil
	}
	info, err := os.Stat(abs)
	if err == nil {
		err = copyFile(ctx, abs, dst, info.Mode().Perm())
	}
	if err != nil {
		os.RemoveAll(dir)
		return rec, fmt.Errorf("trash: copy %s: %w", ft.rel(abs), err)
	}
	return rec, nil
}

func (ft *fileTool) readRecord(id string) (trashRecord, error) {
	var rec trashRecord
	if !trashIDRE.MatchString(id) {
		return rec, tool.Invalid("id", fmt.Sprintf("%q is not a trash id", id), "ids look like 20261129T201500.123456789-0a1b2c3d; call restore without id or path to list the trash")
	}
	raw, err := os.ReadFile(filepath.Join(ft.sb.TrashDir(), id, recordName))
	if errors.Is(err, fs.ErrNotExist) {
		return rec, &tool.Error{Code: tool.CodeNotFound, Field: "id", Message: "no trash item " + id, Hint: "call restore without id or path to list the trash"}
	}
	if err != nil {
		return rec, fmt.Errorf("trash: read %s: %w", id, err)
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return rec, fmt.Errorf("trash: record %s: %w", id, err)
	}
	rec.ID = id // the directory name is authoritative
	return rec, nil
}

// records lists the trash, newest first; unreadable entries are skipped.
func (ft *fileTool) records() []trashRecord {
	des, err := os.ReadDir(ft.sb.TrashDir())
	if err != nil {
		return nil
	}
	var out []trashRecord
	for _, de := range des {
		if !de.IsDir() || !trashIDRE.MatchString(de.Name()) {
			continue
		}
		if rec, err := ft.readRecord(de.Name()); err == nil {
			out = append(out, rec)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out
}

func (ft *fileTool) delete(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	src, _, err := ft.source(c.Args.String("path"), false)
	if err != nil {
		return nil, err
	}
	rec, err := ft.toTrash(ctx, src, "delete")
	if err != nil {
		return nil, err
	}
	return &tool.Result{
		Summary: fmt.Sprintf("Moved %s to the trash (id %s); restore brings it back", rec.Rel, rec.ID),
		Data:    map[string]any{"path": rec.Rel, "trash_id": rec.ID, "type": rec.Type, "trash": ft.rel(filepath.Join(ft.sb.TrashDir(), rec.ID))},
	}, nil
}

func (ft *fileTool) restore(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	var rec trashRecord
	switch {
	case c.Args.String("id") != "":
		r, err := ft.readRecord(c.Args.String("id"))
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
		for _, r := range ft.records() { // newest first
			if r.Original == abs {
				rec, found = r, true
				break
			}
		}
		if !found {
			return nil, &tool.Error{Code: tool.CodeNotFound, Field: "path", Message: fmt.Sprintf("nothing from %s is in the trash", p),
				Hint: "call restore without id or path to list the trash"}
		}
	default:
		recs := ft.records()
		if len(recs) > 100 {
			recs = recs[:100]
		}
		if recs == nil {
			recs = []trashRecord{}
		}
		return &tool.Result{Summary: fmt.Sprintf("The trash holds %d item(s); restore one with id", len(recs)),
			Data: map[string]any{"items": recs}}, nil
	}
	payload := filepath.Join(ft.sb.TrashDir(), rec.ID, payloadName)
	if _, err := os.Lstat(payload); err != nil {
		return nil, tool.Errorf(tool.CodeNotFound, "", "trash item %s has no content left", rec.ID)
	}
	var dst string
	var err error
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
	if err != nil {
		return nil, err
	}
	if err := ft.checkWrite("output", rec.Original, dst); err != nil {
		return nil, err
	}
	if exists(dst) {
		return nil, tool.Errorf(tool.CodeExists, "move the existing item away first, or pass output=another path",
			"%s already exists; restore never overwrites", ft.rel(dst))
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, fmt.Errorf("restore: create parents: %w", err)
	}
	if err := ft.moveAny(ctx, payload, dst); err != nil {
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

// Trash moves the workspace file abs into the file tool's trash, where
// `file restore` finds it, and returns its trash id. Other tools that delete
// (email's delete_draft) use it so that every delete can be undone the same
// way.
func Trash(ctx context.Context, sb *sandbox.Sandbox, abs, reason string) (string, error) {
	ft := &fileTool{sb: sb}
	rec, err := ft.toTrash(ctx, abs, reason)
	return rec.ID, err
}
