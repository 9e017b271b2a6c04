package tool

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/htmlpdf"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/sandbox"
)

// Deps are the shared services a tool constructor may take. Constructors
// take what they need from it; none of them is global.
type Deps struct {
	Config  *config.Config
	Sandbox *sandbox.Sandbox
	Store   Records // nil in a listing-only build
	Guard   *netguard.Guard
	Log     zerolog.Logger
	// PDF renders HTML to PDF; nil when no browser is configured.
	PDF PDFRenderer
	// Sessions is state kept per MCP session outside the tools (the shared
	// browser's cookies and tabs); the server ends it with the session. Nil
	// when there is none.
	Sessions SessionCloser
	// Browser is the shared Chromium of the browser, browser_use and
	// web_fetch tools; nil when none is configured.
	Browser Browser
	// Bridge reaches the downstream MCP servers of mcp_bridge; nil when
	// none is configured.
	Bridge Downstream
}

// Browser is the shared Chromium (package browser's *Manager). Its pages and
// sessions are that package's types, which pull go-rod; the contract does
// not, so it names only what the engine answers here, and the tools that
// drive pages take the manager itself from it (internal/browsertool.Manager).
type Browser interface {
	// BrowserPath is the Chromium binary in use, or why there is none.
	BrowserPath() (string, error)
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

// Records is the shared store as the tools that keep rows in it use it (the
// records tools, the send-once log of email and notify): SQL handles, a
// transaction, and the migrations of their tables. *store.Store implements
// it; naming it here keeps the database drivers out of the contract.
type Records interface {
	// DB is the writer; Read a pool for reads that need not see an open
	// transaction.
	DB() *sql.DB
	Read() *sql.DB
	Tx(ctx context.Context, fn func(*sql.Tx) error) error
	MigrateVersions(component string, steps ...records.Migration) error
	// MigrateWithTrash also makes sure the trash the component deletes into
	// exists.
	MigrateWithTrash(component string, steps ...records.Migration) error
}
