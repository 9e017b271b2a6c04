// Package office drives LibreOffice headless to print Office files (.docx,
// .pptx, .xlsx) as PDF. LibreOffice runs in internal/jail: no network, and
// it sees only its input files (read-only) and the output directory, so a
// document that links external content (a linked image or section, an
// INCLUDETEXT field, an <img src>) cannot fetch from the network or read
// other files. Each call uses its own throw-away profile in the jail's
// private /tmp, so concurrent conversions do not fight over one user
// installation.
package office

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
)

// Program is the LibreOffice binary name (tools/tool's table names its
// Debian packages).
const Program = "soffice"

// Available reports whether soffice is on PATH.
func Available() bool {
	_, err := exec.LookPath(Program)
	return err == nil
}

// Where the input and output live inside the jail.
const (
	jailIn  = "/tmp/in"
	jailOut = "/tmp/out"
)

// convertTimeout bounds one LibreOffice run; the caller's context usually
// ends it sooner.
const convertTimeout = 10 * time.Minute

// ConvertToPDF prints every input as outDir/<base>.pdf in one LibreOffice run
// (starting LibreOffice costs seconds, so callers batch) and returns the PDF
// paths in input order. Inputs must have distinct base names. run is the
// caller's runner (a tool's Deps.Run, which hides the data dir and answers
// a missing soffice); so it is for every function here.
func ConvertToPDF(ctx context.Context, run jail.Runner, outDir string, inputs ...string) ([]string, error) {
	return convertFiles(ctx, run, outDir, Target{Ext: ".pdf", Filter: "pdf"}, inputs)
}

// Target is what one LibreOffice run writes: the output extension and the
// --convert-to argument, and the import filter that opens the inputs (""
// lets LibreOffice choose by content).
type Target struct {
	Ext      string // ".pdf", ".docx", ...
	Filter   string // --convert-to, e.g. pdf or docx:MS Word 2007 XML (one argv word)
	InFilter string // --infilter, e.g. writer_pdf_import
}

// PDFToDOCX and PDFToODT open a PDF in Writer with LibreOffice's PDF import
// (writer_pdf_import: each run of text becomes a positioned text box,
// pictures and drawings stay, so pages look as in the PDF) and save it as
// Word or ODF text.
var (
	PDFToDOCX = Target{Ext: ".docx", Filter: `docx:MS Word 2007 XML`, InFilter: "writer_pdf_import"}
	PDFToODT  = Target{Ext: ".odt", Filter: "odt:writer8", InFilter: "writer_pdf_import"}
)

// convertFiles converts every input to outDir/<base><to.Ext> in one run and
// returns the outputs in input order.
func convertFiles(ctx context.Context, run jail.Runner, outDir string, to Target, inputs []string) ([]string, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	outs := make([]string, len(inputs))
	for i, in := range inputs {
		outs[i] = filepath.Join(outDir, strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))+to.Ext)
		_ = os.Remove(outs[i]) // a stale copy must not pass for a fresh one
	}
	out, runErr, err := convert(ctx, run, outDir, to.Filter, to.InFilter, inputs)
	if err != nil {
		return nil, err
	}
	var missing []string
	for i, o := range outs {
		if fi, err := os.Stat(o); err != nil || fi.Size() == 0 {
			missing = append(missing, filepath.Base(inputs[i]))
		}
	}
	if len(missing) > 0 {
		msg := strings.TrimSpace(out)
		if len(msg) > 500 {
			msg = msg[:500]
		}
		if runErr != nil {
			return nil, fmt.Errorf("soffice: converting %s failed: %v: %s", strings.Join(missing, ", "), runErr, msg)
		}
		return nil, fmt.Errorf("soffice: no %s produced for %s: %s", strings.TrimPrefix(to.Ext, "."), strings.Join(missing, ", "), msg)
	}
	return outs, nil
}

// csvAllSheets is LibreOffice's CSV filter with comma, double quote, UTF-8,
// raw values rather than values as shown, and every sheet to its own file.
const csvAllSheets = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"

