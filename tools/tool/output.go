package tool

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
	"github.com/clawbridge/clawbridge/internal/sandbox"
)

// Output describes the files one call produces: where they go when the
// model names no path, which argument names one, and what they must never
// replace. Every tool that writes a file plans it here, so all of them
// name, refuse and overwrite the same way.
//
// The files of one call share a base and differ by extension (a .docx and
// its PDF copy, a chart's .png and .svg, a report's .xlsx and .md).
type Output struct {
	// Field is the argument that names the path; "output" when empty.
	Field string
	// Stem is the default base name, usually from the input
	// (StemOf(input)+"_merged"): the files go to outputs/<stem><ext>.
	Stem string
	// Exts are the extensions written, the main file first (".pdf").
	Exts []string
	// Inputs are the call's input files (absolute), replaced only with
	// overwrite set.
	Inputs []string
}

// Outputs are the planned paths of one call, checked before anything is
// written so that a refusal changes nothing.
type Outputs struct {
	field   string            // the argument that named (or could name) the path
	paths   map[string]string // extension -> absolute path
	replace bool              // overwrite was set: existing files may be replaced
}

// PlanOutput chooses the paths for o from the call's arguments: the path in
// o.Field (its extension, if any, one of o.Exts; none adds them) or
// outputs/<o.Stem><ext>. A named path that exists is refused unless the
// call sets `overwrite`; a default name that is taken gets -2, -3... (the
// same number for every extension) unless `overwrite` is set. An input is
// never chosen as a default name. Paths outside the workspace, in the trash
// or in the server's data directory are refused (sandbox.Output); parent
// directories are created.
func PlanOutput(sb *sandbox.Sandbox, args Args, o Output) (*Outputs, error) {
	if len(o.Exts) == 0 {
		return nil, errors.New("PlanOutput: no extensions")
	}
	field := o.Field
	if field == "" {
		field = "output"
	}
	overwrite := args.Bool("overwrite", false)
	given := args.String(field)
	if given == "" {
		stem := o.Stem
		if stem == "" {
			stem = "output"
		}
		for n := 1; ; n++ {
			name := stem
			if n > 1 {
				name = fmt.Sprintf("%s-%d", stem, n)
			}
			out, err := plan(sb, field, "", name, o.Exts, overwrite)
			if err != nil {
				return nil, err
			}
			taken, err := out.check(sb, field, "", o.Inputs)
			if err != nil {
				return nil, err
			}
			if !taken {
				return out, nil
			}
		}
	}
	base := given
	exts := o.Exts
	if ext := filepath.Ext(given); ext != "" {
		// The named extension stands for the planned one of the same type
		// (".jpeg" for ".jpg", ".PDF" for ".pdf"); any other is a mistake.
		i := slices.IndexFunc(o.Exts, func(e string) bool { return strings.EqualFold(e, ext) || MIME(e) == MIME(ext) && MIME(e) != MIME("") })
		if i < 0 {
			return nil, Invalid(field, fmt.Sprintf("%s %q must end in %s", field, given, strings.Join(o.Exts, " or ")),
				"give a file name ending in "+o.Exts[0]+" (or without an extension), or leave "+field+" empty for a name in outputs/")
		}
		base = strings.TrimSuffix(given, ext)
		exts = slices.Clone(o.Exts)
		exts[i] = ext
	}
	out, err := plan(sb, field, base, "", exts, overwrite)
	if err != nil {
		return nil, err
	}
	for i, e := range exts {
		// Callers ask for the extension they planned.
		out.paths[o.Exts[i]] = out.paths[e]
		if e != o.Exts[i] {
			delete(out.paths, e)
		}
	}
	if _, err := out.check(sb, field, given, o.Inputs); err != nil {
		return nil, err
	}
	return out, nil
}

// plan resolves base+ext (a named path) or outputs/name+ext for every
// extension.
func plan(sb *sandbox.Sandbox, field, base, name string, exts []string, overwrite bool) (*Outputs, error) {
	out := &Outputs{field: field, paths: map[string]string{}, replace: overwrite}
	for _, ext := range exts {
		var abs string
		var err error
		if base != "" {
			abs, err = sb.Output(base+ext, "")
		} else {
			abs, err = sb.Output("", name+ext)
		}
		if err != nil {
			return nil, PathError(field, base+ext, err)
		}
		out.paths[ext] = abs
	}
	return out, nil
}

// check reports whether a planned path is taken. For a default name
// (given == "") a taken path is only reported, so that the next number is
// tried; for a named one it is an error unless overwrite is set.
func (out *Outputs) check(sb *sandbox.Sandbox, field, given string, inputs []string) (taken bool, err error) {
	for _, abs := range out.paths {
		fi, err := os.Lstat(abs)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", field, err)
		}
		if fi.IsDir() {
			if given == "" {
				return true, nil
			}
			return false, Invalid(field, fmt.Sprintf("%s is a directory", sb.Rel(abs)), "give a file name")
		}
		isInput := slices.Contains(inputs, abs)
		if given == "" {
			if isInput || !out.replace {
				return true, nil
			}
			continue
		}
		if out.replace {
			continue
		}
		msg := fmt.Sprintf("%s already exists", sb.Rel(abs))
		if isInput {
			msg = fmt.Sprintf("%s would replace the input %s", field, sb.Rel(abs))
		}
		return false, Existsf(field, OverwriteHint(field), "%s", msg)
	}
	return false, nil
}

// OverwriteHint is the one hint for an output that already exists.
func OverwriteHint(field string) string {
	return "choose another " + field + " or set overwrite to true"
}

