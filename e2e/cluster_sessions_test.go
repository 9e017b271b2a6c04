package e2e

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestCluster_LegacySessionsStayOnTheirInstance: sessions of the
// 2025-06-18 era (Mcp-Session-Id) through nginx reach the instance that
// made them for every request after initialize — each instance names its
// session ids (http.instance) and nginx routes on that name — so none gets
// 404 (a different limit each time: the loop guard is per session too).
func TestCluster_LegacySessionsStayOnTheirInstance(t *testing.T) {
	c := startCluster(t)
	const sessions = 12
	instances := map[string]bool{}
	for i := range sessions {
		cl, err := client.NewStreamableHttpClient(c.URL, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + c.Token}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cl.Close() })
		if err := cl.Start(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		initialize(t, cl, mcp.ProtocolVersion20250618)
		id := cl.GetSessionId()
		name, _, ok := strings.Cut(strings.TrimPrefix(id, "mcp-session-"), "-")
		if !ok || !strings.HasPrefix(id, "mcp-session-i") {
			t.Fatalf("session %d: id %q does not name its instance", i, id)
		}
		instances[name] = true
		for k := range 4 {
			if r, err := callErr(ctxT(t), cl, "file", map[string]any{"action": "list", "path": ".", "limit": k + 1}); err != nil || r.IsError {
				t.Fatalf("session %d (%s), request %d after initialize: %v %v", i, id, k, err, r)
			}
		}
		if len(toolNames(t, cl)) == 0 {
			t.Fatalf("session %d: empty tools/list", i)
		}
	}
	if len(instances) < 2 {
		t.Errorf("%d sessions all made by %v: initialize should spread over the instances", sessions, instances)
	}
}
