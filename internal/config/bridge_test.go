package config

import (
	"strings"
	"testing"
	"time"
)

// TestBridgeConfig_Validation: every bad server entry is refused with the
// key that is wrong; a good one gets its defaults.
func TestBridgeConfig_Validation(t *testing.T) {
	base := func(s BridgeServer) Bridge {
		return Bridge{Servers: []BridgeServer{s}, StartTimeout: time.Second, CallTimeout: time.Second, IdleStop: time.Second}
	}
	bad := map[string]BridgeServer{
		"name":            {Name: "Git Hub", Command: "x"},
		"prefixes":        {Name: "a__b", Command: "x"},
		"exactly one of":  {Name: "a", Command: "x", URL: "http://h/mcp"},
		"exactly one of ": {Name: "a"},
		"http:// or":      {Name: "a", URL: "ftp://h/"},
		"credentials":     {Name: "a", URL: "https://u:p@h/mcp"},
		"transport must":  {Name: "a", URL: "https://h/mcp", Transport: "ws"},
		"token_env must":  {Name: "a", URL: "https://h/mcp", TokenEnv: "not a name"},
		"for url servers": {Name: "a", Command: "x", TokenEnv: "T"},
		"level must":      {Name: "a", Command: "x", Level: "admin"},
		"publish must":    {Name: "a", Command: "x", Publish: "all"},
	}
	for want, s := range bad {
		b := base(s)
		err := b.Validate()
		if err == nil || !strings.Contains(err.Error(), strings.TrimSpace(want)) {
			t.Errorf("%+v: got %v, want an error about %q", s, err, want)
		}
	}
	dup := Bridge{Servers: []BridgeServer{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}}, StartTimeout: time.Second, CallTimeout: time.Second, IdleStop: time.Second}
	if err := dup.Validate(); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate names: %v", err)
	}
	good := base(BridgeServer{Name: "git-hub", URL: "https://h/mcp", TokenEnv: "GH_TOKEN"})
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	s := good.Servers[0]
	if s.Level != "high" || s.Publish != "tools" || s.Transport != "streamable" || s.Timeout != time.Second {
		t.Errorf("defaults: %+v", s)
	}
}
