package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// Tool sections are decoded by their tools (Section), so the config alone
// cannot check them. Instead every Section call is recorded; once every tool
// is built, SectionProblems lists what failed and which sections no tool
// read. The policy is the caller's and the same for every tool: the server
// refuses to start on any problem, and `clawbridge doctor` lists them.

// sectionLog records the outcome of each tool section read.
type sectionLog struct {
	mu   sync.Mutex
	read map[string]error // by tool name; nil error: decoded and valid
}

// Section decodes the config section of one tool into v over the defaults v
// already holds, strictly: a key v has no field for is an error, as is a
// value of the wrong type. When v has a `Validate() error` method it is then
// called (on the defaults too, when the section is absent). The outcome is
// recorded for SectionProblems, so a tool need not decide what a bad section
// means: on an error it may simply keep its defaults, since the server will
// not start with them.
func (c *Config) Section(tool string, v any) error {
	err := c.decodeSection(tool, v)
	if c.sections == nil { // a Config built without Default or Load
		c.sections = &sectionLog{}
	}
	c.sections.mu.Lock()
	defer c.sections.mu.Unlock()
	if c.sections.read == nil {
		c.sections.read = map[string]error{}
	}
	if prev, seen := c.sections.read[tool]; !seen || prev == nil {
		c.sections.read[tool] = err
	}
	return err
}

func (c *Config) decodeSection(tool string, v any) error {
	key := "tools." + tool
	if node, ok := c.Tools[tool]; ok {
		if errs := unknownKeys(&node, reflect.TypeOf(v), key); len(errs) > 0 {
			return c.fileError(errs...)
		}
		if err := node.Decode(v); err != nil {
			return c.fileError(sectionDecodeErrors(&node, key, err)...)
		}
	}
	if val, ok := v.(interface{ Validate() error }); ok {
		if err := val.Validate(); err != nil {
			return c.fileError(fmt.Errorf("%s: %w", key, err))
		}
	}
	return nil
}

// SectionProblems lists, in tool-name order, the sections that failed to
// decode or validate and the sections under `tools` that no tool read (a
// misspelled tool name, or a tool this build does not have). Call it after
// every tool has been built.
func (c *Config) SectionProblems() []error {
	read := map[string]error{}
	if c.sections != nil {
		c.sections.mu.Lock()
		for k, v := range c.sections.read {
			read[k] = v
		}
		c.sections.mu.Unlock()
	}
	names := make([]string, 0, len(read))
	for k := range read {
		names = append(names, k)
	}
	slices.Sort(names)
	var out []error
	for _, k := range names {
		if read[k] != nil {
			out = append(out, read[k])
		}
	}
	var unread []string
	for k := range c.Tools {
		if _, ok := read[k]; !ok {
			unread = append(unread, k)
		}
	}
	slices.Sort(unread)
	for _, k := range unread {
		hint := " (tools with settings: " + strings.Join(names, ", ") + ")"
		if best := wording.Closest(k, names); best != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", best)
		}
		out = append(out, c.fileError(fmt.Errorf("line %d: no tool reads the section %q%s", c.toolLines[k], "tools."+k, hint)))
	}
	return out
}

// SectionError joins SectionProblems into one error, nil when there are none.
func (c *Config) SectionError() error { return errors.Join(c.SectionProblems()...) }

// fileError prefixes each problem with the file it is in and joins them.
func (c *Config) fileError(errs ...error) error {
	where := "config"
	if c.Path != "" {
		where = "config " + c.Path
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = fmt.Errorf("%s: %w", where, e)
	}
	return errors.Join(out...)
}

// SectionsRead names, sorted, the tool sections read so far, whether or not
// the file has them: the tools that own a section.
func (c *Config) SectionsRead() []string {
	if c.sections == nil {
		return nil
	}
	c.sections.mu.Lock()
	defer c.sections.mu.Unlock()
	names := make([]string, 0, len(c.sections.read))
	for k := range c.sections.read {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
