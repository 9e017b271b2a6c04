package tool_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/internal/pdftext"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

const marker = "DATADIRMARKER5150"

// depsDataDirInside is a Deps whose data dir lies inside the workspace,
// holding a file with the marker and a PDF.
func depsDataDirInside(t *testing.T) (*tool.Deps, string) {
	t.Helper()
	if err := jail.Check(); err != nil {
		tooltest.Missing(t, "the jail cannot run here: %v", err)
	}
	ws := filepath.Join(t.TempDir(), "workspace")
	d := tooltest.DepsAt(t, ws, filepath.Join(ws, "project", "data"))
	tooltest.WriteFile(t, filepath.Join(d.Config.DataDir, "secret.txt"), []byte(marker+"\n"))
	pdf, err := os.ReadFile("../../fixtures/pdf/chinese.pdf")
	if err != nil {
		t.Fatal(err)
	}
	tooltest.WriteFile(t, filepath.Join(d.Config.DataDir, "secret.pdf"), pdf)
	return d, ws
}

// TestDepsRun_HidesTheDataDir: a program run through Deps with the whole
// workspace bound does not see the data dir inside it, though its caller
// protected nothing; the same run through the bare jail does (what a tool
// that forgot Protected showed).
func TestDepsRun_HidesTheDataDir(t *testing.T) {
	d, ws := depsDataDirInside(t)
	tooltest.NeedProgram(t, "sh")
	spec := jail.Spec{Argv: []string{"sh", "-c", "cat /ws/project/data/secret.txt; ls -a /ws/project/data"},
		Binds: []jail.Bind{{Source: ws, Target: "/ws"}}}
	bare, err := jail.Run(t.Context(), spec)
	if err != nil || !strings.Contains(bare.Stdout, marker) {
		t.Fatalf("control: the bare jail should show the data dir: %+v %v", bare, err)
	}
	res, err := d.Run(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Stdout, marker) || strings.Contains(res.Stdout, "secret") {
		t.Fatalf("the data dir was visible: %q", res.Stdout)
	}
	out, err := d.RunOnFiles(t.Context(), jail.FilesRun{Argv: []string{"cat", jail.FilesIn + "secret.txt"},
		Inputs: []string{filepath.Join(d.Config.DataDir, "secret.txt")}})
	if err == nil || strings.Contains(out, marker) {
		t.Fatalf("RunOnFiles bound a file of the data dir: %q %v", out, err)
	}
}

// TestDepsRun_LibrariesGetTheProtection: pdftext and office run with the
// caller's runner, so through Deps they cannot be pointed at the data dir;
// pdftext through the bare jail could (it protected nothing before).
func TestDepsRun_LibrariesGetTheProtection(t *testing.T) {
	d, _ := depsDataDirInside(t)
	tooltest.NeedProgram(t, "pdftotext")
	secret := filepath.Join(d.Config.DataDir, "secret.pdf")
	if text, err := pdftext.Extract(t.Context(), jail.Run, secret, "secret.pdf", pdftext.Options{}); err != nil || text == "" {
		t.Fatalf("control: the bare jail should read it: %v", err)
	}
	if text, err := pdftext.Extract(t.Context(), d.Run, secret, "secret.pdf", pdftext.Options{}); err == nil || text != "" {
		t.Fatalf("pdftext read a file of the data dir through Deps: %d bytes", len(text))
	}
	if _, err := pdftext.Info(t.Context(), d.Run, secret, "secret.pdf"); err == nil {
		t.Fatal("pdfinfo read a file of the data dir through Deps")
	}
	tooltest.NeedProgram(t, "soffice")
	out := t.TempDir()
	if pdfs, err := office.ConvertToPDF(t.Context(), d.Run, out, filepath.Join(d.Config.DataDir, "secret.txt")); err == nil || !strings.Contains(err.Error(), "protected") {
		t.Fatalf("soffice was given a file of the data dir: %v %v", pdfs, err)
	}
}

// TestDepsRun_MissingProgram: a program missing from PATH is one tool error,
// unavailable, naming it and its package from the table, from every runner.
func TestDepsRun_MissingProgram(t *testing.T) {
	d := tooltest.Deps(t)
	t.Setenv("PATH", t.TempDir())
	check := func(what, prog string, err error) {
		t.Helper()
		te := tooltest.ToolError(t, err, tool.CodeUnavailable)
		if te.Message != prog+" is not installed on the server" || !strings.Contains(te.Hint, "apt-get install poppler-utils") {
			t.Fatalf("%s: %q (hint %q)", what, te.Message, te.Hint)
		}
	}
	_, err := d.Run(t.Context(), jail.Spec{Argv: []string{"pdftotext", "-v"}})
	check("Run", "pdftotext", err)
	_, err = d.RunOnFiles(t.Context(), jail.FilesRun{Argv: []string{"pdftotext", "-v"}})
	check("RunOnFiles", "pdftotext", err)
	_, err = d.RunUnconfined(t.Context(), jail.Spec{Argv: []string{"pdftotext", "-v"}})
	check("RunUnconfined", "pdftotext", err)
	_, err = pdftext.Info(t.Context(), d.Run, "/tmp/x.pdf", "x.pdf")
	check("pdftext", "pdfinfo", err)
	// A program the table does not know is still named, with no package.
	_, err = d.Run(t.Context(), jail.Spec{Argv: []string{"no-such-program"}})
	if te := tooltest.ToolError(t, err, tool.CodeUnavailable); !strings.Contains(te.Message, "no-such-program") {
		t.Fatalf("unknown program: %q", te.Message)
	}
}
