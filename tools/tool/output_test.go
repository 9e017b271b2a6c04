package tool_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func plan(t *testing.T, sb *sandbox.Sandbox, args map[string]any, o tool.Output) (*tool.Outputs, error) {
	t.Helper()
	return tool.PlanOutput(sb, tool.Args(args), o)
}

func wantCode(t *testing.T, err error, code, field string) *tool.Error {
	t.Helper()
	te, ok := tool.AsError(err)
	if !ok || te.Code != code || te.Field != field {
		t.Fatalf("want %s on %q, got %#v", code, field, err)
	}
	if te.Hint == "" {
		t.Fatalf("error without a hint: %+v", te)
	}
	return te
}

func TestOutput_DefaultNameFromInput(t *testing.T) {
	sb := tooltest.Deps(t).Sandbox
	out, err := plan(t, sb, nil, tool.Output{Stem: tool.StemOf("/x/y/report.final.pdf") + "_merged", Exts: []string{".pdf"}})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(sb.Root(), "outputs", "report.final_merged.pdf")
	if got := out.Path(".pdf"); got != want {
		t.Fatalf("default path %s, want %s", got, want)
	}
	f, err := out.Write(".pdf", []byte("%PDF-1.7"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != want || f.Size != 8 || f.MIME != "application/pdf" {
		t.Fatalf("file entry %+v", f)
	}
	if b, _ := os.ReadFile(want); string(b) != "%PDF-1.7" {
		t.Fatalf("content %q", b)
	}
}

func TestOutput_UniqueDefaultNames(t *testing.T) {
	sb := tooltest.Deps(t).Sandbox
	o := tool.Output{Stem: "chart", Exts: []string{".png", ".svg"}}
	var got []string
	for range 3 {
		out, err := plan(t, sb, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		// Only the .svg of the first plan is written: the next one must
		// still move both files to a fresh number, so they share a base.
		if _, err := out.Write(".svg", []byte("<svg/>")); err != nil {
			t.Fatal(err)
		}
		got = append(got, sb.Rel(out.Path(".png"))+" "+sb.Rel(out.Path(".svg")))
	}
	want := []string{"outputs/chart.png outputs/chart.svg", "outputs/chart-2.png outputs/chart-2.svg", "outputs/chart-3.png outputs/chart-3.svg"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("names %q, want %q", got, want)
	}
	// With overwrite the default name is reused...
	out, err := plan(t, sb, map[string]any{"overwrite": true}, o)
	if err != nil || sb.Rel(out.Path(".svg")) != "outputs/chart.svg" {
		t.Fatalf("overwrite default: %v %v", out, err)
	}
	// ...but never when it is an input.
	in := filepath.Join(sb.Root(), "outputs", "chart.svg")
	out, err = plan(t, sb, map[string]any{"overwrite": true}, tool.Output{Stem: "chart", Exts: []string{".svg"}, Inputs: []string{in}})
	if err != nil || out.Path(".svg") == in {
		t.Fatalf("default name chose the input: %v %v", out, err)
	}
}

func TestOutput_NamedPathOverwriteRefusedOrAllowed(t *testing.T) {
	sb := tooltest.Deps(t).Sandbox
	o := tool.Output{Stem: "x", Exts: []string{".docx", ".pdf"}}
	out, err := plan(t, sb, map[string]any{"output": "docs/q3"}, o)
	if err != nil {
		t.Fatal(err)
	}
	if sb.Rel(out.Path(".docx")) != "docs/q3.docx" || sb.Rel(out.Path(".pdf")) != "docs/q3.pdf" {
		t.Fatalf("extensions not added: %s %s", out.Path(".docx"), out.Path(".pdf"))
	}
	if _, err := out.Write(".pdf", []byte("old")); err != nil {
		t.Fatal(err)
	}
	// The PDF copy exists: naming the .docx is refused, and nothing is written.
	_, err = plan(t, sb, map[string]any{"output": "docs/q3.DOCX"}, o)
	te := wantCode(t, err, tool.CodeExists, "output")
	if !strings.Contains(te.Message, "docs/q3.pdf") || !strings.Contains(te.Hint, "overwrite") {
		t.Fatalf("message %+v", te)
	}
	if _, err := os.Stat(filepath.Join(sb.Root(), "docs", "q3.docx")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused plan wrote a file")
	}
	out, err = plan(t, sb, map[string]any{"output": "docs/q3.docx", "overwrite": true}, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write(".pdf", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out.Path(".pdf")); string(b) != "new" {
		t.Fatalf("not replaced: %q", b)
	}
	// An input is named as such.
	in := filepath.Join(sb.Root(), "docs", "q3.pdf")
	_, err = plan(t, sb, map[string]any{"target": "docs/q3.pdf"}, tool.Output{Field: "target", Exts: []string{".pdf"}, Inputs: []string{in}})
	if te := wantCode(t, err, tool.CodeExists, "target"); !strings.Contains(te.Message, "input") {
		t.Fatalf("input not named: %+v", te)
	}
	// An extension of the same type stands for the planned one.
	out, err = plan(t, sb, map[string]any{"output": "shot.JPEG"}, tool.Output{Exts: []string{".jpg"}})
	if err != nil || sb.Rel(out.Path(".jpg")) != "shot.JPEG" {
		t.Fatalf("same-type extension: %v %v", out, err)
	}
	// Another extension, or a directory, is a bad argument.
	_, err = plan(t, sb, map[string]any{"output": "docs/q3.txt"}, o)
	wantCode(t, err, tool.CodeInvalid, "output")
	os.MkdirAll(filepath.Join(sb.Root(), "dir.pdf"), 0o755)
	_, err = plan(t, sb, map[string]any{"output": "dir.pdf", "overwrite": true}, tool.Output{Exts: []string{".pdf"}})
	wantCode(t, err, tool.CodeInvalid, "output")
}

func TestOutput_TrashAndOutsideRefused(t *testing.T) {
	d := tooltest.Deps(t)
	sb := d.Sandbox
	os.MkdirAll(sb.TrashDir(), 0o755)
	os.Symlink(sb.TrashDir(), filepath.Join(sb.Root(), "bin"))
	for _, p := range []string{".trash/x.pdf", "bin/x.pdf", "../x.pdf", "/etc/x.pdf", filepath.Join(d.Config.DataDir, "x.pdf")} {
		_, err := plan(t, sb, map[string]any{"output": p, "overwrite": true}, tool.Output{Exts: []string{".pdf"}})
		wantCode(t, err, tool.CodeDenied, "output")
	}
	if ents, _ := os.ReadDir(sb.TrashDir()); len(ents) != 0 {
		t.Fatalf("trash written: %v", ents)
	}
}

func TestOutput_AtomicWrite(t *testing.T) {
	sb := tooltest.Deps(t).Sandbox
	target := filepath.Join(sb.Root(), "r.md")
	os.WriteFile(target, []byte("old"), 0o644)
	out, err := plan(t, sb, map[string]any{"output": "r.md", "overwrite": true}, tool.Output{Exts: []string{".md"}})
	if err != nil {
		t.Fatal(err)
	}
	// A fill that fails half-way leaves the old file and no temp file.
	_, err = out.WriteFrom(".md", func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("boom")
	})
	if err == nil {
		t.Fatal("failed fill reported success")
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Fatalf("torn write: %q", b)
	}
	if ents, _ := os.ReadDir(sb.Root()); len(ents) != 1 {
		t.Fatalf("left behind: %v", ents)
	}
	f, err := out.WriteFrom(".md", func(w io.Writer) error { _, err := io.WriteString(w, "# new\n"); return err })
	if err != nil || f.Size != 6 || !strings.HasPrefix(f.MIME, "text/markdown") {
		t.Fatalf("%+v %v", f, err)
	}
}

// Two calls that planned the same free name: one writes, the other is
// refused instead of silently replacing the first one's file.
func TestOutput_RaceForOneNameNeverReplaces(t *testing.T) {
	sb := tooltest.Deps(t).Sandbox
	o := tool.Output{Stem: "same", Exts: []string{".txt"}}
	var plans []*tool.Outputs
	for range 8 {
		out, err := plan(t, sb, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, out)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(plans))
	for i, out := range plans {
		wg.Go(func() { _, errs[i] = out.Write(".txt", []byte{byte('a' + i)}) })
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
			continue
		}
		wantCode(t, err, tool.CodeExists, "output")
	}
	if won != 1 {
		t.Fatalf("%d writers won, want 1 (%v)", won, errs)
	}
}

func TestOutput_DirAndFilesIn(t *testing.T) {
	sb := tooltest.Deps(t).Sandbox
	dir, err := tool.PlanOutputDir(sb, nil, tool.Output{Field: "output_dir", Stem: "a_split"})
	if err != nil || sb.Rel(dir) != "outputs/a_split" {
		t.Fatalf("%s %v", dir, err)
	}
	out, err := tool.PlanFileIn(sb, nil, "output_dir", dir, "a_1.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write(".pdf", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if dir2, _ := tool.PlanOutputDir(sb, nil, tool.Output{Field: "output_dir", Stem: "a_split"}); sb.Rel(dir2) != "outputs/a_split-2" {
		t.Fatalf("taken default dir reused: %s", dir2)
	}
	_, err = tool.PlanFileIn(sb, nil, "output_dir", dir, "a_1.pdf")
	wantCode(t, err, tool.CodeExists, "output_dir")
	if _, err := tool.PlanFileIn(sb, tool.Args{"overwrite": true}, "output_dir", dir, "a_1.pdf"); err != nil {
		t.Fatal(err)
	}
	_, err = tool.PlanOutputDir(sb, tool.Args{"output_dir": ".trash/x"}, tool.Output{Field: "output_dir", Stem: "s"})
	wantCode(t, err, tool.CodeDenied, "output_dir")
}

func TestArgs_ExactlyOne(t *testing.T) {
	got, err := tool.Args{"path": "a.md"}.ExactlyOne("h", "text", "path", "blocks")
	if err != nil || got != "path" {
		t.Fatalf("%q %v", got, err)
	}
	_, err = tool.Args{}.ExactlyOne("h", "text", "path", "blocks")
	if te := wantCode(t, err, tool.CodeInvalid, "text"); te.Message != "give exactly one of text, path or blocks" {
		t.Fatalf("none: %q", te.Message)
	}
	_, err = tool.Args{"text": "x", "blocks": []any{}}.ExactlyOne("h", "text", "path", "blocks")
	if te := wantCode(t, err, tool.CodeInvalid, "text"); te.Message != "give exactly one of text, path or blocks (got text and blocks)" {
		t.Fatalf("two: %q", te.Message)
	}
}
