package ocr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Where files live inside the jail.
const (
	jailIn  = "/tmp/in"
	jailOut = "/tmp/out"
)

// pageTimeout bounds one program run on one page.
const pageTimeout = 3 * time.Minute

var langRE = regexp.MustCompile(`^[a-z][a-z0-9_]*(\+[a-z][a-z0-9_]*)*$`)

// installedLangs lists the traineddata files of Debian's tesseract (the
// jail sees the same /usr).
func installedLangs() []string {
	files, _ := filepath.Glob("/usr/share/tesseract-ocr/*/tessdata/*.traineddata")
	var out []string
	for _, f := range files {
		if l := strings.TrimSuffix(filepath.Base(f), ".traineddata"); l != "osd" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// langPackages names the Debian package of the languages this project uses.
var langPackages = map[string]string{"chi_sim": "tesseract-ocr-chi-sim", "chi_tra": "tesseract-ocr-chi-tra", "eng": "tesseract-ocr-eng"}

// checkLang refuses a malformed list or a language that is not installed.
func checkLang(lang string) error {
	if !langRE.MatchString(lang) {
		return tool.Invalid("lang", fmt.Sprintf("lang %q is not a tesseract language list", lang), "join language codes with +, e.g. chi_sim+eng")
	}
	have := installedLangs()
	for _, l := range strings.Split(lang, "+") {
		if slices.Contains(have, l) {
			continue
		}
		pkg := langPackages[l]
		if pkg == "" {
			pkg = "tesseract-ocr-" + strings.ReplaceAll(l, "_", "-")
		}
		return &tool.Error{Code: tool.CodeUnavailable, Field: "lang",
			Message: fmt.Sprintf("tesseract language %q is not installed (installed: %s)", l, strings.Join(have, ", ")),
			Hint:    "use one of the installed languages, or install the Debian package " + pkg}
	}
	return nil
}

// run runs one program in the jail with binds; it answers a failed run as
// a tool error naming what.
func (o *ocrTool) run(ctx context.Context, what string, argv []string, binds []jail.Bind) (string, error) {
	res, err := o.d.Run(ctx, jail.Spec{
		Argv:      argv,
		Env:       []string{"LANG=C.UTF-8", "OMP_THREAD_LIMIT=1"},
		Binds:     binds,
		Timeout:   pageTimeout,
		StdoutCap: 32 << 20,
		StderrCap: 8 << 10,
	})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if te, ok := tool.AsError(err); ok {
			return "", te // not installed
		}
		return "", tool.Errorf(tool.CodeUnavailable, "see clawbridge doctor", "%s cannot run: %v", what, err)
	}
	if res.TimedOut {
		return "", tool.Errorf(tool.CodeTimeout, "try fewer pages or a smaller image", "%s took longer than %s", what, pageTimeout)
	}
	if res.ExitCode != 0 || res.Signal != "" {
		msg := strings.TrimSpace(res.Stderr)
		if len(msg) > 400 {
			msg = msg[:400]
		}
		return "", tool.Errorf(tool.CodeFailed, "check that the file is a readable image or PDF", "%s failed (exit %d %s): %s", what, res.ExitCode, res.Signal, msg)
	}
	if res.StdoutTruncated {
		return "", tool.Errorf(tool.CodeFailed, "try fewer pages", "%s produced more output than the cap", what)
	}
	return res.Stdout, nil
}

// tesseract recognises the image at host path img and returns its TSV.
// dpiArgs are tesseract's --dpi, if any (see dpiArg).
func (o *ocrTool) tesseract(ctx context.Context, img, lang string, psm int, dpiArgs []string) (string, error) {
	target := jailIn + "/" + filepath.Base(img)
	argv := append([]string{"tesseract", target, "stdout", "-l", lang, "--psm", strconv.Itoa(psm)}, dpiArgs...)
	return o.run(ctx, "tesseract", append(argv, "tsv"),
		[]jail.Bind{{Source: img, Target: target}})
}

// pdfInfo runs pdfinfo over the PDF and returns its page count and, when
// first > 0, the size in points (width, height) of pages first to last.
func (o *ocrTool) pdfInfo(ctx context.Context, pdf string, first, last int) (int, map[int][2]float64, error) {
	target := jailIn + "/" + filepath.Base(pdf)
	argv := []string{"pdfinfo", target}
	if first > 0 {
		argv = []string{"pdfinfo", "-f", strconv.Itoa(first), "-l", strconv.Itoa(last), target}
	}
	out, err := o.run(ctx, "pdfinfo", argv, []jail.Bind{{Source: pdf, Target: target}})
	if err != nil {
		return 0, nil, err
	}
	return parsePDFInfo(out)
}

// parsePDFInfo reads pdfinfo's answer by its structure. pdfinfo first
// prints the document's own strings (Title, Subject, Producer ...)
// verbatim, newlines and all, so a title can hold a line "Pages: 9"; its
// own lines follow, from "Pages:" to the end, and none of them carries a
// string of the file. So the page count is the last line that starts
// with "Pages:", and page sizes ("Page N size: W x H pts") are read only
// after it.
func parsePDFInfo(out string) (int, map[int][2]float64, error) {
	lines := strings.Split(out, "\n")
	count, at := -1, -1
	for i, line := range lines {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "Pages:" && strings.HasPrefix(line, "Pages:") {
			if n, err := strconv.Atoi(f[1]); err == nil && n >= 0 {
				count, at = n, i
			}
		}
	}
	if at < 0 {
		return 0, nil, tool.Errorf(tool.CodeFailed, "check that the file is a valid PDF", "pdfinfo gave no page count")
	}
	sizes := map[int][2]float64{}
	for _, line := range lines[at+1:] {
		f := strings.Fields(line)
		if len(f) < 7 || f[0] != "Page" || f[2] != "size:" || f[4] != "x" || f[6] != "pts" {
			continue
		}
		pg, err1 := strconv.Atoi(f[1])
		w, err2 := strconv.ParseFloat(f[3], 64)
		h, err3 := strconv.ParseFloat(f[5], 64)
		if err1 == nil && err2 == nil && err3 == nil && pg >= 1 && pg <= count {
			sizes[pg] = [2]float64{w, h}
		}
	}
	return count, sizes, nil
}

// renderPage renders one PDF page as an 8-bit grayscale PNG in outDir at
// 300 dpi and returns its host path.
func (o *ocrTool) renderPage(ctx context.Context, pdf, outDir string, page int) (string, error) {
	target := jailIn + "/" + filepath.Base(pdf)
	name := fmt.Sprintf("page-%d", page)
	p := strconv.Itoa(page)
	if _, err := o.run(ctx, "pdftoppm", []string{"pdftoppm", "-r", strconv.Itoa(renderDPI), "-gray", "-png", "-f", p, "-l", p, "-singlefile", target, jailOut + "/" + name},
		[]jail.Bind{{Source: pdf, Target: target}, {Source: outDir, Target: jailOut, Writable: true}}); err != nil {
		return "", err
	}
	img := filepath.Join(outDir, name+".png")
	if _, err := os.Stat(img); err != nil {
		return "", tool.Errorf(tool.CodeFailed, "check the PDF with pdf_tool validate", "pdftoppm rendered no image of page %d", page)
	}
	return img, nil
}

// renderDPI is the resolution PDF pages are rendered at for tesseract.
const renderDPI = 300
