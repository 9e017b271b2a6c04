// Package trash is the workspace trash that every delete goes through, so
// that every delete can be undone the same way (`file restore`): the file
// tool's delete, its overwrites, email's delete_draft.
//
// Bookkeeping lives in the trash directory itself, one small JSON record per
// item (<trash>/<id>/record.json beside <trash>/<id>/data), not in the
// SQLite store. Why: the record then travels with the item (a workspace
// moved, backed up or shared keeps a working trash, and the store never holds
// records for files in a workspace it no longer sees); and one record per
// item, written atomically before the item moves, needs no shared index, so
// several clawbridge processes on the same workspace (a desktop app and an
// editor each spawn one over stdio) cannot lose each other's updates.
package trash

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

	"github.com/clawbridge/clawbridge/internal/atomicfile"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Record is one item in the trash.
type Record struct {
	ID        string    `json:"id"`
	Original  string    `json:"original"` // absolute path when deleted
	Rel       string    `json:"rel"`      // workspace-relative, for display
	Type      string    `json:"type"`
	Size      int64     `json:"size,omitempty"`
	DeletedAt time.Time `json:"deleted_at"`
	Reason    string    `json:"reason"`
}

var idPattern = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{9}-[0-9a-f]{8}$`)

// The two entries of an item's directory.
const (
	RecordName  = "record.json"
	PayloadName = "data"
)

func newID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return sandbox.Stamp() + "-" + hex.EncodeToString(b[:])
}

// Payload is where item id's content lies.
func Payload(sb *sandbox.Sandbox, id string) string {
	return filepath.Join(sb.TrashDir(), id, PayloadName)
}

func root(sb *sandbox.Sandbox) (string, error) {
	dir := sb.TrashDir()
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
func newRecord(sb *sandbox.Sandbox, abs, reason string) (Record, string, error) {
	dir, err := root(sb)
	if err != nil {
		return Record{}, "", err
	}
	info, err := os.Lstat(abs)
	if err != nil {
		return Record{}, "", err
	}
	rec := Record{ID: newID(), Original: abs, Rel: filepath.ToSlash(sb.Rel(abs)), Type: TypeOf(info.Mode()),
		DeletedAt: time.Now().UTC(), Reason: reason}
	if info.Mode().IsRegular() {
		rec.Size = info.Size()
	}
	dir = filepath.Join(dir, rec.ID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return Record{}, "", fmt.Errorf("trash: %w", err)
	}
	raw, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		os.RemoveAll(dir)
		return Record{}, "", err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, RecordName), raw, 0o600); err != nil {
		os.RemoveAll(dir)
		return Record{}, "", fmt.Errorf("trash: record: %w", err)
	}
	return rec, dir, nil
}

// Put moves the workspace item abs into the trash.
func Put(ctx context.Context, sb *sandbox.Sandbox, abs, reason string) (Record, error) {
	rec, dir, err := newRecord(sb, abs, reason)
	if err != nil {
		return rec, err
	}
	if err := Move(ctx, sb, abs, filepath.Join(dir, PayloadName)); err != nil {
		os.RemoveAll(dir)
		return rec, fmt.Errorf("trash: move %s: %w", rec.Rel, err)
	}
	return rec, nil
}

// Snapshot keeps a copy of a file that is about to be replaced: a hard link
// when possible (instant; the atomic rename then swaps the name while the
// trash keeps the old inode), else a full copy.
func Snapshot(ctx context.Context, sb *sandbox.Sandbox, abs, reason string) (Record, error) {
	rec, dir, err := newRecord(sb, abs, reason)
	if err != nil {
		return rec, err
	}
	dst := filepath.Join(dir, PayloadName)
	if err := os.Link(abs, dst); err == nil {
		return rec, nil
	}
	info, err := os.Stat(abs)
	if err == nil {
		err = CopyFile(ctx, abs, dst, info.Mode().Perm())
	}
	if err != nil {
		os.RemoveAll(dir)
		return rec, fmt.Errorf("trash: copy %s: %w", rec.Rel, err)
	}
	return rec, nil
}

// Read is item id's record; an id that names no item is not_found on the
// field `id`, as an unknown id is in every tool (one not shaped like a
// trash id names none, and is never joined to a path).
func Read(sb *sandbox.Sandbox, id string) (Record, error) {
	var rec Record
	if !idPattern.MatchString(id) {
		return rec, tool.NotFoundf("id", "trash ids look like 20261129T201500.123456789-0a1b2c3d; call restore without id or path to list the trash", "no trash item %q", id)
	}
	raw, err := os.ReadFile(filepath.Join(sb.TrashDir(), id, RecordName))
	if errors.Is(err, fs.ErrNotExist) {
		return rec, tool.NotFoundf("id", "call restore without id or path to list the trash", "no trash item %q", id)
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

// List lists the trash, newest first; unreadable entries are skipped.
func List(sb *sandbox.Sandbox) []Record {
	des, err := os.ReadDir(sb.TrashDir())
	if err != nil {
		return nil
	}
	var out []Record
	for _, de := range des {
		if !de.IsDir() || !idPattern.MatchString(de.Name()) {
			continue
		}
		if rec, err := Read(sb, de.Name()); err == nil {
			out = append(out, rec)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out
}
