package bridge

import (
	"context"
	"fmt"
	"time"
)

// Discovery reads a manifest nobody has read yet. Published tools come from
// the cached manifest, so a server added to the config would otherwise have
// no tools in tools/list, routing or find_tools until something called it —
// and nothing would, since the model cannot see its tools. A server that
// publishes `bridge_only` is left alone: mcp_bridge list_tools starts it
// when asked.

// Discover reads, one after another, the manifest of every `publish: tools`
// server that has none cached. It returns when all are read or ctx ends.
func (m *Manager) Discover(ctx context.Context) {
	for _, name := range m.order {
		s := m.servers[name]
		s.mu.Lock()
		want := s.manifest == nil && s.cfg.Publish != "bridge_only"
		s.mu.Unlock()
		if !want || ctx.Err() != nil {
			continue
		}
		if _, err := m.Read(ctx, name); err != nil {
			m.o.Log.Warn().Str("server", name).Err(err).Msg("bridge: reading the manifest of a server not seen before")
		}
	}
}

// DiscoverInBackground runs Discover until it is done, ctx ends or the
// manager closes; serve calls it once it can tell sessions of new tools.
func (m *Manager) DiscoverInBackground(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	m.wg.Add(2)
	go func() {
		defer m.wg.Done()
		select {
		case <-m.stop:
		case <-ctx.Done():
		}
		cancel()
	}()
	go func() {
		defer m.wg.Done()
		defer cancel()
		m.Discover(ctx)
	}()
}

// Read starts a server on a connection of its own, caches its manifest
// (pinning new tools, holding changed ones, as a start does), stops it and
// returns the number of tools it lists. The server's own connection, if it
// runs, is not touched. A failure is recorded as the server's last error.
func (m *Manager) Read(ctx context.Context, name string) (int, error) {
	s, err := m.lookup(name)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, m.o.Config.StartTimeout)
	defer cancel()
	c, man, err := m.start(ctx, s)
	if err != nil {
		s.mu.Lock()
		if s.conn == nil {
			s.failed, s.lastErr = true, err.Error()
			m.recordState(s)
		}
		s.mu.Unlock()
		return 0, fmt.Errorf("bridge server %s: reading its manifest: %w", name, err)
	}
	c.close()
	s.mu.Lock()
	s.adopt(m.o.DataDir, man, m.o.Log)
	if s.conn == nil {
		s.failed, s.lastErr, s.failures, s.retryAt = false, "", 0, time.Time{}
		m.recordState(s)
	}
	s.mu.Unlock()
	m.changed(name)
	return len(man.Tools), nil
}
