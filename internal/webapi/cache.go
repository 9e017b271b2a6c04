package webapi

import (
	"sync"
	"time"
)

// Cache keeps answers for a while, so the same question asked again within
// TTL does not reach the service. It holds at most Max entries; when full,
// expired entries go first, then the oldest.
type Cache[V any] struct {
	TTL time.Duration
	Max int
	now func() time.Time // tests move the clock

	mu sync.Mutex
	m  map[string]entry[V]
}

type entry[V any] struct {
	v  V
	at time.Time
}

// NewCache builds a cache; max <= 0 means 256 entries.
func NewCache[V any](ttl time.Duration, max int) *Cache[V] {
	if max <= 0 {
		max = 256
	}
	return &Cache[V]{TTL: ttl, Max: max, now: time.Now, m: map[string]entry[V]{}}
}

// Get returns the value stored under key if it is younger than TTL.
func (c *Cache[V]) Get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || c.now().Sub(e.at) >= c.TTL {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Put stores v under key.
func (c *Cache[V]) Put(key string, v V) {
	if c.TTL <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.Max {
		oldest, at := "", now
		for k, e := range c.m {
			if now.Sub(e.at) >= c.TTL {
				delete(c.m, k)
				continue
			}
			if !e.at.After(at) {
				oldest, at = k, e.at
			}
		}
		if len(c.m) >= c.Max {
			delete(c.m, oldest)
		}
	}
	c.m[key] = entry[V]{v: v, at: now}
}

// SetClock replaces the cache's clock (tests).
func (c *Cache[V]) SetClock(now func() time.Time) {
	c.mu.Lock()
	c.now = now
	c.mu.Unlock()
}
