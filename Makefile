# clawbridge — `make run` and `make test` do all set-up on a fresh Debian machine.
GO      ?= go
BIN     := bin/clawbridge
ADDR    ?= 127.0.0.1:8765
# Stamped into the binary (clawbridge version): -buildvcs may be off, so the
# commit and its date are passed with -X like goreleaser does.
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  := $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE    := $(shell git log -1 --format=%cI 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

.PHONY: all deps deps-run gomod gomod-run build run test bench vet clean release-check release-snapshot bundle docs

all: build

# Each step says what it does: on a fresh machine the package install and
# the module download take minutes and would otherwise be silent. The
# second `go mod download` is instant once the first has fetched all, and
# fails the target if something could not be fetched.
# deps-run is what running needs (make run); deps adds what only the tests
# and benchmarks use: PostgreSQL, nginx, qpdf, patch, Python's
# icalendar and the npm MCP servers the bridge tests start.
deps-run:
	@echo "==> system packages the tools run: scripts/install-deps.sh run (installs what is missing; quiet when all is there)"
	@scripts/install-deps.sh run
	@$(MAKE) --no-print-directory gomod-run

deps:
	@echo "==> system packages for the tools and the tests: scripts/install-deps.sh test (installs what is missing; quiet when all is there)"
	@scripts/install-deps.sh test
	@echo "==> downstream MCP servers for the bridge tests and the MCP clients e2e drives: scripts/install-mcp-servers.sh (npm, pinned; skipped without npm)"
	@scripts/install-mcp-servers.sh
	@echo "==> MCP conformance suite for e2e's TestConformance2026: scripts/install-conformance.sh (npm, pinned; skipped without npm)"
	@scripts/install-conformance.sh
	@$(MAKE) --no-print-directory gomod

# The modules the binary is built from, and not those only the tests use.
gomod-run:
	@echo "==> Go modules the binary needs: go list -deps . (a fresh machine fetches about 100 modules; this can take a few minutes)"
	@$(GO) list -x -deps . 2>&1 >/dev/null | sed -un 's|^# get https://[^/]*/\(.*\)/@v/\(.*\)\.zip$$|    fetched \1 \2|p'
	@$(GO) list -deps . >/dev/null

gomod:
	@echo "==> Go modules: go mod download (a fresh machine fetches about 100 modules; this can take a few minutes)"
	@$(GO) mod download -x 2>&1 | sed -un 's|^# get https://[^/]*/\(.*\)/@v/\(.*\)\.zip$$|    fetched \1 \2|p'
	@$(GO) mod download

build:
	@echo "==> building $(BIN) ($(VERSION))"
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

run: deps-run build
	@echo
	@echo "Connect a client:"
	@echo "  Claude Desktop, Cursor, VS Code, Claude Code, Gemini CLI, Codex (stdio):"
	@echo "    $(BIN) install claude-desktop|cursor|vscode|claude-code|gemini|codex"
	@echo "  Remote or HTTP clients: streamable HTTP at http://$(ADDR)/mcp, SSE at http://$(ADDR)/sse"
	@echo
	$(BIN) serve --http $(ADDR)

# staticcheck is pinned and fetched through the module proxy on first use.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

vet:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# Releases: goreleaser v2, pinned, built through the module proxy on first
# use (minutes, once; cached after). The repository it publishes to comes
# from go.mod's module path, read by ./release.
GORELEASER := $(GO) run github.com/goreleaser/goreleaser/v2@v2.15.1
REPO = $(shell $(GO) run ./release repo)
RELEASE_ENV = CLAWBRIDGE_OWNER=$(word 2,$(subst /, ,$(REPO))) CLAWBRIDGE_NAME=$(word 3,$(subst /, ,$(REPO))) \
	CLAWBRIDGE_COMMIT=$(COMMIT) CLAWBRIDGE_DATE=$(DATE)

# Everything a release publishes, into dist/: linux, darwin and windows on
# amd64 and arm64 (tar.gz, zip for windows, each with LICENSE and README),
# checksums.txt, an MCP bundle per platform and server.json.
release-snapshot:
	$(RELEASE_ENV) $(GORELEASER) release --snapshot --clean
	scripts/bundle.sh dist

# The six MCP bundles and server.json alone (no archives).
bundle:
	$(RELEASE_ENV) $(GORELEASER) build --snapshot --clean
	scripts/bundle.sh dist

# What CI checks of the release (make test): the config, and this machine's
# own target built and bundled (the bundle validated, packed and read back).
release-check:
	@echo "==> release: goreleaser check, a snapshot of $$($(GO) env GOOS)/$$($(GO) env GOARCH) and its MCP bundle"
	$(RELEASE_ENV) $(GORELEASER) check
	$(RELEASE_ENV) $(GORELEASER) build --snapshot --clean --single-target
	scripts/bundle.sh dist

# Tests need the external programs (CLAWBRIDGE_REQUIRE_PROGRAMS=1 turns a
# missing one into a failure instead of a skip) and a PostgreSQL server.
test: deps vet release-check
	@pg=$$(scripts/start-postgres.sh) || { echo "make test: PostgreSQL did not start" >&2; exit 1; }; \
	eval "$$pg" && \
	CLAWBRIDGE_REQUIRE_PROGRAMS=1 $(GO) test -race -timeout 30m ./...

# Benchmarks: routing (detection ns/op and allocs), the session journeys
# (testdata/journeys*.jsonl: each mode's cost under prompt caching against a
# static full list and an oracle, calls that missed the view), tools/list with
# per-session views vs a static list, tokens per tier and over 20 fixed
# requests, per-call overhead of `file stat` vs a minimal mcp-go server and
# of a proxied mcp_bridge call (server-everything's echo: direct stdio client
# vs Manager.Call vs the whole pipeline; median and p99 µs), the
# load run (200 streamable-HTTP sessions x 20 calls against clawbridge and
# that server, one run: errors, p50/p99, server CPU and their ratios), the
# mixed load run (BenchmarkLoadMixed: 200 sessions x 20 mixed requests —
# file, find_tools in both languages, tools/list after list_changed, system,
# data_processor — against one instance on SQLite and against two on
# PostgreSQL behind nginx via scripts/cluster.sh: errors, p50/p99), idle
# sessions (BenchmarkIdleSessionRSS: the server's RSS per idle session and
# goroutines before, with and after 200 sessions), the
# cold start (median ms from starting the binary to the first tools/list
# answer over stdio, and package-init ms, against a minimal mcp-go server),
# knowledge_rag's retrieval quality (recall@5 and MRR on the labelled zh+en
# set, with a substring baseline) and scale (10,000 files / 100 MB: index
# time, peak RSS, index size, search p50/p99), OCR character error rates
# (rendered zh/en text at several sizes and noise, and tesseract's public
# test images),
# and the browser side
# by side with @playwright/mcp on the same Chromium (installed from npm into
# .cache/ when npm is available; skipped otherwise).
# Each run's output (-v, so that a skipped benchmark says why) is also kept
# in BENCH_OUT, through tee under bash's pipefail so that a failing run
# still stops make bench; at the end scripts/benchpage writes the figures
# into the generated block of docs/benchmarks.md, between its
# <!-- bench:begin --> and <!-- bench:end --> lines. The rest of the page
# (history, method) is written by hand.
PWMCP := .cache/playwright-mcp/node_modules/@playwright/mcp/cli.js
BENCH_OUT := .cache/bench.txt
bench: private SHELL := /bin/bash
bench: private .SHELLFLAGS := -o pipefail -c
bench: deps
	@mkdir -p .cache && : > $(BENCH_OUT)
	$(GO) test -v -run '^$$' -bench 'Detect|Route|View' -benchmem ./exposure/ | tee -a $(BENCH_OUT)
	$(GO) test -v -run '^$$' -bench Journeys -benchtime 1x ./exposure/ | tee -a $(BENCH_OUT)
	$(GO) test -v -run '^$$' -bench 'ListTools|TierTokens|SchemaTokens|CallOverhead|New|BridgeRouting|PublicRouting' -benchmem ./server/ | tee -a $(BENCH_OUT)
	$(GO) test -v -run '^$$' -bench 'Load|IdleSessionRSS' -benchtime 1x ./server/ | tee -a $(BENCH_OUT)
	$(GO) test -v -run '^$$' -bench . -benchtime 20x ./e2e/coldstart/ | tee -a $(BENCH_OUT)
	$(GO) test -v -run '^$$' -bench 'Retrieval|Scale' -benchtime 1x -timeout 30m ./tools/knowledge/ | tee -a $(BENCH_OUT)
	$(GO) test -v -run '^$$' -bench CER -benchtime 1x ./tools/ocr/ | tee -a $(BENCH_OUT)
	@command -v npm >/dev/null && [ ! -f $(PWMCP) ] && \
		npm install --silent --no-audit --no-fund --prefix .cache/playwright-mcp @playwright/mcp@0.0.83 >/dev/null 2>&1 || true
	CLAWBRIDGE_PLAYWRIGHT_MCP=$$( [ -f $(PWMCP) ] && echo $(CURDIR)/$(PWMCP) ) \
		$(GO) test -v -run '^$$' -bench . -benchtime 5x -timeout 20m ./browser/ | tee -a $(BENCH_OUT)
	$(GO) run ./scripts/benchpage -commit=$$(git describe --always --dirty --exclude '*' 2>/dev/null || echo unknown) $(BENCH_OUT) docs/benchmarks.md

# The generated references under docs/reference: the tool reference from the
# registry, the configuration reference from the config template.
docs:
	UPDATE_DOCS=1 $(GO) test -count=1 ./internal/cli -run TestDocs_Reference

clean:
	rm -rf bin dist