// SheetsToCSV exports every sheet of every input workbook as CSV in one
// LibreOffice run, outDir/<base>-<sheet>.csv, and returns for each input
// its files by sheet name. A workbook LibreOffice cannot read has none.
func SheetsToCSV(ctx context.Context, run jail.Runner, outDir string, inputs ...string) ([]map[string]string, error) {
	if _, _, err := convert(ctx, run, outDir, csvAllSheets, "", inputs); err != nil {
		return nil, err
	}
	out := make([]map[string]string, len(inputs))
	for i, in := range inputs {
		base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		out[i] = map[string]string{}
		files, _ := filepath.Glob(filepath.Join(outDir, globEscape(base)+"-*.csv"))
		for _, f := range files {
			out[i][strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), base+"-"), ".csv")] = f
		}
	}
	return out, nil
}

func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}

// convert converts the inputs with one LibreOffice run in the jail, opening them
// with infilter when it is not empty, and returns its output and how it
// exited (exitErr); err is a run that could not be made. The caller checks
// for the files it expects.
func convert(ctx context.Context, run jail.Runner, outDir, convertTo, infilter string, inputs []string) (out string, exitErr, err error) {
	if len(inputs) == 0 {
		return "", nil, nil
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", nil, fmt.Errorf("soffice: output dir: %w", err)
	}
	absOut, err := filepath.Abs(outDir)
	if err != nil {
		return "", nil, fmt.Errorf("soffice: output dir: %w", err)
	}
	// In the jail: inputs at /tmp/in/<name>, output at /tmp/out.
	binds := []jail.Bind{{Source: absOut, Target: jailOut, Writable: true}}
	seen := map[string]bool{}
	args := []string{Program, "-env:UserInstallation=file:///tmp/profile", "--headless", "--norestore", "--nologo", "--nodefault", "--nolockcheck",
		"--convert-to", convertTo, "--outdir", jailOut}
	if infilter != "" {
		args = append(args, "--infilter="+infilter)
	}
	for i, in := range inputs {
		base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		if seen[base] {
			return "", nil, fmt.Errorf("soffice: two inputs named %s", base)
		}
		seen[base] = true
		abs, err := filepath.Abs(in)
		if err != nil {
			return "", nil, fmt.Errorf("soffice: %w", err)
		}
		target := jailIn + "/" + strconv.Itoa(i) + "/" + filepath.Base(in)
		binds = append(binds, jail.Bind{Source: abs, Target: target})
		args = append(args, target)
	}
	for _, b := range binds[1:] {
		if _, err := os.Stat(b.Source); err != nil {
			return "", nil, fmt.Errorf("soffice: input %s: %w", filepath.Base(b.Source), err)
		}
	}
	res, runErr := run(ctx, jail.Spec{
		Argv:    args,
		Env:     []string{"SAL_USE_VCLPLUGIN=svp", "LANG=C.UTF-8"},
		Binds:   binds,
		Timeout: convertTimeout,
	})
	if ctx.Err() != nil {
		return "", nil, fmt.Errorf("soffice: %w", ctx.Err())
	}
	if runErr != nil {
		return "", nil, fmt.Errorf("soffice: %w", runErr)
	}
	out = res.Stdout + res.Stderr
	switch {
	case res.Signal != "":
		exitErr = fmt.Errorf("killed by %s", res.Signal)
	case res.ExitCode != 0:
		exitErr = fmt.Errorf("exit code %d", res.ExitCode)
	}
	return out, exitErr, nil
}

// ToPDFBytes converts one in-memory document (name gives the extension, for
// example "doc.docx") and returns the PDF bytes.
func ToPDFBytes(ctx context.Context, run jail.Runner, name string, data []byte) ([]byte, error) {
	return ConvertBytes(ctx, run, name, data, Target{Ext: ".pdf", Filter: "pdf"})
}

// ConvertBytes converts one in-memory document (name gives the extension)
// to the target and returns the output bytes.
func ConvertBytes(ctx context.Context, run jail.Runner, name string, data []byte, to Target) ([]byte, error) {
	dir, err := os.MkdirTemp("", "clawbridge-conv-")
	if err != nil {
		return nil, fmt.Errorf("soffice: temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, filepath.Base(name))
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, fmt.Errorf("soffice: write input: %w", err)
	}
	outs, err := convertFiles(ctx, run, filepath.Join(dir, "out"), to, []string{in})
	if err != nil {
		return nil, err
	}
	return os.ReadFile(outs[0])
}
