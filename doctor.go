package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"clawbridge/internal/jail"
)

// cmdDoctor checks what the tools need and says how to fix what is missing.
func cmdDoctor(args []string, stdout io.Writer) error {
	fs, cfgPath := newFlags("doctor")
	if err := parse(fs, args); err != nil {
		return err
	}
	a, err := newApp(*cfgPath, nil)
	if err != nil {
		fmt.Fprintln(stdout, "FAIL config:", err)
		return err
	}
	defer a.Close()
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	problems := 0
	check := func(ok bool, what, detail, fix string) {
		status := "ok"
		if !ok {
			status = "MISSING"
			problems++
			detail += " — " + fix
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", status, what, detail)
	}
	cfgFile := a.cfg.Path
	if cfgFile == "" {
		cfgFile = "(defaults; `clawbridge config init` writes a file)"
	}
	check(true, "config", cfgFile, "")
	for _, root := range a.deps.Sandbox.Roots() {
		probe := filepath.Join(root, ".clawbridge-doctor")
		err := os.WriteFile(probe, []byte("ok"), 0o600)
		os.Remove(probe)
		check(err == nil, "workspace", root, "make it writable or change `workspace` in config")
	}
	check(a.deps.Store.DB().Ping() == nil, "data dir", a.deps.Store.Path(), "check `data_dir` permissions")
	// The jail confines every external program run on user data; without
	// it those tools refuse to run and read-level shell calls ask first.
	if err := jail.Check(); err != nil {
		check(false, "jail", "unavailable (shell read calls need confirmation; LibreOffice and pdftotext refuse)", err.Error())
	} else {
		l := jail.Defaults()
		check(true, "jail", fmt.Sprintf("bubblewrap: no network, read-only system, limits %ds CPU, %d MB memory, %d processes, %d MB files", l.CPUSeconds, l.MemoryMB, l.Processes, l.FileSizeMB), "")
	}

	// External programs, with the tools that use each and the package to install.
	type need struct {
		pkg   string
		tools []string
	}
	needs := map[string]*need{}
	for _, t := range a.srv.Tools() {
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
		detail := path
		if err != nil {
			detail = "not found"
		}
		check(err == nil, "program "+p, detail+" (used by "+strings.Join(n.tools, ", ")+")", "apt-get install "+n.pkg)
	}
	w.Flush()
	if problems > 0 {
		return fmt.Errorf("%d problem(s) found", problems)
	}
	fmt.Fprintln(stdout, "all checks passed")
	return nil
}
