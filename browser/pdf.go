package browser

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/clawbridge/clawbridge/internal/htmlpdf"
	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/go-rod/rod/lib/proto"
)

// Paper sizes in inches (CDP's unit).
var paperSizes = map[string][2]float64{
	"a3":     {11.69, 16.54},
	"a4":     {8.27, 11.69},
	"a5":     {5.83, 8.27},
	"letter": {8.5, 11},
	"legal":  {8.5, 14},
}

// PageSizes lists the accepted page size names.
func PageSizes() []string { return []string{"A4", "Letter", "A3", "A5", "Legal"} }

// printParams turns print options into a CDP request.
func printParams(opts htmlpdf.Options) (*proto.PagePrintToPDF, error) {
	name := strings.ToLower(strings.TrimSpace(opts.PageSize))
	preferCSS := name == ""
	if name == "" {
		name = "a4"
	}
	size, ok := paperSizes[name]
	if !ok {
		return nil, toolerr.Invalidf("page_size",
			"use one of "+strings.Join(PageSizes(), ", "), "unknown page size %q", opts.PageSize)
	}
	margin := opts.MarginMM
	if margin == 0 {
		margin = 15
	}
	if margin < 0 {
		margin = 0
	}
	in := margin / 25.4
	req := &proto.PagePrintToPDF{
		Landscape:         opts.Landscape,
		PrintBackground:   true,
		PaperWidth:        &size[0],
		PaperHeight:       &size[1],
		MarginTop:         &in,
		MarginBottom:      &in,
		MarginLeft:        &in,
		MarginRight:       &in,
		PreferCSSPageSize: preferCSS,
	}
	if opts.HeaderFooter {
		req.DisplayHeaderFooter = true
		req.HeaderTemplate = "<span></span>"
		req.FooterTemplate = `<div style="font-size:9px;width:100%;text-align:center;color:#555;font-family:sans-serif">` +
			`<span class="pageNumber"></span> / <span class="totalPages"></span></div>`
		if in < 0.4 {
			b := 0.4 // room for the footer
			req.MarginBottom = &b
		}
	}
	return req, nil
}

// waitAssetsJS resolves once the document, its web fonts and its images have
// loaded (broken images count as loaded), so the print is complete.
const waitAssetsJS = `async () => {
  if (document.readyState !== 'complete') {
    await new Promise(r => window.addEventListener('load', r, {once: true}));
  }
  await Promise.all(Array.from(document.images).map(img => img.complete ? null :
    new Promise(r => { img.addEventListener('load', r, {once: true}); img.addEventListener('error', r, {once: true}); })));
  if (document.fonts) { await document.fonts.ready; }
  return true;
}`

// HTMLToPDF renders an HTML document to PDF in a throwaway isolated context.
// It is the document tools' PDF renderer (tools/tool.PDFRenderer). Resources the HTML references are fetched
// through the network guard.
func (m *Manager) HTMLToPDF(ctx context.Context, html []byte, opts htmlpdf.Options) ([]byte, error) {
	req, err := printParams(opts)
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 2*m.cfg.NavigationTimeout)
		defer cancel()
	}
	inst, err := m.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer m.release()
	bc, err := m.newContext(ctx, inst)
	if err != nil {
		return nil, fmt.Errorf("html to pdf: %w", err)
	}
	defer bc.dispose(context.WithoutCancel(ctx))
	page, err := bc.b.Context(ctx).Page(proto.TargetCreateTarget{})
	if err != nil {
		return nil, fmt.Errorf("html to pdf: open page: %w", err)
	}
	page = page.Context(ctx)
	if err := page.SetDocumentContent(string(html)); err != nil {
		return nil, fmt.Errorf("html to pdf: load html: %w", err)
	}
	if _, err := page.Eval(waitAssetsJS); err != nil {
		return nil, fmt.Errorf("html to pdf: wait for fonts and images: %w", err)
	}
	r, err := page.PDF(req)
	if err != nil {
		return nil, fmt.Errorf("html to pdf: print: %w", err)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("html to pdf: read: %w", err)
	}
	if !strings.HasPrefix(string(data[:min(len(data), 5)]), "%PDF-") {
		return nil, fmt.Errorf("html to pdf: the browser returned no PDF")
	}
	return data, nil
}
