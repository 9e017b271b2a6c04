package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestWorkspaceSection_ListAndMapping: workspace is either a list of roots
// or a mapping with roots and trust_client_roots; trust defaults to false.
func TestWorkspaceSection_ListAndMapping(t *testing.T) {
	t.Setenv("CLAWBRIDGE_WORKSPACE", "")
	cases := []struct {
		yaml  string
		roots []string
		trust bool
	}{
		{"workspace: [/a, /b]\n", []string{"/a", "/b"}, false},
		{"workspace:\n  roots: [/c]\n  trust_client_roots: true\n", []string{"/c"}, true},
		{"workspace:\n  roots: [/d]\n", []string{"/d"}, false},
		{"workspace:\n  trust_client_roots: true\n", Default().Workspace, true},
		{"log_level: debug\n", Default().Workspace, false},
	}
	for _, c := range cases {
		p := filepath.Join(t.TempDir(), "c.yaml")
		os.WriteFile(p, []byte(c.yaml), 0o600)
		cfg, err := Load(p)
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		if !reflect.DeepEqual(cfg.Workspace, c.roots) || cfg.TrustClientRoots != c.trust {
			t.Errorf("%q: roots %v trust %v; want %v %v", c.yaml, cfg.Workspace, cfg.TrustClientRoots, c.roots, c.trust)
		}
	}
	p := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(p, []byte("workspace:\n  trust_client_roots: maybe\n"), 0o600)
	if _, err := Load(p); err == nil {
		t.Error("trust_client_roots: maybe accepted")
	}
}
