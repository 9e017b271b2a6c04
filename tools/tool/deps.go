package tool

import (
	"net/http"
	"time"

	"github.com/rs/zerolog"

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
}

// HTTPClient returns an HTTP client that passes the outbound guard.
func (d *Deps) HTTPClient(timeout time.Duration) *http.Client {
	return d.Guard.Client(timeout)
}
