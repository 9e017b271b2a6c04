package convert

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// source is the input of one conversion.
type source struct {
	kind string // md, html, docx, ...
	name string // file name ("" for inline text)
	abs  string // absolute path ("" for inline text)
	dir  string // directory that relative links resolve against
	data []byte
	out  string // the planned output file, set before the conversion runs
}

// field is the argument the input came from, for errors about it.
func (s *source) field() string {
	if s.abs == "" {
		return "text"
	}
	return "path"
}

func (cv *converter) load(c *tool.Call) (*source, error) {
	path, text := c.Args.String("path"), c.Args.String("text")
	from := c.Args.String("from")
	switch {
	case path != "" && c.Args.Has("text"):
		return nil, tool.Invalid("text", "give either path or text, not both", "")
	case path == "" && !c.Args.Has("text"):
		return nil, tool.Invalid("path", "give the input file in 'path' (or inline Markdown/HTML in 'text')", "")
	case path == "":
		if from == "" {
			from = "md"
		}
		if from != "md" && from != "html" {
			return nil, tool.Invalid("from", "inline text can be md or html, got "+from, "write other formats to a file and pass its path")
		}
		if strings.TrimSpace(text) == "" {
			return nil, tool.Invalid("text", "text is empty", "")
		}
		return &source{kind: from, dir: cv.d.Sandbox.Root(), data: []byte(text)}, nil
	}
	abs, data, err := tool.ReadInput(cv.d.Sandbox, "path", path, int64(cv.cfg.MaxMB)<<20, "raise tools.format_converter.max_mb if this is expected")
	if err != nil {
		return nil, err
	}
	kind := from
	if kind == "" {
		kind = kindOf(abs)
	}
	if kind == "" {
		return nil, tool.Invalid("from", fmt.Sprintf("cannot tell the format of %s from its extension", path), cv.knownInputs())
	}
	return &source{kind: kind, name: filepath.Base(abs), abs: abs, dir: filepath.Dir(abs), data: data}, nil
}

// output plans the output file: the `output` argument or
// outputs/<input stem><ext> (see tool.PlanOutput).
func (cv *converter) output(c *tool.Call, src *source, to string) (*tool.Outputs, error) {
	stem := "converted"
	if src.name != "" {
		stem = tool.StemOf(src.name)
	}
	var inputs []string
	if src.abs != "" {
		inputs = []string{src.abs}
	}
	return tool.PlanOutput(cv.d.Sandbox, c.Args, tool.Output{Stem: stem, Exts: []string{outExt[to]}, Inputs: inputs})
}

// readLocal reads a file referenced from a document (an image), relative to
// the document's directory, through the sandbox (tool.Deps.LoadImage).
func (cv *converter) readLocal(dir, ref string) ([]byte, error) {
	return cv.d.LoadImage(dir, ref)
}
