package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// conf returns a fresh pdfcpu configuration: built-in defaults (no config
// directory), offline (no certificate revocation lookups), relaxed
// validation, and the password for encrypted inputs.
func conf(password string) *model.Configuration {
	configure()
	c := model.NewDefaultConfiguration()
	c.Offline = true
	c.ValidationMode = model.ValidationRelaxed
	c.UserPW = password
	c.OwnerPW = password
	return c
}

// input is one PDF read into memory (pdfcpu parses from an io.ReadSeeker).
type input struct {
	abs      string
	data     []byte
	upw, opw string   // the passwords that open it (readPDF)
	repaired []string // what salvage dropped from data, for the answer
}

func (in *input) reader() io.ReadSeeker { return bytes.NewReader(in.data) }

// conf is the pdfcpu configuration that opens the input.
func (in *input) conf() *model.Configuration {
	c := conf(in.opw)
	c.UserPW = in.upw
	return c
}

// retry reports whether an operation that failed with err is worth running
// again: pdfcpu's validator refused the file and salvage could drop what it
// refused (in.data is then the salvaged file). A file salvaged once is not
// salvaged again.
func (in *input) retry(err error) bool {
	if !isValidation(err) || in.repaired != nil {
		return false
	}
	data, dropped, serr := salvage(in.data, in.conf())
	if serr != nil || len(dropped) == 0 {
		return false
	}
	in.data, in.repaired = data, dropped
	return true
}

// note adds what salvage dropped to an answer's data.
func (in *input) note(data map[string]any) map[string]any {
	if len(in.repaired) > 0 {
		data["repaired"] = "pdfcpu refused parts of this file; the result leaves out " + strings.Join(in.repaired, ", ")
	}
	return data
}

// readInput resolves and reads a workspace file, refusing what is too big.
func (p *pdfTool) readInput(field, path string) (*input, error) {
	if path == "" {
		return nil, tool.Invalid(field, "missing "+field, "give a workspace path to a PDF")
	}
	abs, err := p.d.Sandbox.Resolve(path)
	if err != nil {
		return nil, tool.PathError(field, path, err)
	}
	data, err := tool.ReadRegular(field, path, abs, int64(p.cfg.MaxMB)<<20)
	if te, ok := tool.AsError(err); ok && te.Code == tool.CodeTooLarge {
		te.Hint = "split the file with another program or raise tools.pdf_tool.max_mb"
	}
	if err != nil {
		return nil, err
	}
	return &input{abs: abs, data: addEmptyID(fixEncryptLength(data))}, nil
}

// readPDF reads a PDF input and checks that pdfcpu can open it (with the
// password when encrypted), returning its page count.
func (p *pdfTool) readPDF(field, path, password string) (*input, int, error) {
	in, err := p.readInput(field, path)
	if err != nil {
		return nil, 0, err
	}
	if !bytes.HasPrefix(bytes.TrimLeft(in.data[:min(len(in.data), 1024)], "\x00\t\r\n "), []byte("%PDF-")) && !bytes.Contains(in.data[:min(len(in.data), 1024)], []byte("%PDF-")) {
		return nil, 0, tool.Invalidf(field, "give a PDF file; use format_converter to turn other documents into PDF", "%s is not a PDF (no %%PDF- header)", path)
	}
	// Parse (and decrypt) without full validation: the operation itself
	// validates, and validating twice doubled the cost of a merge. The
	// password is tried as the owner's and the user's; a file anyone may
	// open (empty user password) opens whatever password is given.
	in.upw, in.opw = password, password
	ctx, err := api.ReadContext(in.reader(), in.conf())
	if password != "" && isWrongPassword(err) {
		in.upw = ""
		ctx, err = api.ReadContext(in.reader(), in.conf())
		if isWrongPassword(err) {
			in.upw = password
		}
	}
	if isWrongPassword(err) {
		if data, ok := openEmptyOwner(in.data); ok {
			in.data, in.upw, in.opw = data, "", ""
			ctx, err = api.ReadContext(in.reader(), in.conf())
		}
	}
	if err == nil {
		err = ctx.EnsurePageCount()
	}
	if err != nil {
		return nil, 0, pdfErr(field, path, password, err)
	}
	n := ctx.PageCount
	if n > p.cfg.MaxPages {
		return nil, 0, tool.Errorf(tool.CodeTooLarge, "raise tools.pdf_tool.max_pages if this is expected", "%s has %d pages, above the %d page limit", path, n, p.cfg.MaxPages)
	}
	return in, n, nil
}

func isWrongPassword(err error) bool {
	return err != nil && (errors.Is(err, pdfcpu.ErrWrongPassword) || strings.Contains(err.Error(), "correct password"))
}

