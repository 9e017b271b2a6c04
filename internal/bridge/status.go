package bridge

import (
	"fmt"
	"slices"
)

// Status is what `clawbridge bridge status` and the session resource show
// of one server.
type Status struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"` // stdio | streamable | sse
	State     State    `json:"state"`
	LastError string   `json:"last_error,omitempty"`
	PID       int      `json:"pid,omitempty"`
	Owner     int      `json:"owner,omitempty"` // another clawbridge process that runs it
	Tools     int      `json:"tools"`           // usable: allowed and not held
	Level     string   `json:"level"`
	Publish   string   `json:"publish"`
	Held      []string `json:"held,omitempty"`  // changed definitions awaiting approval
	Flags     []Flag   `json:"flags,omitempty"` // suspicious text in definitions
	// Unpublished are tools of a `publish: tools` server left out: an
	// invalid or colliding <server>__<tool> name.
	Unpublished []Unpublished `json:"unpublished,omitempty"`
}

// Status reports every server in config order.
func (m *Manager) Status() []Status {
	out := make([]Status, 0, len(m.order))
	_, left := m.Publishable()
	for _, name := range m.order {
		s := m.servers[name]
		s.mu.Lock()
		st := Status{Name: name, Transport: "stdio", Level: s.cfg.Level, Publish: s.cfg.Publish, LastError: s.lastErr,
			Tools: len(s.visible()), Held: slices.Clone(s.held), Flags: slices.Clone(s.flags), Unpublished: left[name]}
		if s.cfg.URL != "" {
			st.Transport = s.cfg.Transport
		}
		switch {
		case s.conn != nil && !s.conn.broken():
			st.State, st.PID = Running, s.conn.pid()
		case s.failed:
			st.State = Failed
		case s.conn != nil:
			st.State, st.LastError = Failed, "the process exited; it restarts on the next call"
		case s.manifest != nil:
			st.State = ManifestKnown
		default:
			st.State = Configured
		}
		if st.State != Running {
			if rec, ok := recordedState(m.o.DataDir, name); ok && (rec.State == Running || rec.State == Failed) {
				st.State, st.PID, st.LastError = rec.State, rec.PID, rec.LastError
				st.Owner = rec.Owner
			}
		}
		s.mu.Unlock()
		out = append(out, st)
	}
	return out
}

// Approve records the current definitions of a server's tools as approved,
// releasing held ones; it returns the names released.
func (m *Manager) Approve(name string) ([]string, error) {
	s, err := m.lookup(name)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.manifest == nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("bridge: no manifest of %s is known yet; it is read on the server's first start", name)
	}
	for _, t := range s.manifest.Tools {
		s.pins[t.Name] = hashTool(t)
	}
	released := s.held
	s.held = nil
	err = savePins(m.o.DataDir, name, s.pins)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	m.changed(name)
	return released, nil
}
