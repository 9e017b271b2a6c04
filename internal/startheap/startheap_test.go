package startheap

import (
	"math"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// observed is set once the test has looked at the state init left: that
// state exists once per process, so a repeated run (-count=N) has nothing
// left to see.
var observed bool

// Until Done the collector is off under the start limit; Done gives back
// the settings the process started with, once.
func TestStartheap_HeldUntilDone(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: the environment's settings are left alone")
	}
	if observed {
		t.Skip("the start-up state was checked by an earlier run in this process")
	}
	observed = true
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("GC percent %d before Done, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != startLimit {
		t.Fatalf("memory limit %d before Done, want %d", l, startLimit)
	}
	Done()
	if p := debug.SetGCPercent(-1); p != 100 {
		t.Errorf("GC percent %d after Done, want the default 100", p)
	}
	debug.SetGCPercent(100)
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit %d after Done, want none", l)
	}
	debug.SetGCPercent(50)
	Done() // a second call changes nothing
	if p := debug.SetGCPercent(100); p != 50 {
		t.Errorf("a second Done changed the GC percent to %d", p)
	}
}

// DoneAfter keeps the collector off until its time has passed, then gives
// the settings back. Checked in a fresh process: the held state exists once.
func TestStartheap_DoneAfterWaits(t *testing.T) {
	if os.Getenv("STARTHEAP_CHILD") == "1" {
		if !held {
			t.Skip("GOGC or GOMEMLIMIT set")
		}
		DoneAfter(200 * time.Millisecond)
		if p := debug.SetGCPercent(-1); p != -1 {
			t.Fatalf("GC percent %d right after DoneAfter, want -1 (still held)", p)
		}
		time.Sleep(time.Second)
		if p := debug.SetGCPercent(100); p != 100 {
			t.Fatalf("GC percent %d after DoneAfter's time, want 100", p)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestStartheap_DoneAfterWaits$", "-test.v")
	cmd.Env = append(os.Environ(), "STARTHEAP_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestStartheap_DoneAfterWaits") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
