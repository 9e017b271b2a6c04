// Package sandbox confines tool file access to the workspace roots. Every
// path is resolved with symlinks evaluated, so a link that points outside a
// root is refused just like "../".
//
// Two kinds of places inside the roots are kept from tools: the server's
// private directories (the data dir, with its store) are never resolved at
// all, and the trash is never the target of a write — ResolveWrite and
// Output refuse both, whatever path or symlink leads there. The file tool's
// own trash bookkeeping writes under TrashDir directly. The package does
// not watch what external programs do with a directory they were given.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrOutside is returned for paths that leave the workspace.
var ErrOutside = errors.New("path is outside the workspace")

// ErrProtected is returned for a write into the trash or for any use of the
// server's private directories.
var ErrProtected = errors.New("path is reserved for the server")

// Sandbox holds the workspace roots.
type Sandbox struct {
	mu         sync.RWMutex
	configured []string // the configured roots, absolute, symlinks evaluated
	roots      []string // in force: configured, or narrowed by client roots
	private    []string // never resolved: the data dir; absolute, symlinks evaluated
}

// New creates the configured roots that do not exist yet (the operator
// named them) and returns a sandbox over them.
func New(roots []string) (*Sandbox, error) {
	for _, r := range roots {
		if err := os.MkdirAll(r, 0o755); err != nil {
			return nil, fmt.Errorf("sandbox: create root %s: %w", r, err)
		}
	}
	return Open(roots)
}

// Open returns a sandbox over the roots without creating any: for commands
// that only look (`clawbridge tools`, `route`, `doctor`). A root that does
// not exist yet is kept at the path it will have.
func Open(roots []string) (*Sandbox, error) {
	if len(roots) == 0 {
		return nil, errors.New("sandbox: no workspace roots")
	}
	var clean []string
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("sandbox: root %s: %w", r, err)
		}
		real, err := evalExisting(abs)
		if err != nil {
			return nil, fmt.Errorf("sandbox: root %s: %w", abs, err)
		}
		clean = appendNew(clean, real)
	}
	return &Sandbox{configured: clean, roots: clean}, nil
}

// ApplyClientRoots sets the roots from a client's MCP roots, always
// starting from the configured ones. A client root is never created: one
// that does not exist (or is not a directory) is skipped.
//
// With trust false the roots become the intersection of the client's and
// the configured ones: a client root inside a configured root narrows the
// workspace to it, a configured root inside a client root stays whole, and
// a client root disjoint from every configured root adds nothing. When
// the intersection is empty the configured roots stay in force and the
// error says so. With trust true the existing client roots replace the
// configured ones.
//
// It returns the roots now in force.
func (s *Sandbox) ApplyClientRoots(client []string, trust bool) ([]string, error) {
	s.mu.RLock()
	configured := s.configured
	s.mu.RUnlock()
	var existing, skipped []string
	for _, c := range client {
		if !filepath.IsAbs(c) || strings.ContainsRune(c, 0) {
			skipped = append(skipped, c)
			continue
		}
		real, err := filepath.EvalSymlinks(filepath.Clean(c))
		if err != nil {
			skipped = append(skipped, c)
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			skipped = append(skipped, c)
			continue
		}
		existing = appendNew(existing, real)
	}
	var next []string
	if trust {
		next = existing
	} else {
		for _, c := range existing {
			for _, r := range configured {
				switch {
				case within(r, c):
					next = appendNew(next, c)
				case within(c, r):
					next = appendNew(next, r)
				}
			}
		}
	}
	if len(next) == 0 {
		s.mu.Lock()
		s.roots = configured
		s.mu.Unlock()
		why := "none of them lies inside the configured workspace"
		if trust {
			why = "none of them exists"
		}
		if len(skipped) > 0 {
			why += " (skipped, missing or not a directory: " + strings.Join(skipped, ", ") + ")"
		}
		return configured, fmt.Errorf("sandbox: client roots give no workspace: %s; keeping the configured roots %s", why, strings.Join(configured, ", "))
	}
	s.mu.Lock()
	s.roots = next
	s.mu.Unlock()
	return next, nil
}

func appendNew(list []string, p string) []string {
	for _, x := range list {
		if x == p {
			return list
		}
	}
	return append(list, p)
}

// Protect marks directories (the server's data dir) that no tool may read or
// write, even when they lie inside a root. They need not exist yet.
func (s *Sandbox) Protect(dirs ...string) error {
	var clean []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return fmt.Errorf("sandbox: protected dir %s: %w", d, err)
		}
		real, err := evalExisting(abs)
		if err != nil {
			return fmt.Errorf("sandbox: protected dir %s: %w", d, err)
		}
		clean = append(clean, real)
	}
	s.mu.Lock()
	s.private = append(s.private, clean...)
	s.mu.Unlock()
	return nil
}

// Roots returns the roots; the first is the default.
func (s *Sandbox) Roots() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]string(nil), s.roots...)
}

// inForce is the roots slice itself, for reading inside the package
// without a copy per path: it is never changed in place, only replaced
// whole (ApplyClientRoots), so a reader keeps a consistent set.
func (s *Sandbox) inForce() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.roots
}

