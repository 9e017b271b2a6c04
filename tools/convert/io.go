package convert

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"clawbridge/internal/atomicfile"
	"clawbridge/tools/tool"
)

// source is the input of one conversion.
type source struct {
	kind string // md, html, docx, ...
	name string // file name ("" for inline text)
	abs  string // absolute path ("" for inline text)
	dir  string // directory that relative links resolve against
	data []byte
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
	abs, err := cv.d.Sandbox.Resolve(path)
	if err != nil {
		return nil, tool.PathError("path", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &tool.Error{Code: tool.CodeNotFound, Field: "path", Message: "file not found: " + path, Hint: "relative paths start at the workspace root"}
		}
		return nil, fmt.Errorf("convert: stat %s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, tool.Invalid("path", path+" is a directory", "give a file")
	}
	if fi.Size() > int64(cv.cfg.MaxMB)<<20 {
		return nil, tool.Errorf(tool.CodeTooLarge, "raise tools.format_converter.max_mb if this is expected", "%s is %d MB, above the %d MB limit", path, fi.Size()>>20, cv.cfg.MaxMB)
	}
	kind := from
	if kind == "" {
		kind = kindOf(abs)
	}
	if kind == "" {
		return nil, tool.Invalid("from", fmt.Sprintf("cannot tell the format of %s from its extension", path), "set 'from'")
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("convert: read %s: %w", path, err)
	}
	return &source{kind: kind, name: filepath.Base(abs), abs: abs, dir: filepath.Dir(abs), data: data}, nil
}

// outputPath picks the output file: the given one (refused when it exists
// or is the input, unless overwrite) or outputs/<stem>.<ext> made unique.
func (cv *converter) outputPath(c *tool.Call, src *source, to string) (string, error) {
	given := c.Args.String("output")
	stem := "converted"
	if src.name != "" {
		stem = strings.TrimSuffix(src.name, filepath.Ext(src.name))
	}
	abs, err := cv.d.Sandbox.Output(given, stem+outExt[to])
	if err != nil {
		return "", tool.PathError("output", given, err)
	}
	overwrite := c.Args.Bool("overwrite", false)
	if given == "" && !overwrite {
		return unique(abs), nil
	}
	if fi, err := os.Stat(abs); err == nil {
		if fi.IsDir() {
			return "", tool.Invalid("output", given+" is a directory", "give a file name")
		}
		if !overwrite {
			msg := "output file already exists: " + given
			if abs == src.abs {
				msg = "output would overwrite the input " + given
			}
			return "", &tool.Error{Code: tool.CodeExists, Field: "output", Message: msg, Hint: "choose another output path or set overwrite=true"}
		}
	}
	return abs, nil
}

func unique(abs string) string {
	if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) {
		return abs
	}
	ext := filepath.Ext(abs)
	base := strings.TrimSuffix(abs, ext)
	for i := 2; ; i++ {
		cand := fmt.Sprintf("%s-%d%s", base, i, ext)
		if _, err := os.Stat(cand); errors.Is(err, os.ErrNotExist) {
			return cand
		}
	}
}

func writeOut(abs, mime string, data []byte) (tool.File, error) {
	if err := atomicfile.WriteFile(abs, data, 0o644); err != nil {
		return tool.File{}, fmt.Errorf("convert: write %s: %w", abs, err)
	}
	return tool.File{Path: abs, MIME: mime, Size: int64(len(data))}, nil
}

// readLocal reads a file referenced from a document (an image), relative to
// the document's directory, through the sandbox.
func (cv *converter) readLocal(dir, ref string) ([]byte, error) {
	p := ref
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	abs, err := cv.d.Sandbox.Resolve(p)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if fi.Size() > 20<<20 {
		return nil, fmt.Errorf("%s is larger than 20 MB", ref)
	}
	return os.ReadFile(abs)
}
