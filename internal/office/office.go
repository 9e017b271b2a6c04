// Package office drives LibreOffice headless to print Office files (.docx,
// .pptx, .xlsx) as PDF. Each call uses its own throw-away LibreOffice profile
// so concurrent conversions do not fight over one user installation.
package office

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoSoffice means LibreOffice is not installed.
var ErrNoSoffice = errors.New("soffice (LibreOffice) is not installed")

// Program is the LibreOffice binary name; Packages name the Debian packages
// that provide it for documents and decks.
const (
	Program        = "soffice"
	WriterPackage  = "libreoffice-writer-nogui"
	ImpressPackage = "libreoffice-impress-nogui"
)

// Available reports whether soffice is on PATH.
func Available() bool {
	_, err := exec.LookPath(Program)
	return err == nil
}

// ConvertToPDF prints every input as outDir/<base>.pdf in one LibreOffice run
// (starting LibreOffice costs seconds, so callers batch) and returns the PDF
// paths in input order. Inputs must have distinct base names.
func ConvertToPDF(ctx context.Context, outDir string, inputs ...string) ([]string, error) {
	bin, err := exec.LookPath(Program)
	if err != nil {
		return nil, ErrNoSoffice
	}
	if len(inputs) == 0 {
		return nil, nil
	}
	profile, err := os.MkdirTemp("", "clawbridge-lo-")
	if err != nil {
		return nil, fmt.Errorf("soffice: profile dir: %w", err)
	}
	defer os.RemoveAll(profile)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("soffice: output dir: %w", err)
	}
	outs := make([]string, len(inputs))
	seen := map[string]bool{}
	for i, in := range inputs {
		base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		if seen[base] {
			return nil, fmt.Errorf("soffice: two inputs named %s", base)
		}
		seen[base] = true
		outs[i] = filepath.Join(outDir, base+".pdf")
		_ = os.Remove(outs[i]) // a stale copy must not pass for a fresh one
	}
	args := []string{"-env:UserInstallation=file://" + profile, "--headless", "--norestore", "--nologo", "--nodefault", "--nolockcheck",
		"--convert-to", "pdf", "--outdir", outDir}
	args = append(args, inputs...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+profile, "SAL_USE_VCLPLUGIN=svp")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Dir = profile
	// LibreOffice forks helpers; kill the whole group on cancel.
	setProcessGroup(cmd)
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("soffice: %w", ctx.Err())
	}
	var missing []string
	for i, o := range outs {
		if fi, err := os.Stat(o); err != nil || fi.Size() == 0 {
			missing = append(missing, filepath.Base(inputs[i]))
		}
	}
	if len(missing) > 0 {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 500 {
			msg = msg[:500]
		}
		if runErr != nil {
			return nil, fmt.Errorf("soffice: converting %s failed: %v: %s", strings.Join(missing, ", "), runErr, msg)
		}
		return nil, fmt.Errorf("soffice: no PDF produced for %s: %s", strings.Join(missing, ", "), msg)
	}
	return outs, nil
}

// ToPDFBytes converts one in-memory document (name gives the extension, for
// example "doc.docx") and returns the PDF bytes.
func ToPDFBytes(ctx context.Context, name string, data []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "clawbridge-conv-")
	if err != nil {
		return nil, fmt.Errorf("soffice: temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, filepath.Base(name))
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, fmt.Errorf("soffice: write input: %w", err)
	}
	outs, err := ConvertToPDF(ctx, filepath.Join(dir, "out"), in)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(outs[0])
}
