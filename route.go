package main

import "io"

func cmdRoute(args []string, stdin io.Reader, stdout io.Writer) error {
	return usageError("route: not wired yet")
}
