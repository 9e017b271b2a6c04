package tool

import (
	"context"
	"os/exec"
	"strings"

	"github.com/clawbridge/clawbridge/internal/jail"
)

// The tools run external programs through Deps, never through package jail
// directly, so that every run hides the server's data dir and a missing
// program is always the one error naming its Debian package.

// Run runs spec in the jail (jail.Run) with the data dir protected.
func (d *Deps) Run(ctx context.Context, spec jail.Spec) (*jail.Result, error) {
	argv, err := present(spec.Argv, spec.Binds)
	if err != nil {
		for _, f := range spec.ExtraFiles {
			f.Close() // jail.Run would have closed them
		}
		return nil, err
	}
	spec.Argv, spec.Protected = argv, d.Protected(spec.Protected...)
	return jail.Run(ctx, spec)
}

// RunOnFiles runs a program on files in the jail (jail.RunOnFiles) with the
// data dir protected.
func (d *Deps) RunOnFiles(ctx context.Context, r jail.FilesRun) (string, error) {
	argv, err := present(r.Argv, nil)
	if err != nil {
		return "", err
	}
	r.Argv, r.Protected = argv, d.Protected(r.Protected...)
	return jail.RunOnFiles(ctx, r)
}

// RunUnconfined runs spec directly on the host (jail.RunUnconfined), for
// calls a user has approved; nothing is hidden there, but a missing program
// is answered the same way.
func (d *Deps) RunUnconfined(ctx context.Context, spec jail.Spec) (*jail.Result, error) {
	argv, err := present(spec.Argv, nil)
	if err != nil {
		return nil, err
	}
	spec.Argv = argv
	return jail.RunUnconfined(ctx, spec)
}

// Protected is paths plus the data dir: what a run must not see.
func (d *Deps) Protected(paths ...string) []string {
	if d != nil && d.Config != nil && d.Config.DataDir != "" {
		paths = append(paths, d.Config.DataDir)
	}
	return paths
}

// present answers MissingProgram when argv's program is not on the host,
// unless a bind brings it into the jail. A name becomes the path found on
// the server's PATH, so the jail runs the program the check found.
func present(argv []string, binds []jail.Bind) ([]string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return argv, nil // the jail refuses it with its own error
	}
	prog := argv[0]
	for _, b := range binds {
		if prog == b.Target || strings.HasPrefix(prog, b.Target+"/") {
			return argv, nil
		}
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return nil, MissingProgram(prog)
	}
	return append([]string{path}, argv[1:]...), nil
}
