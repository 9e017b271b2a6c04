package jail

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Bind makes the host path Source visible at Target inside the jail,
// read-only unless Writable is set.
type Bind struct {
	Source   string
	Target   string
	Writable bool
}

// forbiddenSources may never be bound, nor anything inside them: the host's
// root, and the kernel's views of processes, devices and the system.
var forbiddenSources = []string{"/proc", "/sys", "/dev"}

// systemTargets are where the jail's own system view lives; a bind there
// would replace the programs and libraries the jail runs.
var systemTargets = []string{"/proc", "/sys", "/dev", "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// within reports whether p is dir or inside it (both clean and absolute).
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

func checkPath(what, p string) error {
	switch {
	case p == "":
		return fmt.Errorf("jail: %s is empty", what)
	case strings.ContainsRune(p, 0):
		return fmt.Errorf("jail: %s %q contains a NUL byte", what, p)
	case !filepath.IsAbs(p):
		return fmt.Errorf("jail: %s %q is not absolute", what, p)
	case filepath.Clean(p) != p:
		return fmt.Errorf("jail: %s %q is not clean (want %q)", what, p, filepath.Clean(p))
	}
	return nil
}

// checkTarget refuses a mount point in the jail that would replace its
// root or its system view.
func checkTarget(target string) error {
	if err := checkPath("mount target", target); err != nil {
		return err
	}
	if target == "/" {
		return fmt.Errorf("jail: mounting over / is not allowed")
	}
	for _, s := range systemTargets {
		if within(target, s) {
			return fmt.Errorf("jail: mount target %s is inside the jail's system view %s", target, s)
		}
	}
	return nil
}

// planBinds validates binds against the protected paths (the server's data
// dir and the like) and returns them ordered parents first, with the
// in-jail locations of protected paths that lie under a bind: those get an
// empty tmpfs, so binding a workspace that contains the data dir does not
// show the data dir. Sources must already have their symlinks resolved.
func planBinds(binds []Bind, protected []string) ([]Bind, []string, error) {
	for _, p := range protected {
		if err := checkPath("protected path", p); err != nil {
			return nil, nil, err
		}
	}
	seen := map[string]bool{}
	var out []Bind
	var hide []string
	for _, b := range binds {
		if err := checkPath("bind source", b.Source); err != nil {
			return nil, nil, err
		}
		if err := checkTarget(b.Target); err != nil {
			return nil, nil, err
		}
		if b.Source == "/" {
			return nil, nil, fmt.Errorf("jail: binding / (%s -> %s) is not allowed", b.Source, b.Target)
		}
		for _, f := range forbiddenSources {
			if within(b.Source, f) {
				return nil, nil, fmt.Errorf("jail: binding %s is not allowed: it is inside %s", b.Source, f)
			}
		}
		if seen[b.Target] {
			return nil, nil, fmt.Errorf("jail: two binds at %s", b.Target)
		}
		seen[b.Target] = true
		for _, p := range protected {
			if within(b.Source, p) {
				return nil, nil, fmt.Errorf("jail: binding %s is not allowed: it is inside the protected %s", b.Source, p)
			}
			if within(p, b.Source) {
				hide = append(hide, b.Target+strings.TrimPrefix(p, b.Source))
			}
		}
		out = append(out, b)
	}
	// A parent must be mounted before what goes inside it.
	slices.SortStableFunc(out, func(a, b Bind) int { return strings.Count(a.Target, "/") - strings.Count(b.Target, "/") })
	slices.Sort(hide)
	return out, slices.Compact(hide), nil
}
