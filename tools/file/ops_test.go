package file

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/tools/tool"
)

func TestMkdirMoveCopy(t *testing.T) {
	f := newFixture(t, "")
	d := f.ok(map[string]any{"action": "mkdir", "path": "a/b/c"})
	if d["created"] != true {
		t.Fatalf("mkdir: %v", d)
	}
	if d := f.ok(map[string]any{"action": "mkdir", "path": "a/b/c"}); d["created"] != false {
		t.Fatalf("mkdir again: %v", d)
	}
	f.put("file.txt", "x")
	f.fail(tool.CodeExists, map[string]any{"action": "mkdir", "path": "file.txt"})

	// Rename, then move into an existing directory.
	f.put("m.txt", "move me")
	f.ok(map[string]any{"action": "move", "path": "m.txt", "output": "n.txt"})
	noFile(t, f.path("m.txt"))
	d = f.ok(map[string]any{"action": "move", "path": "n.txt", "output": "a/b"})
	if d["to"] != "a/b/n.txt" || f.content("a/b/n.txt") != "move me" {
		t.Fatalf("move into dir: %v", d)
	}
	// An existing destination needs overwrite; the replaced file is trashed.
	f.put("other.txt", "other")
	f.fail(tool.CodeExists, map[string]any{"action": "move", "path": "other.txt", "output": "a/b/n.txt"})
	if f.content("a/b/n.txt") != "move me" || f.content("other.txt") != "other" {
		t.Fatal("refused move changed files")
	}
	d = f.ok(map[string]any{"action": "move", "path": "other.txt", "output": "a/b/n.txt", "overwrite": true})
	if f.content("a/b/n.txt") != "other" || d["replaced_trash_id"] == nil {
		t.Fatalf("move overwrite: %v", d)
	}
	f.fail(tool.CodeInvalid, map[string]any{"action": "move", "path": "a", "output": "a/b/inside"})
	f.fail(tool.CodeDenied, map[string]any{"action": "move", "path": ".", "output": "x"})
	f.fail(tool.CodeNotFound, map[string]any{"action": "move", "path": "ghost", "output": "x"})

	// Copy a file and a tree.
	f.ok(map[string]any{"action": "copy", "path": "a/b/n.txt", "output": "copy.txt"})
	if f.content("copy.txt") != "other" || f.content("a/b/n.txt") != "other" {
		t.Fatal("copy file")
	}
	f.put("a/b/c/deep.txt", "deep")
	if err := os.Symlink("/etc/passwd", f.path("a/link")); err != nil {
		t.Fatal(err)
	}
	d = f.ok(map[string]any{"action": "copy", "path": "a", "output": "a2"})
	if f.content("a2/b/c/deep.txt") != "deep" || f.content("a2/b/n.txt") != "other" || d["files"] != float64(2) {
		t.Fatalf("copy tree: %v", d)
	}
	if sk, _ := d["skipped"].([]any); len(sk) != 1 || sk[0] != "link" {
		t.Fatalf("symlink should be skipped: %v", d)
	}
	noFile(t, f.path("a2/link"))
	// No staging directory is left behind.
	ents, _ := os.ReadDir(f.root)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".copy-") {
			t.Fatalf("staging left: %s", e.Name())
		}
	}
	f.fail(tool.CodeInvalid, map[string]any{"action": "copy", "path": "a", "output": "a/b"})
	f.fail(tool.CodeExists, map[string]any{"action": "copy", "path": "a/b/n.txt", "output": "copy.txt"})
	f.put("v2.txt", "v2")
	d = f.ok(map[string]any{"action": "copy", "path": "v2.txt", "output": "copy.txt", "overwrite": true})
	if f.content("copy.txt") != "v2" || d["replaced_trash_id"] == nil {
		t.Fatalf("copy overwrite: %v", d)
	}
	f.fail(tool.CodeDenied, map[string]any{"action": "copy", "path": "v2.txt", "output": ".trash/v2.txt"})
}

func TestHash(t *testing.T) {
	f := newFixture(t, "")
	f.put("h.txt", "hello\n")
	tests := map[string]string{
		"":       "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
		"sha256": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
		"sha1":   "f572d396fae9206628714fb2ce00f72e94f2258f",
		"md5":    "b1946ac92492d2347c6235b4d2611184",
	}
	for alg, want := range tests {
		args := map[string]any{"action": "hash", "path": "h.txt"}
		if alg != "" {
			args["algorithm"] = alg
		}
		if d := f.ok(args); d["hash"] != want || d["size"] != float64(6) {
			t.Errorf("%s: %v", alg, d)
		}
	}
	f.fail(tool.CodeInvalid, map[string]any{"action": "hash", "path": "h.txt", "algorithm": "crc32"})
	os.Mkdir(f.path("d"), 0o755)
	f.fail(tool.CodeInvalid, map[string]any{"action": "hash", "path": "d"})
}