// Root is the default root.
func (s *Sandbox) Root() string { return s.inForce()[0] }

// Resolve maps a user path (relative to the default root, or absolute inside
// a root) to an absolute real path inside the workspace. The path need not
// exist; its deepest existing ancestor is resolved through symlinks and the
// rest appended, so a later create cannot escape either.
func (s *Sandbox) Resolve(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: path contains a NUL byte", ErrOutside)
	}
	roots := s.inForce()
	if p == "" || p == "." {
		return roots[0], nil
	}
	var abs string
	if filepath.IsAbs(p) {
		abs = filepath.Clean(p)
	} else {
		abs = filepath.Join(roots[0], p)
	}
	real, err := evalExisting(abs)
	if err != nil {
		return "", err
	}
	for _, r := range roots {
		if within(r, real) {
			if s.isPrivate(real) {
				return "", fmt.Errorf("%w: %s is the server's data directory", ErrProtected, p)
			}
			return real, nil
		}
	}
	return "", fmt.Errorf("%w: %s (workspace roots: %s)", ErrOutside, p, strings.Join(roots, ", "))
}

// ResolveWrite is Resolve for a path a tool will create, change or remove:
// it also refuses the trash of every root. Every write target a tool takes
// from its arguments goes through here (or Output, or CheckWrite).
func (s *Sandbox) ResolveWrite(p string) (string, error) {
	abs, err := s.Resolve(p)
	if err != nil {
		return "", err
	}
	if err := s.CheckWrite(abs); err != nil {
		return "", err
	}
	return abs, nil
}

// CheckWrite refuses a write to abs, an absolute path already resolved
// (at least up to its last element, for acting on a symlink itself), when
// it is or lies in a trash or a private directory. It does not follow abs.
func (s *Sandbox) CheckWrite(abs string) error {
	if s.isPrivate(abs) {
		return fmt.Errorf("%w: %s is the server's data directory", ErrProtected, abs)
	}
	if s.holdsPrivate(abs) {
		// Moving or removing a folder would take the data dir with it.
		return fmt.Errorf("%w: %s holds the server's data directory", ErrProtected, s.Rel(abs))
	}
	if s.inAnyTrash(abs) {
		return fmt.Errorf("%w: %s is in the trash, which only delete and restore change", ErrProtected, s.Rel(abs))
	}
	return nil
}

func (s *Sandbox) isPrivate(real string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, d := range s.private {
		if within(d, real) {
			return true
		}
	}
	return false
}

// holdsPrivate reports whether a private directory lies strictly inside abs.
func (s *Sandbox) holdsPrivate(abs string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, d := range s.private {
		if d != abs && within(abs, d) {
			return true
		}
	}
	return false
}

// inAnyTrash reports whether abs is inside the trash of any root (only the
// default root's is used, but none of them is a place to write into).
func (s *Sandbox) inAnyTrash(abs string) bool {
	for _, r := range s.inForce() {
		if within(filepath.Join(r, trashName), abs) {
			return true
		}
	}
	return false
}

// evalExisting resolves symlinks in the longest existing prefix of abs.
func evalExisting(abs string) (string, error) {
	rest := ""
	cur := abs
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			if rest == "" {
				return real, nil
			}
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			// A dangling symlink: resolve its target by hand so that a link
			// to a not-yet-existing file outside is still caught.
			return "", err
		}
		if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			target, rerr := os.Readlink(cur)
			if rerr != nil {
				return "", rerr
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(cur), target)
			}
			resolved, rerr := evalExisting(filepath.Clean(target))
			if rerr != nil {
				return "", rerr
			}
			if rest == "" {
				return resolved, nil
			}
			return filepath.Join(resolved, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func within(root, p string) bool {
	if p == root {
		return true
	}
	return strings.HasPrefix(p, root+string(filepath.Separator))
}

// Rel shows an absolute workspace path relative to its root, for results.
func (s *Sandbox) Rel(abs string) string {
	for _, r := range s.inForce() {
		if within(r, abs) {
			rel, err := filepath.Rel(r, abs)
			if err == nil {
				return rel
			}
		}
	}
	return abs
}

// Output returns where a produced file goes: the given path resolved in the
// workspace, or <root>/outputs/<defaultName> when none is given. Parent
// directories are created. Like ResolveWrite, never in the trash.
func (s *Sandbox) Output(p, defaultName string) (string, error) {
	if p == "" {
		p = filepath.Join("outputs", defaultName)
	}
	abs, err := s.ResolveWrite(p)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return "", err
	}
	return abs, nil
}

const trashName = ".trash"

// TrashDir is where deleted files go, inside the default root.
func (s *Sandbox) TrashDir() string { return filepath.Join(s.Root(), trashName) }

// IsTrash reports whether abs is inside the trash.
func (s *Sandbox) IsTrash(abs string) bool { return within(s.TrashDir(), abs) }

// Stamp is a sortable timestamp for unique output and trash names.
func Stamp() string { return time.Now().UTC().Format("20060102T150405.000000000") }
