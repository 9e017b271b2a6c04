package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// Template is the commented default config that `clawbridge config init`
// writes. Keep it in step with Default.
const Template = `# clawbridge configuration. Every value shown is the default; delete what you
# do not change. Environment variables CLAWBRIDGE_* override this file, and
# command-line flags override both.

# Workspace roots: every file a tool reads or writes must be inside one.
# The first root is the default; outputs land in <root>/outputs/.
# A stdio client's MCP roots narrow the workspace to where they overlap these
# roots (never widen it, never create a directory); trust_client_roots: true
# lets existing client roots replace them instead.
workspace:
  roots:
    - ~/clawbridge-workspace
  trust_client_roots: false

# Data dir: the SQLite store (confirmation tokens, calls waiting for approval, traces).
data_dir: ~/.local/share/clawbridge

# The store: sqlite (the file in data_dir, one instance) or postgres (several
# instances share it; see docs/service.md, "Running several instances"). The dsn holds no
# password: password_env names the environment variable that does.
store:
  driver: sqlite
  dsn: ""            # e.g. postgres://clawbridge@db:5432/clawbridge?sslmode=verify-full
  password_env: ""   # e.g. CLAWBRIDGE_STORE_PASSWORD

# Logs go to stderr unless a file is named. stdout carries only JSON-RPC.
log_file: ""
log_level: info         # trace, debug, info, warn or error

# On SIGTERM/SIGINT calls in flight may finish for this long; then they are
# cancelled and the process exits.
shutdown_grace: 5s

http:
  addr: 127.0.0.1:8765
  # A bearer token is required to bind a non-loopback address (or set CLAWBRIDGE_TOKEN).
  token: ""
  # Browser origins accepted besides the server's own (DNS-rebinding and
  # CSRF guard). The port is part of the match: list each one, as in
  # http://localhost:6274, or write http://localhost:* for any port.
  allowed_origins: []
  # Extra Host names accepted (loopback names always are).
  allowed_hosts: []
  max_body_bytes: 4194304  # largest request: an HTTP body or one stdio line
  session_idle_ttl: 30m
  max_sessions: 100        # live SSE/streamable sessions; beyond it a new one gets 503
  # instance: i1           # several instances: session ids start mcp-session-i1- (docs/service.md)
  read_header_timeout: 10s # slow clients are cut off: headers, then body
  body_timeout: 30s
  idle_timeout: 2m         # idle keep-alive connections are closed

# Confirmation for high actions:
#   elicit   ask the user through the client (MCP elicitation); where the
#            client cannot be asked, or asking fails, fall back to approve
#   approve  the call waits for a person to run "clawbridge approve ID"
#            (or "clawbridge approve --reject ID") on this data dir
#   token    a preview with a confirm token; the same call with the token runs
#            once. The model can confirm by itself: trusted setups only.
#   auto     run without asking (trusted local use); deny: refuse them all
confirm: elicit
# How long "clawbridge call" waits for approval (its person is at the
# terminal); MCP clients are answered at once with the command and the call
# made again runs once approved. The wait comes before the call's own
# timeout (limits.*_timeout) starts and holds no concurrency slot.
approve_timeout: 50s

limits:
  concurrent_calls: 3    # in flight per session
  result_chars: 20000    # text the model sees; the full result stays a resource
  loop_repeats: 3        # identical calls in a row before the loop guard refuses
  fast_timeout: 30s
  normal_timeout: 2m
  slow_timeout: 10m
  image_mb: 20           # largest workspace image a document embeds

network:
  # Hosts, IPs or CIDRs reachable although private or loopback
  # (CLAWBRIDGE_ALLOW_HOSTS adds to this list).
  allow_hosts: []

exposure:
  mode: auto             # auto | tiered | full | search
  recommended_at: 0.8    # confidence for the recommended tier
  extended_at: 0.5       # confidence for the extended tier
  core: [file, shell, search, web_fetch]   # always listed (a core tool this build lacks is left out)
  failures_to_upgrade: 2
  # A session that never calls find_tools: this many consecutive calls within
  # one intent family narrow its view to that family's tools (0: never); core
  # tools take one call more; a call whose arguments say the task clearly
  # narrows it at once.
  narrow_after_calls: 1
  # A called tool stays pinned in the view for this many further calls.
  pin_calls: 10
  # A JSON file overriding parts of the embedded routing tables, shaped like
  # exposure/data (e.g. {"intents": [...], "priority": {...}}); checked at start.
  # A registered tool's description and examples come from the tool itself and
  # replace any catalog text given here.
  tables_file: ""

shell:
  # Programs that run at the read level without confirmation.
  read_only_programs: [ls, cat, head, tail, wc, pwd, date, whoami, uname, echo, grep, find, stat, du, df, file, sha256sum, md5sum, sort, uniq, diff, tree, which, env, printenv, id, hostname, uptime, free, ps]
  allow_shell: false     # allow "sh -c" command lines
  timeout: 60s
  max_output_bytes: 65536
  pass_env: []

# Limits of each program run in the jail (LibreOffice, pdftotext, read-level
# shell calls): CPU time, address space, processes and threads, file size
# (also the size of the jail's private /tmp).
jail:
  cpu_seconds: 120
  memory_mb: 4096
  processes: 256
  file_size_mb: 1024

system:
  services: []           # - {name: api, url: http://127.0.0.1:8080/healthz}
  log_files: []          # - {name: app, path: /var/log/app.log}

# Your other MCP servers, used through mcp_bridge (see docs/bridge.md). Each is a
# stdio command or an HTTP url; it starts on the first call that needs it, its
# manifest is cached in the data dir, and its tool definitions are pinned (a
# changed one is held until ` + "`clawbridge bridge approve NAME`" + `).
#   servers:
#     - {name: memory, command: npx, args: [-y, "@modelcontextprotocol/server-memory"]}
#     - {name: github, url: "https://api.githubcopilot.com/mcp/", token_env: GITHUB_TOKEN, level: write}
# Per server: env / pass_env / cwd (stdio; the environment is otherwise scrubbed),
# transport: streamable | sse, headers, token_env (url), level: read | write |
# high (default), trust_annotations, allow / deny (tool names), intents /
# keywords (routing hints), publish: tools | bridge_only, timeout.
bridge:
  servers: []
  start_timeout: 30s
  call_timeout: 2m0s
  idle_stop: 10m0s

# Per-tool sections, by tool name (see docs/configuration.md). Keys are checked: a
# misspelled one, here or anywhere in this file, stops the server with its line.
# For example, knowledge_rag's defaults (indexes in <data_dir>/knowledge):
#   tools:
#     knowledge_rag: {max_file_mb: 50, max_files: 50000, chunk_chars: 1000,
#                     overlap_chars: 120, snippet_chars: 240}
#     python_runner: {timeout: 60s, cpu_seconds: 60, memory_mb: 1024, processes: 64,
#                     file_size_mb: 100, work_mb: 500, allow_unsandboxed: false}
#     ai_writer:     # the client's model (MCP sampling) first, else this endpoint
#       endpoint: {base_url: "https://api.openai.com/v1", model: gpt-4o-mini,
#                  api_key_env: OPENAI_API_KEY, stream: true}
tools: {}
`

// WriteTemplate writes the commented default config to path, refusing to
// overwrite an existing file.
func WriteTemplate(path string) error {
	if path == "" {
		path = DefaultPath()
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s already exists; remove it first or edit it", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(Template); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
