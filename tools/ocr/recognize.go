package ocr

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/gif" // decoders for the formats the tool reads
	_ "image/jpeg"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Page is what was recognised on one image or PDF page.
type Page struct {
	Page       int     `json:"page"`
	Width      int     `json:"width"` // pixels of the image (turned upright by its EXIF orientation), or of the page at 300 dpi
	Height     int     `json:"height"`
	Text       string  `json:"text"`
	Confidence float64 `json:"confidence"` // mean word confidence, 0-100
	Words      []Item  `json:"words,omitempty"`
	Lines      []Item  `json:"lines,omitempty"`
	Paragraphs []Item  `json:"paragraphs,omitempty"`
}

type request struct {
	lang, detail string
	psm          int
	preprocess   bool
}

func (o *ocrTool) recognize(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	path := c.Args.String("path")
	abs, err := o.d.Sandbox.Resolve(path)
	if err != nil {
		return nil, tool.PathError("path", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, tool.NotFoundf("path", "give a file in the workspace (relative to its root)", "%s does not exist", path)
	}
	if fi.IsDir() {
		return nil, tool.Invalid("path", path+" is a directory", "give an image or PDF file")
	}
	req := request{lang: c.Args.StringOr("lang", o.cfg.Lang), detail: c.Args.StringOr("detail", "text"), psm: c.Args.Int("psm", 3), preprocess: c.Args.Bool("preprocess", true)}
	if err := checkLang(req.lang); err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("tesseract"); err != nil {
		return nil, tool.MissingProgram("tesseract") // before rendering any page
	}
	tmp, err := os.MkdirTemp("", "clawbridge-ocr-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	var pages []Page
	count := 0
	if isPDF(abs) {
		pages, count, err = o.pdf(ctx, c, abs, fi.Size(), tmp, req)
	} else {
		if c.Args.Has("pages") {
			return nil, tool.Invalid("pages", "pages applies to PDF files only", "leave pages out for an image")
		}
		var p Page
		p, err = o.image(ctx, path, fi.Size(), tmp, req)
		pages, count = []Page{p}, 1
	}
	if err != nil {
		return nil, err
	}
	var all []string
	chars := 0
	for _, p := range pages {
		all = append(all, p.Text)
		chars += len([]rune(p.Text))
	}
	text := strings.Join(all, "\n\f")
	data := map[string]any{"path": o.d.Sandbox.Rel(abs), "lang": req.lang, "chars": chars, "pages": pages}
	if len(pages) == 1 {
		data["text"] = text
	} else {
		data["page_count"] = count
	}
	summary := fmt.Sprintf("recognised %s in %s", wording.Count(chars, "character", "characters"), o.d.Sandbox.Rel(abs))
	if len(pages) > 1 || count > 1 {
		summary += " (" + wording.Count(len(pages), "page", "pages") + ")"
	}
	if chars == 0 {
		summary += "; no text found (try another psm, lang, or a sharper image)"
	}
	res := &tool.Result{Summary: summary, Data: data}
	if c.Args.Has("output") {
		out, err := tool.PlanOutput(o.d.Sandbox, c.Args, tool.Output{Stem: tool.StemOf(abs) + "_ocr", Exts: []string{".txt"}, Inputs: []string{abs}})
		if err != nil {
			return nil, err
		}
		f, err := out.Write(".txt", []byte(text+"\n"))
		if err != nil {
			return nil, err
		}
		data["output"] = o.d.Sandbox.Rel(f.Path)
		res.Files = append(res.Files, f)
	}
	return res, nil
}

func isPDF(abs string) bool {
	f, err := os.Open(abs)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := f.Read(head)
	return bytes.Contains(head[:n], []byte("%PDF-"))
}

// image decodes the image in Go (size and pixels checked before), applies
// the preprocessing and recognises it.
func (o *ocrTool) image(ctx context.Context, path string, size int64, tmp string, req request) (Page, error) {
	if limit := o.d.Config.Limits.ImageMB; size > int64(limit)<<20 {
		return Page{}, tool.Errorf(tool.CodeTooLarge, "use a smaller image or raise limits.image_mb", "image %s is %d MB, above the %d MB limit (limits.image_mb)", path, size>>20, limit)
	}
	raw, err := o.d.LoadImage(o.d.Sandbox.Root(), path)
	if err != nil {
		return Page{}, tool.PathError("path", path, err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return Page{}, tool.Invalid("path", fmt.Sprintf("%s is not an image this tool reads: %v", path, err), "give a png, jpeg, gif, bmp, tiff or webp image, or a PDF")
	}
	if px := cfg.Width * cfg.Height; px > o.cfg.MaxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return Page{}, tool.Errorf(tool.CodeTooLarge, "crop or shrink the image, or raise tools.ocr.max_pixels",
			"image %s is %d×%d = %d pixels, above the %d pixel limit (tools.ocr.max_pixels)", path, cfg.Width, cfg.Height, px, o.cfg.MaxPixels)
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return Page{}, tool.Invalid("path", fmt.Sprintf("%s cannot be decoded: %v", path, err), "give a valid image")
	}
	dpi := resolution(raw)
	var best []word
	bestMass, b := -1.0, img.Bounds()
	for _, v := range versions(upright(img, raw), req.preprocess) {
		b = v.Bounds()
		scales := []int{1}
		if f := upscaleFactor(b, o.cfg.MaxPixels); req.preprocess && f > 1 {
			scales = append(scales, f)
		}
		for _, f := range scales {
			in := v
			if f > 1 {
				in = upscale(v, f)
			}
			words, err := o.recognizeImage(ctx, in, tmp, req, f, dpi)
			if err != nil {
				return Page{}, err
			}
			if m := confidenceMass(words); m > bestMass {
				best, bestMass = words, m
			}
		}
	}
	return page(1, b.Dx(), b.Dy(), best, req.detail), nil
}

// recognizeImage writes img (the input, of declared resolution dpi,
// enlarged by scale) as a PNG and returns the words tesseract reads in
// it, boxes divided by scale.
func (o *ocrTool) recognizeImage(ctx context.Context, img image.Image, tmp string, req request, scale int, dpi float64) ([]word, error) {
	in := filepath.Join(tmp, "input.png")
	f, err := os.Create(in)
	if err != nil {
		return nil, err
	}
	err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(f, img)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	tsv, err := o.tesseract(ctx, in, req.lang, req.psm, dpiArg(dpi, scale))
	if err != nil {
		return nil, err
	}
	return parseTSV(tsv, float64(scale)), nil
}

// pdf renders and recognises the chosen pages one by one, reporting
// progress per page; counts and sizes are checked before any rendering.
// Nothing is sized by the page count the file declares: pages are picked
// up to max_pages, and sizes asked of pdfinfo per run of pages picked.
func (o *ocrTool) pdf(ctx context.Context, c *tool.Call, abs string, size int64, tmp string, req request) ([]Page, int, error) {
	if size > int64(o.cfg.MaxPDFMB)<<20 {
		return nil, 0, tool.Errorf(tool.CodeTooLarge, "split the PDF with pdf_tool, or raise tools.ocr.max_pdf_mb", "the PDF is %d MB, above the %d MB limit (tools.ocr.max_pdf_mb)", size>>20, o.cfg.MaxPDFMB)
	}
	n, _, err := o.pdfInfo(ctx, abs, 0, 0)
	if err != nil {
		return nil, 0, err
	}
	want, err := parsePages(c.Args.String("pages"), n, o.cfg.MaxPages)
	if err != nil {
		return nil, 0, err
	}
	dims := make([][2]int, len(want))
	for i := 0; i < len(want); {
		j := i + 1
		for j < len(want) && want[j] == want[j-1]+1 {
			j++
		}
		_, sizes, err := o.pdfInfo(ctx, abs, want[i], want[j-1])
		if err != nil {
			return nil, 0, err
		}
		for k := i; k < j; k++ {
			if dims[k], err = o.pagePixels(want[k], sizes); err != nil {
				return nil, 0, err
			}
		}
		i = j
	}
	out := make([]Page, 0, len(want))
	for i, pg := range want {
		c.Progress(float64(i), float64(len(want)), fmt.Sprintf("page %d of %d", i+1, len(want)))
		img, err := o.renderPage(ctx, abs, tmp, pg)
		if err != nil {
			return nil, 0, err
		}
		w, h := dims[i][0], dims[i][1]
		if f, err := os.Open(img); err == nil {
			if cfg, err := png.DecodeConfig(f); err == nil {
				w, h = cfg.Width, cfg.Height
			}
			f.Close()
		}
		tsv, err := o.tesseract(ctx, img, req.lang, req.psm, dpiArg(renderDPI, 1))
		os.Remove(img)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, page(pg, w, h, parseTSV(tsv, 1), req.detail))
	}
	c.Progress(float64(len(want)), float64(len(want)), "done")
	return out, n, nil
}

// pagePixels is page pg's size in pixels at renderDPI, refused over
// max_pixels (compared in floating point: a page box can be any number).
func (o *ocrTool) pagePixels(pg int, sizes map[int][2]float64) ([2]int, error) {
	pt, ok := sizes[pg]
	if !ok {
		return [2]int{}, tool.Errorf(tool.CodeFailed, "check the PDF with pdf_tool validate", "pdfinfo gave no size for page %d", pg)
	}
	w, h := math.Ceil(pt[0]/72*renderDPI), math.Ceil(pt[1]/72*renderDPI)
	if !(w >= 1 && h >= 1 && w*h <= float64(o.cfg.MaxPixels)) {
		return [2]int{}, tool.Errorf(tool.CodeTooLarge, "leave that page out (pages), or raise tools.ocr.max_pixels",
			"page %d is %g×%g pixels at %d dpi, outside the %d pixel limit (tools.ocr.max_pixels)", pg, w, h, renderDPI, o.cfg.MaxPixels)
	}
	return [2]int{int(w), int(h)}, nil
}

func page(n, w, h int, ws []word, detail string) Page {
	p := Page{Page: n, Width: w, Height: h, Text: pageText(ws), Confidence: meanConfidence(ws)}
	switch detail {
	case "words":
		p.Words = wordItems(ws)
	case "lines":
		p.Lines = group(ws, func(w word) [3]int { return w.line })
	case "paragraphs":
		p.Paragraphs = group(ws, func(w word) [3]int { return w.par })
	}
	return p
}

// parsePages reads "1-3,5" against n pages (empty means all) and picks at
// most max of them: n and the ranges can be any number, the list is not.
func parsePages(spec string, n, max int) ([]int, error) {
	tooMany := func(what string) error {
		return tool.Errorf(tool.CodeTooLarge, "ask for fewer pages, e.g. pages: 1-"+strconv.Itoa(max),
			"%s asked for, above the %d page limit (tools.ocr.max_pages)", what, max)
	}
	if strings.TrimSpace(spec) == "" {
		if n > max {
			return nil, tooMany(wording.Count(n, "page", "pages"))
		}
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out, nil
	}
	bad := func(msg string) error {
		return tool.Invalid("pages", msg, fmt.Sprintf("give pages like 1-3,5 within 1-%d", n))
	}
	seen := map[int]bool{}
	var out []int
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		a, b, isRange := strings.Cut(part, "-")
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi := lo
		var err2 error
		if isRange {
			hi, err2 = strconv.Atoi(strings.TrimSpace(b))
		}
		if err1 != nil || err2 != nil || lo < 1 || hi < lo {
			return nil, bad(fmt.Sprintf("pages %q: %q is not a page or range", spec, part))
		}
		if hi > n {
			return nil, bad(fmt.Sprintf("pages %q: the PDF has %s", spec, wording.Count(n, "page", "pages")))
		}
		for p := lo; p <= hi; p++ {
			if !seen[p] {
				if len(out) == max {
					return nil, tooMany(fmt.Sprintf("more than %s", wording.Count(max, "page", "pages")))
				}
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out, nil
}
