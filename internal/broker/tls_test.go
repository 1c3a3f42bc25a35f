package broker_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// selfSigned makes a certificate for 127.0.0.1 signed by itself, and
// writes it (PEM) to a file that SSL_CERT_FILE can name: the clients'
// only trusted root.
func selfSigned(t *testing.T) (tls.Certificate, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "jaiph test broker"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, ca
}

// TestTLS: `jaiph run --inbox tls://…` and `jaiph worker --inbox tls://…`
// reach a JetStream server that requires TLS, with a self-signed
// certificate the clients trust through SSL_CERT_FILE, and the run's
// delivery is made; without that trust the run is refused on the
// certificate, before anything runs.
func TestTLS(t *testing.T) {
	cert, ca := selfSigned(t)
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true, TLS: true, TLSVerify: false, TLSTimeout: 5,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	if !s.ReadyForConnections(20 * time.Second) {
		t.Fatal("the TLS server did not start")
	}
	url := s.ClientURL() // tls://127.0.0.1:PORT: the server requires TLS
	if !strings.HasPrefix(url, "tls://") {
		t.Fatalf("the server's client URL is %s, want tls://", url)
	}
	dir := workspace(t, oneJob("  echo \"done $1\" >> done.txt\n"))

	// Not trusted: refused on the certificate, nothing runs.
	untrusted := startRun(t, url, dir, "flow.jh", []string{"SSL_CERT_FILE=" + filepath.Join(t.TempDir(), "none.pem"), "SSL_CERT_DIR=/nonexistent"})
	if code := untrusted.wait(t); code == 0 || !strings.Contains(untrusted.stderr.String(), "certificate") {
		t.Fatalf("a run that does not trust the broker's certificate: exit %d, stderr:\n%s", code, untrusted.stderr.String())
	}

	trust := []string{"SSL_CERT_FILE=" + ca}
	startWorker(t, url, "a", dir, 1, trust...)
	r := startRun(t, url, dir, "flow.jh", trust)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "done m1" {
		t.Fatalf("done.txt: %q, want the delivery once", got)
	}
	if ib := inbox(t, newestRun(t, dir)); len(ib.Messages) != 1 || ib.Messages[0].State != "delivered" {
		t.Fatalf("jaiph inbox: %+v, want message 001 delivered", ib.Messages)
	}
}
