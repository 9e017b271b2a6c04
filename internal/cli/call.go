package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/wording"
)

// Exit codes of `call` beyond 0 (done), 1 (failed) and 2 (usage).
const exitNeedsConfirmation = 3

// cmdCall runs one tool through the server's pipeline and prints the whole
// result: text on stdout, a failure on stderr with exit code 1, a call that
// needs confirmation with what to run next and exit code 3. The audit line
// goes to the log only: stderr carries it with --verbose (or log_file holds
// it, when set).
func cmdCall(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	name := ""
	switch {
	case len(args) > 0 && isHelp(args[0]):
		args = args[:1] // the flags below print the help
	case len(args) == 0 || strings.HasPrefix(args[0], "-"):
		return usageError("call: name the tool first: clawbridge call TOOL --args '{...}'")
	default:
		name, args = args[0], args[1:]
	}
	fs, cfgPath := newFlags("call")
	raw := fs.String("args", "{}", "the tool's arguments as a JSON object (clawbridge tools TOOL lists them)")
	confirm := fs.String("confirm", "", "confirmation policy for this call: token (default here), approve, auto or deny")
	maxChars := fs.Int("max-chars", 0, "cut the printed text after this many characters (default: print it all)")
	verbose := fs.Bool("verbose", false, "log on stderr as the server does, the call's audit line included")
	if err := parse(fs, args); err != nil {
		return err
	}
	var callArgs map[string]any
	if err := json.Unmarshal([]byte(*raw), &callArgs); err != nil || callArgs == nil {
		return usageError(fmt.Sprintf("call: --args must be a JSON object, e.g. '{\"action\":\"list\",\"path\":\".\"}' (%v)", errOrNull(err)))
	}
	a, err := newApp(*cfgPath, func(c *config.Config) {
		if c.Confirm == "elicit" {
			c.Confirm = "token" // no client to ask on the command line
		}
		if *confirm != "" {
			c.Confirm = *confirm
		}
		// The whole result is printed: there is no later read of a kept
		// resource from a process that has ended.
		c.Limits.ResultChars = math.MaxInt32
		if !*verbose && c.LogFile == "" {
			c.LogLevel = "error" // the result is the output; the audit line is the log's
		}
	})
	if err != nil {
		return err
	}
	defer a.Close()
	known := false
	for _, t := range a.srv.Tools() {
		known = known || t.Name == name
	}
	if !known {
		return fmt.Errorf("no tool %q in this build; `clawbridge tools` lists them, `clawbridge route \"your request\"` suggests one", name)
	}
	told := false
	res := a.srv.CallProgress(ctx, name, callArgs, func(_, _ float64, msg string) {
		if !told && msg != "" { // a call waiting for approval says what to run, once
			told = true
			fmt.Fprintln(stderr, msg)
		}
	})
	if sc, ok := res.StructuredContent.(map[string]any); ok && sc["confirmation_required"] == true {
		tok, _ := sc["confirm_token"].(string)
		printConfirmation(stdout, name, callArgs, sc, tok)
		return exitError{code: exitNeedsConfirmation}
	}
	out := stdout
	if res.IsError {
		out = stderr
	}
	var text strings.Builder
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			text.WriteString(cliHints(v.Text) + "\n")
		case mcp.ResourceLink:
			fmt.Fprintf(&text, "file: %s (%s)\n", strings.TrimPrefix(v.URI, "file://"), v.Description)
		case mcp.ImageContent:
			fmt.Fprintf(&text, "image: %s, %d base64 bytes\n", v.MIMEType, len(v.Data))
		}
	}
	fmt.Fprint(out, cutText(text.String(), *maxChars))
	if res.IsError {
		return exitError{code: 1}
	}
	return nil
}

func errOrNull(err error) any {
	if err == nil {
		return "got null"
	}
	return err
}

// printConfirmation says what the token policy's preview means on the
// command line: the command that runs the call once, and the approval way.
func printConfirmation(w io.Writer, name string, args map[string]any, preview map[string]any, token string) {
	withToken := make(map[string]any, len(args)+1)
	for k, v := range args {
		withToken[k] = v
	}
	withToken["confirm_token"] = token
	plain, _ := json.Marshal(args)
	signed, _ := json.Marshal(withToken)
	fmt.Fprintf(w, "Confirmation required: %v is a high-risk action and did not run.\n", preview["action"])
	fmt.Fprintf(w, "To run it once, repeat it with the token (valid until %v, once):\n  clawbridge call %s --args %s\n", preview["expires_at"], name, shellQuote(string(signed)))
	fmt.Fprintf(w, "Or have a person approve it: run\n  clawbridge call %s --confirm approve --args %s\nand, while it waits, `clawbridge approve` in another terminal.\n", name, shellQuote(string(plain)))
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// cliHints rewrites hints written for a model with MCP tools into what a
// person at the command line does.
func cliHints(s string) string {
	return strings.NewReplacer(
		"call find_tools to see the available tools", "run `clawbridge tools` to see the available tools",
		"call find_tools", "run `clawbridge route \"your request\"`",
		"use find_tools", "run `clawbridge route \"your request\"`",
	).Replace(s)
}

// cutText cuts s after max characters (0: no cut), saying so.
func cutText(s string, max int) string {
	r := []rune(s)
	if max <= 0 || len(r) <= max {
		return s
	}
	return string(r[:max]) + fmt.Sprintf("\n…[cut by --max-chars: %d of %s shown]\n", max, wording.Count(len(r), "character", "characters"))
}
