# clawbridge — `make run` and `make test` do all set-up on a fresh Debian machine.
GO      ?= go
BIN     := bin/clawbridge
ADDR    ?= 127.0.0.1:8765
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: all deps build run test bench vet clean

all: build

deps:
	@scripts/install-deps.sh
	@$(GO) mod download

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) .

run: deps build
	@echo
	@echo "Connect a client:"
	@echo "  Claude Desktop / Cursor / VS Code (stdio): $(BIN) install claude-desktop|cursor|vscode"
	@echo "  Remote or HTTP clients: streamable HTTP at http://$(ADDR)/mcp, SSE at http://$(ADDR)/sse"
	@echo
	$(BIN) serve --http $(ADDR)

# staticcheck is pinned and fetched through the module proxy on first use.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

vet:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# Tests need the external programs (CLAWBRIDGE_REQUIRE_PROGRAMS=1 turns a
# missing one into a failure instead of a skip) and a PostgreSQL server.
test: deps vet
	@pg=$$(scripts/start-postgres.sh) || { echo "make test: PostgreSQL did not start" >&2; exit 1; }; \
	eval "$$pg" && \
	CLAWBRIDGE_REQUIRE_PROGRAMS=1 $(GO) test -race -timeout 30m ./...

# Benchmarks: routing (detection ns/op and allocs), the session journeys
# (testdata/journeys.jsonl: tokens of the lists a client holds against a
# static full list and an oracle, calls that missed the view), tools/list with
# per-session views vs a static list, tokens per tier and over 20 fixed
# requests, per-call overhead of `file stat` vs a minimal mcp-go server, the
# load run (200 streamable-HTTP sessions x 20 calls against clawbridge and
# that server, one run: errors, p50/p99, server CPU and their ratios), the
# cold start (median ms from starting the binary to the first tools/list
# answer over stdio, and package-init ms, against a minimal mcp-go server),
# and the browser side
# by side with @playwright/mcp on the same Chromium (installed from npm into
# .cache/ when npm is available; skipped otherwise).
PWMCP := .cache/playwright-mcp/node_modules/@playwright/mcp/cli.js
bench: deps
	$(GO) test -run '^$$' -bench 'Detect|Route|View' -benchmem ./exposure/
	$(GO) test -run '^$$' -bench Journeys -benchtime 1x ./exposure/
	$(GO) test -run '^$$' -bench 'ListTools|TierTokens|SchemaTokens|CallOverhead|New' -benchmem ./server/
	$(GO) test -run '^$$' -bench Load -benchtime 1x ./server/
	$(GO) test -run '^$$' -bench . -benchtime 20x ./e2e/coldstart/
	@command -v npm >/dev/null && [ ! -f $(PWMCP) ] && \
		npm install --silent --no-audit --no-fund --prefix .cache/playwright-mcp @playwright/mcp@0.0.83 >/dev/null 2>&1 || true
	CLAWBRIDGE_PLAYWRIGHT_MCP=$$( [ -f $(PWMCP) ] && echo $(CURDIR)/$(PWMCP) ) \
		$(GO) test -run '^$$' -bench . -benchtime 5x -timeout 20m ./browser/

clean:
	rm -rf bin
