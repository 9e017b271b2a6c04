package tool

import (
	"context"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"clawbridge/internal/bridge"
	"clawbridge/internal/config"
	"clawbridge/internal/htmlpdf"
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
	// Sessions is state kept per MCP session outside the tools (the shared
	// browser's cookies and tabs); the server ends it with the session. Nil
	// when there is none. The browser manager itself is not a field here: it
	// pulls go-rod, which the contract does not, and the browser tools take
	// it in their constructors.
	Sessions SessionCloser
	// Bridge manages the downstream MCP servers of mcp_bridge; nil when
	// none is configured.
	Bridge *bridge.Manager
}

// SessionCloser drops what is kept for one MCP session.
type SessionCloser interface {
	CloseSession(key string)
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

// PDFOptions are print settings for a PDFRenderer; they live in
// internal/htmlpdf so that package browser need not import the contract.
type PDFOptions = htmlpdf.Options
