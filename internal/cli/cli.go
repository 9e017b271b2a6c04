package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"clawbridge/internal/config"
)

func cmdCall(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usageError("call: name the tool first: clawbridge call TOOL --args '{...}'")
	}
	name := args[0]
	fs, cfgPath := newFlags("call")
	raw := fs.String("args", "{}", "tool arguments as a JSON object")
	confirm := fs.String("confirm", "", "confirmation policy for this call: token, approve, auto or deny")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	var callArgs map[string]any
	if err := json.Unmarshal([]byte(*raw), &callArgs); err != nil {
		return usageError(fmt.Sprintf("call: --args must be a JSON object: %v", err))
	}
	a, err := newApp(*cfgPath, func(c *config.Config) {
		if c.Confirm == "elicit" {
			c.Confirm = "token" // no client to ask on the command line
		}
		if *confirm != "" {
			c.Confirm = *confirm
		}
	})
	if err != nil {
		return err
	}
	defer a.Close()
	res := a.srv.Call(ctx, name, callArgs)
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			fmt.Fprintln(stdout, v.Text)
		case mcp.ResourceLink:
			fmt.Fprintf(stdout, "file: %s (%s)\n", strings.TrimPrefix(v.URI, "file://"), v.Description)
		case mcp.ImageContent:
			fmt.Fprintf(stdout, "image: %s, %d base64 bytes\n", v.MIMEType, len(v.Data))
		}
	}
	if res.IsError {
		return fmt.Errorf("%s failed", name)
	}
	return nil
}

func cmdConfig(args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "init" {
		return usageError("config: the only subcommand is `config init [--path FILE]`")
	}
	fs, _ := newFlags("config init")
	path := fs.String("path", "", "where to write (default "+config.DefaultPath()+")")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	p := *path
	if p == "" {
		p = config.DefaultPath()
	}
	if err := config.WriteTemplate(p); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", p)
	return nil
}
