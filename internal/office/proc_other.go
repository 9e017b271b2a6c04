//go:build !unix

package office

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}
