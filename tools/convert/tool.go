// Package convert is format_converter: document, table and image format
// conversions. Markdown is rendered with goldmark (GFM, highlighted code);
// PDFs from Markdown and HTML are printed by Chromium (tool.PDFRenderer) so
// Chinese text, tables and code come out right; Word and PowerPoint files go
// to PDF, and PDFs to Word, through LibreOffice; tables keep their types
// across csv, xlsx and json (excelize); images convert between png, jpeg,
// gif, bmp and tiff.
package convert

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: format_converter: ...).
type Section struct {
	// MaxMB caps input files.
	MaxMB int `yaml:"max_mb"`
}

// Validate refuses an input cap below one megabyte.
func (s *Section) Validate() error { return config.AtLeast("max_mb", s.MaxMB, 1) }

type converter struct {
	d   *tool.Deps
	cfg Section
}

// kinds by file extension.
var extKind = map[string]string{
	".md": "md", ".markdown": "md", ".mdown": "md", ".txt": "md",
	".html": "html", ".htm": "html", ".xhtml": "html",
	".docx": "docx", ".pptx": "pptx",
	".doc": "office", ".odt": "office", ".rtf": "office", ".ppt": "office", ".odp": "office", ".xls": "office", ".ods": "office",
	".xlsx": "xlsx", ".csv": "csv", ".json": "json",
	".pdf": "pdf",
	".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".gif": "gif", ".bmp": "bmp", ".tif": "tiff", ".tiff": "tiff", ".webp": "webp",
}

// outExt is the file extension of each target.
var outExt = map[string]string{
	"html": ".html", "pdf": ".pdf", "docx": ".docx", "odt": ".odt", "md": ".md", "txt": ".txt",
	"xlsx": ".xlsx", "csv": ".csv", "json": ".json",
	"png": ".png", "jpeg": ".jpg", "gif": ".gif", "bmp": ".bmp", "tiff": ".tiff",
}

// convFunc converts one source to the target format, returning the bytes
// and facts for the result.
type convFunc func(ctx context.Context, c *tool.Call, src *source, to string) ([]byte, map[string]any, error)

// routes lists every supported conversion.
func (cv *converter) routes() map[string]map[string]convFunc {
	img := map[string]convFunc{}
	for _, f := range []string{"png", "jpeg", "gif", "bmp", "tiff"} {
		img[f] = cv.image
	}
	return map[string]map[string]convFunc{
		"md":     {"html": cv.mdToHTML, "pdf": cv.mdToPDF, "docx": cv.mdToDOCX, "txt": cv.mdToText},
		"html":   {"md": cv.htmlToMD, "pdf": cv.htmlToPDF, "docx": cv.htmlToDOCX, "txt": cv.htmlToText},
		"docx":   {"md": cv.docxToMD, "txt": cv.docxToText, "html": cv.docxToHTML, "pdf": cv.officeToPDF},
		"pptx":   {"pdf": cv.officeToPDF, "txt": cv.pptxToText, "md": cv.pptxToMD},
		"office": {"pdf": cv.officeToPDF},
		"pdf":    {"docx": cv.pdfToWord, "odt": cv.pdfToWord},
		"csv":    {"xlsx": cv.table, "json": cv.table},
		"xlsx":   {"csv": cv.table, "json": cv.table, "pdf": cv.officeToPDF},
		"json":   {"csv": cv.table, "xlsx": cv.table},
		"png":    img, "jpeg": img, "gif": img, "bmp": img, "tiff": img, "webp": img,
	}
}

