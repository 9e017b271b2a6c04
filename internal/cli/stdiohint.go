package cli

import (
	"fmt"
	"github.com/clawbridge/clawbridge/internal/platform"
	"io"
	"os"
)

// stdioHint is what a person who runs `clawbridge` in a terminal sees on
// stderr: stdin is where an MCP client sends JSON-RPC, so typing there only
// gets "Parse error" back. Serving goes on (a client never has a terminal
// on stdin, so this is only ever a person).
const stdioHint = `clawbridge is an MCP server: it is serving JSON-RPC on stdin/stdout for an MCP client,
which starts it by itself. To connect a client:  clawbridge install CLIENT
(claude-desktop, cursor, vscode, claude-code, gemini, codex). Commands: clawbridge --help.
HTTP instead: clawbridge serve --http 127.0.0.1:8765. Ctrl-C or Ctrl-D ends it.
`

// hintIfTerminal prints stdioHint to stderr when stdin is a terminal.
func hintIfTerminal(stdin io.Reader, stderr io.Writer) {
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprint(stderr, stdioHint)
	}
}

func isTerminal(f *os.File) bool { return platform.IsTerminal(f) }
