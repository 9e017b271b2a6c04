package ocr

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// publicImage is a public test image with its ground truth
// (testdata/SOURCES.md), the language it is read in, and the CER the tool
// reaches on it (a floor a change may not fall below).
type publicImage struct {
	file, truth, lang string
	maxCER            float64
}

var publicImages = []publicImage{
	{"phototest.tif", "phototest.txt", "eng", 0.02},
	{"eurotext.tif", "eurotext.txt", "eng", 0.06},
	{"tesseractjs-chinese.png", "tesseractjs-chinese.txt", "chi_tra", 0},                    // large text: not upscaled, kept in colour
	{"tesseractjs-cosmic.png", "tesseractjs-cosmic.txt", "eng", 0},                          // transparent background
	{"tesseractjs-simple-90.jpg", "tesseractjs-simple.txt", "eng", 0},                       // EXIF orientation 6
	{"tesseractjs-simple-180.jpg", "tesseractjs-simple.txt", "eng", 0},                      // EXIF orientation 3
	{"tesseractjs-simple-270.jpg", "tesseractjs-simple.txt", "eng", 0},                      // EXIF orientation 8
	{"pytesseract-test_la.png", "pytesseract-test_la.txt", "eng", 0},                        // gray + alpha
	{"rapidocr-black_font_color_transparent.png", "rapidocr-zhongguoren.txt", "chi_sim", 0}, // black on transparent, 300 dpi
	{"rapidocr-white_font_color_transparent.png", "rapidocr-zhongguoren.txt", "chi_sim", 0}, // white on transparent
	{"rapidocr-img_exif_orientation.jpg", "rapidocr-zhongguoren.txt", "chi_sim", 0},         // EXIF orientation 3
}

// cliCER is the CER of the plain tesseract CLI (the host's, outside the
// tool) on the same file.
func cliCER(t testing.TB, img publicImage, want string) float64 {
	t.Helper()
	out, err := exec.Command(tooltest.NeedProgram(t, "tesseract"), filepath.Join("testdata", img.file), "stdout", "-l", img.lang).Output()
	if err != nil {
		t.Fatalf("tesseract %s: %v", img.file, err)
	}
	return cer(want, string(out))
}

// ourCER runs the tool with default settings on a public image copied to
// the workspace.
func ourCER(t testing.TB, tl tool.Tool, root string, img publicImage, want string) (float64, string) {
	t.Helper()
	raw := tooltest.ReadFile(t, filepath.Join("testdata", img.file))
	tooltest.WriteFile(t, filepath.Join(root, img.file), raw)
	res, err := tooltest.Run(t, tl, map[string]any{"path": img.file, "lang": img.lang})
	if err != nil {
		t.Fatalf("%s: %v", img.file, err)
	}
	text := pageOf(t, res, 0).Text
	return cer(want, text), text
}

// TestOCR_PublicImagesNotWorseThanCLI: on public images with ground truth
// (text on transparent backgrounds, EXIF-rotated photos, large Chinese
// text) the tool's CER is within its floor and never more than 2 points
// above the plain tesseract CLI's on the same file.
func TestOCR_PublicImagesNotWorseThanCLI(t *testing.T) {
	tl, d := newTool(t, "")
	for _, img := range publicImages {
		t.Run(img.file, func(t *testing.T) {
			want := tooltest.ReadFile(t, filepath.Join("testdata", img.truth))
			ours, text := ourCER(t, tl, d.Sandbox.Root(), img, string(want))
			cli := cliCER(t, img, string(want))
			if ours > img.maxCER || ours > cli+0.02 {
				t.Errorf("CER %.3f (floor %.2f), CLI %.3f: read %q", ours, img.maxCER, cli, text)
			}
		})
	}
}

// TestOCR_Resolution: the density the public files declare (as file(1)
// and their headers give it: TIFF XResolution, PNG pHYs, JPEG JFIF in
// dots per centimetre) is read in dots per inch; cut short, none.
func TestOCR_Resolution(t *testing.T) {
	for file, want := range map[string]float64{
		"phototest.tif": 200, "eurotext.tif": 300,
		"rapidocr-black_font_color_transparent.png": 300, "tesseractjs-chinese.png": 96,
		"tesseractjs-simple-90.jpg": 94, // 37 per cm
	} {
		raw := tooltest.ReadFile(t, filepath.Join("testdata", file))
		if got := math.Round(resolution(raw)); got != want {
			t.Errorf("%s: %v dpi, want %v", file, got, want)
		}
		for _, n := range []int{0, 3, 9, 17} { // all three headers are longer
			if got := resolution(raw[:n]); got != 0 {
				t.Errorf("%s cut to %d bytes: %v dpi", file, n, got)
			}
		}
	}
}

func FuzzResolution(f *testing.F) {
	for _, file := range []string{"phototest.tif", "tesseractjs-chinese.png", "tesseractjs-simple-90.jpg"} {
		raw, _ := os.ReadFile(filepath.Join("testdata", file))
		f.Add(raw[:min(len(raw), 512)])
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if d := resolution(raw); d < 0 || math.IsNaN(d) {
			t.Fatalf("%v dpi", d)
		}
	})
}

// TestOCR_NoisyNotWorseThanCLI: small text with 2% salt-and-pepper noise,
// where a median filter harms one image (12 px English) and helps another
// (24 px Chinese): the tool is never more than 2 points of CER above the
// plain tesseract CLI on the same PNG.
func TestOCR_NoisyNotWorseThanCLI(t *testing.T) {
	tl, d := newTool(t, "")
	font := tooltest.CJKFont(t)
	for _, c := range []struct {
		name  string
		lines []string
		size  float64
	}{{"en12", enLines, 12}, {"zh16", zhLines, 16}, {"zh24", zhLines, 24}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(d.Sandbox.Root(), c.name+".png")
			tooltest.WritePNG(t, path, renderText(t, font, c.lines, c.size, 0.02, 7))
			want := strings.Join(c.lines, "\n")
			res := tooltest.OK(t, tl, map[string]any{"path": c.name + ".png"})
			out, err := exec.Command(tooltest.NeedProgram(t, "tesseract"), path, "stdout", "-l", "chi_sim+eng").Output()
			if err != nil {
				t.Fatal(err)
			}
			got := pageOf(t, res, 0).Text
			if ours, cli := cer(want, got), cer(want, string(out)); ours > cli+0.02 {
				t.Errorf("CER %.3f, CLI %.3f: read %q", ours, cli, got)
			}
		})
	}
}
