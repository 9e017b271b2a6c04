package e2e

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// serveBanner starts the binary with args and e's environment, reads its
// stderr banner until every label ("streamable HTTP", "metrics") has named
// its URL, and returns the process and those URLs. The process is killed
// when the test ends; the rest of stderr is drained.
func serveBanner(t *testing.T, e *env, labels []string, args ...string) (*exec.Cmd, map[string]string) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = e.vars
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	urls := map[string]string{}
	sc := bufio.NewScanner(stderr)
	for len(urls) < len(labels) && sc.Scan() {
		for _, l := range labels {
			if _, after, ok := strings.Cut(sc.Text(), l+": "); ok {
				urls[l] = strings.TrimSpace(after)
			}
		}
	}
	go io.Copy(io.Discard, stderr)
	for _, l := range labels {
		if urls[l] == "" {
			t.Fatalf("%v: the banner named no %s URL", args, l)
		}
	}
	return cmd, urls
}
