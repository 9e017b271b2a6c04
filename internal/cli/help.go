package cli

// commandHelp is what `clawbridge COMMAND --help` prints above the flags.
var commandHelp = map[string]string{
	"serve": `clawbridge serve [--http ADDR]

Serves one MCP client over stdio (the default), or SSE (/sse) and streamable
HTTP (/mcp) on ADDR. Binding anything but loopback needs a token.
`,
	"route": `clawbridge route "request text"
clawbridge route --jsonl < requests.jsonl

Shows how a request is routed: the intents found, the confidence, the tier and
the view of tools a session would be offered, each tagged recommended,
alternative or core. Only the tools this build has are shown; --catalog shows
the whole product catalog's view, marking the tools this build does not have
("registered": false).

"tokens" is an estimate of what the view costs a client in tokens: the tools/list
JSON of its tools (name, description, input schema) at about four characters a
token, one per CJK character; a catalog tool this build lacks counts its catalog
description plus a fixed schema estimate.
`,
	"tools": `clawbridge tools [TOOL]

Without TOOL, lists this build's tools with their actions and permission
levels (read, write, high). With TOOL, shows its description, each action with
its level and its parameters: type, required, default, allowed values.
`,
	"call": `clawbridge call TOOL --args '{...}' [--confirm POLICY] [--max-chars N] [--verbose]

Runs one tool through the same pipeline as a client's call and prints the whole
result on stdout (a failure on stderr). ` + "`clawbridge tools TOOL`" + ` lists its arguments.

A high action (shell commands outside the read-only list, for instance) needs
confirmation. By default the call prints a confirm_token and the command that
runs it once; --confirm approve waits for ` + "`clawbridge approve ID`" + ` from another
terminal; --confirm auto runs it (trusted use only); --confirm deny refuses.

Exit codes: 0 done, 1 the tool failed, 2 usage error, 3 confirmation needed.
`,
	"approve": `clawbridge approve [--reject] [ID]

Without ID, lists the calls waiting for a person's approval (from a server or a
` + "`call --confirm approve`" + ` on the same data dir). With ID, approves (or rejects) one.
`,
	"bridge status": `clawbridge bridge status

Shows the downstream MCP servers of bridge.servers: transport, state
(configured, manifest known, running, failed with the last error), usable
tools, level, publish mode; tools whose definition changed since approved
(held out of every view and refused) and descriptions flagged for text aimed
at the model or hidden characters. It starts no server.
`,
	"bridge approve": `clawbridge bridge approve SERVER

Approves the current definitions of SERVER's tools (review them first: bridge
status lists what changed) and releases the held ones, also in a running server.
`,
	"bridge refresh": `clawbridge bridge refresh [SERVER...]

Starts each named server (every configured one when none is named) just long
enough to read its manifest, caches it, pins new tools and holds changed ones
as a start does, and stops it. serve does this by itself, in the background,
for a ` + "`publish: tools`" + ` server whose manifest was never read.
`,
	"doctor": `clawbridge doctor

Checks the config, the workspace and data dir, the jail, the X display the
screen tool needs and the external programs of each tool, and says how to fix
what is missing. It creates nothing.
`,
	"install": `clawbridge install claude-desktop|cursor|vscode|claude-code|gemini|codex [--print] [--path FILE]

Adds clawbridge to the client's MCP config file (after a timestamped backup),
or with --print shows the file it would change and the entry. Comments in a
JSON file (VS Code, Gemini CLI) and the rest of the file stay as written.
Files: Claude Code ~/.claude.json (user scope), Gemini CLI
~/.gemini/settings.json, Codex ~/.codex/config.toml ([mcp_servers.clawbridge]).
`,
	"config init": `clawbridge config init [--path FILE]

Writes a commented config file with the defaults; it never overwrites one.
`,
}
