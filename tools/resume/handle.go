package resume

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/internal/docout"
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

const maxInput = 5 << 20

func (b *builder) handle(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	a := c.Args
	if _, err := a.ExactlyOne("resume (JSON Resume), path (a resume.json file) or fields (simple form); for example fields: {\"name\":\"Li Lei\",\"title\":\"Engineer\",\"experience\":[...]}", "resume", "path", "fields"); err != nil {
		return nil, err
	}
	doc, field, err := b.resumeInput(a)
	if err != nil {
		return nil, err
	}
	r, err := checkResume(doc, field)
	if err != nil {
		return nil, err
	}

	formats := a.Strings("formats")
	if len(formats) == 0 {
		formats = []string{"docx", "txt"}
	}
	slices.Sort(formats)
	formats = slices.Compact(formats)
	theme := a.StringOr("theme", "modern")
	lang := a.String("language")
	if lang == "" {
		lang = "en"
		if wording.HanShare(stringValues(doc)) > 0.3 {
			lang = "zh"
		}
	}
	pdfVia := ""
	if slices.Contains(formats, "pdf") {
		if pdfVia, err = b.pdfRenderer(); err != nil {
			return nil, err
		}
	}
	d := layout(r, lang)

	// Choose every path first so a conflict changes nothing.
	exts := make([]string, len(formats))
	for i, f := range formats {
		exts[i] = "." + f
	}
	out, err := tool.PlanOutput(b.d.Sandbox, c.Args, tool.Output{Stem: docout.Slug("resume-"+r.Basics.Name, "resume"), Exts: exts})
	if err != nil {
		return nil, err
	}

	var files []tool.File
	for i, f := range formats {
		c.Progress(float64(i), float64(len(formats)), "writing "+f)
		data, err := b.render(ctx, d, f, theme, pdfVia, a.StringOr("page_size", "A4"))
		if err != nil {
			var te *tool.Error
			if errors.As(err, &te) {
				return nil, err
			}
			return nil, tool.Errorf(tool.CodeFailed, "try again or choose another format", "writing %s failed: %v", f, err)
		}
		file, err := out.Write("."+f, data)
		if err != nil {
			return nil, err
		}
		files = append(files, file)
	}
	var sections []string
	for _, s := range d.Sections {
		sections = append(sections, s.Title)
	}
	data := map[string]any{
		"files": docout.Files(b.d.Sandbox, files), "formats": formats, "theme": theme, "language": lang,
		"name": r.Basics.Name, "sections": sections, "jobs": len(r.Work), "schema": "JSON Resume 1.3.1",
	}
	if pdfVia != "" {
		data["pdf_renderer"] = pdfVia
	}
	return &tool.Result{
		Summary: fmt.Sprintf("Wrote the résumé of %s as %s.", r.Basics.Name, strings.Join(formats, ", ")),
		Data:    data,
		Files:   files,
	}, nil
}

// resumeInput reads the résumé from resume, path or fields as a JSON Resume
// document, with the name of the argument it came from.
func (b *builder) resumeInput(a tool.Args) (doc any, field string, err error) {
	field = "resume"
	switch {
	case a.Has("resume"):
		doc = a.Object("resume")
	case a.Has("path"):
		field = "path"
		p, err := b.d.Sandbox.Resolve(a.String("path"))
		if err != nil {
			return nil, "", tool.PathError("path", a.String("path"), err)
		}
		raw, err := tool.ReadRegular("path", a.String("path"), p, maxInput)
		if err != nil {
			return nil, "", err
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return nil, "", tool.Invalid("path", fmt.Sprintf("%s is not valid JSON: %v", a.String("path"), err), "give a JSON Resume file")
		}
	default:
		field = "fields"
		var s Simple
		if err := a.Decode("fields", &s); err != nil {
			return nil, "", err
		}
		doc = s.ToJSONResume()
	}
	return doc, field, nil
}

// checkResume validates doc against the JSON Resume schema and decodes it;
// it needs a name.
func checkResume(doc any, field string) (*Resume, error) {
	schema, err := resumeSchema()
	if err != nil {
		return nil, err
	}
	if err := schema.Validate(normalize(doc)); err != nil {
		return nil, tool.Invalid(field, "the résumé does not match the JSON Resume schema: "+joinProblems(schemaProblems(err)), "fix the fields named (JSON pointer paths) and call again")
	}
	raw, _ := json.Marshal(doc)
	r := &Resume{}
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, tool.Invalid(field, fmt.Sprintf("cannot read the résumé: %v", err), "")
	}
	if strings.TrimSpace(r.Basics.Name) == "" {
		return nil, tool.Invalid(field, "the résumé has no name (basics.name / fields.name)", "add the person's name")
	}
	return r, nil
}

// render writes the document in format f.
func (b *builder) render(ctx context.Context, d doc, f, theme, pdfVia, pageSize string) ([]byte, error) {
	var data []byte
	var err error
	switch f {
	case "md":
		data = []byte(renderMarkdown(d))
	case "txt":
		data = []byte(renderText(d))
	case "html":
		data, err = renderHTML(d, theme)
	case "docx":
		data, err = renderDocx(d, theme)
	case "pdf":
		data, err = b.pdf(ctx, d, theme, pdfVia, pageSize)
	}
	return data, err
}

// pdfRenderer names the program that will print the PDF: chromium, else
// LibreOffice.
func (b *builder) pdfRenderer() (string, error) {
	switch {
	case b.d.PDF != nil:
		return "chromium", nil
	case office.Available():
		return "libreoffice", nil
	}
	return "", tool.MissingProgram("chromium")
}

func (b *builder) pdf(ctx context.Context, d doc, theme, via, pageSize string) ([]byte, error) {
	if via == "chromium" {
		html, err := renderHTML(d, theme)
		if err != nil {
			return nil, err
		}
		if pageSize == "Letter" {
			html = bytes.Replace(html, []byte("@page{size:A4;"), []byte("@page{size:Letter;"), 1)
		}
		return b.d.PDF.HTMLToPDF(ctx, html, tool.PDFOptions{PageSize: pageSize, MarginMM: 14})
	}
	dx, err := renderDocx(d, theme)
	if err != nil {
		return nil, err
	}
	return office.ToPDFBytes(ctx, b.d.Run, "resume.docx", dx)
}

// normalize turns json.Number into float64 so the schema validator sees
// plain JSON values whatever the source.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = normalize(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case []string:
		return toAny(x)
	case json.Number:
		f, _ := x.Float64()
		return f
	}
	return v
}

// stringValues joins the string values of a JSON document (not its keys).
func stringValues(v any) string {
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte(' ')
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}
