package tool

import (
	"context"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"clawbridge/browser"
	"clawbridge/internal/config"
	"clawbridge/internal/netguard"
	"clawbridge/internal/sandbox"
	"clawbridge/internal/store"
)

// Deps are the shared services a tool constructor may take. Constructors
// take what they need from it; none of them is global.
type Deps struct {
	Config  *config.Config
	Sandbox *sandbox.Sandbox
	Store   *store.Store
	Guard   *netguard.Guard
	Log     zerolog.Logger
	// PDF renders HTML to PDF; nil when no browser is configured.
	PDF PDFRenderer
	// Browser is the shared Chromium manager of the browser tools (browser,
	// browser_use, web_fetch's fallback); nil when none is configured.
	Browser *browser.Manager
}

// HTTPClient returns an HTTP client that passes the outbound guard.
func (d *Deps) HTTPClient(timeout time.Duration) *http.Client {
	return d.Guard.Client(timeout)
}

// PDFRenderer turns HTML into PDF with a real browser engine, so CJK text,
// tables and code blocks print properly. The browser manager implements it;
// document tools take it from Deps.
type PDFRenderer interface {
	HTMLToPDF(ctx context.Context, html []byte, opts PDFOptions) ([]byte, error)
}

// PDFOptions are print settings ("A4" default page, 15 mm margins, page
// numbers in the footer when HeaderFooter is set). The type lives in the
// browser package, which cannot import this one.
type PDFOptions = browser.PDFOptions

var _ PDFRenderer = (*browser.Manager)(nil)
