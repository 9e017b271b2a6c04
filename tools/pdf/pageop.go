package pdf

import (
	"io"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// The page-operation skeleton, once: every action on one input PDF reads
// the `path` argument (opened with `password`), expands the `pages`
// selection (open), and the writing ones plan the output PDF and write it
// with one pdfcpu call (writePDF), answering with the file (result).
// Actions with several inputs (merge, images_to_pdf) plan their output
// themselves.

// doc is the input PDF of a page operation.
type doc struct {
	*input
	path  string   // the path argument, as given, for messages
	pw    string   // the password argument
	n     int      // page count
	pages []int    // the selected pages in page order; all pages when `pages` is empty
	sel   []string // the pdfcpu selection; nil selects every page
}

// open reads the `path` PDF with `password` and expands `pages` (an
// action without that parameter gets every page).
func (p *pdfTool) open(c *tool.Call) (*doc, error) {
	d := &doc{path: c.Args.String("path"), pw: c.Args.String("password")}
	in, n, err := p.readPDF("path", d.path, d.pw)
	if err != nil {
		return nil, err
	}
	d.input, d.n = in, n
	if d.sel, d.pages, err = selectedPages(c.Args.String("pages"), n); err != nil {
		return nil, err
	}
	return d, nil
}

// written is the PDF a page operation produced.
type written struct {
	rel  string // workspace-relative path, for summaries
	file tool.File
	in   *input
}

// writePDF plans the output (`output`, or outputs/<input><suffix>.pdf,
// refused or renamed per `overwrite`) and writes it atomically with fn. A
// failure of fn is reported as action's error (opErr) and leaves nothing.
func (p *pdfTool) writePDF(c *tool.Call, d *doc, action, suffix string, fn func(w io.Writer) error) (*written, error) {
	out, err := p.output(c, stem(d.abs)+suffix, ".pdf", d.abs)
	if err != nil {
		return nil, err
	}
	f, err := out.WriteFrom(".pdf", fn)
	if err != nil && d.retry(err) {
		f, err = out.WriteFrom(".pdf", fn)
	}
	if err != nil {
		return nil, opErr(action, err)
	}
	return &written{rel: rel(p.d.Sandbox, f.Path), file: f, in: d.input}, nil
}

// result answers with the written file: data gets its "output".
func (w *written) result(summary string, data map[string]any) *tool.Result {
	data["output"] = w.rel
	w.in.note(data)
	return &tool.Result{Summary: summary, Data: data, Files: []tool.File{w.file}}
}
