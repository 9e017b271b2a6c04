// Package benchpage turns what `go test -v -bench` prints into the generated
// block of docs/benchmarks.md: `make bench` keeps the output of each of its
// runs and scripts/benchpage writes the page from it.
package benchpage

import (
	"bufio"
	"io"
	"regexp"
	"strings"
)

// Run is the output of one `make bench`: the machine, from the first
// package's header, and each package's results in the order they ran.
type Run struct {
	GOOS, GOARCH, CPU string
	// Procs is GOMAXPROCS, the -N every result name ends with.
	Procs    string
	Packages []*Package
}

// Package is one package's benchmarks; two runs of the same package (two
// lines of the Makefile) add to one Package.
type Package struct {
	Path    string
	Results []Result
	NotRun  []NotRun
}

// Result is one result line: the name without "Benchmark" and GOMAXPROCS,
// and each value as printed, with its unit.
type Result struct {
	Name   string
	Values []Value
}

type Value struct{ Number, Unit string }

// NotRun is a benchmark that was skipped or failed, with what it said.
type NotRun struct {
	Name, Why, Said string
}

// resultLine is the standard format: name-procs, iterations, then pairs of
// value and unit.
var resultLine = regexp.MustCompile(`^Benchmark(\S*?)(?:-(\d+))?\s+\d+\s+(.*)$`)

// notRunLine is how -v ends a benchmark that did not give a result; the
// lines it logged come before it, indented.
var notRunLine = regexp.MustCompile(`^--- (SKIP|FAIL): Benchmark(\S*)`)

// logPrefix is what t.Log puts before a logged line.
var logPrefix = regexp.MustCompile(`^\s+\S+\.go:\d+: `)

// Parse reads the output of `go test -v -bench` runs, one after the other.
func Parse(r io.Reader) (*Run, error) {
	run := &Run{}
	var pkg *Package
	var logged []string // indented lines since the last unindented one
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			logged = append(logged, strings.TrimSpace(logPrefix.ReplaceAllString(line, "")))
			continue
		}
		said := strings.Join(logged, " ")
		logged = nil
		if key, value, ok := strings.Cut(line, ": "); ok && !strings.Contains(key, " ") {
			switch key {
			case "goos":
				run.GOOS = first(run.GOOS, value)
			case "goarch":
				run.GOARCH = first(run.GOARCH, value)
			case "cpu":
				run.CPU = first(run.CPU, value)
			case "pkg":
				pkg = run.pkg(value)
			}
			continue
		}
		if pkg == nil {
			continue
		}
		if m := resultLine.FindStringSubmatch(line); m != nil {
			fields := strings.Fields(m[3])
			res := Result{Name: m[1]}
			for i := 0; i+1 < len(fields); i += 2 {
				res.Values = append(res.Values, Value{fields[i], fields[i+1]})
			}
			pkg.Results = append(pkg.Results, res)
			run.Procs = first(run.Procs, m[2])
		} else if m := notRunLine.FindStringSubmatch(line); m != nil {
			why := map[string]string{"SKIP": "skipped", "FAIL": "failed"}[m[1]]
			pkg.NotRun = append(pkg.NotRun, NotRun{Name: m[2], Why: why, Said: said})
		}
	}
	return run, sc.Err()
}

// pkg is the run's Package of that path, added when it is new.
func (run *Run) pkg(path string) *Package {
	for _, p := range run.Packages {
		if p.Path == path {
			return p
		}
	}
	p := &Package{Path: path}
	run.Packages = append(run.Packages, p)
	return p
}

func first(have, next string) string {
	if have != "" {
		return have
	}
	return next
}
