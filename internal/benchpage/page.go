package benchpage

import (
	"fmt"
	"slices"
	"strings"
)

// The generated block of docs/benchmarks.md lies between these two lines;
// the page around it is written by hand.
const (
	Begin = "<!-- bench:begin -->"
	End   = "<!-- bench:end -->"
)

// About is what the block says of the run besides its output.
type About struct {
	When, Commit string
	// Module is trimmed from package paths in the headings.
	Module string
	// Note is said under the heading line, as it is given (which runs of
	// `make bench` were left out of a partial run, say).
	Note string
}

// standardUnits come first in every table, in this order; the benchmarks'
// own metrics (b.ReportMetric) follow in the order they were printed.
var standardUnits = []string{"ns/op", "MB/s", "B/op", "allocs/op"}

// Render is the block's text: the run, then a section per package with its
// results and the benchmarks that did not run.
func Render(run *Run, about About) string {
	var b strings.Builder
	b.WriteString("<!-- Written by `make bench` (scripts/benchpage) from the output of its runs; edits here are lost at the next run. -->\n\n")
	fmt.Fprintf(&b, "Last run %s, commit %s, %s/%s, %s", about.When, about.Commit, run.GOOS, run.GOARCH, run.CPU)
	if run.Procs != "" {
		fmt.Fprintf(&b, ", GOMAXPROCS %s", run.Procs)
	}
	b.WriteString(".\n")
	if about.Note != "" {
		b.WriteString("\n" + about.Note + "\n")
	}
	for _, p := range run.Packages {
		fmt.Fprintf(&b, "\n### %s\n", strings.TrimPrefix(strings.TrimPrefix(p.Path, about.Module), "/"))
		for _, group := range tables(p.Results) {
			b.WriteString("\n")
			writeTable(&b, group)
		}
		if len(p.NotRun) > 0 {
			b.WriteString("\nDid not run:\n\n")
			for _, n := range p.NotRun {
				fmt.Fprintf(&b, "- `%s` %s", n.Name, n.Why)
				if n.Said != "" {
					fmt.Fprintf(&b, ": %s", n.Said)
				}
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// tables splits results into tables: neighbours share one when they are
// the same benchmark function or report the same units.
func tables(results []Result) [][]Result {
	var groups [][]Result
	for i, r := range results {
		if i == 0 || !together(results[i-1], r) {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], r)
	}
	return groups
}

func together(a, b Result) bool {
	fa, _, _ := strings.Cut(a.Name, "/")
	fb, _, _ := strings.Cut(b.Name, "/")
	return fa == fb || slices.Equal(unitsOf(a), unitsOf(b))
}

func unitsOf(r Result) []string {
	units := make([]string, len(r.Values))
	for i, v := range r.Values {
		units[i] = v.Unit
	}
	return units
}

// maxUnitColumns is how many units a table with a row per benchmark has at
// most; one with more (the routing benchmarks report tens of metrics) has a
// column per benchmark instead, unless it has even more benchmarks.
const maxUnitColumns = 6

// writeTable writes the group's table, a cell for each unit any of its
// benchmarks reported, empty where one did not.
func writeTable(b *strings.Builder, group []Result) {
	var all []string
	for _, r := range group {
		for _, u := range unitsOf(r) {
			if !slices.Contains(all, u) {
				all = append(all, u)
			}
		}
	}
	units := ordered(all)
	grid := [][]string{append([]string{"benchmark"}, units...)}
	for _, r := range group {
		row := []string{r.Name}
		for _, u := range units {
			row = append(row, numberOf(r, u))
		}
		grid = append(grid, row)
	}
	if len(units) > maxUnitColumns && len(units) > len(group) {
		grid = transpose(grid)
	}
	for i, row := range grid {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		if i == 0 {
			b.WriteString(strings.Repeat("|---", len(row)) + "|\n")
		}
	}
}

// ordered puts the standard units first.
func ordered(units []string) []string {
	var out []string
	for _, u := range standardUnits {
		if slices.Contains(units, u) {
			out = append(out, u)
		}
	}
	for _, u := range units {
		if !slices.Contains(standardUnits, u) {
			out = append(out, u)
		}
	}
	return out
}

func numberOf(r Result, unit string) string {
	for _, v := range r.Values {
		if v.Unit == unit {
			return v.Number
		}
	}
	return ""
}

func transpose(grid [][]string) [][]string {
	out := make([][]string, len(grid[0]))
	for i := range out {
		for _, row := range grid {
			out[i] = append(out[i], row[i])
		}
	}
	return out
}

// Rewrite puts block between the page's markers; everything outside them
// stays as it was, byte for byte.
func Rewrite(page, block string) (string, error) {
	if strings.Count(page, Begin) != 1 || strings.Count(page, End) != 1 {
		return "", fmt.Errorf("the page needs one line %s and, below it, one line %s, where the generated figures go", Begin, End)
	}
	head, rest, _ := strings.Cut(page, Begin)
	_, tail, ok := strings.Cut(rest, End)
	if !ok {
		return "", fmt.Errorf("%s comes before %s; put it below", End, Begin)
	}
	return head + Begin + "\n" + block + End + tail, nil
}
