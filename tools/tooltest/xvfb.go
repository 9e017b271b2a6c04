package tooltest

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Xvfb starts a virtual X display of the given screen geometry (for
// example "640x480x24") for the test and returns its name (":N"); the
// display is stopped when the test ends. Xvfb picks a free display number
// itself (-displayfd), so sockets left behind by killed servers, and
// displays other tests start meanwhile, never collide with it.
func Xvfb(t testing.TB, geometry string) string {
	t.Helper()
	bin := NeedProgram(t, "Xvfb")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(bin, "-displayfd", "3", "-screen", "0", geometry, "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		t.Fatalf("Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			t.Fatal("Xvfb exited without naming its display")
		}
		return ":" + n
	case <-time.After(10 * time.Second):
		t.Fatal("Xvfb did not start within 10 s")
	}
	return ""
}
