// Package smtptest is a real SMTP server (emersion/go-smtp) on loopback
// for tests that send mail: STARTTLS on a certificate made for the test,
// PLAIN and LOGIN auth, every accepted message kept with its envelope.
// The email tool's tests and the server's confirmation tests deliver to it.
package smtptest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Server is the running test server.
type Server struct {
	Port     int
	CAFile   string // the PEM of its certificate, for the tool's ca_file
	User     string
	Password string
	Auth     string // what Config configures the tool with: plain (default) or login

	mu        sync.Mutex
	received  []Mail
	refuse    string // a recipient refused with 550
	dropData  bool   // close the connection in the middle of DATA
	dataReply error  // the reply to the end of DATA instead of 250
	usedTLS   []bool
	authMech  []string
}

// Mail is one message the server accepted.
type Mail struct {
	From string
	To   []string
	Data []byte
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{User: "robot@example.org", Password: "s3cret-Pa55word"}
	certPEM, keyPEM := testCert(t)
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	s.CAFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(s.CAFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(s)
	srv.Domain = "127.0.0.1"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Port = l.Addr().(*net.TCPAddr).Port
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return s
}

func testCert(t testing.TB) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "clawbridge test SMTP"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
}

// Config is the tools.email section that sends to this server, with the
// password in the environment variable TEST_SMTP_PASSWORD.
func (s *Server) Config() string {
	auth := s.Auth
	if auth == "" {
		auth = "plain"
	}
	return fmt.Sprintf("host: 127.0.0.1\nport: %d\nsecurity: starttls\nauth: %s\nusername: %s\npassword_env: TEST_SMTP_PASSWORD\nfrom: \"Clawbridge Robot <%s>\"\nca_file: %s\ntimeout: 5s",
		s.Port, auth, s.User, s.User, s.CAFile)
}

// Mails are the messages accepted so far.
func (s *Server) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.received...)
}

// Refuse makes the server refuse the recipient addr with a 550.
func (s *Server) Refuse(addr string) { s.set(func() { s.refuse = addr }) }

// DropData makes the server close the connection in the middle of DATA.
func (s *Server) DropData(on bool) { s.set(func() { s.dropData = on }) }

// ReplyToData makes the server answer the end of DATA with err (an
// *smtp.SMTPError) instead of accepting the message; nil accepts again.
func (s *Server) ReplyToData(err error) { s.set(func() { s.dataReply = err }) }

// UsedTLS says, per login, whether it came over TLS; AuthMechs names the
// mechanism of each.
func (s *Server) UsedTLS() []bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]bool(nil), s.usedTLS...)
}

func (s *Server) AuthMechs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.authMech...)
}

func (s *Server) set(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

func (s *Server) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{srv: s, conn: c}, nil
}

type session struct {
	srv    *Server
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain, sasl.Login} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	check := func(user, pass string) error {
		_, isTLS := ss.conn.TLSConnectionState()
		ss.srv.mu.Lock()
		ss.srv.usedTLS = append(ss.srv.usedTLS, isTLS)
		ss.srv.authMech = append(ss.srv.authMech, mech)
		ss.srv.mu.Unlock()
		if user != ss.srv.User || pass != ss.srv.Password {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication credentials invalid"}
		}
		ss.authed = true
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(identity, user, pass string) error { return check(user, pass) }), nil
	case sasl.Login:
		return &loginServer{check: check}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

// loginServer is the server side of AUTH LOGIN (go-sasl has only the client).
type loginServer struct {
	check func(user, pass string) error
	step  int
	user  string
}

func (l *loginServer) Next(resp []byte) ([]byte, bool, error) {
	l.step++
	switch l.step {
	case 1:
		if len(resp) > 0 { // initial response carries the user name
			l.user = string(resp)
			l.step++
			return []byte("Password:"), false, nil
		}
		return []byte("Username:"), false, nil
	case 2:
		l.user = string(resp)
		return []byte("Password:"), false, nil
	default:
		return nil, true, l.check(l.user, string(resp))
	}
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.srv.mu.Lock()
	refuse := ss.srv.refuse
	ss.srv.mu.Unlock()
	if to == refuse {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user here"}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	ss.srv.mu.Lock()
	drop, reply := ss.srv.dropData, ss.srv.dataReply
	ss.srv.mu.Unlock()
	if drop {
		buf := make([]byte, 64)
		io.ReadFull(r, buf)
		ss.conn.Conn().Close()
		return errors.New("dropped")
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if reply != nil {
		return reply
	}
	ss.srv.mu.Lock()
	ss.srv.received = append(ss.srv.received, Mail{From: ss.from, To: ss.to, Data: b})
	ss.srv.mu.Unlock()
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }
