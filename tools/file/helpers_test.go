package file

import (
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type fixture struct {
	t    *testing.T
	tl   tool.Tool
	d    *tool.Deps
	root string
}

// newFixture builds the tool over a real tooltest workspace; cfgYAML, when
// given, becomes the tools.file config section.
func newFixture(t *testing.T, cfgYAML string) *fixture {
	t.Helper()
	d := tooltest.Deps(t)
	if cfgYAML != "" {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(cfgYAML), &n); err != nil {
			t.Fatal(err)
		}
		if d.Config.Tools == nil {
			d.Config.Tools = map[string]yaml.Node{}
		}
		d.Config.Tools["file"] = *n.Content[0]
	}
	tl := tooltest.Build(t, New, d)
	return &fixture{t: t, tl: tl, d: d, root: d.Sandbox.Root()}
}

// ok runs a call that must succeed and returns its data as a JSON map.
func (f *fixture) ok(args map[string]any) map[string]any {
	f.t.Helper()
	return tooltest.JSONMap(f.t, tooltest.OK(f.t, f.tl, args).Data)
}

// fail runs a call that must fail with a tool error of the given code.
func (f *fixture) fail(code string, args map[string]any) *tool.Error {
	f.t.Helper()
	te := tooltest.Refused(f.t, f.tl, args)
	if code != "" && te.Code != code {
		f.t.Fatalf("%v: code %s (%v), want %s", args, te.Code, te, code)
	}
	return te
}

func (f *fixture) path(rel string) string { return filepath.Join(f.root, filepath.FromSlash(rel)) }

func (f *fixture) put(rel string, data string) string {
	f.t.Helper()
	p := f.path(rel)
	tooltest.WriteFile(f.t, p, []byte(data))
	return p
}

func (f *fixture) content(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(f.path(rel))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func list(m map[string]any, key string) []map[string]any {
	raw, _ := m[key].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, x := range raw {
		if mm, ok := x.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

func noFile(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err == nil {
		t.Fatalf("%s exists but must not", p)
	}
}
