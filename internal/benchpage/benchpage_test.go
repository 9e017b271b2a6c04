package benchpage

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// testdata/bench.txt is what `make bench` keeps, captured from real runs:
//
//	go test -v -run '^$' -bench 'Detect|Route' -benchmem ./exposure/
//	go test -v -run '^$' -bench Journeys -benchtime 1x ./exposure/
//	go test -v -exec 'env PATH=/usr/local/go/bin' -run '^$' -bench CER -benchtime 1x ./tools/ocr/
//
// the last with tesseract out of reach, so that the benchmark skips.
//
// testdata/server.txt is an excerpt of a real run of make bench's server
// line: TierTokens and CallOverhead, whose sub-benchmarks report different
// metrics.
func parseTestdata(t *testing.T, name string) *Run {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func TestParse_RealOutput(t *testing.T) {
	run := parseTestdata(t, "bench.txt")
	if run.GOOS != "linux" || run.GOARCH != "amd64" || run.CPU != "AMD EPYC" || run.Procs != "2" {
		t.Errorf("machine %q %q %q procs %q", run.GOOS, run.GOARCH, run.CPU, run.Procs)
	}
	var paths []string
	for _, p := range run.Packages {
		paths = append(paths, p.Path)
	}
	want := []string{"github.com/clawbridge/clawbridge/exposure", "github.com/clawbridge/clawbridge/tools/ocr"}
	if !slices.Equal(paths, want) {
		t.Fatalf("packages %q; want %q (the two exposure runs in one)", paths, want)
	}
	exposure := run.Packages[0]
	var names []string
	for _, r := range exposure.Results {
		names = append(names, r.Name)
	}
	wantNames := []string{"Detect/zh", "Detect/en", "Detect/vague", "Detect/zh1", "Detect/en1", "DetectSeed", "Route", "NewRouter_Texts",
		"Journeys/registered/relist0", "Journeys/registered/relist1", "Journeys/registered/relist2",
		"Journeys/catalog/relist0", "Journeys/catalog/relist1", "Journeys/catalog/relist2"}
	if !slices.Equal(names, wantNames) {
		t.Errorf("exposure results %q; want %q", names, wantNames)
	}
	if got := exposure.Results[0].Values; !slices.Equal(got, []Value{{"39458", "ns/op"}, {"1752", "B/op"}, {"26", "allocs/op"}}) {
		t.Errorf("Detect/zh %v", got)
	}
	journey := exposure.Results[8]
	if len(journey.Values) != 15 || numberOf(journey, "tiered_changes") != "69.00" || numberOf(journey, "tiered_anthropic_3k_x") != "0.8179" {
		t.Errorf("Journeys/registered/relist0 %v; want ns/op and 14 metrics, tiered_changes 69.00", journey.Values)
	}
	if len(exposure.NotRun) != 0 {
		t.Errorf("exposure did not run %v", exposure.NotRun)
	}
	ocr := run.Packages[1]
	wantNotRun := []NotRun{{"OCR_CER", "skipped", "tesseract not installed (apt-get install tesseract-ocr, or scripts/install-deps.sh)"}}
	if len(ocr.Results) != 0 || !slices.Equal(ocr.NotRun, wantNotRun) {
		t.Errorf("ocr results %v, not run %q; want none and %q", ocr.Results, ocr.NotRun, wantNotRun)
	}
}

func TestRender_RealOutput(t *testing.T) {
	block := Render(parseTestdata(t, "bench.txt"), About{When: "2026-12-02 11:29 UTC", Commit: "455c51f", Module: "github.com/clawbridge/clawbridge",
		Note: "Not run here: the load runs."})
	for _, want := range []string{
		"\nLast run 2026-12-02 11:29 UTC, commit 455c51f, linux/amd64, AMD EPYC, GOMAXPROCS 2.\n\nNot run here: the load runs.\n",
		"\n### exposure\n\n| benchmark | ns/op | B/op | allocs/op |\n|---|---|---|---|\n| Detect/zh | 39458 | 1752 | 26 |\n",
		// Detect and the others that report the same units: one table.
		"\n| Detect/en1 | 11558 | 1176 | 15 |\n| DetectSeed | 23735 | 1024 | 14 |\n| Route | 35400 | 3980 | 54 |\n| NewRouter_Texts | 21917 | 7424 | 15 |\n\n",
		// 15 units for 6 benchmarks: a column per benchmark.
		"\n| benchmark | Journeys/registered/relist0 | Journeys/registered/relist1 | Journeys/registered/relist2 | Journeys/catalog/relist0 | Journeys/catalog/relist1 | Journeys/catalog/relist2 |\n|---|---|---|---|---|---|---|\n| ns/op | ",
		"\n| tiered_changes | 69.00 | 64.00 | 59.00 | 69.00 | 64.00 | 59.00 |\n",
		"\n### tools/ocr\n\nDid not run:\n\n- `OCR_CER` skipped: tesseract not installed (apt-get install tesseract-ocr, or scripts/install-deps.sh)\n",
	} {
		if !strings.Contains(block, want) {
			t.Errorf("the block lacks %q:\n%s", want, block)
		}
	}
	if strings.Contains(block, Begin) || strings.Contains(block, End) || !strings.HasSuffix(block, "\n") {
		t.Errorf("the block holds a marker or does not end its last line:\n%s", block)
	}
}

func TestRewrite_KeepsThePageOutsideTheMarkers(t *testing.T) {
	head := "# Benchmarks\r\n\nHand-written, ünïcode, trailing space \n\n" + Begin
	tail := End + "\n\n## History\n\nno newline at the end"
	page := head + "\nold figures\n" + End[:5] + "\n" + tail
	for _, block := range []string{"new figures\n", "", "other\nfigures\n"} {
		got, err := Rewrite(page, block)
		if err != nil {
			t.Fatal(err)
		}
		if want := head + "\n" + block + tail; got != want {
			t.Errorf("Rewrite(%q) = %q; want %q", block, got, want)
		}
		page = got
	}
}

func TestRewrite_PageWithoutMarkers(t *testing.T) {
	for name, page := range map[string]string{
		"none":       "# Benchmarks\n",
		"no end":     "# Benchmarks\n" + Begin + "\n",
		"no begin":   "# Benchmarks\n" + End + "\n",
		"end first":  End + "\n" + Begin + "\n",
		"two blocks": Begin + End + Begin + End,
		"two begins": Begin + "\n" + Begin + "\n" + End,
	} {
		_, err := Rewrite(page, "figures\n")
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.Contains(err.Error(), Begin) || !strings.Contains(err.Error(), End) {
			t.Errorf("%s: %q does not say which lines to add", name, err)
		}
	}
}

func TestRender_ATablePerBenchmarkFunction(t *testing.T) {
	block := Render(parseTestdata(t, "server.txt"), About{When: "2026-12-02 11:37 UTC", Commit: "455c51f", Module: "github.com/clawbridge/clawbridge"})
	for _, want := range []string{
		// Five units: a row per benchmark, the standard units first.
		"\n### server\n\n| benchmark | ns/op | B/op | allocs/op | tokens | tools |\n|---|---|---|---|---|---|\n| TierTokens/full | 14459934 | 306246 | 736 | 20200 | 38.00 |\n",
		// Sub-benchmarks reporting different metrics share a table, with
		// every metric any of them reported.
		"\n\n| benchmark | CallOverhead/reference_trivial | CallOverhead/reference_same_stat | CallOverhead/clawbridge_file_stat |\n|---|---|---|---|\n| ns/op | 241744 | 571049 | 762542 |\n| B/op | 7281 | 14176 | 21586 |\n| allocs/op | 150 | 233 | 358 |\n| cpu_µs/op | 60.00 | 144.7 | 298.1 |\n| x_reference |  |  | 3.154 |\n",
		"\n| x_reference_stat_cpu |  |  | 2.060 |\n",
	} {
		if !strings.Contains(block, want) {
			t.Errorf("the block lacks %q:\n%s", want, block)
		}
	}
}
