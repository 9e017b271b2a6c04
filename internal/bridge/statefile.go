package bridge

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
	"github.com/clawbridge/clawbridge/internal/platform"
)

// The serving process records each server's state in the data dir, so that
// `clawbridge bridge status`, run in another process, shows a server that
// is running there (and its last error) rather than only the cache.

type stateFile struct {
	State     State  `json:"state"`
	PID       int    `json:"pid,omitempty"`
	Owner     int    `json:"owner"` // the clawbridge process that runs it
	LastError string `json:"last_error,omitempty"`
}

func statePath(dataDir, server string) string {
	return filepath.Join(cacheDir(dataDir), server+".state.json")
}

// recordState writes the server's state; called with s.mu held.
func (m *Manager) recordState(s *server) {
	st := stateFile{State: ManifestKnown, Owner: os.Getpid(), LastError: s.lastErr}
	switch {
	case s.conn != nil:
		st.State, st.PID = Running, s.conn.pid()
	case s.failed:
		st.State = Failed
	}
	if err := os.MkdirAll(cacheDir(m.o.DataDir), 0o700); err != nil {
		return
	}
	data, _ := json.Marshal(st)
	_ = atomicfile.WriteFile(statePath(m.o.DataDir, s.cfg.Name), data, 0o600)
}

// recordedState is what another live clawbridge process recorded, if any.
func recordedState(dataDir, server string) (stateFile, bool) {
	data, err := os.ReadFile(statePath(dataDir, server))
	if err != nil {
		return stateFile{}, false
	}
	var st stateFile
	if json.Unmarshal(data, &st) != nil || st.Owner == os.Getpid() || st.Owner <= 0 || !platform.Alive(st.Owner) {
		return stateFile{}, false
	}
	return st, true
}
