// Package bridgetest finds the real npm MCP servers that the bridge's tests
// run and the real MCP clients the end-to-end tests drive (installed by
// scripts/install-mcp-servers.sh into .cache/mcp-servers), serves
// server-everything over its HTTP transports for them, and lists and calls
// tools through an mcp-go client as those tests and the server's do.
package bridgetest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

var install sync.Once

// Script returns the path of an installed server's entry point, e.g.
// Script(t, "server-everything"). Without npm the test is skipped, unless
// CLAWBRIDGE_REQUIRE_PROGRAMS is set.
func Script(t testing.TB, pkg string) string {
	t.Helper()
	return installed(t, pkg, filepath.Join("node_modules/@modelcontextprotocol", pkg, "dist/index.js"))
}

// Bin returns the path of an installed npm command, e.g. Bin(t, "claude").
func Bin(t testing.TB, name string) string {
	t.Helper()
	return installed(t, name, filepath.Join("node_modules/.bin", name))
}

// installed installs the pinned packages once and returns the file at rel
// under .cache/mcp-servers.
func installed(t testing.TB, what, rel string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") != "" {
			t.Fatal("node/npm is required (CLAWBRIDGE_REQUIRE_PROGRAMS is set)")
		}
		t.Skip("node/npm not installed")
	}
	root := repoRoot(t)
	file := filepath.Join(root, ".cache/mcp-servers", rel)
	install.Do(func() {
		if _, err := os.Stat(file); err == nil {
			return
		}
		cmd := exec.Command(filepath.Join(root, "scripts/install-mcp-servers.sh"), filepath.Join(root, ".cache/mcp-servers"))
		cmd.Stderr = os.Stderr
		_ = cmd.Run()
	})
	if _, err := os.Stat(file); err != nil {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") != "" {
			t.Fatalf("%s is not installed (scripts/install-mcp-servers.sh): %v", what, err)
		}
		t.Skipf("%s is not installed: %v", what, err)
	}
	return file
}

func repoRoot(t testing.TB) string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// Everything is server-everything running in one of its HTTP modes
// ("sse" or "streamableHttp") on a free loopback port.
type Everything struct {
	Port int
	mode string
	mu   sync.Mutex
	cmd  *exec.Cmd
}

// ServeEverything starts server-everything in mode and waits until its port
// accepts connections; it is stopped when the test ends.
func ServeEverything(t testing.TB, mode string) *Everything {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &Everything{Port: l.Addr().(*net.TCPAddr).Port, mode: mode}
	l.Close()
	t.Cleanup(e.Stop)
	e.Start(t)
	return e
}

// Start starts the server on its port (again, after Stop) and waits until
// the port accepts connections.
func (e *Everything) Start(t testing.TB) {
	t.Helper()
	cmd := exec.Command("node", Script(t, "server-everything"), e.mode)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", e.Port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	e.cmd = cmd
	e.mu.Unlock()
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", e.Port))
		if err == nil {
			c.Close()
			return
		}
		if i == 200 {
			t.Fatalf("server-everything %s did not listen on %d: %v", e.mode, e.Port, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// URL is the server's address with path ("/sse", "/mcp").
func (e *Everything) URL(path string) string {
	return fmt.Sprintf("http://127.0.0.1:%d%s", e.Port, path)
}

// Stop kills the running server (its process group) and waits for it;
// safe to call more than once, from any goroutine.
func (e *Everything) Stop() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cmd == nil {
		return
	}
	_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
	_ = e.cmd.Wait()
	e.cmd = nil
}
