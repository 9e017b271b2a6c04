// Package webapi is what the tools that call public web APIs (search,
// literature_search, weather) share: one GET through the outbound guard with
// its failures turned into tool errors a model can act on (rate limited,
// server error, timeout, blocked address), a small TTL cache and a
// per-key request spacing. It knows no API; each tool parses its own bodies.
package webapi
