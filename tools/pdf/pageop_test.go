package pdf

import (
	"bytes"
	"maps"
	"os"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// TestPageOp_EveryWritingActionSameSkeleton: every action that reads one
// PDF and writes one (the page-operation skeleton in pageop.go) names its
// default output the same way, takes a fresh name when that one is taken,
// refuses to replace a named output without overwrite and leaves it as it
// was, refuses a page selection outside the file with the pages field and
// writes nothing, and asks for the password of an encrypted input.
func TestPageOp_EveryWritingActionSameSkeleton(t *testing.T) {
	e := newEnv(t)
	plain := e.put("c.pdf", fixture(t, "chinese.pdf"))
	form := e.put("form.pdf", formPDF(t))
	e.run(map[string]any{"action": "encrypt", "path": plain, "owner_password": "owner", "user_password": "user", "output": "enc.pdf"})

	cases := []struct {
		action, path, suffix string
		args                 map[string]any
		pages                bool // takes a page selection
		outPages             int  // pages of the output
	}{
		{"extract_pages", plain, "_pages", map[string]any{"pages": "1"}, true, 1},
		{"remove_pages", plain, "_removed", map[string]any{"pages": "1"}, true, 2},
		{"rotate", plain, "_rotated", map[string]any{"rotation": 90}, true, 3},
		{"watermark", plain, "_watermark", map[string]any{"text": "DRAFT"}, true, 3},
		{"stamp", plain, "_stamp", map[string]any{"text": "PAID"}, true, 3},
		{"optimize", plain, "_optimized", nil, false, 3},
		{"encrypt", plain, "_encrypted", map[string]any{"owner_password": "o"}, false, 3},
		{"decrypt", "enc.pdf", "_decrypted", map[string]any{"password": "owner"}, false, 3},
		{"set_permissions", "enc.pdf", "_permissions", map[string]any{"password": "owner", "user_password": "user", "permissions": "none"}, false, 3},
		{"fill_form", form, "_filled", map[string]any{"fields": map[string]any{"name": "Alice"}}, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.action, func(t *testing.T) {
			e := e.with(t)
			args := func(more map[string]any) map[string]any {
				a := map[string]any{"action": tc.action, "path": tc.path}
				maps.Copy(a, tc.args)
				maps.Copy(a, more)
				return a
			}
			pw := "" // the password that opens the output
			if tc.action == "set_permissions" {
				pw = "user"
			}
			base := stem(tc.path) + tc.suffix

			res := e.run(args(nil))
			want := "outputs/" + base + ".pdf"
			if got := res.Data.(map[string]any)["output"]; got != want {
				t.Fatalf("output %v, want %s", got, want)
			}
			e.wrote(res, want)
			checkPDF(t, e.abs(want), tc.outPages, pw)

			// The default name is taken: a fresh one, the first file kept.
			first, _ := os.ReadFile(e.abs(want))
			res = e.run(args(nil))
			e.wrote(res, "outputs/"+base+"-2.pdf")
			if now, _ := os.ReadFile(e.abs(want)); !bytes.Equal(now, first) {
				t.Fatal("a second call changed the first output")
			}

			// A named output that exists is refused and left alone.
			taken := e.put("taken.pdf", []byte("keep me"))
			te := e.fail(args(map[string]any{"output": taken}), tool.CodeExists)
			if te.Hint == "" {
				t.Fatalf("refusal without a hint: %+v", te)
			}
			if b, _ := os.ReadFile(e.abs(taken)); string(b) != "keep me" {
				t.Fatalf("refused call changed %s: %q", taken, b)
			}

			if tc.pages {
				te := e.fail(args(map[string]any{"pages": "7", "output": "nothing.pdf"}), tool.CodeInvalid)
				if te.Field != "pages" {
					t.Fatalf("bad selection blamed on %q, want pages", te.Field)
				}
				if _, err := os.Stat(e.abs("nothing.pdf")); !os.IsNotExist(err) {
					t.Fatalf("a refused call wrote its output (%v)", err)
				}
			}
		})
	}

	// An encrypted input without its password is refused on the password
	// field, before anything is planned or written.
	for _, args := range []map[string]any{
		{"action": "extract_pages", "pages": "1"},
		{"action": "rotate", "rotation": 90},
		{"action": "watermark", "text": "X"},
		{"action": "optimize"},
		{"action": "fill_form", "fields": map[string]any{"name": "A"}},
	} {
		action := args["action"]
		args["path"], args["output"] = "enc.pdf", "locked.pdf"
		te := e.fail(args, tool.CodeDenied)
		if te.Field != "password" {
			t.Fatalf("%s: encrypted input blamed on %q, want password", action, te.Field)
		}
		if _, err := os.Stat(e.abs("locked.pdf")); !os.IsNotExist(err) {
			t.Fatalf("%s: a refused call wrote its output", action)
		}
	}
}
