package tools_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// listed is what `go list -json` says of one package.
type listed struct {
	ImportPath                         string
	Imports, TestImports, XTestImports []string
	Deps                               []string // every package it links, transitively
}

// goList lists every package of the module.
func goList(t *testing.T) map[string]listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "github.com/clawbridge/clawbridge/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]listed{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs
}

const toolsPrefix = "github.com/clawbridge/clawbridge/tools/"

// toolOf is the tool a package under tools/ belongs to ("email" for
// tools/email/smtptest); "" outside tools/.
func toolOf(path string) string {
	rest, ok := strings.CutPrefix(path, toolsPrefix)
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// contractKit are the packages every tool may import: the contract and its
// test kit.
var contractKit = []string{"tool", "tooltest"}

// TestLayering: the arrows between packages point one way. A tool package
// imports no other tool's package (what tools share lives in internal/ or in
// the contract); package browser, the engine, imports nothing under tools/;
// and the contract links no database driver or MCP library, so that every
// tool and the browser do not carry them.
func TestLayering(t *testing.T) {
	pkgs := goList(t)
	if len(pkgs) < 40 {
		t.Fatalf("go list found %d packages; expected the whole module", len(pkgs))
	}
	for path, p := range pkgs {
		from := toolOf(path)
		if from != "" && !slices.Contains(contractKit, from) {
			for _, imp := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
				if to := toolOf(imp); to != "" && to != from && !slices.Contains(contractKit, to) {
					t.Errorf("%s imports %s: tools share code through internal/ or tools/tool, not through each other", path, imp)
				}
			}
		}
		if path == "github.com/clawbridge/clawbridge/browser" {
			for _, dep := range p.Deps {
				if strings.HasPrefix(dep, toolsPrefix) {
					t.Errorf("browser links %s: the browser engine must not depend on the tools built on it", dep)
				}
			}
		}
		if strings.HasPrefix(path, "github.com/clawbridge/clawbridge/browser/") { // its test kit shares the tools' skip policy (tooltest), no more
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, toolsPrefix) && imp != toolsPrefix+"tooltest" {
					t.Errorf("%s imports %s: the browser engine must not depend on the tools built on it", path, imp)
				}
			}
		}
	}
	// The CLI names no tool: doctor runs each tool's own Checks. It builds
	// the registry, and wires the downstream servers into Deps through
	// mcp_bridge's adapter.
	for _, imp := range pkgs["github.com/clawbridge/clawbridge/internal/cli"].Imports {
		if toolOf(imp) != "" && !slices.Contains([]string{"tool", "bridge"}, toolOf(imp)) {
			t.Errorf("internal/cli imports %s: give the tool a Check (tools/tool.Check) instead", imp)
		}
	}
	contract, ok := pkgs[toolsPrefix+"tool"]
	if !ok {
		t.Fatal("go list did not list tools/tool")
	}
	for _, heavy := range []string{"modernc.org/sqlite", "github.com/jackc/pgx", "github.com/mark3labs/mcp-go"} {
		for _, dep := range contract.Deps {
			if dep == heavy || strings.HasPrefix(dep, heavy+"/") {
				t.Errorf("tools/tool links %s: the contract declares interfaces; the composition root passes the implementations", dep)
				break
			}
		}
	}
}
