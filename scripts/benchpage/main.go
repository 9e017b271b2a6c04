// Command benchpage writes the generated block of docs/benchmarks.md from
// the output `make bench` kept of its `go test -v -bench` runs:
//
//	go run ./scripts/benchpage -commit C [-note TEXT] BENCH_OUTPUT docs/benchmarks.md
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
	"github.com/clawbridge/clawbridge/internal/benchpage"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchpage:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchpage", flag.ContinueOnError)
	commit := fs.String("commit", "unknown", "the commit the benchmarks ran on")
	note := fs.String("note", "", "a line the block says under the run (what a partial run left out)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("usage: benchpage -commit C [-note TEXT] BENCH_OUTPUT PAGE")
	}
	output, pagePath := fs.Arg(0), fs.Arg(1)
	f, err := os.Open(output)
	if err != nil {
		return err
	}
	defer f.Close()
	results, err := benchpage.Parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", output, err)
	}
	if len(results.Packages) == 0 {
		return fmt.Errorf("%s holds no benchmark output", output)
	}
	page, err := os.ReadFile(pagePath)
	if err != nil {
		return err
	}
	about := benchpage.About{When: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Commit: *commit, Note: *note}
	if info, ok := debug.ReadBuildInfo(); ok {
		about.Module = info.Main.Path
	}
	out, err := benchpage.Rewrite(string(page), benchpage.Render(results, about))
	if err != nil {
		return fmt.Errorf("%s: %w", pagePath, err)
	}
	return atomicfile.WriteFile(pagePath, []byte(out), 0o644)
}
