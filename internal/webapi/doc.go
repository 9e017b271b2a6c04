// Package webapi is the one JSON endpoint client of the tools that call a
// web service: the public APIs of search, literature_search and weather
// (Get, with a small TTL cache and a per-key request spacing) and the
// OpenAI-style endpoints of ai_writer, image_generator and speech
// (Endpoint). Both keep the API key and the URL out of every message, cap
// what is read of an answer, and turn an answer that is not 2xx into a tool
// error through one table (Status). It knows no API; each tool parses its
// own bodies.
package webapi
