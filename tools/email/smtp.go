package email

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/mail"
	"net/textproto"
	"os"
	"strings"

	gomail "github.com/wneessen/go-mail"

	"github.com/clawbridge/clawbridge/internal/logging"
	"github.com/clawbridge/clawbridge/internal/sendonce"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// sendResult is the outcome of one SMTP transaction.
type sendResult struct {
	State  sendonce.State
	Answer string // the server's final reply, or what went wrong
	Err    error  // the tool error for anything but Sent
}

// transmit sends raw (already RFC 5322, CRLF) exactly as it is, from the
// configured sender to rcpts, through go-mail's SMTP client: STARTTLS or
// implicit TLS, then PLAIN or LOGIN auth. Everything up to the server's 354
// for DATA is "failed" (nothing was delivered, a retry may send); any error
// once the message is being written is "uncertain": the server may have
// queued it, so it is never retried blindly.
func (e *emailTool) transmit(ctx context.Context, raw []byte, rcpts []*mail.Address) sendResult {
	password := ""
	if e.cfg.PasswordEnv != "" {
		password = os.Getenv(e.cfg.PasswordEnv)
		if password == "" && e.cfg.Username != "" {
			return failed("", tool.Errorf(tool.CodeUnavailable, "set the environment variable "+e.cfg.PasswordEnv+" for the clawbridge process",
				"the SMTP password variable %s is empty", e.cfg.PasswordEnv))
		}
	}
	// scrub keeps the password out of anything the server or the library
	// echoes back.
	scrub := func(s string) string {
		if password != "" {
			s = strings.ReplaceAll(s, password, "[redacted]")
		}
		return logging.RedactString(s)
	}
	tlsConf, err := e.tlsConfig()
	if err != nil {
		return failed("", err)
	}
	client, err := gomail.NewClient(e.cfg.Host, e.clientOptions(tlsConf, password)...)
	if err != nil {
		return failed("", tool.Errorf(tool.CodeUnavailable, "fix tools.email", "SMTP client: %s", scrub(err.Error())))
	}
	sc, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		msg := scrub(err.Error())
		if isAuthError(err) {
			return failed(msg, tool.Errorf(tool.CodeDenied, "check tools.email.username and the password in "+e.cfg.PasswordEnv+"; nothing was sent",
				"the SMTP server refused the login: %s", msg))
		}
		return failed(msg, tool.Errorf(tool.CodeUnavailable, "check tools.email host, port and security; nothing was sent, so the same call may be retried",
			"cannot reach the SMTP server: %s", msg))
	}
	defer sc.Close()
	if err := sc.Mail(e.from.Address); err != nil {
		msg := scrub(err.Error())
		return failed(msg, tool.Errorf(tool.CodeFailed, "check tools.email.from; nothing was sent", "the SMTP server refused the sender: %s", msg))
	}
	for _, r := range rcpts {
		if err := sc.Rcpt(r.Address); err != nil {
			_ = sc.Reset()
			msg := scrub(err.Error())
			return failed(msg, tool.Errorf(tool.CodeFailed, "correct or remove that recipient; nothing was sent",
				"the SMTP server refused the recipient %s: %s", r.Address, msg))
		}
	}
	w, err := sc.Data()
	if err != nil {
		msg := scrub(err.Error())
		return failed(msg, tool.Errorf(tool.CodeFailed, "nothing was sent; the same call may be retried", "the SMTP server refused DATA: %s", msg))
	}
	// From here on the server holds (part of) the message.
	if _, err := w.Write(raw); err != nil {
		_ = w.Close()
		return uncertain(scrub(err.Error()))
	}
	if err := w.Close(); err != nil {
		var perr *textproto.Error
		// A reply to the end of the data that is not 2xx is a definite
		// "not accepted" (RFC 5321 4.1.1.4): nothing was delivered, and a
		// retry with the same key must be able to send.
		if errors.As(err, &perr) && perr.Code >= 500 {
			msg := scrub(err.Error())
			return failed(msg, tool.Errorf(tool.CodeFailed, "the server rejected the message itself; change it before sending again", "the SMTP server rejected the message: %s", msg))
		}
		if errors.As(err, &perr) && perr.Code >= 400 {
			msg := scrub(err.Error())
			return failed(msg, tool.Errorf(tool.CodeUnavailable, "nothing was delivered; the same call may be retried later", "the SMTP server did not accept the message for now: %s", msg))
		}
		return uncertain(scrub(err.Error()))
	}
	answer := ""
	if dc, ok := w.(interface{ ServerResponse() string }); ok {
		answer = scrub(dc.ServerResponse())
	}
	return sendResult{State: sendonce.Sent, Answer: answer}
}

// tlsConfig verifies the server as host, against ca_file added to the
// system's roots when set.
func (e *emailTool) tlsConfig() (*tls.Config, error) {
	tlsConf := &tls.Config{ServerName: e.cfg.Host, MinVersion: tls.VersionTLS12}
	if e.cfg.CAFile != "" {
		pem, err := os.ReadFile(e.cfg.CAFile)
		if err != nil {
			return nil, tool.Errorf(tool.CodeUnavailable, "fix tools.email.ca_file", "cannot read the CA file: %v", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, tool.Errorf(tool.CodeUnavailable, "fix tools.email.ca_file", "the CA file holds no PEM certificate")
		}
		tlsConf.RootCAs = pool
	}
	return tlsConf, nil
}

// clientOptions are the SMTP client's port, timeout, TLS (implicit, or
// STARTTLS required) and login.
func (e *emailTool) clientOptions(tlsConf *tls.Config, password string) []gomail.Option {
	opts := []gomail.Option{gomail.WithPort(e.cfg.port()), gomail.WithTimeout(e.cfg.Timeout), gomail.WithTLSConfig(tlsConf)}
	if e.cfg.Security == "tls" {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if e.cfg.Username != "" {
		auth := gomail.SMTPAuthPlain
		if e.cfg.Auth == "login" {
			auth = gomail.SMTPAuthLogin
		}
		opts = append(opts, gomail.WithSMTPAuth(auth), gomail.WithUsername(e.cfg.Username), gomail.WithPassword(password))
	}
	return opts
}

func failed(answer string, err error) sendResult {
	if answer == "" {
		answer = err.Error()
	}
	return sendResult{State: sendonce.Failed, Answer: answer, Err: err}
}

func uncertain(why string) sendResult {
	return sendResult{State: sendonce.Uncertain, Answer: why, Err: mayHaveBeenSent(why)}
}

// mayHaveBeenSent is the answer for a send that broke after the message
// started to leave: it is not retried, and the model must not retry either.
func mayHaveBeenSent(why string) *tool.Error {
	return tool.Errorf(tool.CodeFailed,
		"do not send again: ask the recipients (or check the Sent folder) whether it arrived; to send it anyway, call again with a new idempotency_key",
		"the connection broke while the message was being transferred, so it may have been sent (%s)", why)
}

// isAuthError reports an SMTP 535/534/530 (authentication) reply or go-mail's
// auth failure.
func isAuthError(err error) bool {
	var perr *textproto.Error
	if errors.As(err, &perr) && (perr.Code == 535 || perr.Code == 534 || perr.Code == 530) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "535") || strings.Contains(strings.ToLower(s), "authentication failed")
}
