package pyrunner

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"clawbridge/tools/tool"
)

// workDir is the host directory of one run, bound at /work in the jail.
type workDir struct {
	dir string
	// inputs are the files copied in, by name relative to dir, with their
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
	dir, err := os.MkdirTemp("", "clawbridge-run-")
	if err != nil {
		return nil, fmt.Errorf("python_runner: work dir: %w", err)
	}
	return &workDir{dir: dir, inputs: map[string]stamp{}}, nil
}

func (w *workDir) remove() { os.RemoveAll(w.dir) }

// add writes one input file named name (a base name) into the work dir.
func (w *workDir) add(name string, src io.Reader) error {
	p := filepath.Join(w.dir, name)
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
// name, refusing directories, two files of the same name, a name taken by
// the script, and more than maxBytes together.
func (r *runner) copyIn(w *workDir, paths []string, script string, maxBytes int64) error {
	var total int64
	for _, p := range paths {
		abs, err := r.d.Sandbox.Resolve(p)
		if err != nil {
			return tool.PathError("files", p, err)
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return tool.Errorf(tool.CodeNotFound, "list existing workspace files", "files: %q does not exist", p)
		}
		if !fi.Mode().IsRegular() {
			return tool.Invalid("files", fmt.Sprintf("files: %q is not a regular file", p), "list files, not directories; the code sees each by its base name")
		}
		name := filepath.Base(abs)
		if _, dup := w.inputs[name]; dup || name == script {
			return tool.Invalid("files", fmt.Sprintf("files: two inputs are named %q in the work directory", name), "every input is copied in by its base name: rename one, or run them separately")
		}
		if total += fi.Size(); total > maxBytes {
			return tool.Errorf(tool.CodeTooLarge, "copy in fewer or smaller files, or raise tools.python_runner.max_input_mb",
				"the input files are more than %d MB together", maxBytes>>20)
		}
		f, err := os.Open(abs)
		if err != nil {
			return tool.Errorf(tool.CodeDenied, "", "files: cannot read %q: %v", p, err)
		}
		err = w.add(name, f)
		f.Close()
		if err != nil {
			return fmt.Errorf("python_runner: copy %s in: %w", name, err)
		}
	}
	return nil
}

// produced lists the regular files the run created or changed, relative to
// the work dir, in name order. Symlinks, FIFOs and other special files are
// never copied out (a symlink could name a host file).
func (w *workDir) produced() ([]string, error) {
	var out []string
	err := filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a directory the script made unreadable: skip it
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(w.dir, p)
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

// size is the bytes of the regular files in the work dir, for the quota.
func (w *workDir) size() int64 {
	var n int64
	filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
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
func (r *runner) copyOut(w *workDir, c *tool.Call, names []string) ([]tool.File, string, error) {
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
		src, err := os.Open(filepath.Join(w.dir, n))
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
