// Package coldstart measures how long a client waits for clawbridge: the
// built binary (not a race build) is started over stdio with mcp-go's
// client, and the time from starting the process to the answer of the first
// tools/list is taken, against a minimal mcp-go server built the same way.
// It also reports the package-initialisation time from GODEBUG=inittrace=1,
// and (BenchmarkStdioCall) the per-call cost of one stdio session against
// the same server. Only benchmarks; `make bench` runs them.
package coldstart

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/bridge/bridgetest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func build(b *testing.B, pkg string) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), filepath.Base(pkg))
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		b.Fatalf("build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// isolated is an environment with its own config, workspace and data dir.
func isolated(b *testing.B) []string {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "none.yaml"), []byte("{}\n"), 0o600)
	return append(os.Environ(),
		"CLAWBRIDGE_CONFIG="+filepath.Join(dir, "none.yaml"),
		"CLAWBRIDGE_WORKSPACE="+filepath.Join(dir, "ws"),
		"CLAWBRIDGE_DATA_DIR="+filepath.Join(dir, "data"),
		"HOME="+dir)
}

// firstList starts bin and returns the time to the first tools/list answer.
func firstList(b *testing.B, bin string, env []string, args ...string) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	c := stdioSession(ctx, b, bin, env, args, mcp.LATEST_PROTOCOL_VERSION, "coldstart-bench")
	defer c.Close()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(res.Tools) == 0 {
		b.Fatalf("tools/list: %v (%d tools)", err, len(res.Tools))
	}
	return time.Since(start)
}

// stdioSession starts bin over stdio and initialises a session at version
// as client name; the caller closes it.
func stdioSession(ctx context.Context, b *testing.B, bin string, env, args []string, version, name string) *client.Client {
	c := client.NewClient(transport.NewStdio(bin, env, args...))
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := bridgetest.Initialize(ctx, c, version, name); err != nil {
		c.Close()
		b.Fatal(err)
	}
	return c
}

func median(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Microseconds()) / 1000
}

// initMillis sums the clock times of GODEBUG=inittrace=1 for `bin args`.
func initMillis(b *testing.B, bin string, args ...string) float64 {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run() // the reference has no version command; its init still ran
	total := 0.0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init pkg @0.1 ms, 0.02 ms clock, 0 bytes, 0 allocs
		f := strings.Fields(sc.Text())
		if len(f) >= 7 && f[0] == "init" && f[6] == "clock," {
			ms, _ := strconv.ParseFloat(f[4], 64)
			total += ms
		}
	}
	return total
}

// childCPU is the CPU time of this process's exited children so far.
func childCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// bench reports the median wall time to the first tools/list (what a client
// waits) and the mean CPU time of a whole start-list-exit (steadier than
// the wall time on a shared machine).
func bench(b *testing.B, bin string, env []string, initArgs []string, args ...string) {
	var ds []time.Duration
	cpu := childCPU()
	for b.Loop() {
		ds = append(ds, firstList(b, bin, env, args...))
	}
	b.ReportMetric(median(ds), "ms_to_first_list")
	b.ReportMetric(float64((childCPU()-cpu).Microseconds())/1000/float64(len(ds)), "cpu_ms")
	b.ReportMetric(initMillis(b, bin, initArgs...), "init_ms")
}

// BenchmarkColdStart: clawbridge vs the reference, median of the runs
// (-benchtime 20x for 20 starts).
func BenchmarkColdStart(b *testing.B) {
	cb := build(b, "github.com/clawbridge/clawbridge")
	ref := build(b, "github.com/clawbridge/clawbridge/e2e/coldstart/testdata/refserver")
	b.Run("clawbridge", func(b *testing.B) { bench(b, cb, isolated(b), []string{"version"}, "serve") })
	b.Run("reference", func(b *testing.B) { bench(b, ref, os.Environ(), []string{}) })
}