// Path is the absolute path planned for ext.
func (out *Outputs) Path(ext string) string {
	p, ok := out.paths[ext]
	if !ok {
		panic("tool: output extension " + ext + " was not planned")
	}
	return p
}

// Write writes the file for ext atomically and describes it for
// Result.Files (which clients receive as a resource link).
func (out *Outputs) Write(ext string, data []byte) (File, error) {
	return out.WriteFrom(ext, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFrom is Write for content produced by fill. A failed fill leaves
// nothing behind. Without overwrite, a file that appeared at the path since
// PlanOutput is not replaced: the call fails with already_exists.
func (out *Outputs) WriteFrom(ext string, fill func(w io.Writer) error) (File, error) {
	abs := out.Path(ext)
	cw := &countingWriter{}
	write := atomicfile.WriteNew
	if out.replace {
		write = atomicfile.Write
	}
	err := write(abs, 0o644, func(w io.Writer) error {
		cw.w = w
		return fill(cw)
	})
	if errors.Is(err, atomicfile.ErrExists) {
		return File{}, Existsf(out.field, "call again (a default name is chosen anew), or set overwrite to true", "%s was created by someone else meanwhile", filepath.Base(abs))
	}
	if err != nil {
		return File{}, err
	}
	return File{Path: abs, MIME: MIME(abs), Size: cw.n}, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// StemOf is a file's name without directory and extension, the usual start
// of a default output name.
func StemOf(path string) string {
	b := filepath.Base(path)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// mimes are the types of the files tools write, fixed here rather than
// taken from the host's mime.types, which differs between machines.
var mimes = map[string]string{
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pdf":  "application/pdf",
	".md":   "text/markdown; charset=utf-8",
	".html": "text/html; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".csv":  "text/csv; charset=utf-8",
	".json": "application/json",
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".bmp":  "image/bmp",
	".tif":  "image/tiff",
	".tiff": "image/tiff",
	".htm":  "text/html; charset=utf-8",
	".svg":  "image/svg+xml",
	".mmd":  "text/vnd.mermaid",
	".opml": "text/x-opml",
	".mm":   "application/x-freemind",
	".zip":  "application/zip",
}

// MIME is the type of a produced file, by its extension.
func MIME(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	if m, ok := mimes[ext]; ok {
		return m
	}
	if m := mime.TypeByExtension(ext); m != "" {
		return m
	}
	return "application/octet-stream"
}

// PlanOutputDir chooses the directory for a call that writes many files:
// the path in o.Field, or outputs/<o.Stem> made unique unless `overwrite`
// is set. It is created. Files in it are planned with PlanFileIn.
func PlanOutputDir(sb *sandbox.Sandbox, args Args, o Output) (string, error) {
	field := o.Field
	if field == "" {
		field = "output_dir"
	}
	given := args.String(field)
	if given == "" {
		for n := 1; ; n++ {
			name := o.Stem
			if n > 1 {
				name = fmt.Sprintf("%s-%d", o.Stem, n)
			}
			abs, err := sb.ResolveWrite(filepath.Join("outputs", name))
			if err != nil {
				return "", PathError(field, filepath.Join("outputs", name), err)
			}
			fi, err := os.Lstat(abs)
			if errors.Is(err, os.ErrNotExist) || (err == nil && fi.IsDir() && args.Bool("overwrite", false)) {
				given = abs
				break
			}
		}
	}
	abs, err := sb.ResolveWrite(given)
	if err != nil {
		return "", PathError(field, given, err)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return "", Invalid(field, fmt.Sprintf("%s is a file, not a directory", sb.Rel(abs)), "give a directory path, or leave "+field+" empty for one in outputs/")
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", fmt.Errorf("%s: %w", field, err)
	}
	return abs, nil
}

// PlanFileIn plans the file name inside dir (from PlanOutputDir): an
// existing file there is refused unless `overwrite` is set. Write it with
// the Outputs' Write(filepath.Ext(name), ...).
func PlanFileIn(sb *sandbox.Sandbox, args Args, field, dir, name string) (*Outputs, error) {
	abs, err := sb.Output(filepath.Join(dir, filepath.Base(name)), "")
	if err != nil {
		return nil, PathError(field, filepath.Join(dir, filepath.Base(name)), err)
	}
	out := &Outputs{field: field, paths: map[string]string{filepath.Ext(name): abs}, replace: args.Bool("overwrite", false)}
	if _, err := out.check(sb, field, name, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// Overwrite is the one `overwrite` parameter: an existing file at the
// output may be replaced (PlanOutput and its kin read it).
var Overwrite = Param{Name: "overwrite", Type: Boolean}

// OutputParam is the `output` parameter of an action that writes one file;
// note says where it goes by default.
func OutputParam(note string) Param { return Param{Name: "output", Type: String, Description: note} }

// checkOutputParam holds the contract's own parameters to one meaning: an
// action that reads cannot take an output or an overwrite (its annotations
// would tell the client it writes nothing), and `output` is a path,
// `overwrite` a flag, in every tool.
func (a *Action) checkOutputParam(p Param) error {
	var want Type
	switch p.Name {
	case "output":
		want = String
	case "overwrite":
		want = Boolean
	default:
		return nil
	}
	switch {
	case p.Type != want:
		return fmt.Errorf("parameter %q must be a %s", p.Name, want)
	case a.Level == Read:
		return fmt.Errorf("a read-level action cannot take %q: it writes a file, so its level is write", p.Name)
	}
	return nil
}

// LevelNote is the action's level as the tool reference says it: an
// optional output's action is "read/write" (a read unless the call names an
// output or sets save).
func (a *Action) LevelNote() string {
	if a.OptionalOutput {
		return string(Read) + "/" + string(a.Level)
	}
	return string(a.Level)
}
