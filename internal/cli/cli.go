package cli

import (
	"fmt"
	"io"

	"github.com/clawbridge/clawbridge/internal/config"
)

func cmdConfig(args []string, stdout io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		return helpRequest(commandHelp["config init"])
	}
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
