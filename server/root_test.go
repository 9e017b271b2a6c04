package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestRoot_BrowserGoesToUIAndPathsNameEndpoints: over real HTTP, a browser
// opening the bare address lands on the dashboard; a client that does not
// follow redirects, a POST to "/" and an unknown path are told /mcp and
// /sse; an MCP client on /mcp is unaffected.
func TestRoot_BrowserGoesToUIAndPathsNameEndpoints(t *testing.T) {
	addr, _, _ := listen(t, hardServer(t, nil))
	base := "http://" + addr

	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Request.URL.Path != "/ui" || !strings.Contains(string(page), "<html") {
		t.Fatalf("GET / ended at %s with %d:\n%.200s", resp.Request.URL, resp.StatusCode, page)
	}

	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/", http.StatusSeeOther},
		{"POST", "/", http.StatusNotFound},
		{"GET", "/mcp/", http.StatusNotFound},
		{"GET", "/index.html", http.StatusNotFound},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), "/mcp") || !strings.Contains(string(body), "/sse") {
			t.Errorf("%s %s: %d\n%s", c.method, c.path, resp.StatusCode, body)
		}
		if c.status == http.StatusSeeOther && resp.Header.Get("Location") != "/ui" {
			t.Errorf("GET / redirects to %q", resp.Header.Get("Location"))
		}
	}

	c, err := streamClient(t, base)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if res, err := callEcho(c, "still here"); err != nil || res.IsError {
		t.Fatalf("MCP call on /mcp: %v %v", err, res)
	}
}
