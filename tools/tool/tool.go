// Package tool is the contract every clawbridge tool meets. A tool is a plain
// value: its name, description, actions with per-action permission levels and
// timeout classes, and a handler. It knows nothing of MCP or sessions; the
// server adapts it.
package tool

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/internal/config"
)

// Level is the permission level of an action.
type Level string

const (
	Read  Level = "read"  // no side effects
	Write Level = "write" // changes files or local state inside the workspace or data dir
	High  Level = "high"  // side effects outside this machine or arbitrary execution
)

func (l Level) rank() int {
	switch l {
	case Read:
		return 0
	case Write:
		return 1
	default:
		return 2
	}
}

// TimeoutClass names how long an action may run; config owns the classes
// and maps them to the durations under limits (config.Limits.Timeout).
type TimeoutClass = config.TimeoutClass

const (
	Fast   = config.Fast   // local lookups
	Normal = config.Normal // network and file work
	Slow   = config.Slow   // rendering, conversion, indexing
)

// Action is one operation of a tool.
type Action struct {
	Name string // empty for a single-action tool
	// Description is the action's line in the published `action` enum; an
	// action whose name says it all (append, unzip) may go without one.
	Description string
	Level       Level
	Timeout     TimeoutClass
	Params      []Param // parameters this action takes; Required is per action
	// Idempotent marks a read that may be retried once on a transient error.
	Idempotent bool
	// Handler runs the calls of this action; Tool.Handle dispatches to it,
	// so no tool switches on the action name.
	Handler Handler
	// Preview, for a High action whose arguments do not show what it will
	// do (a draft's path stands for its recipients), describes the call for
	// the person asked to confirm it. An error refuses the call before
	// anyone is asked. Nil: the tool name and the redacted arguments.
	// A Preview that reads files keeps what it read in Call.Previewed for
	// the handler, and its text shows that content whole or names its
	// sha256: a confirmation token is bound to the text, so any change to
	// the content is a new question.
	Preview func(ctx context.Context, c *Call) (string, error)
	// OptionalOutput marks a write action that writes a file only when the
	// call names an `output` or sets `save`; any other call of it is a read
	// (OCR that can also save its text, a screenshot returned inline).
	OptionalOutput bool
}

// Handler runs one validated call.
type Handler func(ctx context.Context, call *Call) (*Result, error)

// Tool is one published tool.
type Tool struct {
	Name        string
	Title       string
	Description string
	Actions     []Action
	// OpenWorld marks tools that reach outside this machine (network, mail).
	OpenWorld bool
	// Programs lists external programs the tool uses, mapped to the Debian
	// package that provides each; `clawbridge doctor` checks them.
	Programs map[string]string
	// Checks are what else `clawbridge doctor` checks for the tool (an X
	// display, a Python module), so that the CLI names no tool.
	Checks []Check
	// Examples are typical requests, used by the router's lexical ranker.
	Examples []string
	// CallLevel, when set, decides the level of one call from its arguments
	// (the shell runs read-only programs at Read); it may only lower the
	// action's declared level, never raise it past High.
	CallLevel func(c *Call) Level
	// Attach, when set, is called once by the server with its Host (host.go).
	Attach Attach
	// Closer, when set, releases what the tool holds open (indexes,
	// connections, goroutines); the composition root closes it at shutdown
	// (lifecycle.go).
	Closer io.Closer
}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// Validate checks the contract every tool meets.
func (t *Tool) Validate() error {
	if !nameRE.MatchString(t.Name) {
		return fmt.Errorf("tool %q: name must be snake_case", t.Name)
	}
	if t.Description == "" || t.Title == "" {
		return fmt.Errorf("tool %q: title and description are required", t.Name)
	}
	if len(t.Actions) == 0 {
		return fmt.Errorf("tool %q: no actions", t.Name)
	}
	seen := map[string]bool{}
	for _, a := range t.Actions {
		if len(t.Actions) > 1 && !nameRE.MatchString(a.Name) {
			return fmt.Errorf("tool %q: action %q must be snake_case", t.Name, a.Name)
		}
		if seen[a.Name] {
			return fmt.Errorf("tool %q: duplicate action %q", t.Name, a.Name)
		}
		seen[a.Name] = true
		if a.Handler == nil {
			return fmt.Errorf("tool %q action %q: no handler", t.Name, a.Name)
		}
		if a.Level != Read && a.Level != Write && a.Level != High {
			return fmt.Errorf("tool %q action %q: level must be read, write or high", t.Name, a.Name)
		}
		if !a.Timeout.Valid() {
			return fmt.Errorf("tool %q action %q: timeout class must be fast, normal or slow", t.Name, a.Name)
		}
		for _, p := range a.Params {
			if err := p.validate(); err != nil {
				return fmt.Errorf("tool %q action %q: %w", t.Name, a.Name, err)
			}
			if p.Name == "action" {
				return fmt.Errorf("tool %q action %q: parameter name 'action' is reserved", t.Name, a.Name)
			}
			if err := a.checkOutputParam(p); err != nil {
				return fmt.Errorf("tool %q action %q: %w", t.Name, a.Name, err)
			}
		}
	}
	if _, err := t.mergedParams(); err != nil {
		return err
	}
	return nil
}

