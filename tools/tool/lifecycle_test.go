package tool_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

type demoSettings struct {
	Limit int      `yaml:"limit"`
	Tags  []string `yaml:"tags"`
}

func (s *demoSettings) Validate() error {
	if s.Limit < 1 {
		return errors.New("limit must be at least 1")
	}
	return nil
}

// closeCount is a Closer that counts its calls.
type closeCount struct{ n int }

func (c *closeCount) Close() error { c.n++; return nil }

func demo(name string, got *demoSettings, closer *closeCount) tool.Configured[demoSettings] {
	return tool.Configured[demoSettings]{
		Name:     "demo",
		Defaults: func() demoSettings { return demoSettings{Limit: 5, Tags: []string{"a"}} },
		Provision: func(d *tool.Deps, cfg demoSettings) (tool.Tool, error) {
			*got = cfg
			return tool.Tool{Name: name, Title: "Demo", Description: "Demo.", Closer: closer, Actions: []tool.Action{{
				Level: tool.Read, Timeout: tool.Fast,
				Handler: func(context.Context, *tool.Call) (*tool.Result, error) { return &tool.Result{}, nil },
			}}}, nil
		},
	}
}

// TestConfigured_Lifecycle: a tool's settings start from its defaults, its
// section tools.<name> is decoded over them strictly, and Provision sees the
// result; an unknown key, a wrong type or a failed Validate stops the
// constructor with an error naming the tool's section and the key, before
// Provision; and a tool whose published name is not its section's is
// refused and closed.
func TestConfigured_Lifecycle(t *testing.T) {
	var got demoSettings
	d := tooltest.Deps(t)
	if _, err := demo("demo", &got, nil).New(d); err != nil || got.Limit != 5 || len(got.Tags) != 1 {
		t.Fatalf("no section: %v %+v", err, got)
	}
	tooltest.ConfigSection(t, d, "demo", "limit: 7")
	if _, err := demo("demo", &got, nil).New(d); err != nil || got.Limit != 7 || len(got.Tags) != 1 {
		t.Fatalf("limit: 7: %v %+v", err, got)
	}
	for body, want := range map[string]string{
		"limti: 7":    `"tools.demo.limti"`,
		"limit: lots": "tools.demo.limit: cannot unmarshal",
		"limit: 0":    "tools.demo: limit must be at least 1",
	} {
		d := tooltest.Deps(t)
		tooltest.ConfigSection(t, d, "demo", body)
		got = demoSettings{}
		_, err := demo("demo", &got, nil).New(d)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want it to say %s", body, err, want)
		}
		if got.Limit != 0 {
			t.Errorf("%q: provisioned with %+v", body, got)
		}
	}
	closer := &closeCount{}
	if _, err := demo("other", &got, closer).New(tooltest.Deps(t)); err == nil || !strings.Contains(err.Error(), "tools.demo") || closer.n != 1 {
		t.Errorf("a tool named apart from its section: %v, closed %d times", err, closer.n)
	}
}

// TestStateful_BuildKeepsTheState: Build decodes the section as New does
// and returns the state Provision made with the tool; a refused section
// stops both before Provision.
func TestStateful_BuildKeepsTheState(t *testing.T) {
	var got demoSettings
	st := tool.Stateful[demoSettings, *demoSettings]{Name: "demo", Defaults: demo("demo", &got, nil).Defaults,
		Provision: func(d *tool.Deps, cfg demoSettings) (*demoSettings, tool.Tool, error) {
			tl, err := demo("demo", &got, nil).Provision(d, cfg)
			return &cfg, tl, err
		}}
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "demo", "limit: 7")
	state, tl, err := st.Build(d)
	if err != nil || state.Limit != 7 || tl.Name != "demo" {
		t.Fatalf("build: %v %+v %q", err, state, tl.Name)
	}
	if tl, err := st.New(d); err != nil || tl.Name != "demo" || got.Limit != 7 {
		t.Fatalf("new: %v %q %+v", err, tl.Name, got)
	}
	tooltest.ConfigSection(t, d, "demo", "limit: 0")
	got = demoSettings{}
	if state, _, err := st.Build(d); err == nil || state != nil || got.Limit != 0 {
		t.Errorf("limit: 0 built %+v: %v", state, err)
	}
	if _, err := st.New(d); err == nil || got.Limit != 0 {
		t.Errorf("limit: 0 made a tool: %v", err)
	}
}
