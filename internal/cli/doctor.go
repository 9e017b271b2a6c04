package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// cmdDoctor checks what the tools need and says how to fix what is missing.
// Like `tools` and `route` it creates nothing: a workspace root or data dir
// that does not exist yet is reported as such, not made. A config problem,
// in the file or in any tool's section, is a failed check (the server
// refuses to start on the same problems); the other checks then run on the
// built-in defaults.
func cmdDoctor(args []string, stdout io.Writer) error {
	fs, cfgPath := newFlags("doctor")
	if err := parse(fs, args); err != nil {
		return err
	}
	rep := &doctorReport{w: tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)}
	cfg, err := config.Load(*cfgPath)
	switch {
	case err != nil:
		rep.fail("config", err)
		cfg = config.Default()
	case cfg.Path == "":
		rep.check(true, "config", "(defaults; `clawbridge config init` writes a file)", "")
	default:
		rep.check(true, "config", cfg.Path, "")
	}
	a, err := assemble(cfg, true)
	if err != nil {
		if sections := cfg.SectionProblems(); len(sections) > 0 {
			rep.fail("config", errors.Join(sections...))
		} else {
			rep.fail("startup", err)
		}
		// The checks below need the tools, which the defaults always build.
		if a, err = assemble(config.Default(), true); err != nil {
			rep.w.Flush()
			return err
		}
	}
	defer a.Close()
	for _, root := range a.deps.Sandbox.Roots() {
		ok, detail := dirState(root)
		rep.check(ok, "workspace", detail, "make it writable or change `workspace` in config")
	}
	ok, detail := dirState(a.cfg.DataDir)
	if db := filepath.Join(a.cfg.DataDir, "clawbridge.db"); fileExists(db) {
		detail += ", database " + db
	}
	rep.check(ok, "data dir", detail, "check `data_dir` permissions")
	rep.checkJail()
	rep.checkTools(a.srv.Tools())
	rep.checkPrograms(a.srv.Tools())
	rep.w.Flush()
	if rep.problems > 0 {
		return fmt.Errorf("%d problem(s) found", rep.problems)
	}
	fmt.Fprintln(stdout, "all checks passed")
	return nil
}

// doctorReport prints one line per check and counts the problems.
type doctorReport struct {
	w        *tabwriter.Writer
	problems int
}

func (rep *doctorReport) check(ok bool, what, detail, fix string) {
	status := "ok"
	if !ok {
		status = "MISSING"
		rep.problems++
		detail += " — " + fix
	}
	fmt.Fprintf(rep.w, "%s\t%s\t%s\n", status, what, detail)
}

func (rep *doctorReport) fail(what string, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		rep.problems++
		fmt.Fprintf(rep.w, "FAIL\t%s\t%s\n", what, line)
	}
}

// checkJail reports the jail, which confines every external program run on
// user data; without it those tools refuse to run and read-level shell
// calls ask first.
func (rep *doctorReport) checkJail() {
	if err := jail.Check(); err != nil {
		fix := err.Error()
		if doctorGOOS != "linux" {
			fix = "bubblewrap runs only on Linux, so on " + osName(doctorGOOS) + " these stay off; run clawbridge on Linux for them"
		}
		rep.check(false, "jail", "unavailable (shell read calls need confirmation; LibreOffice, pdftotext, Tesseract, ffmpeg and python_runner refuse)", fix)
		return
	}
	l := jail.Defaults()
	memory := "per run (memory cgroup)"
	if !jail.MemoryPerRun() {
		memory = "per process only: no memory cgroup can be made, so a run of N processes may use N times it"
	}
	rep.check(true, "jail", fmt.Sprintf("bubblewrap: no network, read-only system, limits %ds CPU, %d MB memory %s, %s, %d MB files", l.CPUSeconds, l.MemoryMB, memory, wording.Count(l.Processes, "process", "processes"), l.FileSizeMB), "")
}

// checkTools runs the tools' own checks (an X display for screen, OpenCV
// for id_photo).
func (rep *doctorReport) checkTools(tools []*tool.Tool) {
	for _, t := range tools {
		for _, c := range t.Checks {
			detail, err := c.Run()
			if err != nil && c.Fix == "" {
				fmt.Fprintf(rep.w, "note\t%s\t%s\n", c.Name, detail)
				continue
			}
			rep.check(err == nil, c.Name, detail, c.Fix)
		}
	}
}

// checkPrograms looks for the external programs, naming the tools that use
// each and the package to install.
func (rep *doctorReport) checkPrograms(tools []*tool.Tool) {
	type need struct {
		pkg   string
		tools []string
	}
	needs := map[string]*need{}
	for _, t := range tools {
		for prog, pkg := range t.Programs {
			n, ok := needs[prog]
			if !ok {
				n = &need{pkg: pkg}
				needs[prog] = n
			}
			n.tools = append(n.tools, t.Name)
		}
	}
	progs := make([]string, 0, len(needs))
	for p := range needs {
		progs = append(progs, p)
	}
	sort.Strings(progs)
	for _, p := range progs {
		n := needs[p]
		path, err := exec.LookPath(p)
		detail := path + " (used by " + strings.Join(n.tools, ", ") + ")"
		if err != nil {
			detail = "not found: " + strings.Join(n.tools, ", ") + " cannot use it"
		}
		rep.check(err == nil, "program "+p, detail, installHint(doctorGOOS, p, n.pkg))
	}
}

// dirState says whether dir can be used without creating it: an existing
// directory must be writable (a probe file is written and removed); one that
// does not exist yet will be created by serve, so its nearest existing parent
// must be writable.
func dirState(dir string) (bool, string) {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return false, dir + " is not a directory"
	case err == nil:
		return writable(dir), dir
	case !errors.Is(err, os.ErrNotExist):
		return false, dir + ": " + err.Error()
	}
	parent := filepath.Dir(dir)
	for !fileExists(parent) && parent != filepath.Dir(parent) {
		parent = filepath.Dir(parent)
	}
	return writable(parent), dir + " (does not exist yet; `clawbridge serve` creates it)"
}

func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".clawbridge-doctor-*")
	if err != nil {
		return false
	}
	f.Close()
	return os.Remove(f.Name()) == nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// doctorGOOS is the platform doctor advises for (tests set others).
var doctorGOOS = runtime.GOOS

// installHint says how to get a missing program. The tools' programs are
// Debian packages; on macOS and Windows a program installed by hand and on
// PATH is used, and without it the tools that need it are unavailable.
func installHint(goos, prog, pkg string) string {
	switch {
	case goos == "linux":
		return "apt-get install " + pkg
	case filepath.Base(prog) == "bwrap":
		return "bubblewrap runs only on Linux; run clawbridge on Linux for " + osName(goos) + "'s missing tools"
	}
	return "on " + osName(goos) + " install " + filepath.Base(prog) + " yourself and put it on PATH (Debian's package is " + pkg + "), or run clawbridge on Linux"
}

func osName(goos string) string {
	switch goos {
	case "darwin":
		return "macOS"
	case "windows":
		return "Windows"
	}
	return goos
}
