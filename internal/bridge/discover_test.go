package bridge

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
)

// TestDiscover_ReadsOnlyUnreadPublishedServers: a never-read `publish: tools`
// server is read and stopped; a cached one and a bridge_only one are not
// started; a server that cannot start shows its error and is no longer
// "configured".
func TestDiscover_ReadsOnlyUnreadPublishedServers(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-program")
	cached := config.BridgeServer{Name: "cached", Command: missing}
	if err := saveManifest(dir, &Manifest{Server: "cached", Tools: []ToolDef{{Name: "t"}}}); err != nil {
		t.Fatal(err)
	}
	only := config.BridgeServer{Name: "only", Command: missing, Publish: "bridge_only"}
	broken := config.BridgeServer{Name: "broken", Command: missing}
	m := newManager(t, dir, everything(t), cached, only, broken)
	changed := make(chan string, 8)
	m.OnToolsChanged(func(s string) { changed <- s })

	m.Discover(context.Background())

	if st := stateOf(m, "everything"); st.State != ManifestKnown || st.Tools == 0 || st.PID != 0 {
		t.Errorf("everything after discovery: %+v, want its manifest known and no process", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "bridge", "everything.manifest.json")); err != nil {
		t.Errorf("the manifest is cached: %v", err)
	}
	if st := stateOf(m, "cached"); st.State != ManifestKnown || st.LastError != "" {
		t.Errorf("a cached server must not be started: %+v", st)
	}
	if st := stateOf(m, "only"); st.State != Configured || st.LastError != "" {
		t.Errorf("a bridge_only server must not be started: %+v", st)
	}
	if st := stateOf(m, "broken"); st.State != Failed || st.LastError == "" {
		t.Errorf("a server that cannot start shows why: %+v", st)
	}
	select {
	case s := <-changed:
		if s != "everything" {
			t.Errorf("told of %s, want everything", s)
		}
	default:
		t.Error("sessions must be told that everything's tools arrived")
	}
	// The next call starts it for real.
	if _, err := m.Call(context.Background(), "everything", "echo", map[string]any{"message": "hi"}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestDiscover_CloseEndsABackgroundRead: Close does not wait for a slow
// start to finish its timeout.
func TestDiscover_CloseEndsABackgroundRead(t *testing.T) {
	dir := t.TempDir()
	slow := config.BridgeServer{Name: "slow", Command: "sleep", Args: []string{"60"}}
	m := newManager(t, dir, slow)
	m.DiscoverInBackground(context.Background())
	time.Sleep(100 * time.Millisecond)
	done := make(chan struct{})
	go func() { m.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for the discovery's start timeout")
	}
}