// MultiAction reports whether the tool takes an `action` parameter.
func (t *Tool) MultiAction() bool { return len(t.Actions) > 1 }

// ActionNames lists the actions in order.
func (t *Tool) ActionNames() []string {
	out := make([]string, 0, len(t.Actions))
	for _, a := range t.Actions {
		out = append(out, a.Name)
	}
	return out
}

// Action finds an action by name; a single-action tool answers any name with
// its only action.
func (t *Tool) Action(name string) (*Action, bool) {
	if !t.MultiAction() {
		return &t.Actions[0], true
	}
	for i := range t.Actions {
		if t.Actions[i].Name == name {
			return &t.Actions[i], true
		}
	}
	return nil, false
}

// Handle runs one prepared call with its action's handler.
func (t *Tool) Handle(ctx context.Context, c *Call) (*Result, error) {
	a, ok := t.Action(c.Action)
	if !ok || a.Handler == nil {
		// Prepare refuses unknown actions and Validate handler-less ones;
		// this is a call that skipped both.
		return nil, Invalid("action", fmt.Sprintf("%s has no action %q", t.Name, c.Action), "one of: "+strings.Join(t.ActionNames(), ", "))
	}
	return a.Handler(ctx, c)
}

// MaxLevel is the most dangerous level among the actions.
func (t *Tool) MaxLevel() Level {
	max := Read
	for _, a := range t.Actions {
		if a.Level.rank() > max.rank() {
			max = a.Level
		}
	}
	return max
}

// Annotations are the four MCP behaviour hints, derived from the levels so
// that they can never disagree with what the tool does.
type Annotations struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Annotations derives the hints from the most dangerous action.
func (t *Tool) Annotations() Annotations {
	max := t.MaxLevel()
	return Annotations{
		ReadOnly:    max == Read,
		Destructive: max == High,
		Idempotent:  max == Read,
		OpenWorld:   t.OpenWorld || max == High,
	}
}

// LevelOf is the level of one prepared call.
func (t *Tool) LevelOf(c *Call) Level {
	declared := t.MaxLevel()
	if a, ok := t.Action(c.Action); ok {
		declared = a.Level
		if a.OptionalOutput && !c.Args.Has("output") && !c.Args.Bool("save", false) {
			declared = Read
		}
	}
	if t.CallLevel != nil {
		if l := t.CallLevel(c); l.rank() < declared.rank() {
			return l
		}
	}
	return declared
}

// EnumValues is a helper for parameters whose values are fixed.
func EnumValues(values ...string) []string { return slices.Clone(values) }

// Check is a readiness check of a tool beyond its Programs, which
// `clawbridge doctor` runs and prints under Name.
type Check struct {
	Name string
	// Run says what it found; an error means the tool, or a part of it,
	// cannot work on this machine.
	Run func() (detail string, err error)
	// Fix is what to do about a failure. Empty makes a failure a note, not a
	// problem: only an optional part of the tool is affected.
	Fix string
}
