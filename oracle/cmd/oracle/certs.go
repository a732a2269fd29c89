package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// runCerts writes a self-signed CA, the API server's serving certificate, one client certificate
// and kubeconfig per identity, and the service-account signing key into -dir.
func runCerts(args []string) int {
	fs := flag.NewFlagSet("certs", flag.ContinueOnError)
	dir := fs.String("dir", "", "output directory")
	server := fs.String("server", "https://127.0.0.1:6443", "API server URL for the kubeconfigs")
	nodes := fs.String("nodes", "node-1,node-2,node-3", "comma-separated node names")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := writePKI(*dir, *server, strings.Split(*nodes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "certs:", err)
		return 1
	}
	return 0
}

type identity struct {
	file, cn string
	orgs     []string
}

func writePKI(dir, server string, nodes []string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now().Add(-time.Hour)
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "oracle-ca"},
		NotBefore:             now,
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	caCert, _ := x509.ParseCertificate(caDER)
	if err := writePEM(filepath.Join(dir, "ca.crt"), "CERTIFICATE", caDER); err != nil {
		return err
	}
	caKeyDER, _ := x509.MarshalECPrivateKey(caKey)
	if err := writePEM(filepath.Join(dir, "ca.key"), "EC PRIVATE KEY", caKeyDER); err != nil {
		return err
	}
	serial := int64(2)
	issue := func(file, cn string, orgs []string, serverAuth bool) error {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return err
		}
		serial++
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial),
			Subject:      pkix.Name{CommonName: cn, Organization: orgs},
			NotBefore:    now,
			NotAfter:     now.Add(10 * 365 * 24 * time.Hour),
			KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
			ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		}
		if serverAuth {
			tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}
			tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.96.0.1")}
			tmpl.DNSNames = []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
		if err != nil {
			return err
		}
		if err := writePEM(filepath.Join(dir, file+".crt"), "CERTIFICATE", der); err != nil {
			return err
		}
		keyDER, _ := x509.MarshalECPrivateKey(key)
		return writePEM(filepath.Join(dir, file+".key"), "EC PRIVATE KEY", keyDER)
	}
	if err := issue("apiserver", "kube-apiserver", nil, true); err != nil {
		return err
	}
	ids := []identity{
		{"admin", "kubernetes-admin", []string{"system:masters"}},
		{"controller-manager", "system:kube-controller-manager", nil},
		{"scheduler", "system:kube-scheduler", nil},
		{"apiserver-kubelet-client", "kube-apiserver-kubelet-client", []string{"system:masters"}},
	}
	for _, n := range nodes {
		ids = append(ids, identity{"kubelet-" + n, "system:node:" + n, []string{"system:nodes"}})
	}
	for _, id := range ids {
		if err := issue(id.file, id.cn, id.orgs, false); err != nil {
			return err
		}
		if err := writeKubeconfig(dir, id.file, server); err != nil {
			return err
		}
	}
	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, "sa.key"), "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(saKey)); err != nil {
		return err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, "sa.pub"), "PUBLIC KEY", pubDER)
}

func writePEM(path, typ string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}

func writeKubeconfig(dir, name, server string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: oracle
  cluster:
    server: %s
    certificate-authority: %s/ca.crt
users:
- name: %s
  user:
    client-certificate: %s/%s.crt
    client-key: %s/%s.key
contexts:
- name: oracle
  context:
    cluster: oracle
    user: %s
current-context: oracle
`, server, abs, name, abs, name, abs, name, name)
	return os.WriteFile(filepath.Join(dir, name+".kubeconfig"), []byte(cfg), 0o600)
}
