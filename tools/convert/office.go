package convert

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// officePackage names the Debian package of the LibreOffice component that
// converts a source format.
func officePackage(ext string) string {
	switch strings.ToLower(ext) {
	case ".pptx", ".ppt", ".odp":
		return "libreoffice-impress-nogui"
	case ".xlsx", ".xls", ".ods":
		return "libreoffice-calc-nogui"
	}
	return "libreoffice-writer-nogui"
}

// officeToPDF prints an office document through LibreOffice headless
// (internal/office: one throw-away profile per call, process group killed
// on cancellation).
func (cv *converter) officeToPDF(ctx context.Context, _ *tool.Call, src *source, _ string) ([]byte, map[string]any, error) {
	ext := "." + src.kind
	if src.name != "" {
		ext = filepath.Ext(src.name)
	}
	pkgName := officePackage(ext)
	if !office.Available() {
		return nil, nil, tool.MissingProgram(office.Program)
	}
	pdf, err := office.ToPDFBytes(ctx, cv.d.Run, "input"+strings.ToLower(ext), src.data)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if te, ok := tool.AsError(err); ok {
			return nil, nil, te // not installed
		}
		return nil, nil, tool.Errorf(tool.CodeFailed, "check that the file opens in an office program; LibreOffice needs "+pkgName+" for "+ext+" files",
			"LibreOffice could not convert %s to PDF: %v", src.name, err)
	}
	return pdf, map[string]any{"engine": "libreoffice"}, nil
}
