package tool

import (
	"fmt"
	"path/filepath"
)

// packages names the Debian package(s) providing each external program the
// tools run, by the program's base name. It is the one table: the tools'
// Programs (which `clawbridge doctor` checks) are built from it with
// ProgramsOf, and a run through Deps that finds its program missing names
// the package from it.
var packages = map[string]string{
	// Programs the tests run (tools/tooltest.NeedProgram names them too).
	"Xvfb":      "xvfb",
	"patch":     "patch",
	"pdfimages": "poppler-utils",
	"qpdf":      "qpdf",
	"cat":       "coreutils", "echo": "coreutils", "env": "coreutils", "false": "coreutils", "ls": "coreutils",
	"printf": "coreutils", "pwd": "coreutils", "seq": "coreutils", "sleep": "coreutils", "tr": "coreutils",

	"black":        "black",
	"bwrap":        "bubblewrap",
	"chromium":     "chromium",
	"clang-format": "clang-format",
	"espeak-ng":    "espeak-ng",
	"ffmpeg":       "ffmpeg",
	"ffprobe":      "ffmpeg",
	"flac":         "flac",
	"node":         "nodejs",
	"pdfinfo":      "poppler-utils",
	"pdftoppm":     "poppler-utils",
	"pdftotext":    "poppler-utils",
	"prlimit":      "util-linux",
	"python3":      "python3",
	"sh":           "dash",
	"shfmt":        "shfmt",
	// soffice prints documents, decks and workbooks: one component each.
	"soffice":   "libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui",
	"tesseract": "tesseract-ocr",
	"zbarimg":   "zbar-tools",
}

// Package is the Debian package(s) providing program (a name or a path),
// "" when the table does not know it.
func Package(program string) string {
	return packages[filepath.Base(program)]
}

// ProgramsOf is a tool's Programs: each program (a name, or the path the
// tool runs) with its package from the table. A program missing from the
// table is a bug in the tool, caught by the registry's tests.
func ProgramsOf(programs ...string) map[string]string {
	out := make(map[string]string, len(programs))
	for _, p := range programs {
		out[p] = Package(p)
	}
	return out
}

// MissingProgram is the error for an external program that is not
// installed, naming its package from the table.
func MissingProgram(program string) *Error {
	if pkg := Package(program); pkg != "" {
		return Missing(program, pkg)
	}
	return &Error{
		Code:    CodeUnavailable,
		Message: fmt.Sprintf("%s is not installed on the server", program),
		Hint:    "install the package that provides it (clawbridge doctor lists every missing program)",
	}
}
