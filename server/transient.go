package server

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
)

// transient reports whether err is worth one retry of an idempotent read:
// a network timeout, a connection reset, refused or cut short, an HTTP 5xx,
// or any error in the chain that says so itself with a Transient() bool
// method (a tool wraps an error in such a type to mark it). Everything else
// — a plain Go error from a bug, a tool error, a cancellation — is answered
// as it is. The call's own deadline is checked by retryStage: a call out of
// time is not retried.
func transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var marked interface{ Transient() bool }
	if errors.As(err, &marked) {
		return marked.Transient()
	}
	var status interface{ StatusCode() int }
	if errors.As(err, &status) {
		return status.StatusCode() >= 500 && status.StatusCode() <= 599
	}
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