func TestDeleteRestore(t *testing.T) {
	f := newFixture(t, "")
	f.put("docs/report.txt", "quarterly numbers")
	d := f.ok(map[string]any{"action": "delete", "path": "docs/report.txt"})
	id := d["trash_id"].(string)
	noFile(t, f.path("docs/report.txt"))
	rec, err := os.ReadFile(filepath.Join(f.d.Sandbox.TrashDir(), id, trash.RecordName))
	if err != nil || !strings.Contains(string(rec), f.path("docs/report.txt")) {
		t.Fatalf("record: %s %v", rec, err)
	}
	// Listing the trash shows it.
	l := f.ok(map[string]any{"action": "restore"})
	if items := list(l, "items"); len(items) != 1 || items[0]["id"] != id || items[0]["rel"] != "docs/report.txt" {
		t.Fatalf("trash list: %v", l)
	}
	// Restore by id.
	f.ok(map[string]any{"action": "restore", "id": id})
	if f.content("docs/report.txt") != "quarterly numbers" {
		t.Fatal("restore by id")
	}
	noFile(t, filepath.Join(f.d.Sandbox.TrashDir(), id))
	f.fail(tool.CodeNotFound, map[string]any{"action": "restore", "id": id})

	// A directory, restored by original path; restore refuses to overwrite.
	f.put("proj/a.txt", "A")
	f.put("proj/sub/b.txt", "B")
	f.ok(map[string]any{"action": "delete", "path": "proj"})
	noFile(t, f.path("proj"))
	f.put("proj/new.txt", "squatter")
	te := f.fail(tool.CodeExists, map[string]any{"action": "restore", "path": "proj"})
	if !strings.Contains(te.Message, "never overwrites") {
		t.Fatalf("message: %v", te)
	}
	if f.content("proj/new.txt") != "squatter" {
		t.Fatal("refused restore changed the squatter")
	}
	f.ok(map[string]any{"action": "restore", "path": "proj", "output": "proj-restored"})
	if f.content("proj-restored/sub/b.txt") != "B" || f.content("proj-restored/a.txt") != "A" {
		t.Fatal("restore dir to output")
	}

	// Deleting a symlink that points outside moves the link, not the target.
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("keep"), 0o644)
	os.Symlink(secret, f.path("leak"))
	f.ok(map[string]any{"action": "delete", "path": "leak"})
	noFile(t, f.path("leak"))
	if b, _ := os.ReadFile(secret); string(b) != "keep" {
		t.Fatal("target of a deleted link changed")
	}

	// Refusals.
	f.fail(tool.CodeDenied, map[string]any{"action": "delete", "path": "."})
	f.fail(tool.CodeDenied, map[string]any{"action": "delete", "path": ".trash"})
	f.fail(tool.CodeNotFound, map[string]any{"action": "delete", "path": "ghost.txt"})
	f.fail(tool.CodeNotFound, map[string]any{"action": "restore", "id": "../../etc"}) // names no item; never joined to a path
	f.fail(tool.CodeNotFound, map[string]any{"action": "restore", "path": "never-deleted.txt"})
}

func TestTrashMustBeRealDir(t *testing.T) {
	f := newFixture(t, "")
	outside := t.TempDir()
	if err := os.Symlink(outside, f.d.Sandbox.TrashDir()); err != nil {
		t.Fatal(err)
	}
	f.put("x.txt", "x")
	f.fail(tool.CodeDenied, map[string]any{"action": "delete", "path": "x.txt"})
	if f.content("x.txt") != "x" {
		t.Fatal("file moved")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("something went outside: %v", ents)
	}
}

// TestCrossDeviceTrash: a second workspace root on another filesystem
// (tmpfs) deletes into the trash of the default root by copy-and-remove, and
// restores back the same way.
func TestCrossDeviceTrash(t *testing.T) {
	f := newFixture(t, "")
	shm, err := os.MkdirTemp("/dev/shm", "clawbridge-file-test-")
	if err != nil {
		t.Skip("no /dev/shm:", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	var a, b syscall.Stat_t
	if syscall.Stat(shm, &a) != nil || syscall.Stat(f.root, &b) != nil || a.Dev == b.Dev {
		t.Skip("/dev/shm is on the same filesystem as the workspace")
	}
	if _, err := f.d.Sandbox.ApplyClientRoots([]string{f.root, shm}, true); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(shm, "dir", "far.txt")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("far away"), 0o600)
	os.Symlink("far.txt", filepath.Join(shm, "dir", "link"))
	d := f.ok(map[string]any{"action": "delete", "path": filepath.Join(shm, "dir")})
	noFile(t, filepath.Join(shm, "dir"))
	id := d["trash_id"].(string)
	if b, err := os.ReadFile(filepath.Join(f.d.Sandbox.TrashDir(), id, trash.PayloadName, "far.txt")); err != nil || string(b) != "far away" {
		t.Fatalf("trash copy: %q %v", b, err)
	}
	f.ok(map[string]any{"action": "restore", "id": id})
	if b, err := os.ReadFile(p); err != nil || string(b) != "far away" {
		t.Fatalf("restored: %q %v", b, err)
	}
	if l, err := os.Readlink(filepath.Join(shm, "dir", "link")); err != nil || l != "far.txt" {
		t.Fatalf("symlink not kept: %q %v", l, err)
	}
	// Moving across the roots works too.
	f.ok(map[string]any{"action": "move", "path": p, "output": "near.txt"})
	if f.content("near.txt") != "far away" {
		t.Fatal("cross-device move")
	}
	noFile(t, p)
}
