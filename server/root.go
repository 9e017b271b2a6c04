package server

import (
	"fmt"
	"net/http"
)

// endpointsText names what this server answers, for a person who opens
// the bare address or a path that is not there.
const endpointsText = `This is clawbridge, an MCP server. Its endpoints:
  /mcp      streamable HTTP (MCP clients: use http://HOST:PORT/mcp)
  /sse      SSE (messages to /message)
  /ui       the dashboard (open it in a browser)
  /healthz  health
  /metrics  Prometheus metrics
`

// root answers "/" and every path no other handler takes. A GET or HEAD
// of "/" (a browser opening the address) is sent to the dashboard, with the
// endpoints in the body for a client that does not follow redirects; any
// other path or method is 404 with the endpoints, so a client configured
// with the wrong path learns the right one.
func root(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		w.Header().Set("Location", "/ui")
		w.WriteHeader(http.StatusSeeOther)
		fmt.Fprint(w, "See /ui for the dashboard.\n\n"+endpointsText)
		return
	}
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, "404: nothing at %s %s.\n\n%s", r.Method, r.URL.Path, endpointsText)
}
