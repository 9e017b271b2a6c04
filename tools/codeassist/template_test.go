package codeassist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// writeSkeleton asks the tool for a skeleton and writes its files into a
// fresh directory, as a client would with the file tool.
func writeSkeleton(t *testing.T, tl tool.Tool, lang, kind, name string) string {
	t.Helper()
	res := tooltest.OK(t, tl, map[string]any{"action": "template", "language": lang, "kind": kind, "name": name})
	dir := t.TempDir()
	files := res.Data.(map[string]any)["files"].([]templateFile)
	if len(files) == 0 {
		t.Fatal("no files")
	}
	for _, f := range files {
		if strings.Contains(f.Content, "{%") {
			t.Errorf("%s: unfilled placeholder", f.Path)
		}
		tooltest.WriteFile(t, filepath.Join(dir, f.Path), []byte(f.Content))
	}
	return dir
}

// runIn runs a program in dir and returns its standard output.
func runIn(t *testing.T, dir string, stdin string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v in %s: %v\n%s%s", name, args, dir, err, out.String(), errb.String())
	}
	return out.String()
}

// serve starts an HTTP skeleton on a free loopback port, waits for its
// health check, exercises its items, and stops it.
func serve(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "PORT", strconv.Itoa(port))
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(15 * time.Second)
	for {
		res, err := client.Get(base + "/health")
		if err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !strings.Contains(string(body), `"ok"`) {
				t.Fatalf("/health: %d %s", res.StatusCode, body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not answer /health: %v\n%s", err, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	res, err := client.Post(base+"/items", "application/json", strings.NewReader(`{"name": "first"}`))
	if err != nil {
		t.Fatal(err)
	}
	var item struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	json.NewDecoder(res.Body).Decode(&item)
	res.Body.Close()
	if res.StatusCode != 201 || item.ID != 1 || item.Name != "first" {
		t.Fatalf("POST /items: %d %+v", res.StatusCode, item)
	}
	res, err = client.Post(base+"/items", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("POST /items without a name: %d, want 400", res.StatusCode)
	}
	res, err = client.Get(base + "/items/1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET /items/1: %d", res.StatusCode)
	}
}

// The Go skeletons are gofmt-clean, pass go vet, build, and run.
func TestTemplate_GoBuildsAndRuns(t *testing.T) {
	goBin := tooltest.NeedProgram(t, "go")
	tl, _ := setup(t)
	for _, kind := range templateKinds {
		t.Run(kind, func(t *testing.T) {
			dir := writeSkeleton(t, tl, "go", kind, "my-tool")
			matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
			for _, p := range matches {
				src, _ := os.ReadFile(p)
				if out, err := format.Source(src); err != nil || !bytes.Equal(out, src) {
					t.Errorf("%s is not gofmt-clean (%v)", filepath.Base(p), err)
				}
			}
			runIn(t, dir, "", goBin, "vet", "./...")
			switch kind {
			case "cli":
				runIn(t, dir, "", goBin, "build", "-o", "my-tool", ".")
				if out := runIn(t, dir, "one two\nthree\n", "./my-tool"); out != "2 3 14 -\n" {
					t.Errorf("cli on stdin printed %q", out)
				}
				if out := runIn(t, dir, "", "./my-tool", "-w", "go.mod"); out != "4 go.mod\n" {
					t.Errorf("cli -w printed %q", out)
				}
			case "http_api":
				runIn(t, dir, "", goBin, "test", "./...")
				runIn(t, dir, "", goBin, "build", "-o", "api", ".")
				serve(t, dir, "./api", "-addr", "127.0.0.1:PORT")
			case "test":
				if out := runIn(t, dir, "", goBin, "test", "-v", "./..."); !strings.Contains(out, "--- PASS: TestClamp") {
					t.Errorf("go test output:\n%s", out)
				}
			}
		})
	}
}

func TestTemplate_PythonRuns(t *testing.T) {
	py := tooltest.NeedProgram(t, "python3")
	tl, _ := setup(t)
	dir := writeSkeleton(t, tl, "python", "cli", "wordcount")
	if out := runIn(t, dir, "one two\nthree\n", py, "cli.py"); out != "2 3 14 -\n" {
		t.Errorf("cli on stdin printed %q", out)
	}
	if out := runIn(t, dir, "", py, "cli.py", "--help"); !strings.Contains(out, "usage: wordcount") {
		t.Errorf("--help printed %q", out)
	}
	serve(t, writeSkeleton(t, tl, "python", "http_api", "api"), py, "server.py", "--port", "PORT")
	dir = writeSkeleton(t, tl, "python", "test", "calc")
	cmd := exec.Command(py, "-m", "unittest", "-v")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Ran 2 tests") || !strings.Contains(string(out), "OK") {
		t.Errorf("unittest: %v\n%s", err, out)
	}
}

func TestTemplate_JavaScriptRuns(t *testing.T) {
	node := tooltest.NeedProgram(t, "node")
	tl, _ := setup(t)
	dir := writeSkeleton(t, tl, "javascript", "cli", "wordcount")
	if out := runIn(t, dir, "one two\nthree\n", node, "cli.js"); out != "2 3 14 -\n" {
		t.Errorf("cli on stdin printed %q", out)
	}
	if out := runIn(t, dir, "", node, "cli.js", "-w", "package.json"); !strings.HasSuffix(out, " package.json\n") {
		t.Errorf("cli -w printed %q", out)
	}
	serve(t, writeSkeleton(t, tl, "javascript", "http_api", "api"), node, "server.js", "--port", "PORT")
	dir = writeSkeleton(t, tl, "javascript", "test", "calc")
	if out := runIn(t, dir, "", node, "--test"); !strings.Contains(out, "# pass 6") || !strings.Contains(out, "# fail 0") {
		t.Errorf("node --test:\n%s", out)
	}
}

func TestTemplate_BadInputs(t *testing.T) {
	tl, _ := setup(t)
	for _, args := range []map[string]any{
		{"language": "go", "kind": "cli", "name": "../evil"},
		{"language": "go", "kind": "cli", "name": "x\"; rm -rf /"},
		{"language": "cobol", "kind": "cli"},
		{"language": "go", "kind": "desktop"},
		{"language": "go"},
	} {
		args["action"] = "template"
		_, err := tooltest.Run(t, tl, args)
		tooltest.ToolError(t, err, tool.CodeInvalid)
	}
}
