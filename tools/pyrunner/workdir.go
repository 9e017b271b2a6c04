package pyrunner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// workDir holds one run's files on the host. The inputs (the script and
// the files copied in) are in `in`. In the jail, /work is a tmpfs of
// work_mb, so the quota holds while the run goes on, filled from `in` at
// the start; when the program ends its content is streamed out as a tar
// and extracted into `out` under the same quota. On the host (an allowed
// unsandboxed run) the program runs in `in` itself.
type workDir struct {
	root    string
	in, out string
	// inputs are the files copied in, by name relative to in, with their
	// size and time stamp after the copy: a file still like that afterwards
	// was not produced by the run and is not copied out.
	inputs map[string]stamp
}

type stamp struct {
	size  int64
	mtime time.Time
}

// inputTime is the time stamp every input gets, far enough in the past
// that a file the script rewrites gets a different one.
var inputTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func newWorkDir() (*workDir, error) {
	root, err := os.MkdirTemp("", "clawbridge-run-")
	if err != nil {
		return nil, fmt.Errorf("python_runner: work dir: %w", err)
	}
	w := &workDir{root: root, in: filepath.Join(root, "in"), out: filepath.Join(root, "out"), inputs: map[string]stamp{}}
	if err := errors.Join(os.Mkdir(w.in, 0o755), os.Mkdir(w.out, 0o755)); err != nil {
		w.remove()
		return nil, fmt.Errorf("python_runner: work dir: %w", err)
	}
	return w, nil
}

func (w *workDir) remove() { os.RemoveAll(w.root) }

// inputBytes is the size of the inputs together.
func (w *workDir) inputBytes() int64 {
	var n int64
	for _, st := range w.inputs {
		n += st.size
	}
	return n
}

// add writes one input file named name (a base name) into the work dir.
func (w *workDir) add(name string, src io.Reader) error {
	p := filepath.Join(w.in, name)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, src)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Chtimes(p, inputTime, inputTime); err != nil {
		return err
	}
	w.inputs[name] = stamp{size: n, mtime: inputTime}
	return nil
}

// copyIn copies the workspace files of the `files` argument in, by base
// name, refusing anything but regular files, two files of the same name, a
// name taken by the script, and more than maxBytes of inputs together
// (the script included).
func (r *runner) copyIn(w *workDir, paths []string, script string, maxBytes int64) error {
	for _, p := range paths {
		abs, err := r.d.Sandbox.Resolve(p)
		if err != nil {
			return tool.PathError("files", p, err)
		}
		name := filepath.Base(abs)
		if _, dup := w.inputs[name]; dup || name == script {
			return tool.Invalid("files", fmt.Sprintf("files: two inputs are named %q in the work directory", name), "every input is copied in by its base name: rename one, or run them separately")
		}
		if err := r.addInput(w, "files", p, abs, name, maxBytes); err != nil {
			return err
		}
	}
	return nil
}

// addInput copies the workspace file abs (given as field: p) into the work
// dir as name. Only a regular file is read, never a FIFO or a device, and
// only while the inputs stay within maxBytes together.
func (r *runner) addInput(w *workDir, field, p, abs, name string, maxBytes int64) error {
	room := maxBytes - w.inputBytes()
	f, _, err := sandbox.OpenRegular(abs, max(room, 1))
	if errors.Is(err, sandbox.ErrTooLarge) {
		return tool.Errorf(tool.CodeTooLarge, "copy in fewer or smaller files, or raise tools.python_runner.max_input_mb (and work_mb)",
			"%s: %q is too large: the inputs may be %d MB together", field, p, maxBytes>>20)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tool.NotFoundf(field, "give an existing workspace file", "%s: %q does not exist", field, p)
	case errors.Is(err, sandbox.ErrNotRegular):
		return tool.PathError(field, p, err)
	case err != nil:
		// The message without the host path.
		return tool.Errorf(tool.CodeDenied, "", "%s: cannot read %q: %v", field, p, errors.Unwrap(err))
	}
	defer f.Close()
	// The cap holds even for a file that grows while it is copied.
	if err := w.add(name, io.LimitReader(f, room+1)); err != nil {
		return fmt.Errorf("python_runner: copy %s in: %w", name, err)
	}
	if w.inputBytes() > maxBytes {
		return tool.Errorf(tool.CodeTooLarge, "copy in fewer or smaller files", "%s: %q grew past the input limit of %d MB while it was copied", field, p, maxBytes>>20)
	}
	return nil
}

// produced lists the regular files of the run's work dir dir (w.out, or
// w.in for a run on the host) it created or changed, relative to dir, in
// name order. Symlinks, FIFOs and other special files are never copied out
// (a symlink could name a host file).
func (w *workDir) produced(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a directory the script made unreadable: skip it
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if st, ok := w.inputs[rel]; ok {
			if fi, err := d.Info(); err == nil && fi.Size() == st.size && fi.ModTime().Equal(st.mtime) {
				return nil
			}
		}
		out = append(out, rel)
		return nil
	})
	slices.Sort(out)
	return out, err
}

// size is the bytes of the regular files in dir, for the quota of a run
// on the host.
func size(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// copyOut copies the produced files into the output directory, keeping
// their sub-directories; every destination is planned (and refused if
// taken) before anything is written.
func (r *runner) copyOut(dir string, c *tool.Call, names []string) ([]tool.File, string, error) {
	if len(names) == 0 {
		return nil, "", nil
	}
	outDir, err := tool.PlanOutputDir(r.d.Sandbox, c.Args, tool.Output{Field: "output_dir", Stem: "run-" + time.Now().Format("20060102-150405")})
	if err != nil {
		return nil, "", err
	}
	plans := make([]*tool.Outputs, len(names))
	for i, n := range names {
		if plans[i], err = tool.PlanFileIn(r.d.Sandbox, c.Args, "output_dir", filepath.Join(outDir, filepath.Dir(n)), filepath.Base(n)); err != nil {
			return nil, "", err
		}
	}
	files := make([]tool.File, 0, len(names))
	for i, n := range names {
		src, err := os.Open(filepath.Join(dir, n))
		if err != nil {
			return nil, "", fmt.Errorf("python_runner: copy %s out: %w", n, err)
		}
		f, err := plans[i].WriteFrom(filepath.Ext(n), func(dst io.Writer) error {
			_, err := io.Copy(dst, src)
			return err
		})
		src.Close()
		if err != nil {
			return nil, "", err
		}
		files = append(files, f)
	}
	return files, outDir, nil
}
