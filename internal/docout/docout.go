// Package docout holds what the document tools (doc_generator,
// ppt_generator, contract_generator, resume_builder) share: file names from
// titles and a PDF copy printed through LibreOffice. Where files go is
// tool.PlanOutput's, as for every tool.
package docout

import (
	"context"
	"strings"
	"unicode"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Slug makes a file-name-safe base from a title, keeping CJK letters.
func Slug(s, def string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() > 60 {
			break
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return def
	}
	return out
}

// CheckSoffice returns the missing-program error when LibreOffice is absent;
// callers check before writing anything so a failed call changes nothing.
func CheckSoffice() error {
	if !office.Available() {
		return tool.MissingProgram(office.Program)
	}
	return nil
}

// PDFCopy prints an Office document (data, of the type named by ext)
// through LibreOffice, run with run (the tool's Deps.Run).
func PDFCopy(ctx context.Context, run jail.Runner, ext string, data []byte) ([]byte, error) {
	pdf, err := office.ToPDFBytes(ctx, run, "document"+ext, data)
	if te, ok := tool.AsError(err); ok {
		return nil, te // not installed
	}
	if err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "the document itself was written; try again or convert it with format_converter", "PDF conversion failed: %v", err)
	}
	return pdf, nil
}

// Files lists produced files as workspace-relative paths for Data.
func Files(sb *sandbox.Sandbox, files []tool.File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = sb.Rel(f.Path)
	}
	return out
}

// SaveOffice writes an Office document for the call's `output` and
// `overwrite` arguments (default name base+ext, see tool.PlanOutput) and,
// when pdf is set, a PDF copy beside it printed by LibreOffice, run with
// run (the tool's Deps.Run). Both targets are checked before anything is
// written. It returns the document's path and the files produced.
func SaveOffice(ctx context.Context, sb *sandbox.Sandbox, c *tool.Call, data []byte, base, ext string, pdf bool, run jail.Runner) (string, []tool.File, error) {
	exts := []string{ext}
	if pdf {
		exts = append(exts, ".pdf")
	}
	out, err := tool.PlanOutput(sb, c.Args, tool.Output{Stem: base, Exts: exts})
	if err != nil {
		return "", nil, err
	}
	f, err := out.Write(ext, data)
	if err != nil {
		return "", nil, err
	}
	files := []tool.File{f}
	if pdf {
		c.Progress(1, 2, "printing a PDF copy with LibreOffice")
		data, err := PDFCopy(ctx, run, ext, data)
		if err != nil {
			return "", nil, err
		}
		pf, err := out.Write(".pdf", data)
		if err != nil {
			return "", nil, err
		}
		files = append(files, pf)
	}
	return out.Path(ext), files, nil
}
