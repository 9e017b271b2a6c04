package system

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func newTool(t *testing.T) (tool.Tool, *tool.Deps) {
	t.Helper()
	d := tooltest.Deps(t)
	return tooltest.Build(t, New, d), d
}

func run(t *testing.T, tl tool.Tool, args map[string]any) *tool.Result {
	t.Helper()
	res := tooltest.OK(t, tl, args)
	if res.Summary == "" {
		t.Errorf("run %v: empty summary", args)
	}
	return res
}

func TestAllActionsRead(t *testing.T) {
	tl, _ := newTool(t)
	want := []string{"info", "processes", "ports", "env", "service_status", "log_tail"}
	if got := strings.Join(tl.ActionNames(), ","); got != strings.Join(want, ",") {
		t.Errorf("actions = %s", got)
	}
	for _, a := range tl.Actions {
		if a.Level != tool.Read {
			t.Errorf("action %s is %s, want read", a.Name, a.Level)
		}
	}
	if a := tl.Annotations(); !a.ReadOnly || a.Destructive {
		t.Errorf("annotations = %+v", a)
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "log_tail"})
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); te.Field != "name" {
		t.Errorf("missing name: field %q", te.Field)
	}
}

func TestInfo(t *testing.T) {
	tl, _ := newTool(t)
	res := run(t, tl, map[string]any{"action": "info"})
	d := res.Data.(infoData)
	if d.Memory == nil || d.Memory.TotalBytes == 0 || d.Memory.AvailableBytes == 0 || d.Memory.AvailableBytes > d.Memory.TotalBytes {
		t.Fatalf("memory = %+v (unavailable %v)", d.Memory, d.Unavailable)
	}
	if d.Host == nil {
		t.Fatalf("no host info: %v", d.Unavailable)
	}
	if hn, _ := os.Hostname(); d.Host.Hostname != hn {
		t.Errorf("hostname = %q, want %q", d.Host.Hostname, hn)
	}
	if d.Host.OS != runtime.GOOS || d.Host.KernelVersion == "" || d.Host.UptimeSeconds == 0 || d.Host.Processes == 0 {
		t.Errorf("host = %+v", d.Host)
	}
	if d.CPU == nil || d.CPU.LogicalCores < 1 || d.CPU.UsagePercent < 0 || d.CPU.UsagePercent > 100 {
		t.Errorf("cpu = %+v", d.CPU)
	}
	if d.Go.Version != runtime.Version() || d.Go.Goroutines < 1 {
		t.Errorf("go = %+v", d.Go)
	}
	if len(d.Disks) == 0 {
		t.Fatalf("no disks (unavailable %v)", d.Unavailable)
	}
	for _, dk := range d.Disks {
		if dk.TotalBytes == 0 || dk.UsedBytes > dk.TotalBytes || dk.Mountpoint == "" || pseudoFS[dk.FSType] {
			t.Errorf("disk %+v", dk)
		}
	}
	if !strings.Contains(res.Summary, d.Host.Hostname) {
		t.Errorf("summary %q", res.Summary)
	}
}

func TestProcesses(t *testing.T) {
	tl, _ := newTool(t)
	me := int32(os.Getpid())
	cur, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	for _, sortBy := range []string{"cpu", "memory"} {
		t.Run(sortBy, func(t *testing.T) {
			res := run(t, tl, map[string]any{"action": "processes", "sort_by": sortBy, "limit": 500})
			d := res.Data.(procData)
			if d.SortBy != sortBy || d.TotalProcesses < 1 || len(d.Processes) == 0 || d.SampleMS <= 0 {
				t.Fatalf("data = %+v", d)
			}
			for i := 1; i < len(d.Processes); i++ {
				a, b := d.Processes[i-1], d.Processes[i]
				if (sortBy == "cpu" && a.CPUPercent < b.CPUPercent) || (sortBy == "memory" && a.RSSBytes < b.RSSBytes) {
					t.Fatalf("not sorted by %s at %d: %+v before %+v", sortBy, i, a, b)
				}
			}
			if d.TotalProcesses > 500 {
				// The list holds at most 500; CI runs far fewer processes.
				tooltest.Missing(t, "%d processes: the test's own may be past the first 500", d.TotalProcesses)
			}
			var mine *procInfo
			for i := range d.Processes {
				if d.Processes[i].PID == me {
					mine = &d.Processes[i]
				}
			}
			if mine == nil {
				t.Fatalf("own pid %d not among %d processes", me, len(d.Processes))
			}
			if mine.Name == "" || mine.RSSBytes == 0 || mine.MemoryPercent <= 0 || mine.User != cur.Username || !strings.Contains(mine.Command, "system.test") {
				t.Errorf("own process = %+v", *mine)
			}
		})
	}
	res := run(t, tl, map[string]any{"action": "processes", "limit": 3})
	if n := len(res.Data.(procData).Processes); n != 3 {
		t.Errorf("limit 3 gave %d", n)
	}
}

