package browser

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/fixtures/site"
)

// BenchmarkColdStart measures launch + first navigation.
func BenchmarkColdStart(b *testing.B) {
	needBrowser(b)
	srv := site.New()
	defer srv.Close()
	for i := 0; i < b.N; i++ {
		m := New(DefaultConfig(), testGuard(), zerolog.New(os.Stderr).Level(zerolog.WarnLevel))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if _, err := m.Session("").Navigate(ctx, srv.At("/form.html")); err != nil {
			b.Fatal(err)
		}
		cancel()
		m.Close()
	}
}

// BenchmarkNavigateSnapshot measures a warm navigate + snapshot and reports
// the snapshot size (bytes/snapshot; tokens ≈ bytes/4).
func BenchmarkNavigateSnapshot(b *testing.B) {
	onEachPage(b, "bench", func(b *testing.B, ctx context.Context, s *Session, url string) {
		var size int
		for i := 0; i < b.N; i++ {
			navigate(ctx, b, s, url)
			size = len(snapshot(ctx, b, s, SnapshotOptions{}).Text)
		}
		b.ReportMetric(float64(size), "bytes/snapshot")
	})
}

// onEachPage runs bench as a sub-benchmark per page of the test site, in
// the named session of the shared manager.
func onEachPage(b *testing.B, session string, bench func(b *testing.B, ctx context.Context, s *Session, url string)) {
	needBrowser(b)
	srv := site.New()
	defer srv.Close()
	for _, page := range benchPages {
		b.Run(page[1:], func(b *testing.B) {
			defer testMgr.CloseSession(session)
			bench(b, context.Background(), testMgr.Session(session), srv.At(page))
		})
	}
}

var benchPages = []string{"/form.html", "/table.html", "/article.html", "/long.html"}

// BenchmarkMemory4Sessions reports the browser's memory (PSS of the process
// tree, MB) with 4 sessions each showing a page.
func BenchmarkMemory4Sessions(b *testing.B) {
	needBrowser(b)
	srv := site.New()
	defer srv.Close()
	ctx := context.Background()
	var mb float64
	for i := 0; i < b.N; i++ {
		for j, page := range benchPages {
			key := "mem" + strconv.Itoa(j)
			if _, err := testMgr.Session(key).Navigate(ctx, srv.At(page)); err != nil {
				b.Fatal(err)
			}
		}
		mb = float64(treePSS(testMgr.PID())) / 1024
		for j := 0; j < 4; j++ {
			testMgr.CloseSession("mem" + strconv.Itoa(j))
		}
	}
	b.ReportMetric(mb, "MB-pss")
}

// treePSS sums Pss (kB) over pid and its descendants.
func treePSS(pid int) int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// the fields after the command name (which may contain spaces)
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+2:])
		f := strings.Fields(rest)
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			children[pp] = append(children[pp], p)
		}
	}
	total := 0
	var walk func(p int)
	walk = func(p int) {
		if data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/smaps_rollup"); err == nil {
			for _, l := range strings.Split(string(data), "\n") {
				if v, ok := strings.CutPrefix(l, "Pss:"); ok {
					n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
					total += n
				}
			}
		}
		for _, c := range children[p] {
			walk(c)
		}
	}
	walk(pid)
	return total
}

// BenchmarkSnapshotAfterNavigate times only the snapshot of a freshly
// loaded page (the navigation is left out of the timing), the part of a
// navigate + snapshot that clawbridge computes.
func BenchmarkSnapshotAfterNavigate(b *testing.B) {
	onEachPage(b, "bench-snap", func(b *testing.B, ctx context.Context, s *Session, url string) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			navigate(ctx, b, s, url)
			b.StartTimer()
			snapshot(ctx, b, s, SnapshotOptions{})
		}
	})
}
