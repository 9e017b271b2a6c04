package tool

import "fmt"

// A tool's lifecycle, in the order the registry (tools.All) and the
// composition root (internal/cli) run it:
//
//  1. Configured.Defaults gives the tool's settings before the file is read;
//  2. the section tools.<Name> of the config is decoded over them strictly
//     (config.Section): an unknown key, a value of the wrong type or a
//     failed Validate is an error naming the tool and the key, and the
//     registry refuses to build;
//  3. Configured.Provision builds the tool from the decoded settings (the
//     setup that needs them: clients, limits, parameters);
//  4. `clawbridge doctor` runs the tool's Checks;
//  5. the composition root closes the tool's Closer at shutdown.
//
// A tool without settings skips 1 to 3 and is a plain constructor.

// Configured is the constructor of a tool that has a config section.
type Configured[C any] struct {
	// Name is the tool's published name, which names its section.
	Name string
	// Defaults returns fresh settings (a new value on each call, so that
	// decoding a map or slice never changes the defaults); nil: the zero C.
	Defaults func() C
	// Provision builds the tool from its decoded settings.
	Provision func(d *Deps, cfg C) (Tool, error)
}

// Settings runs steps 1 and 2: the tool's settings from d's config.
func (c Configured[C]) Settings(d *Deps) (C, error) {
	var cfg C
	if c.Defaults != nil {
		cfg = c.Defaults()
	}
	if d.Config != nil {
		if err := d.Config.Section(c.Name, &cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// New runs steps 1 to 3 on d's config: it is the tool's constructor.
func (c Configured[C]) New(d *Deps) (Tool, error) {
	cfg, err := c.Settings(d)
	if err != nil {
		return Tool{}, err
	}
	t, err := c.Provision(d, cfg)
	if err != nil {
		return Tool{}, err
	}
	if t.Name != c.Name {
		CloseTool(t)
		return Tool{}, fmt.Errorf("tool %q reads the section tools.%s: a section is named by its tool", t.Name, c.Name)
	}
	return t, nil
}

// Stateful is Configured for a tool whose Provision also returns its
// state S (the tool's own struct), which the tool's tests drive: New is
// the tool's constructor, Build is New keeping the state.
type Stateful[C, S any] struct {
	Name      string
	Defaults  func() C
	Provision func(d *Deps, cfg C) (S, Tool, error)
}

// Configured is s without the state.
func (s Stateful[C, S]) Configured() Configured[C] {
	return Configured[C]{Name: s.Name, Defaults: s.Defaults, Provision: func(d *Deps, cfg C) (Tool, error) {
		_, t, err := s.Provision(d, cfg)
		return t, err
	}}
}

// New runs steps 1 to 3 on d's config, as Configured.New.
func (s Stateful[C, S]) New(d *Deps) (Tool, error) { return s.Configured().New(d) }

// Build runs steps 1 to 3 and keeps the state, for the tool's tests.
func (s Stateful[C, S]) Build(d *Deps) (S, Tool, error) {
	cfg, err := s.Configured().Settings(d)
	if err != nil {
		var none S
		return none, Tool{}, err
	}
	return s.Provision(d, cfg)
}

// CloseTool closes t's Closer, if it has one.
func CloseTool(t Tool) error {
	if t.Closer == nil {
		return nil
	}
	return t.Closer.Close()
}
