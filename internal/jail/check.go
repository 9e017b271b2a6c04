package jail

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrUnavailable wraps every reason the jail cannot run.
var ErrUnavailable = errors.New("jail unavailable")

var (
	checkMu sync.Mutex
	checked = map[string]error{} // by bwrap path
)

// Check reports whether the jail works on this machine, probing once per
// bwrap binary (the result is cached) by running `true` in a minimal jail
// with the default limits. A non-nil error says what to fix.
func Check() error {
	_, err := findBwrap()
	return err
}

// findBwrap returns the bwrap binary once it has passed the probe.
func findBwrap() (string, error) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return "", fmt.Errorf("%w: bwrap (bubblewrap) is not installed: apt-get install bubblewrap", ErrUnavailable)
	}
	checkMu.Lock()
	defer checkMu.Unlock()
	err, ok := checked[bwrap]
	if !ok {
		err = probe(bwrap)
		checked[bwrap] = err
	}
	return bwrap, err
}

// Available reports whether Check passes.
func Available() bool { return Check() == nil }

func probe(bwrap string) error {
	if _, err := os.Stat(prlimitPath); err != nil {
		return fmt.Errorf("%w: %s is missing: apt-get install util-linux", ErrUnavailable, prlimitPath)
	}
	if os.Geteuid() == 0 && Defaults().Processes > 0 {
		cg, err := newRunCgroup(Defaults().Processes, 0)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		cg.remove()
	}
	args, files, _, err := bwrapArgs(Spec{}, nil, nil) // no binds, no bind files
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	args = append(args, "--", prlimitPath)
	args = append(args, Defaults().prlimitArgs()...)
	args = append(args, "--", "/usr/bin/true")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bwrap, args...)
	cmd.Env = jailEnv(nil)
	cmd.ExtraFiles = files
	out, err := cmd.CombinedOutput()
	closeAll(files)
	if err != nil {
		return fmt.Errorf("%w: bwrap cannot start a sandbox (%v: %s): enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0; on Ubuntu also kernel.apparmor_restrict_unprivileged_userns=0) or, in a container, allow them (e.g. Docker --security-opt seccomp=unconfined)",
			ErrUnavailable, err, strings.TrimSpace(string(out)))
	}
	return nil
}
