package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// depsList is what scripts/install-deps.sh --list MODE prints: the Debian
// packages of that set, one a line.
func depsList(t *testing.T, mode string) []string {
	t.Helper()
	out, err := exec.Command("sh", filepath.Join("..", "..", "scripts", "install-deps.sh"), "--list", mode).Output()
	if err != nil {
		t.Fatalf("install-deps.sh --list %s: %v", mode, err)
	}
	return strings.Fields(string(out))
}

// TestDeps_RunInstallsWhatToolsRunAndNoTestOnlyPackages: `make run` installs
// the run set and starts no test set-up; the run set holds the package of
// every program a registered tool declares (what doctor checks), and none
// of the packages only the tests use; `make test` installs all of them.
func TestDeps_RunInstallsWhatToolsRunAndNoTestOnlyPackages(t *testing.T) {
	cliEnv(t)
	run, test := depsList(t, "run"), depsList(t, "test")
	testOnly := []string{"postgresql", "nginx", "qpdf", "patch", "python3-icalendar", "python3-recurring-ical-events"}
	for _, p := range testOnly {
		if slices.Contains(run, p) {
			t.Errorf("make run would install %s, which only the tests use", p)
		}
		if !slices.Contains(test, p) {
			t.Errorf("make test would not install %s", p)
		}
	}
	a, err := newLookApp("")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, tl := range a.srv.Tools() {
		for prog, pkgs := range tl.Programs {
			for _, p := range strings.Fields(pkgs) {
				if !slices.Contains(run, p) {
					t.Errorf("%s runs %s from %s, which make run does not install", tl.Name, prog, p)
				}
			}
		}
	}
	for _, p := range run {
		if !slices.Contains(test, p) {
			t.Errorf("make test does not install %s", p)
		}
	}

	makeN := func(target string) string {
		out, err := exec.Command("make", "-n", "-C", filepath.Join("..", ".."), target).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		return string(out)
	}
	if out := makeN("run"); !strings.Contains(out, "install-deps.sh run") || strings.Contains(out, "install-mcp-servers") || strings.Contains(out, "install-deps.sh test") {
		t.Errorf("make run does not install the run set alone:\n%s", out)
	}
	// Nor the Go modules, npm packages and Go programs only the tests and
	// releases use.
	for _, testOnly := range []string{"go mod download", "staticcheck", "goreleaser", "install-mcpb", "install-conformance"} {
		if out := makeN("run"); strings.Contains(out, testOnly) {
			t.Errorf("make run runs %s, which only the tests or a release need:\n%s", testOnly, out)
		}
	}
	if out := makeN("test"); !strings.Contains(out, "goreleaser") || !strings.Contains(out, "bundle.sh") {
		t.Errorf("make test does not check the release (goreleaser, bundle.sh):\n%s", out)
	}
	if out := makeN("test"); !strings.Contains(out, "install-deps.sh test") || !strings.Contains(out, "install-mcp-servers") {
		t.Errorf("make test does not install the test set:\n%s", out)
	}
}

// TestDoctor_NamesThePythonTheJailRuns: with another python3 first on PATH
// (a pyenv shim), doctor names the interpreter python_runner runs — the
// one under /usr the jail shows — not the one on PATH.
func TestDoctor_NamesThePythonTheJailRuns(t *testing.T) {
	cliEnv(t)
	shim := t.TempDir()
	os.WriteFile(filepath.Join(shim, "python3"), []byte("#!/bin/sh\nexit 0\n"), 0o755)
	t.Setenv("PATH", shim+string(os.PathListSeparator)+os.Getenv("PATH"))
	want := ""
	for _, p := range []string{"/usr/local/bin/python3", "/usr/bin/python3"} {
		if _, err := os.Stat(p); err == nil {
			want = p
			break
		}
	}
	if want == "" {
		t.Fatal("no python3 under /usr (apt-get install python3)")
	}
	out, _ := runCLI(t, "doctor")
	if strings.Contains(out, shim) {
		t.Errorf("doctor names the python3 on PATH, which the jail never runs:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^ok\s+program ` + regexp.QuoteMeta(want) + `\s+.*python_runner`).MatchString(out) {
		t.Errorf("doctor does not name %s for python_runner:\n%s", want, out)
	}
}

// TestDoctor_SaysWhatEachPlatformLacks: on a machine without Chromium,
// LibreOffice, Tesseract or bubblewrap (as macOS and Windows are out of the
// box), doctor names each missing program and the tools it disables, and
// advises what that platform can do: apt-get on Linux only.
func TestDoctor_SaysWhatEachPlatformLacks(t *testing.T) {
	cliEnv(t)
	t.Setenv("PATH", t.TempDir()) // nothing installed
	defer func(g string) { doctorGOOS = g }(doctorGOOS)
	for _, goos := range []string{"linux", "darwin", "windows"} {
		doctorGOOS = goos
		out, err := runCLI(t, "doctor")
		if err == nil {
			t.Errorf("%s: doctor passed with nothing installed:\n%s", goos, out)
		}
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`(?m)^MISSING\s+program chromium\s+not found: browser.* cannot use it`),
			regexp.MustCompile(`(?m)^MISSING\s+program soffice\s+not found: .*doc_generator.* cannot use it`),
			regexp.MustCompile(`(?m)^MISSING\s+program tesseract\s+not found: .*ocr.* cannot use it`),
			regexp.MustCompile(`(?m)^MISSING\s+jail\s+unavailable .*refuse`),
		} {
			if !want.MatchString(out) {
				t.Errorf("%s: doctor does not say %s:\n%s", goos, want, out)
			}
		}
		if apt := strings.Contains(out, "apt-get"); apt != (goos == "linux") {
			t.Errorf("%s: advises apt-get: %v\n%s", goos, apt, out)
		}
		if goos != "linux" && !strings.Contains(out, "bubblewrap runs only on Linux") {
			t.Errorf("%s: doctor does not say the jail is Linux-only:\n%s", goos, out)
		}
	}
}
