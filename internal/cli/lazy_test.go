package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/browser"
)

// A session that lists tools and calls file starts no browser: the manager
// is assembled with the app but launches Chromium only for a browser call.
func TestLazyStart_ListAndFileLaunchNoBrowser(t *testing.T) {
	dir := cliEnv(t)
	os.MkdirAll(filepath.Join(dir, "ws"), 0o755)
	os.WriteFile(filepath.Join(dir, "ws", "a.txt"), []byte("hello"), 0o600)
	a, err := newApp(filepath.Join(dir, "config.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	bm := a.deps.Sessions.(*browser.Manager)

	cin, sout := io.Pipe()
	sin, cout := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	done := make(chan struct{})
	go func() { a.srv.ServeStdio(ctx, sin, sout); close(done) }()
	t.Cleanup(func() { cancel(); cout.Close(); sout.Close(); <-done })
	c := client.NewClient(transport.NewIO(cin, cout, io.NopCloser(strings.NewReader(""))))
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	init.Params.ClientInfo = mcp.Implementation{Name: "lazy-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	if res, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil || len(res.Tools) == 0 {
		t.Fatalf("tools/list: %v", err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "file"
	req.Params.Arguments = map[string]any{"action": "stat", "path": "a.txt"}
	r, err := c.CallTool(ctx, req)
	if err != nil || r.IsError {
		t.Fatalf("file stat: %v %+v", err, r)
	}
	if bm.Running() || bm.Sessions() != 0 {
		t.Errorf("listing tools and calling file started the browser (running %v, sessions %d)", bm.Running(), bm.Sessions())
	}
}
