package codeassist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/internal/sandbox"
)

// maxConfig caps one formatter config file copied into the jail.
const maxConfig = 256 << 10

// configTree lays out in dir the workspace path from its root down to the
// file at abs, holding only the config files f reads (each ancestor's
// .clang-format, pyproject.toml, .editorconfig …) and empty stand-ins for
// the markers that end its search (.git). The formatter sees this tree and
// nothing else of the workspace, so a config that is a link leading out of
// the workspace is never read: it is left out and named in skipped. It
// returns the file's path relative to the root.
func (a *assistant) configTree(dir, abs string, f formatter) (rel string, skipped []string, err error) {
	root := ""
	for _, r := range a.d.Sandbox.Roots() {
		if (abs == r || strings.HasPrefix(abs, r+"/")) && len(r) > len(root) {
			root = r
		}
	}
	if root == "" {
		return "", nil, fmt.Errorf("coding_assistant: %s is in no workspace root", abs)
	}
	if rel, err = filepath.Rel(root, abs); err != nil {
		return "", nil, err
	}
	for d := filepath.Dir(rel); ; d = filepath.Dir(d) {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return "", nil, err
		}
		for _, name := range f.markers {
			if _, err := os.Lstat(filepath.Join(root, d, name)); err == nil {
				if err := os.Mkdir(filepath.Join(dir, d, name), 0o755); err != nil {
					return "", nil, err
				}
			}
		}
		for _, name := range f.configs {
			p := filepath.Join(root, d, name)
			if _, err := os.Lstat(p); err != nil {
				continue // none here
			}
			data, why := a.readConfig(p)
			if why != "" {
				skipped = append(skipped, filepath.Join(d, name)+": "+why)
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, d, name), data, 0o644); err != nil {
				return "", nil, err
			}
		}
		if d == "." {
			return rel, skipped, nil
		}
	}
}

// readConfig reads one config file if it resolves inside the workspace and
// is a regular file of sane size; otherwise it says why not.
func (a *assistant) readConfig(p string) ([]byte, string) {
	real, err := a.d.Sandbox.Resolve(p)
	if err != nil {
		return nil, "ignored: it leads out of the workspace"
	}
	data, err := sandbox.ReadRegular(real, maxConfig)
	switch {
	case errors.Is(err, sandbox.ErrNotRegular):
		return nil, "ignored: not a regular file"
	case errors.Is(err, sandbox.ErrTooLarge):
		return nil, fmt.Sprintf("ignored: larger than %d bytes", maxConfig)
	case err != nil:
		return nil, "ignored: it cannot be read"
	}
	return data, ""
}
