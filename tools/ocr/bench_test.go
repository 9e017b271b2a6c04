package ocr

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// BenchmarkOCR_CER reports the character error rate (whitespace removed;
// see cer) of the default settings on (a) images rendered here from known
// Chinese and English text at several pixel sizes, clean and with 2%
// salt-and-pepper noise, with and without preprocessing, and (b) public
// test images with ground truth (testdata/SOURCES.md), beside the CER of
// the plain tesseract CLI on the same file. `make bench` runs it once.
func BenchmarkOCR_CER(b *testing.B) {
	tl, d := newTool(b, "")
	font := tooltest.CJKFont(b)
	run := func(b *testing.B, path, lang, want string, pre bool) float64 {
		b.Helper()
		res := tooltest.OK(b, tl, map[string]any{"path": path, "lang": lang, "preprocess": pre})
		return cer(want, pageOf(b, res, 0).Text)
	}
	for _, set := range []struct {
		name, lang string
		lines      []string
	}{
		{"zh", "chi_sim+eng", zhLines},
		{"en", "chi_sim+eng", enLines},
	} {
		for _, size := range []float64{12, 16, 24, 40} {
			for _, noise := range []float64{0, 0.02} {
				name := fmt.Sprintf("rendered/%s/%gpx/noise%g", set.name, size, noise)
				path := strings.ReplaceAll(name, "/", "_") + ".png"
				tooltest.WritePNG(b, filepath.Join(d.Sandbox.Root(), path), renderText(b, font, set.lines, size, noise, 7))
				for _, pre := range []bool{true, false} {
					b.Run(fmt.Sprintf("%s/preprocess=%v", name, pre), func(b *testing.B) {
						var e float64
						for b.Loop() {
							e = run(b, path, set.lang, strings.Join(set.lines, "\n"), pre)
						}
						b.ReportMetric(e, "CER")
					})
				}
			}
		}
	}
	// Public images: the tool's CER beside the plain tesseract CLI's.
	for _, img := range publicImages {
		want, _ := os.ReadFile(filepath.Join("testdata", img.truth))
		b.Run("public/"+img.file+"/"+img.lang, func(b *testing.B) {
			var e float64
			for b.Loop() {
				e, _ = ourCER(b, tl, d.Sandbox.Root(), img, string(want))
			}
			b.ReportMetric(e, "CER")
			b.ReportMetric(cliCER(b, img, string(want)), "CLI-CER")
		})
	}
}