// New builds format_converter.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Section]{Name: "format_converter", Defaults: func() Section { return Section{MaxMB: 100} }, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Section) (tool.Tool, error) {
	cv := &converter{d: d, cfg: cfg}
	targets := []string{"html", "pdf", "docx", "odt", "md", "txt", "xlsx", "csv", "json", "png", "jpeg", "gif", "bmp", "tiff"}
	froms := []string{"md", "html", "docx", "pptx", "office", "pdf", "csv", "xlsx", "json", "png", "jpeg", "gif", "bmp", "tiff", "webp"}
	return tool.Tool{
		Name:        "format_converter",
		Title:       "Format converter",
		Description: "Converts files: Markdown, HTML, Word, PowerPoint, Excel to PDF or to each other; PDF to Word (scanned PDFs need ocr first); csv, xlsx, json into each other; images between formats. Use pdf_tool to edit PDFs, doc_generator/ppt_generator to write new documents.",
		Actions: []tool.Action{
			{Name: "convert", Handler: cv.convert, Description: "path or text to the format in to", Level: tool.Write, Timeout: tool.Slow, Params: []tool.Param{
				{Name: "path", Type: tool.String, Description: "Input file."},
				{Name: "text", Type: tool.String, Description: "Markdown or HTML instead of path (see from)."},
				{Name: "from", Type: tool.String, Enum: froms, Description: "Source format if not the extension's (office: doc, odt, rtf, ppt, xls...)."},
				{Name: "to", Type: tool.String, Required: true, Enum: targets, Description: "Target format."},
				tool.OutputParam("Default outputs/<input name>.<ext>."),
				tool.Overwrite,
				{Name: "title", Type: tool.String, Description: "Default the first heading."},
				{Name: "page_size", Type: tool.String, Enum: []string{"A4", "Letter", "A3", "A5", "Legal"}, Default: "A4", Description: "For PDF and docx."},
				{Name: "landscape", Type: tool.Boolean, Default: false, Description: "For PDF and docx."},
				{Name: "margin_mm", Type: tool.Number, Min: tool.Ptr(0), Max: tool.Ptr(60), Description: "Page margins."},
				{Name: "page_numbers", Type: tool.Boolean, Default: false, Description: "In the footer (PDF and docx)."},
				{Name: "sheet", Type: tool.String, Description: "xlsx worksheet (default the first)."},
				{Name: "quality", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(100), Default: 90, Description: "JPEG."},
			}},
			{Name: "formats", Handler: cv.formats, Description: "list the supported conversions", Level: tool.Read, Timeout: tool.Fast, Idempotent: true},
		},
		Programs: tool.ProgramsOf("soffice", "chromium", "pdfinfo", "pdftotext"),
		Examples: []string{
			"convert README.md to PDF",
			"turn this Word document into Markdown",
			"convert the docx report to pdf",
			"convert data.csv to an Excel file",
			"export the xlsx sheet as JSON",
			"convert photo.png to jpg",
			"把这个markdown转成pdf",
			"docx转pdf",
			"把Excel表格转成csv",
		},
	}, nil
}

func (cv *converter) convert(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	to := c.Args.String("to")
	src, err := cv.load(c)
	if err != nil {
		return nil, err
	}
	r := cv.routes()
	fn, ok := r[src.kind][to]
	if !ok {
		if src.kind == to {
			return nil, tool.Invalid("to", fmt.Sprintf("the input is already %s", to), "")
		}
		return nil, tool.Invalid("to", fmt.Sprintf("cannot convert %s to %s", src.kind, to), fmt.Sprintf("%s converts to: %s", src.kind, strings.Join(keys(r[src.kind]), ", ")))
	}
	out, err := cv.output(c, src, to)
	if err != nil {
		return nil, err
	}
	src.out = out.Path(outExt[to])
	data, facts, err := fn(ctx, c, src, to)
	if err != nil {
		return nil, err
	}
	f, err := out.Write(outExt[to], data)
	if err != nil {
		return nil, err
	}
	if facts == nil {
		facts = map[string]any{}
	}
	facts["output"] = cv.d.Sandbox.Rel(f.Path)
	facts["from"], facts["to"] = src.kind, to
	facts["bytes"] = len(data)
	name := src.name
	if name == "" {
		name = "text"
	}
	return &tool.Result{
		Summary: fmt.Sprintf("converted %s (%s) to %s: %s", name, src.kind, to, cv.d.Sandbox.Rel(f.Path)),
		Data:    facts,
		Files:   []tool.File{f},
	}, nil
}

func (cv *converter) formats(context.Context, *tool.Call) (*tool.Result, error) {
	r := cv.routes()
	table := map[string][]string{}
	var lines []string
	for _, from := range keys(r) {
		table[from] = keys(r[from])
		lines = append(lines, from+" -> "+strings.Join(table[from], ", "))
	}
	return &tool.Result{Summary: "supported conversions: " + strings.Join(lines, "; "), Data: map[string]any{"conversions": table}}, nil
}

// knownInputs says, for the 'cannot tell the format' error, which
// extensions convert to what (extensions with the same targets together),
// and that 'from' names the format of any other file.
func (cv *converter) knownInputs() string {
	r := cv.routes()
	extsByTargets := map[string][]string{}
	for ext, kind := range extKind {
		targets := strings.Join(keys(r[kind]), ", ")
		extsByTargets[targets] = append(extsByTargets[targets], ext)
	}
	var parts []string
	for targets, exts := range extsByTargets {
		sort.Strings(exts)
		parts = append(parts, strings.Join(exts, " ")+" -> "+targets)
	}
	sort.Strings(parts)
	return "format_converter converts " + strings.Join(parts, "; ") + ". For a file with another extension set 'from' to its format (" + strings.Join(keys(r), ", ") + ")"
}

// keys are m's keys in order.
func keys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// kindOf maps a path's extension to a source kind.
func kindOf(path string) string { return extKind[strings.ToLower(filepath.Ext(path))] }
