// Package ocr is the `ocr` tool: text from images (png, jpeg, gif, bmp,
// tiff, webp) and from PDF pages through tesseract, as plain text or as
// words, lines or paragraphs with pixel boxes and confidences (parsed from
// tesseract's TSV). PDF pages are rendered with poppler's pdftoppm at 300
// dpi. Every program runs in internal/jail and sees only its input; an image
// is decoded in Go (its size checked first, its EXIF orientation
// applied) and laid over an opaque background where it is transparent;
// with preprocessing, a speckled image is also read through a median and a
// small one also enlarged, the surest reading kept. It does no layout
// analysis of its own, no handwriting and no deskew.
package ocr

import (
	"errors"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: ocr: ...).
type Section struct {
	// Lang is the tesseract language list used when a call names none.
	Lang string `yaml:"lang"`
	// MaxPixels caps an image, or a PDF page rendered at 300 dpi.
	MaxPixels int `yaml:"max_pixels"`
	// MaxPages caps the PDF pages of one call.
	MaxPages int `yaml:"max_pages"`
	// MaxPDFMB caps the size of an input PDF (images: limits.image_mb).
	MaxPDFMB int `yaml:"max_pdf_mb"`
}

// DefaultSection is the section's defaults.
func DefaultSection() Section {
	return Section{Lang: "chi_sim+eng", MaxPixels: 40_000_000, MaxPages: 100, MaxPDFMB: 100}
}

// Validate refuses limits below one and a malformed language list.
func (s *Section) Validate() error {
	var errs []error
	if !langRE.MatchString(s.Lang) {
		errs = append(errs, errors.New("lang must be tesseract languages joined by +, e.g. chi_sim+eng"))
	}
	errs = append(errs, config.AtLeast("max_pixels", s.MaxPixels, 1), config.AtLeast("max_pages", s.MaxPages, 1), config.AtLeast("max_pdf_mb", s.MaxPDFMB, 1))
	return errors.Join(errs...)
}

type ocrTool struct {
	d   *tool.Deps
	cfg Section
}

// New builds the ocr tool from the tools.ocr section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Section]{Name: "ocr", Defaults: DefaultSection, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Section) (tool.Tool, error) {
	o := &ocrTool{d: d, cfg: cfg}
	return tool.Tool{
		Name:  "ocr",
		Title: "OCR",
		Description: "Recognises text in images and scanned PDF pages with tesseract (Chinese and English by default): " +
			"plain text, or words, lines or paragraphs with pixel boxes and confidences.",
		Actions: []tool.Action{{
			Level: tool.Write, OptionalOutput: true, Timeout: tool.Slow, Idempotent: true, Handler: o.recognize,
			Params: []tool.Param{
				{Name: "path", Type: tool.String, Required: true, Description: "Image (png, jpeg, gif, bmp, tiff, webp) or PDF."},
				{Name: "pages", Type: tool.String, Description: "e.g. 1-3,5 (default all)."},
				{Name: "lang", Type: tool.String, Description: "Tesseract languages joined by +: chi_sim, chi_tra, eng (default " + o.cfg.Lang + ")."},
				{Name: "detail", Type: tool.String, Enum: []string{"text", "words", "lines", "paragraphs"}, Default: "text", Description: "Or items with boxes and confidences."},
				{Name: "psm", Type: tool.Integer, Default: 3, Min: tool.Ptr(3), Max: tool.Ptr(13), Description: "Page segmentation: 3 auto, 6 one block, 7 one line, 11 sparse text."},
				{Name: "preprocess", Type: tool.Boolean, Default: true, Description: "Also read the image despeckled and, when small, enlarged; keep the surest reading."},
				tool.OutputParam("Also save the text to this .txt file."),
				tool.Overwrite,
			},
		}},
		Programs: tool.ProgramsOf("tesseract", "pdftoppm", "pdfinfo"),
		Examples: []string{
			"extract the text from this screenshot",
			"read the words in photo.png",
			"recognize text on the scanned page",
			"get the numbers from this invoice image",
			"OCR the scanned PDF",
			"识别图片中的文字",
			"把扫描件里的字提取出来",
			"提取截图上的文本",
			"图片转文字",
		},
	}, nil
}
