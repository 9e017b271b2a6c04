package file

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestPathEscapes: every action refuses paths that leave the workspace, by
// "..", by an absolute path, or through a symlink inside the workspace that
// points outside; and nothing outside changes.
func TestPathEscapes(t *testing.T) {
	f := newFixture(t, "")
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	tooltest.WriteFile(t, secret, []byte("top secret"))
	writeZip(t, filepath.Join(outside, "out.zip"), []zentry{{name: "x.txt", body: []byte("x")}})
	os.Symlink(outside, f.path("outdir"))                             // a directory link leading out
	os.Symlink(secret, f.path("leak.txt"))                            // a file link leading out
	os.Symlink("../..", f.path("up"))                                 // a relative link leading out
	os.Symlink(filepath.Join(outside, "new.txt"), f.path("dangling")) // leads out to nothing yet
	f.put("inside.txt", "inside")
	writeZip(t, f.path("in.zip"), []zentry{{name: "x.txt", body: []byte("x")}})

	rel, _ := filepath.Rel(f.root, secret) // ../../xxx/secret.txt
	escapes := []string{rel, secret, "outdir/secret.txt", "leak.txt", "up/" + filepath.Base(filepath.Dir(outside)) + "/" + filepath.Base(outside) + "/secret.txt", "../../../../../../etc/passwd", "dangling"}

	for _, p := range escapes {
		calls := []map[string]any{
			{"action": "read", "path": p},
			{"action": "write", "path": p, "text": "pwned", "overwrite": true},
			{"action": "append", "path": p, "text": "pwned"},
			{"action": "stat", "path": p},
			{"action": "hash", "path": p},
			{"action": "grep", "path": p, "query": "secret"},
			{"action": "copy", "path": p, "output": "stolen.txt"},
			{"action": "copy", "path": "inside.txt", "output": p, "overwrite": true},
			{"action": "move", "path": "inside.txt", "output": p, "overwrite": true},
			{"action": "zip", "paths": []any{p}, "output": "stolen.zip"},
			{"action": "zip", "paths": []any{"inside.txt"}, "output": p, "overwrite": true},
			{"action": "unzip", "path": "in.zip", "output": p, "overwrite": true},
			{"action": "mkdir", "path": p},
			{"action": "restore", "path": p},
		}
		for _, args := range calls {
			r, err := f.run(args)
			if (p == "leak.txt" || p == "dangling") && args["action"] == "stat" && err == nil {
				// stat on the link itself says it leads outside, nothing more.
				if m := tooltest.JSONMap(t, r.Data); m["target_outside_workspace"] != true || m["size"] != nil {
					t.Errorf("stat leak.txt: %v", m)
				}
				continue
			}
			te, ok := tool.AsError(err)
			if !ok || (te.Code != tool.CodeDenied && te.Code != tool.CodeNotFound) {
				t.Errorf("%v: want a refusal, got %v / %v", args, err, r)
				continue
			}
			if args["action"] != "restore" && te.Code != tool.CodeDenied {
				t.Errorf("%v: want permission_denied, got %v", args, te)
			}
		}
	}
	// Directory-level actions on directories outside.
	for _, p := range []string{"outdir", outside, "..", "up"} {
		for _, args := range []map[string]any{
			{"action": "list", "path": p},
			{"action": "tree", "path": p},
			{"action": "find", "path": p, "pattern": "*"},
			{"action": "grep", "path": p, "query": "secret"},
			{"action": "zip", "paths": []any{p}},
			{"action": "mkdir", "path": p + "/newdir"},
			{"action": "write", "path": p + "/new.txt", "text": "pwned"},
			{"action": "delete", "path": p + "/secret.txt"},
			{"action": "move", "path": p + "/secret.txt", "output": "stolen.txt"},
		} {
			f.fail(tool.CodeDenied, args)
		}
	}
	f.fail(tool.CodeDenied, map[string]any{"action": "unzip", "path": filepath.Join(outside, "out.zip")})

	if b, _ := os.ReadFile(secret); string(b) != "top secret" {
		t.Fatalf("secret changed: %q", b)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 2 {
		t.Fatalf("outside dir changed: %v", ents)
	}
	if f.content("inside.txt") != "inside" {
		t.Fatal("inside.txt changed")
	}
	noFile(t, filepath.Join(outside, "new.txt"))
	noFile(t, f.path("stolen.txt"))
	noFile(t, f.path("outputs/stolen.zip"))
	noFile(t, f.path("stolen.zip"))

	// Walks do not follow links out: find and grep from the root never
	// report the secret.
	d := f.ok(map[string]any{"action": "grep", "query": "top secret"})
	if len(list(d, "matches")) != 0 {
		t.Fatalf("grep followed a link out: %v", d)
	}
	d = f.ok(map[string]any{"action": "find", "pattern": "secret.txt"})
	if len(list(d, "results")) != 0 {
		t.Fatalf("find followed a link out: %v", d)
	}
	// zip of the root skips the links rather than packing outside files.
	d = f.ok(map[string]any{"action": "zip", "paths": []any{"."}, "output": "all.zip"})
	if sk, _ := d["skipped"].([]any); len(sk) != 4 {
		t.Fatalf("zip root skipped: %v", d)
	}
}

func (f *fixture) run(args map[string]any) (*tool.Result, error) {
	c, err := f.tl.Prepare(args)
	if err != nil {
		return nil, err
	}
	return f.tl.Handle(f.t.Context(), c)
}

func TestSymlinkInsideWorkspace(t *testing.T) {
	f := newFixture(t, "")
	f.put("real/data.txt", "through the link")
	os.Symlink("real", f.path("alias"))
	if d := f.ok(map[string]any{"action": "read", "path": "alias/data.txt"}); d["text"] != "through the link" || d["path"] != "real/data.txt" {
		t.Fatalf("read through inside link: %v", d)
	}
	f.ok(map[string]any{"action": "write", "path": "alias/new.txt", "text": "n"})
	if f.content("real/new.txt") != "n" {
		t.Fatal("write through inside link")
	}
}

func TestUnknownEncoding(t *testing.T) {
	f := newFixture(t, "")
	os.WriteFile(f.path("latin1.txt"), []byte("caf\xe9 cr\xe8me br\xfbl\xe9e"), 0o644)
	te := f.fail(tool.CodeInvalid, map[string]any{"action": "read", "path": "latin1.txt"})
	if te.Hint == "" {
		t.Fatal("no hint")
	}
	if d := f.ok(map[string]any{"action": "read", "path": "latin1.txt", "encoding": "latin1"}); d["text"] != "café crème brûlée" {
		t.Fatalf("latin1: %v", d)
	}
}