func TestRedactCommand(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"nginx", "-g", "daemon off;"}, "nginx -g daemon off;"},
		{[]string{"app", "--password", "hunter2", "--port", "80"}, "app --password *** --port 80"},
		{[]string{"app", "--api-key=abc123", "x"}, "app --api-key=*** x"},
		{[]string{"env", "DB_PASSWORD=s3cret", "run"}, "env DB_PASSWORD=*** run"},
		{[]string{"psql", "postgres://bob:pw@db:5432/x"}, "psql postgres://bob:***@db:5432/x"},
		{[]string{"curl", "-H", "Authorization: Bearer abc.def"}, "curl -H Authorization: ***"},
		{[]string{"app", "--no-auth", "--verbose"}, "app --no-auth --verbose"},
	}
	for _, tc := range tests {
		if got := redactCommand(tc.argv, 300); got != tc.want {
			t.Errorf("redactCommand(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
	if got := redactCommand([]string{strings.Repeat("x", 400)}, 300); len(got) != 300+len("…") {
		t.Errorf("long command not cut: %d", len(got))
	}
}

func TestPorts(t *testing.T) {
	tl, _ := newTool(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	tcpPort := uint32(ln.Addr().(*net.TCPAddr).Port)
	udpPort := uint32(pc.LocalAddr().(*net.UDPAddr).Port)
	me := int32(os.Getpid())

	find := func(d portsData, proto string, port uint32) *portInfo {
		for i := range d.Ports {
			if d.Ports[i].Port == port && strings.HasPrefix(d.Ports[i].Protocol, proto) {
				return &d.Ports[i]
			}
		}
		return nil
	}
	tests := []struct {
		protocol         string
		wantTCP, wantUDP bool
	}{
		{"all", true, true},
		{"tcp", true, false},
		{"udp", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.protocol, func(t *testing.T) {
			d := run(t, tl, map[string]any{"action": "ports", "protocol": tc.protocol}).Data.(portsData)
			if d.Count != len(d.Ports) {
				t.Errorf("count %d for %d ports", d.Count, len(d.Ports))
			}
			for proto, want := range map[string]bool{"tcp": tc.wantTCP, "udp": tc.wantUDP} {
				port := tcpPort
				if proto == "udp" {
					port = udpPort
				}
				p := find(d, proto, port)
				if !want {
					if p != nil {
						t.Errorf("%s port %d listed for protocol=%s", proto, port, tc.protocol)
					}
					continue
				}
				if p == nil {
					t.Fatalf("%s listener on %d not found in %+v", proto, port, d.Ports)
				}
				if p.Address != "127.0.0.1" || p.PID != me || p.Process == "" {
					t.Errorf("%s listener = %+v, want 127.0.0.1 pid %d with a name", proto, *p, me)
				}
			}
		})
	}
}

func TestEnvRedacted(t *testing.T) {
	t.Setenv("FAKE_SECRET_TOKEN", "fake-secret-value-123")
	t.Setenv("SYSENVTEST_DB_URL", "postgres://admin:hunter2@db.internal/app")
	t.Setenv("SYSENVTEST_HEADER", "Bearer abcdef123456")
	t.Setenv("SYSENVTEST_PLAIN", "visible-value")
	tl, _ := newTool(t)
	res := run(t, tl, map[string]any{"action": "env"})
	d := res.Data.(envData)
	if d.Count < 4 || d.Count != len(d.Variables) {
		t.Fatalf("count = %d, %d variables", d.Count, len(d.Variables))
	}
	if v := d.Variables["FAKE_SECRET_TOKEN"]; v != "***" {
		t.Errorf("FAKE_SECRET_TOKEN = %q, want ***", v)
	}
	if v := d.Variables["SYSENVTEST_DB_URL"]; strings.Contains(v, "hunter2") || !strings.Contains(v, "db.internal") {
		t.Errorf("SYSENVTEST_DB_URL = %q, want the password masked", v)
	}
	if v := d.Variables["SYSENVTEST_HEADER"]; strings.Contains(v, "abcdef123456") {
		t.Errorf("SYSENVTEST_HEADER = %q, want the token masked", v)
	}
	if v := d.Variables["SYSENVTEST_PLAIN"]; v != "visible-value" {
		t.Errorf("SYSENVTEST_PLAIN = %q", v)
	}
	found := false
	for _, n := range d.Redacted {
		found = found || n == "FAKE_SECRET_TOKEN"
	}
	if !found {
		t.Errorf("redacted = %v", d.Redacted)
	}
	if s := fmt.Sprint(d); strings.Contains(s, "fake-secret-value-123") {
		t.Error("the secret value reached the result")
	}

	d = run(t, tl, map[string]any{"action": "env", "query": "sysenvtest_"}).Data.(envData)
	if d.Count != 3 {
		t.Errorf("query gave %d variables: %v", d.Count, d.Variables)
	}
}

func TestServiceStatus(t *testing.T) {
	healthy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"status":"ok"}`)
	}))
	defer healthy.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "database unavailable", http.StatusServiceUnavailable)
	}))
	defer broken.Close()
	// A service that redirects to the cloud metadata address: the client
	// allows the configured hosts only, so the redirect is refused.
	sneaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	}))
	defer sneaky.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()

	tl, d := newTool(t) // no allow-listed hosts: the shared guard refuses loopback
	if _, err := d.Guard.CheckURL(healthy.URL); err == nil {
		t.Fatal("test premise: the shared guard should refuse loopback")
	}
	_, err := tooltest.Run(t, tl, map[string]any{"action": "service_status"})
	if te := tooltest.ToolError(t, err, tool.CodeUnavailable); !strings.Contains(te.Hint, "system.services") {
		t.Errorf("hint = %q", te.Hint)
	}

	d.Config.System.Services = []config.Service{
		{Name: "api", URL: healthy.URL + "/healthz"},
		{Name: "db", URL: broken.URL + "/healthz"},
		{Name: "gone", URL: closedURL},
		{Name: "sneaky", URL: sneaky.URL},
	}
	res := run(t, tl, map[string]any{"action": "service_status"})
	data := res.Data.(servicesData)
	if data.Up != 1 || data.Down != 3 || len(data.Services) != 4 {
		t.Fatalf("up=%d down=%d: %+v", data.Up, data.Down, data.Services)
	}
	byName := map[string]serviceResult{}
	for _, s := range data.Services {
		byName[s.Name] = s
	}
	if s := byName["api"]; !s.Up || s.HTTPStatus != 200 || s.Body != `{"status":"ok"}` || s.Error != "" {
		t.Errorf("api = %+v", s)
	}
	if s := byName["db"]; s.Up || s.HTTPStatus != 503 || !strings.Contains(s.Body, "database unavailable") || !strings.Contains(s.Error, "503") {
		t.Errorf("db = %+v", s)
	}
	if s := byName["gone"]; s.Up || s.HTTPStatus != 0 || s.Error == "" {
		t.Errorf("gone = %+v", s)
	}
	if s := byName["sneaky"]; s.Up || !strings.Contains(s.Error, "not followed") || s.Redirect == "" {
		t.Errorf("sneaky = %+v, want the redirect refused by the guard", s)
	}
	if !strings.Contains(res.Summary, "1 of 4") || !strings.Contains(res.Summary, "db") {
		t.Errorf("summary = %q", res.Summary)
	}

	one := run(t, tl, map[string]any{"action": "service_status", "name": "api"}).Data.(servicesData)
	if len(one.Services) != 1 || one.Services[0].Name != "api" || one.Up != 1 {
		t.Errorf("name=api: %+v", one)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "service_status", "name": "nope"})
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); !strings.Contains(te.Hint, "api, db") {
		t.Errorf("unknown service hint = %q", te.Hint)
	}
	// The shared guard is not widened by the checks.
	if _, err := d.Guard.CheckURL(healthy.URL); err == nil {
		t.Error("the shared guard now allows loopback")
	}
}

func writeLines(t *testing.T, path string, n int, width int, trailingNewline bool) {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("line %04d ", i)
		line += strings.Repeat("x", max(0, width-len(line)))
		b.WriteString(line)
		if i < n || trailingNewline {
			b.WriteString("\n")
		}
	}
	tooltest.WriteFile(t, path, []byte(b.String()))
}

func TestLogTail(t *testing.T) {
	tl, d := newTool(t)
	dir := t.TempDir()
	short := filepath.Join(dir, "app.log")
	writeLines(t, short, 1000, 20, true)
	wide := filepath.Join(dir, "wide.log") // ~300 KB: several chunks from the end
	writeLines(t, wide, 1000, 300, false)
	secret := filepath.Join(dir, "auth.log")
	tooltest.WriteFile(t, secret, []byte("start\nGET / Authorization: Bearer abc.def.ghi\n"))
	d.Config.System.LogFiles = []config.LogFile{
		{Name: "app", Path: short}, {Name: "wide", Path: wide}, {Name: "auth", Path: secret},
		{Name: "missing", Path: filepath.Join(dir, "nope.log")},
	}

	tests := []struct {
		name        string
		limit       int // 0: default
		first, last int
	}{
		{"app", 10, 991, 1000},
		{"app", 0, 901, 1000},
		{"app", 1, 1000, 1000},
		{"app", 5000, 1, 1000},
		{"wide", 10, 991, 1000},
		{"wide", 500, 501, 1000},
		{"wide", 1000, 1, 1000},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%d", tc.name, tc.limit), func(t *testing.T) {
			args := map[string]any{"action": "log_tail", "name": tc.name}
			if tc.limit > 0 {
				args["limit"] = tc.limit
			}
			ld := run(t, tl, args).Data.(logData)
			want := tc.last - tc.first + 1
			if ld.Count != want || len(ld.Lines) != want {
				t.Fatalf("got %d lines, want %d", len(ld.Lines), want)
			}
			for i, l := range ld.Lines {
				if !strings.HasPrefix(l, fmt.Sprintf("line %04d ", tc.first+i)) {
					t.Fatalf("line %d = %.20q, want line %04d", i, l, tc.first+i)
				}
			}
			if ld.FileSize == 0 || ld.Partial {
				t.Errorf("file_size=%d partial=%v", ld.FileSize, ld.Partial)
			}
		})
	}

	ld := run(t, tl, map[string]any{"action": "log_tail", "name": "auth"}).Data.(logData)
	if len(ld.Lines) != 2 || strings.Contains(ld.Lines[1], "abc.def.ghi") {
		t.Errorf("auth lines = %q, want the bearer token masked", ld.Lines)
	}

	_, err := tooltest.Run(t, tl, map[string]any{"action": "log_tail", "name": "/etc/passwd"})
	te := tooltest.ToolError(t, err, tool.CodeInvalid)
	if te.Field != "name" || !strings.Contains(te.Message, "/etc/passwd") || !strings.Contains(te.Hint, "app, wide, auth") {
		t.Errorf("unknown log error = %+v", te)
	}
	_, err = tooltest.Run(t, tl, map[string]any{"action": "log_tail", "name": "missing"})
	tooltest.ToolError(t, err, tool.CodeNotFound)

	d.Config.System.LogFiles = nil
	_, err = tooltest.Run(t, tl, map[string]any{"action": "log_tail", "name": "app"})
	if te := tooltest.ToolError(t, err, tool.CodeInvalid); !strings.Contains(te.Hint, "system.log_files") {
		t.Errorf("no logs hint = %q", te.Hint)
	}
}

// TestTailLines compares the backwards reader with a plain split on files
// whose line breaks fall on and around the chunk boundaries.
func TestTailLines(t *testing.T) {
	contents := map[string]string{
		"empty":           "",
		"newline only":    "\n",
		"one line":        "hello",
		"one line nl":     "hello\n",
		"crlf":            "a\r\nb\r\nc\r\n",
		"blank lines":     "a\n\n\nb\n",
		"chunk aligned":   strings.Repeat(strings.Repeat("y", tailChunk-1)+"\n", 3),
		"chunk plus one":  strings.Repeat(strings.Repeat("z", tailChunk)+"\n", 3),
		"long then short": strings.Repeat("q", 3*tailChunk) + "\nshort\nend",
	}
	for name, c := range contents {
		for _, n := range []int{1, 2, 3, 10} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				got, partial, err := tailLines(strings.NewReader(c), int64(len(c)), n)
				if err != nil || partial {
					t.Fatalf("err=%v partial=%v", err, partial)
				}
				var want []string
				if body := strings.TrimSuffix(c, "\n"); body != "" || c == "\n" {
					want = strings.Split(body, "\n")
				}
				if c == "\n" {
					want = nil
				}
				for i := range want {
					want[i] = strings.TrimSuffix(want[i], "\r")
				}
				if len(want) > n {
					want = want[len(want)-n:]
				}
				if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
					t.Errorf("got %d lines %.60q, want %d lines %.60q", len(got), got, len(want), want)
				}
			})
		}
	}
	// One huge line past the budget: partial, nothing invented.
	huge := strings.Repeat("h", tailBudget+tailChunk) + "\nlast"
	got, partial, err := tailLines(strings.NewReader(huge), int64(len(huge)), 5)
	if err != nil || !partial || len(got) != 1 || got[0] != "last" {
		t.Errorf("huge: err=%v partial=%v lines=%d", err, partial, len(got))
	}
}

func BenchmarkLogTail(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.log")
	var sb strings.Builder
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&sb, "2026-11-29T20:00:00Z INFO request %d served in 3ms\n", i)
	}
	tooltest.WriteFile(b, path, []byte(sb.String()))
	d := tooltest.Deps(b)
	d.Config.System.LogFiles = []config.LogFile{{Name: "big", Path: path}}
	tl := tooltest.Build(b, New, d)
	for b.Loop() {
		if _, err := tooltest.Run(b, tl, map[string]any{"action": "log_tail", "name": "big", "limit": 100}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestServiceStatus_RedirectOnlyToConfigured: a health check reaches only
// configured scheme://host:port pairs. A redirect from a configured service
// to another port on the same (allowed) host is reported and not followed;
// redirects within a service or to another configured service are.
func TestServiceStatus_RedirectOnlyToConfigured(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "internal admin page")
	}))
	defer other.Close()
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "peer ok")
	}))
	defer peer.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/elsewhere":
			http.Redirect(w, r, other.URL+"/admin?token=abc123secret", http.StatusFound)
		case "/self":
			http.Redirect(w, r, "/ok", http.StatusMovedPermanently)
		case "/peer":
			http.Redirect(w, r, peer.URL+"/", http.StatusFound)
		case "/ok":
			fmt.Fprint(w, "self ok")
		}
	}))
	defer redirector.Close()

	tl, d := newTool(t)
	d.Config.System.Services = []config.Service{
		{Name: "elsewhere", URL: redirector.URL + "/elsewhere"},
		{Name: "self", URL: redirector.URL + "/self"},
		{Name: "peer-redirect", URL: redirector.URL + "/peer"},
		{Name: "peer", URL: peer.URL},
	}
	data := run(t, tl, map[string]any{"action": "service_status"}).Data.(servicesData)
	byName := map[string]serviceResult{}
	for _, s := range data.Services {
		byName[s.Name] = s
	}
	if hits.Load() != 0 {
		t.Fatalf("the unconfigured server was reached %d times", hits.Load())
	}
	s := byName["elsewhere"]
	if s.Up || s.HTTPStatus != http.StatusFound || !strings.Contains(s.Redirect, other.URL) || !strings.Contains(s.Error, "not followed") {
		t.Errorf("elsewhere = %+v", s)
	}
	if strings.Contains(fmt.Sprint(s), "abc123secret") {
		t.Errorf("redirect target's token shown: %+v", s)
	}
	if s := byName["self"]; !s.Up || s.Body != "self ok" {
		t.Errorf("self = %+v", s)
	}
	if s := byName["peer-redirect"]; !s.Up || s.Body != "peer ok" {
		t.Errorf("peer-redirect = %+v", s)
	}
}

// TestRedactCommand_SecretArguments: the argument shapes that carry
// secrets on a command line are masked; ordinary arguments are kept.
func TestRedactCommand_SecretArguments(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"app", "--password=hunter2"}, "app --password=***"},
		{[]string{"app", "--token", "tok123"}, "app --token ***"},
		{[]string{"app", "--auth-token", "tok123"}, "app --auth-token ***"},
		{[]string{"app", "token=tok123"}, "app token=***"},
		{[]string{"worker", "--url=https://api.example/v1?access_token=tok123&x=1"}, "worker --url=https://api.example/v1?access_token=***&x=1"},
		{[]string{"app", "--opts", "user=bob;password=hunter2;host=db"}, "app --opts user=bob;password=***;host=db"},
		{[]string{"redis-cli", "-u", "redis://default:hunter2@127.0.0.1:6379"}, "redis-cli -u redis://default:***@127.0.0.1:6379"},
		{[]string{"curl", "-H", "Authorization: Basic dXNlcjpodW50ZXIy"}, "curl -H Authorization: ***"},
		{[]string{"curl", "-H", "X-Api-Key: k-123456"}, "curl -H X-Api-Key: ***"},
		{[]string{"curl", "-H", "Accept: application/json"}, "curl -H Accept: application/json"},
		{[]string{"/usr/bin/mysql", "-u", "root", "-phunter2", "shop"}, "/usr/bin/mysql -u root -p*** shop"},
		{[]string{"ls", "-plain"}, "ls -plain"},
		{[]string{"app", "--port=80", "--name=x"}, "app --port=80 --name=x"},
	}
	for _, tc := range tests {
		got := redactCommand(tc.argv, 300)
		if got != tc.want {
			t.Errorf("redactCommand(%q) = %q, want %q", tc.argv, got, tc.want)
		}
		for _, secret := range []string{"hunter2", "tok123", "dXNlcjpodW50ZXIy", "k-123456"} {
			if strings.Contains(got, secret) {
				t.Errorf("redactCommand(%q) leaks %s", tc.argv, secret)
			}
		}
	}
}

// TestProcesses_RedactsLiveCommandLine: a real process started with secrets
// on its command line is listed with them masked.
func TestProcesses_RedactsLiveCommandLine(t *testing.T) {
	// A shell whose argv carries the secrets as separate arguments ($0, $1...).
	sh := exec.Command("sh", "-c", "sleep 30; true", "worker", "--password=live-hunter2", "token=live-tok", "--api-key", "live-key", "Authorization: Bearer live-bearer")
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sh.Process.Kill(); sh.Wait() }()
	time.Sleep(100 * time.Millisecond)
	tl, _ := newTool(t)
	res := run(t, tl, map[string]any{"action": "processes", "limit": 500, "sort_by": "memory"})
	found := false
	for _, p := range res.Data.(procData).Processes {
		if p.PID != int32(sh.Process.Pid) {
			continue
		}
		found = true
		if !strings.Contains(p.Command, "--password=***") {
			t.Errorf("command = %q", p.Command)
		}
		for _, s := range []string{"live-hunter2", "live-tok", "live-key", "live-bearer"} {
			if strings.Contains(p.Command, s) {
				t.Errorf("command shows %s: %q", s, p.Command)
			}
		}
	}
	if !found {
		t.Fatalf("the test process %d was not listed", sh.Process.Pid)
	}
}
