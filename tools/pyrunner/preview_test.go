package pyrunner

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func previewOf(t *testing.T, r *runner, args map[string]any) (string, *tool.Call, error) {
	t.Helper()
	args["action"] = "run"
	tl := r.tool()
	c, err := tl.Prepare(args)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tl.Action("run")
	p, err := a.Preview(t.Context(), c)
	return p, c, err
}

// TestPreview_ShowsTheCodeNotThePath: the confirmation of a script given by
// path shows its code (the first 200 lines of a long one, with the count
// of the rest), its size and the sha256 of all of it, and the other
// arguments; the run then executes the bytes that were shown even after
// the file changed.
func TestPreview_ShowsTheCodeNotThePath(t *testing.T) {
	r, d := newRunner(t, "")
	var src strings.Builder
	for i := 1; i <= 250; i++ {
		fmt.Fprintf(&src, "x%d = %d\n", i, i)
	}
	src.WriteString("print(x250)\n")
	path := filepath.Join(d.Sandbox.Root(), "long.py")
	tooltest.WriteFile(t, path, []byte(src.String()))
	p, c, err := previewOf(t, r, map[string]any{"path": "long.py", "args": []any{"--fast"}})
	if err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte(src.String())))
	for _, want := range []string{"python script long.py (" + fmt.Sprint(src.Len()) + " bytes, sha256 " + sum + ")", `"args":["--fast"]`,
		"\nx1 = 1\n", "\nx200 = 200\n", "51 more lines not shown"} {
		if !strings.Contains(p, want) {
			t.Fatalf("preview lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "x201 = 201") {
		t.Fatalf("preview shows past line 200:\n%s", p)
	}
	tooltest.WriteFile(t, path, []byte("print('changed')\n"))
	tl := r.tool()
	res, err := tl.Handle(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if out := res.Data.(*runOutput).Stdout; out != "250\n" {
		t.Fatalf("ran %q, not the previewed script", out)
	}
}

// TestPreview_FIFOPathRefusedAtOnce: a FIFO given as the script is refused
// when the confirmation is prepared; nothing waits for a writer.
func TestPreview_FIFOPathRefusedAtOnce(t *testing.T) {
	r, d := newRunner(t, "")
	if err := syscall.Mkfifo(filepath.Join(d.Sandbox.Root(), "pipe.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := previewOf(t, r, map[string]any{"path": "pipe.py"})
	tooltest.ToolError(t, err, tool.CodeInvalid)
}

// TestPreview_InputFileChangedAfterConfirmationDoesNotRun: the preview
// names each `files` input with its size and sha256; an input rewritten
// between the confirmation and the run stops the run before the code
// starts, and the unchanged input runs.
func TestPreview_InputFileChangedAfterConfirmationDoesNotRun(t *testing.T) {
	r, d := newRunner(t, "")
	data := filepath.Join(d.Sandbox.Root(), "helper.py")
	tooltest.WriteFile(t, data, []byte("print('helper as shown')\n"))
	args := map[string]any{"code": "exec(open('helper.py').read())", "files": []any{"helper.py"}}
	p, c, err := previewOf(t, r, args)
	if err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte("print('helper as shown')\n")))
	if !strings.Contains(p, "file helper.py (25 bytes, sha256 "+sum+")") {
		t.Fatalf("preview:\n%s", p)
	}
	tooltest.WriteFile(t, data, []byte("print('swapped in')\n"))
	tl := r.tool()
	_, err = tl.Handle(t.Context(), c)
	if te := tooltest.ToolError(t, err, tool.CodeConfirm); !strings.Contains(te.Message, "helper.py changed") {
		t.Fatal(te)
	}
	tooltest.WriteFile(t, data, []byte("print('helper as shown')\n"))
	_, c, _ = previewOf(t, r, map[string]any{"code": "exec(open('helper.py').read())", "files": []any{"helper.py"}})
	res, err := tl.Handle(t.Context(), c)
	if err != nil || res.Data.(*runOutput).Stdout != "helper as shown\n" {
		t.Fatalf("%v %v", res, err)
	}
}
