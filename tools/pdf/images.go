package pdf

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

var imageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".tif": true, ".tiff": true, ".webp": true}

func (p *pdfTool) imagesToPDF(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	paths := c.Args.Strings("paths")
	if len(paths) == 0 {
		return nil, tool.Invalid("paths", "images_to_pdf needs at least one image in 'paths'", "")
	}
	var readers []io.Reader
	var abss []string
	for i, path := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		field := fmt.Sprintf("paths[%d]", i)
		if !imageExts[strings.ToLower(filepath.Ext(path))] {
			return nil, tool.Invalid(field, fmt.Sprintf("%s is not a supported image (png, jpeg, tiff, webp)", path), "convert it first with format_converter")
		}
		in, err := p.readInput(field, path)
		if err != nil {
			return nil, err
		}
		readers = append(readers, bytes.NewReader(in.data))
		abss = append(abss, in.abs)
	}
	size := c.Args.StringOr("page_size", "A4")
	desc := "position:full"
	if size != "image" {
		if c.Args.Bool("landscape", false) {
			size += "L"
		}
		desc = "formsize:" + size + ", position:c, scalefactor:0.95 rel"
	}
	imp, err := api.Import(desc, types.POINTS)
	if err != nil {
		return nil, tool.Invalid("page_size", fmt.Sprintf("bad page size: %v", err), "")
	}
	out, err := p.output(c, stem(paths[0])+"_images", ".pdf", abss...)
	if err != nil {
		return nil, err
	}
	f, err := out.WriteFrom(".pdf", func(w io.Writer) error { return api.ImportImages(nil, w, readers, imp, conf("")) })
	if err != nil {
		return nil, tool.Invalidf("paths", "check that every file is a valid PNG, JPEG, TIFF or WebP image", "images_to_pdf: %v", err)
	}
	return &tool.Result{
		Summary: fmt.Sprintf("made a %d-page PDF from %s: %s", len(paths), wording.Count(len(paths), "image", "images"), rel(p.d.Sandbox, out.Path(".pdf"))),
		Data:    map[string]any{"output": rel(p.d.Sandbox, out.Path(".pdf")), "page_count": len(paths), "page_size": c.Args.StringOr("page_size", "A4")},
		Files:   []tool.File{f},
	}, nil
}

func (p *pdfTool) extractImages(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	in, err := p.open(c)
	if err != nil {
		return nil, err
	}
	dir, err := p.outputDir(c, stem(in.abs)+"_images")
	if err != nil {
		return nil, err
	}
	var files []tool.File
	var list []map[string]any
	seen := map[string]int{}
	digest := func(img model.Image, _ bool, _ int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := io.ReadAll(img)
		if err != nil {
			return fmt.Errorf("read image %s on page %d: %w", img.Name, img.PageNr, err)
		}
		ext := strings.ToLower(img.FileType)
		if ext == "" {
			ext = "bin"
		}
		name := fmt.Sprintf("page%d_%s.%s", img.PageNr, sanitize(img.Name), ext)
		if k := seen[name]; k > 0 {
			name = fmt.Sprintf("page%d_%s_%d.%s", img.PageNr, sanitize(img.Name), k+1, ext)
		}
		seen[name]++
		out, err := p.placeIn(c, dir, name)
		if err != nil {
			return err
		}
		f, err := out.Write("."+ext, data)
		if err != nil {
			return err
		}
		files = append(files, f)
		list = append(list, map[string]any{"file": rel(p.d.Sandbox, f.Path), "page": img.PageNr, "width": img.Width, "height": img.Height, "format": ext})
		return nil
	}
	if err := api.ExtractImages(in.reader(), in.sel, digest, in.conf()); err != nil {
		return nil, opErr("extract_images", err)
	}
	summary := fmt.Sprintf("extracted %s into %s", wording.Count(len(files), "image", "images"), rel(p.d.Sandbox, dir))
	if len(files) == 0 {
		summary = "no embedded images on the selected pages"
	}
	return &tool.Result{Summary: summary, Data: map[string]any{"output_dir": rel(p.d.Sandbox, dir), "images": list, "count": len(files)}, Files: files}, nil
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < 32 {
			return '_'
		}
		return r
	}, s)
}
