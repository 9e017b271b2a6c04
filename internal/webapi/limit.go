package webapi

import (
	"context"
	"sync"
	"time"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

// Limiter spaces requests per key (a backend, a host) at least Interval
// apart. A caller that would have to wait longer than MaxWait is refused at
// once instead, so a burst of calls fails fast with a clear error rather
// than piling up behind the limit.
type Limiter struct {
	Interval time.Duration
	MaxWait  time.Duration

	mu   sync.Mutex
	next map[string]time.Time
}

// NewLimiter builds a limiter; maxWait <= 0 means 10 intervals.
func NewLimiter(interval, maxWait time.Duration) *Limiter {
	if maxWait <= 0 {
		maxWait = 10 * interval
	}
	return &Limiter{Interval: interval, MaxWait: maxWait, next: map[string]time.Time{}}
}

// Wait blocks until key may make its next request.
func (l *Limiter) Wait(ctx context.Context, key, service string) error {
	if l.Interval <= 0 {
		return nil
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next[key]
	if at.Before(now) {
		at = now
	}
	if at.Sub(now) > l.MaxWait {
		l.mu.Unlock()
		return toolerr.Errorf(toolerr.CodeUnavailable, "too many requests in a short time; wait a few seconds", "%s: local rate limit (one request per %s)", service, l.Interval)
	}
	l.next[key] = at.Add(l.Interval)
	l.mu.Unlock()
	d := time.Until(at)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return toolerr.Errorf(toolerr.CodeTimeout, "", "%s: cancelled while waiting for the rate limit", service)
	case <-t.C:
		return nil
	}
}