// pdfErr turns a pdfcpu read error into a tool error the model can act on.
func pdfErr(field, path, password string, err error) error {
	switch {
	case isWrongPassword(err):
		if password == "" {
			return &tool.Error{Code: tool.CodeDenied, Field: "password", Message: fmt.Sprintf("%s is encrypted and needs a password", path), Hint: "pass the user or owner password in 'password'"}
		}
		return &tool.Error{Code: tool.CodeDenied, Field: "password", Message: fmt.Sprintf("wrong password for %s", path), Hint: "check the password"}
	case errors.Is(err, pdfcpu.ErrEmptyInput):
		return tool.Invalidf(field, "", "%s is empty", path)
	case errors.Is(err, pdfcpu.ErrUnsupportedEncryptionFeature):
		return tool.Invalidf(field, "", "%s uses an encryption feature pdfcpu does not support: %v", path, err)
	case isValidation(err):
		return brokenErr(field, path, err)
	}
	return tool.Invalidf(field, "the file may be damaged or not a PDF; action validate gives details", "%s could not be read as a PDF: %v", path, err)
}

// brokenErr reports a file pdfcpu's validator refuses even after salvage:
// the reason without pdfcpu's call chain, and what still works.
func brokenErr(field, path string, err error) error {
	msg := err.Error()
	if i := strings.LastIndex(msg, "validation error"); i >= 0 {
		msg = msg[i:]
	}
	return tool.Invalidf(field, "page_count and extract_text may still read it; to repair it, print it to a new PDF (for example with format_converter or a PDF printer) and use that copy",
		"%s is damaged where pdfcpu cannot work around it (%s)", path, msg)
}

// opErr reports a failed pdfcpu operation on a readable input: usually bad
// options (page selection, description), so it is a tool error.
func opErr(action string, err error) error {
	if te, ok := tool.AsError(err); ok {
		return te
	}
	if isValidation(err) {
		return brokenErr("path", "the input", err)
	}
	if errors.Is(err, pdfcpu.ErrWrongPassword) || strings.Contains(err.Error(), "password") {
		return &tool.Error{Code: tool.CodeDenied, Field: "password", Message: action + ": wrong or missing password", Hint: "pass the owner password in 'password'"}
	}
	if action == "fill_form" {
		return tool.Errorf(tool.CodeFailed, "list_form_fields shows the fields and values this form takes; if the values fit them, the form itself is damaged", "%s failed: %v", action, err)
	}
	// The arguments were checked before pdfcpu ran, so what is left is
	// something in the file pdfcpu cannot process for this action.
	return tool.Errorf(tool.CodeFailed, "the arguments were accepted; pdfcpu cannot do this on this file's structure: `validate` shows what is wrong, and printing the file to a new PDF (browser pdf, or format_converter) usually gives one it can process", "%s failed: %v", action, err)
}

// selection parses a pdfcpu page selection; empty means all pages.
func selection(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	sel, err := api.ParsePageSelection(s)
	if err != nil {
		return nil, tool.Invalid("pages", fmt.Sprintf("bad page selection %q: %v", s, err), `examples: "1-3,5", "even", "odd", "5-", "!2", "l"`)
	}
	return sel, nil
}

// selectedPages parses a selection and expands it against a page count,
// in page order.
func selectedPages(s string, pageCount int) (sel []string, pages []int, err error) {
	if sel, err = selection(s); err != nil {
		return nil, nil, err
	}
	set, err := api.PagesForPageSelection(pageCount, sel, true, false)
	if err != nil {
		return nil, nil, tool.Invalid("pages", fmt.Sprintf("bad page selection %q: %v", s, err), "")
	}
	for i := 1; i <= pageCount; i++ {
		if set[i] {
			pages = append(pages, i)
		}
	}
	if len(pages) == 0 {
		return nil, nil, tool.Invalid("pages", fmt.Sprintf("page selection %q matches no page (the file has %s)", s, wording.Count(pageCount, "page", "pages")), "")
	}
	return sel, pages, nil
}

// output plans the single file an operation writes: the `output`
// argument or outputs/<stem><ext> (see tool.PlanOutput).
func (p *pdfTool) output(c *tool.Call, stem, ext string, inputs ...string) (*tool.Outputs, error) {
	return tool.PlanOutput(p.d.Sandbox, c.Args, tool.Output{Stem: stem, Exts: []string{ext}, Inputs: inputs})
}

// outputDir plans the directory of a multi-file operation: `output_dir`
// or outputs/<stem>.
func (p *pdfTool) outputDir(c *tool.Call, stem string) (string, error) {
	return tool.PlanOutputDir(p.d.Sandbox, c.Args, tool.Output{Field: "output_dir", Stem: stem})
}

// placeIn plans dir/name, refusing to replace a file there unless
// overwrite.
func (p *pdfTool) placeIn(c *tool.Call, dir, name string) (*tool.Outputs, error) {
	return tool.PlanFileIn(p.d.Sandbox, c.Args, "output_dir", dir, name)
}

// stem is the input's file name without extension, for default outputs.
func stem(path string) string {
	b := filepath.Base(path)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

func rel(sb *sandbox.Sandbox, abs string) string { return sb.Rel(abs) }
