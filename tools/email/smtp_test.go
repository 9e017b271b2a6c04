package email

import (
	"bytes"
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
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// smtpServer is a real SMTP server (emersion/go-smtp) on loopback with
// STARTTLS on a certificate made for the test and PLAIN and LOGIN auth.
type smtpServer struct {
	t        *testing.T
	port     int
	caFile   string
	user     string
	password string
	auth     string // what the tool is configured with

	mu       sync.Mutex
	received []receivedMail
	refuse   string // a recipient refused with 550
	dropData bool   // close the connection in the middle of DATA
	usedTLS  []bool
	authMech []string
}

type receivedMail struct {
	From string
	To   []string
	Data []byte
}

func startSMTP(t *testing.T) *smtpServer {
	t.Helper()
	s := &smtpServer{t: t, user: "robot@example.org", password: "s3cret-Pa55word"}
	certPEM, keyPEM := testCert(t)
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	s.caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(s.caFile, certPEM, 0o600); err != nil {
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
	s.port = l.Addr().(*net.TCPAddr).Port
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return s
}

func testCert(t *testing.T) (certPEM, keyPEM []byte) {
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

func (s *smtpServer) config() string {
	auth := s.auth
	if auth == "" {
		auth = "plain"
	}
	return fmt.Sprintf("host: 127.0.0.1\nport: %d\nsecurity: starttls\nauth: %s\nusername: %s\npassword_env: TEST_SMTP_PASSWORD\nfrom: \"Clawbridge Robot <%s>\"\nca_file: %s\ntimeout: 5s",
		s.port, auth, s.user, s.user, s.caFile)
}

func (s *smtpServer) mails() []receivedMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]receivedMail(nil), s.received...)
}

func (s *smtpServer) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &smtpSession{srv: s, conn: c}, nil
}

type smtpSession struct {
	srv    *smtpServer
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (ss *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain, sasl.Login} }

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	check := func(user, pass string) error {
		_, isTLS := ss.conn.TLSConnectionState()
		ss.srv.mu.Lock()
		ss.srv.usedTLS = append(ss.srv.usedTLS, isTLS)
		ss.srv.authMech = append(ss.srv.authMech, mech)
		ss.srv.mu.Unlock()
		if user != ss.srv.user || pass != ss.srv.password {
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

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if to == ss.srv.refuse {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user here"}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	if ss.srv.dropData {
		buf := make([]byte, 64)
		io.ReadFull(r, buf)
		ss.conn.Conn().Close()
		return errors.New("dropped")
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.srv.mu.Lock()
	ss.srv.received = append(ss.srv.received, receivedMail{From: ss.from, To: ss.to, Data: b})
	ss.srv.mu.Unlock()
	return nil
}

func (ss *smtpSession) Reset()        { ss.from, ss.to = "", nil }
func (ss *smtpSession) Logout() error { return nil }

var _ = bytes.Equal
var _ = strconv.Itoa
var _ = strings.Contains
