package e2e

// The weather tool through a real MCP client against the built binary: the
// Open-Meteo base URLs come from the config file and the fixture server's
// host from the outbound allow-list.

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// openMeteoFixture replays tools/weather/testdata for the geocoding and
// forecast paths the tool uses and records the paths asked for.
func openMeteoFixture(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		name := ""
		switch q := r.URL.Query(); {
		case r.URL.Path == "/v1/search" && q.Get("name") == "北京":
			name = "geo_beijing_zh"
		case r.URL.Path == "/v1/search":
			name = "geo_none"
		case r.URL.Path == "/v1/forecast" && q.Get("current") != "":
			name = "forecast_current"
		}
		b, err := os.ReadFile(filepath.Join("..", "tools", "weather", "testdata", name+".json"))
		if name == "" || err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), paths...)
	}
}

func TestWeather_ThroughMCPClientWithFixtureServer(t *testing.T) {
	srv, asked := openMeteoFixture(t)
	writeConfig := func(allow string) string {
		cfg := filepath.Join(t.TempDir(), "c.yaml")
		os.WriteFile(cfg, []byte("network:\n  allow_hosts: ["+allow+"]\nexposure:\n  mode: full\ntools:\n  weather:\n"+
			"    forecast_url: "+srv.URL+"\n    archive_url: "+srv.URL+"\n    geocoding_url: "+srv.URL+"\n"), 0o600)
		return cfg
	}

	c := stdioClient(t, newEnv(t, "CLAWBRIDGE_CONFIG="+writeConfig(`"127.0.0.1"`)), mcp.ProtocolVersion20250618)
	if _, ok := listTools(t, c)["weather"]; !ok {
		t.Fatal("weather is not listed")
	}
	r := callTool(t, c, "weather", map[string]any{"action": "current", "place": "北京"})
	if r.IsError || !strings.Contains(text(r), "北京市") || !strings.Contains(text(r), "多云") || !strings.Contains(text(r), "28.3°C") {
		t.Fatalf("current weather in 北京: error=%v %s", r.IsError, text(r))
	}
	got := strings.Join(asked(), "\n")
	if !strings.Contains(got, "/v1/search?") || !strings.Contains(got, "language=zh") || !strings.Contains(got, "/v1/forecast?") {
		t.Fatalf("fixture server was asked:\n%s", got)
	}
	r = callTool(t, c, "weather", map[string]any{"action": "current", "place": "Atlantis123"})
	if !r.IsError || !strings.Contains(text(r), "no place called") {
		t.Fatalf("unknown place: error=%v %s", r.IsError, text(r))
	}

	// Without the host in the allow-list the guard refuses before any request.
	before := len(asked())
	c2 := stdioClient(t, newEnv(t, "CLAWBRIDGE_CONFIG="+writeConfig("")), mcp.ProtocolVersion20250618)
	r = callTool(t, c2, "weather", map[string]any{"action": "current", "place": "北京"})
	if !r.IsError || !strings.Contains(text(r), "permission_denied") && !strings.Contains(text(r), "allow_hosts") {
		t.Fatalf("loopback base URL without allow_hosts: error=%v %s", r.IsError, text(r))
	}
	if n := len(asked()); n != before {
		t.Fatalf("%d requests got past the guard", n-before)
	}
}
