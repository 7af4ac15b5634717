// Package imaptest runs an in-memory IMAP server over TLS on loopback for
// the tests of mail ingest: one user with an INBOX, and a certificate made
// for the test, so clients are tested with real TLS and real IMAP.
package imaptest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// The mailbox's login.
const (
	User     = "me@example.org"
	Password = "s3cret"
)

// Server is a running test server.
type Server struct {
	Port    int
	Pool    *x509.CertPool // trusts the server's certificate
	CertPEM []byte         // the certificate, for a daemon's SSL_CERT_FILE
	Mailbox *imapmemserver.User
}

// Start runs a server until the test ends; it logs through t.
func Start(t testing.TB) *Server {
	t.Helper()
	cert, pool := Certificate(t)
	mem := imapmemserver.New()
	user := imapmemserver.NewUser(User, Password)
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(user)
	log := &logger{t: t}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:   imap.CapSet{imap.CapIMAP4rev1: {}},
		Logger: log,
	})
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		log.stop()
	})
	return &Server{
		Port:    ln.Addr().(*net.TCPAddr).Port,
		Pool:    pool,
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}),
		Mailbox: user,
	}
}

// Append delivers one raw message to INBOX.
func (s *Server) Append(t testing.TB, raw string) {
	t.Helper()
	if _, err := s.Mailbox.Append("INBOX", bytes.NewReader([]byte(raw)), &imap.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
}

// Certificate makes a certificate for 127.0.0.1 and a pool that trusts it,
// for a test that runs a server of its own.
func Certificate(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "imap test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// logger writes the server's log to the test's. Close does not wait for
// the connections' goroutines, and logging through a finished test is a
// race, so the log goes quiet when the test ends.
type logger struct {
	mu   sync.Mutex
	t    testing.TB
	done bool
}

func (l *logger) Printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		l.t.Logf("imap server: "+format, args...)
	}
}

func (l *logger) stop() {
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
}
