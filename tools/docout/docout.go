// Package docout holds what the document tools (doc_generator,
// ppt_generator, contract_generator, resume_builder) share: choosing an
// output path in the workspace without clobbering files, writing atomically,
// and printing a PDF copy through LibreOffice.
package docout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"clawbridge/internal/atomicfile"
	"clawbridge/internal/office"
	"clawbridge/internal/sandbox"
	"clawbridge/tools/tool"
)

// MIME types of the formats the document tools write.
var mimes = map[string]string{
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".pdf":  "application/pdf",
	".md":   "text/markdown; charset=utf-8",
	".html": "text/html; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".json": "application/json",
}

// MIME returns the MIME type for a file name.
func MIME(name string) string {
	if m, ok := mimes[strings.ToLower(filepath.Ext(name))]; ok {
		return m
	}
	return "application/octet-stream"
}

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

// Target resolves where to write a file with extension ext. An explicit
// output must carry that extension (or none, then it is added) and must not
// exist unless overwrite is set. Without output, outputs/<base><ext> is used,
// made unique with a time stamp when taken.
func Target(sb *sandbox.Sandbox, output, base, ext string, overwrite bool) (string, error) {
	if output != "" {
		e := strings.ToLower(filepath.Ext(output))
		if e == "" {
			output += ext
		} else if e != ext {
			return "", tool.Invalid("output", fmt.Sprintf("output %q must end in %s", output, ext), "give a file name ending in "+ext+" or leave output empty")
		}
		p, err := sb.Output(output, "")
		if err != nil {
			return "", tool.PathError("output", output, err)
		}
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return "", tool.Invalid("output", fmt.Sprintf("output %q is a directory", output), "give a file name")
			}
			if !overwrite {
				return "", &tool.Error{Code: tool.CodeExists, Field: "output", Message: fmt.Sprintf("%s already exists", sb.Rel(p)), Hint: "choose another output name or set overwrite to true"}
			}
		}
		return p, nil
	}
	p, err := sb.Output("", base+ext)
	if err != nil {
		return "", tool.PathError("output", base+ext, err)
	}
	if _, err := os.Stat(p); err == nil {
		p, err = sb.Output("", base+"-"+sandbox.Stamp()+ext)
		if err != nil {
			return "", tool.PathError("output", base+ext, err)
		}
	}
	return p, nil
}

// Sibling returns path with its extension replaced, checked like Target.
func Sibling(sb *sandbox.Sandbox, path, ext string, overwrite bool) (string, error) {
	p := strings.TrimSuffix(path, filepath.Ext(path)) + ext
	if _, err := os.Stat(p); err == nil && !overwrite {
		return "", &tool.Error{Code: tool.CodeExists, Field: "output", Message: fmt.Sprintf("%s already exists", sb.Rel(p)), Hint: "choose another output name or set overwrite to true"}
	}
	return p, nil
}

// Save writes data atomically and describes the file.
func Save(path string, data []byte) (tool.File, error) {
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return tool.File{}, fmt.Errorf("save %s: %w", path, err)
	}
	return tool.File{Path: path, MIME: MIME(path), Size: int64(len(data))}, nil
}

// CheckSoffice returns the missing-program error when LibreOffice is absent;
// callers check before writing anything so a failed call changes nothing.
func CheckSoffice(debianPackage string) error {
	if !office.Available() {
		return tool.Missing(office.Program, debianPackage)
	}
	return nil
}

// PDFCopy prints an Office file through LibreOffice and saves the PDF at
// pdfPath atomically.
func PDFCopy(ctx context.Context, src, pdfPath, debianPackage string) (tool.File, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return tool.File{}, fmt.Errorf("pdf copy: read %s: %w", src, err)
	}
	pdf, err := office.ToPDFBytes(ctx, "document"+filepath.Ext(src), data)
	if errors.Is(err, office.ErrNoSoffice) {
		return tool.File{}, tool.Missing(office.Program, debianPackage)
	}
	if err != nil {
		return tool.File{}, tool.Errorf(tool.CodeFailed, "the document itself was written; try again or convert it with format_converter", "PDF conversion failed: %v", err)
	}
	return Save(pdfPath, pdf)
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
// `overwrite` arguments (default name base+ext) and, when pdf is set, a PDF
// copy beside it printed by LibreOffice (debianPackage names what to install
// when it is missing). Both targets are checked before anything is written.
// It returns the document's path and the files produced.
func SaveOffice(ctx context.Context, sb *sandbox.Sandbox, c *tool.Call, data []byte, base, ext string, pdf bool, debianPackage string) (string, []tool.File, error) {
	overwrite := c.Args.Bool("overwrite", false)
	out, err := Target(sb, c.Args.String("output"), base, ext, overwrite)
	if err != nil {
		return "", nil, err
	}
	var pdfPath string
	if pdf {
		if pdfPath, err = Sibling(sb, out, ".pdf", overwrite); err != nil {
			return "", nil, err
		}
	}
	f, err := Save(out, data)
	if err != nil {
		return "", nil, err
	}
	files := []tool.File{f}
	if pdf {
		c.Progress(1, 2, "printing a PDF copy with LibreOffice")
		pf, err := PDFCopy(ctx, out, pdfPath, debianPackage)
		if err != nil {
			return "", nil, err
		}
		files = append(files, pf)
	}
	return out, files, nil
}
