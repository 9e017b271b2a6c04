package file

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// refuseAll runs each call, wants a denial, and proves that dir did not
// change.
func refuseAll(t *testing.T, f *fixture, dir string, calls []map[string]any) {
	t.Helper()
	before := snapshot(t, dir)
	for _, args := range calls {
		r, err := f.run(args)
		te, ok := tool.AsError(err)
		if !ok || te.Code != tool.CodeDenied {
			t.Errorf("%v: want a denial, got %v / %v", args, err, r)
			continue
		}
		if te.Hint == "" {
			t.Errorf("%v: denial without a hint: %+v", args, te)
		}
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("%s changed:\nbefore:\n%s\nafter:\n%s", dir, before, after)
	}
}

// TestProtectedWrite_TrashIsNoTarget: no action writes into the trash —
// not by naming it, not through an archive entry, not through a symlink
// that leads into it, not by copying a directory called .trash into a
// root. Only delete and restore change it.
func TestProtectedWrite_TrashIsNoTarget(t *testing.T) {
	f := newFixture(t, "")
	f.put("inside.txt", "inside")
	f.put("gone.txt", "gone")
	f.ok(map[string]any{"action": "delete", "path": "gone.txt"})
	trash := f.d.Sandbox.TrashDir()
	if _, err := os.Stat(trash); err != nil {
		t.Fatal(err)
	}
	os.Symlink(trash, f.path("totrash"))
	os.Symlink(filepath.Join(trash, "planted.txt"), f.path("dangling-trash"))
	f.put("sub/.trash/evil.txt", "evil")
	writeZip(t, f.path("entries.zip"), []zentry{{name: "ok.txt", body: []byte("ok")}, {name: ".trash/x.txt", body: []byte("x")}})
	writeZip(t, f.path("deep.zip"), []zentry{{name: "a/../.trash/y.txt", body: []byte("y")}})
	writeZip(t, f.path("vialink.zip"), []zentry{{name: "totrash/z.txt", body: []byte("z")}})
	writeZip(t, f.path("plain.zip"), []zentry{{name: "p.txt", body: []byte("p")}})

	refuseAll(t, f, trash, []map[string]any{
		{"action": "write", "path": ".trash/x.txt", "text": "x"},
		{"action": "write", "path": "totrash/x.txt", "text": "x"},
		{"action": "write", "path": "dangling-trash", "text": "x"},
		{"action": "write", "path": f.path(".trash/abs.txt"), "text": "x"},
		{"action": "append", "path": ".trash/x.txt", "text": "x"},
		{"action": "mkdir", "path": ".trash/new"},
		{"action": "mkdir", "path": "totrash/new"},
		{"action": "copy", "path": "inside.txt", "output": ".trash/c.txt"},
		{"action": "copy", "path": "inside.txt", "output": "totrash"},
		{"action": "copy", "path": "sub/.trash", "output": "."},
		{"action": "move", "path": "inside.txt", "output": ".trash/m.txt"},
		{"action": "move", "path": "inside.txt", "output": "totrash"},
		{"action": "move", "path": "sub/.trash", "output": ".", "overwrite": true},
		{"action": "zip", "paths": []any{"inside.txt"}, "output": ".trash/z.zip"},
		{"action": "zip", "paths": []any{"inside.txt"}, "output": "totrash/z.zip"},
		{"action": "unzip", "path": "entries.zip", "output": "."},
		{"action": "unzip", "path": "entries.zip", "output": ".", "overwrite": true},
		{"action": "unzip", "path": "vialink.zip", "output": "."},
		{"action": "unzip", "path": "plain.zip", "output": ".trash/u"},
		{"action": "unzip", "path": "plain.zip", "output": "totrash"},
		{"action": "restore", "path": "gone.txt", "output": ".trash/r.txt"},
		{"action": "restore", "path": "gone.txt", "output": "totrash"},
	})
	// deep.zip's entry is refused by the name check already; either way
	// nothing lands in the trash.
	if _, err := f.run(map[string]any{"action": "unzip", "path": "deep.zip", "output": "."}); err == nil {
		t.Error("unzip of a/../.trash/y.txt succeeded")
	}
	noFile(t, filepath.Join(trash, "y.txt"))
	noFile(t, f.path("ok.txt")) // all or nothing: the good entry was not written either
	// The trash itself still works.
	f.ok(map[string]any{"action": "restore", "path": "gone.txt"})
	if f.content("gone.txt") != "gone" {
		t.Fatal("restore did not bring gone.txt back")
	}
}

// TestProtectedWrite_DataDirInWorkspace: a data dir configured inside the
// workspace is neither read nor written by any action, directly, through
// a symlink, or through an archive entry.
func TestProtectedWrite_DataDirInWorkspace(t *testing.T) {
	f := newFixture(t, "")
	state := f.path("state")
	f.put("state/store.db", "tokens")
	if err := f.d.Sandbox.Protect(state); err != nil {
		t.Fatal(err)
	}
	f.put("inside.txt", "inside")
	os.Symlink(state, f.path("st"))
	writeZip(t, f.path("into.zip"), []zentry{{name: "state/x.txt", body: []byte("x")}})
	writeZip(t, f.path("vialink.zip"), []zentry{{name: "st/x.txt", body: []byte("x")}})
	refuseAll(t, f, state, []map[string]any{
		{"action": "read", "path": "state/store.db"},
		{"action": "read", "path": "st/store.db"},
		{"action": "hash", "path": "state/store.db"},
		{"action": "list", "path": "state"},
		{"action": "grep", "path": "state", "query": "tokens"},
		{"action": "copy", "path": "state/store.db", "output": "stolen.db"},
		{"action": "zip", "paths": []any{"state"}, "output": "stolen.zip"},
		{"action": "write", "path": "state/store.db", "text": "x", "overwrite": true},
		{"action": "write", "path": "st/new.txt", "text": "x"},
		{"action": "append", "path": "state/store.db", "text": "x"},
		{"action": "mkdir", "path": "state/new"},
		{"action": "delete", "path": "state"},
		{"action": "delete", "path": "state/store.db"},
		{"action": "move", "path": "state", "output": "moved"},
		{"action": "move", "path": "inside.txt", "output": "state/i.txt"},
		{"action": "copy", "path": "inside.txt", "output": "st"},
		{"action": "unzip", "path": "into.zip", "output": "."},
		{"action": "unzip", "path": "vialink.zip", "output": "."},
	})
	if f.content("state/store.db") != "tokens" {
		t.Fatal("store changed")
	}
}
