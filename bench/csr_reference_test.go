package bench

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/kubernetes/pkg/apis/certificates"

	"kdv.dev/cel"
)

// referenceCSRError is k8s.io/kubernetes validateCSR (pkg/apis/certificates/
// validation), which is unexported: certificates.ParseCSR, then
// CheckSignature, printed with %v as validateCertificateSigningRequest
// prints it.
func referenceCSRError(request []byte) string {
	csr, err := certificates.ParseCSR(request)
	if err == nil {
		err = csr.CheckSignature()
	}
	if err != nil {
		return fmt.Sprintf("%v", err)
	}
	return ""
}

// csrInputs are requests of every outcome: valid ones of three key types
// (RSA with SHA-1 too, which CSRs still allow), text around the block, no
// block, other block types, malformed and truncated DER, a corrupted
// signature, a certificate's DER, and the lowercased base64 text.
func csrInputs(t testing.TB) map[string][]byte {
	t.Helper()
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.CertificateRequest{Subject: pkix.Name{CommonName: "system:node:a", Organization: []string{"system:nodes"}}, DNSNames: []string{"a.example.com"}}
	der := func(key any, alg x509.SignatureAlgorithm) []byte {
		r := *tmpl
		r.SignatureAlgorithm = alg
		d, err := x509.CreateCertificateRequest(rand.Reader, &r, key)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	block := func(typ string, b []byte) []byte { return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b}) }
	ecDER := der(ecKey, 0)
	ec := block("CERTIFICATE REQUEST", ecDER)
	certTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<32, 0)}
	certDER, err := x509.CreateCertificate(rand.Reader, certTmpl, certTmpl, &ecKey.PublicKey, ecKey)
	if err != nil {
		t.Fatal(err)
	}
	badSig := bytes.Clone(ecDER)
	badSig[len(badSig)-3] ^= 0x55
	rsaDER := der(rsaKey, x509.SHA256WithRSA)
	badRSA := bytes.Clone(rsaDER)
	badRSA[len(badRSA)-1] ^= 1
	lower, _ := base64.StdEncoding.DecodeString(strings.ToLower(base64.StdEncoding.EncodeToString(ec)))
	withHeader := block("CERTIFICATE REQUEST", ecDER)
	withHeader = bytes.Replace(withHeader, []byte("-----\n"), []byte("-----\nProc-Type: 4,ENCRYPTED\n\n"), 1)
	return map[string][]byte{
		"ecdsa":              ec,
		"rsa sha256":         block("CERTIFICATE REQUEST", rsaDER),
		"rsa sha1":           block("CERTIFICATE REQUEST", der(rsaKey, x509.SHA1WithRSA)),
		"ed25519":            block("CERTIFICATE REQUEST", der(edKey, 0)),
		"preamble":           append([]byte("\xfb\xff~?\n"), ec...),
		"trailing":           append(bytes.Clone(ec), "\xff garbage"...),
		"header":             withHeader,
		"two blocks":         append(block("CERTIFICATE REQUEST", badSig), ec...),
		"empty":              nil,
		"not pem":            []byte("hello"),
		"der only":           ecDER,
		"lowercased base64":  lower,
		"certificate":        block("CERTIFICATE", certDER),
		"certificate as csr": block("CERTIFICATE REQUEST", certDER),
		"bad signature":      block("CERTIFICATE REQUEST", badSig),
		"bad rsa signature":  block("CERTIFICATE REQUEST", badRSA),
		"truncated":          block("CERTIFICATE REQUEST", ecDER[:len(ecDER)-10]),
		"trailing der":       block("CERTIFICATE REQUEST", append(bytes.Clone(ecDER), 0)),
		"garbage der":        block("CERTIFICATE REQUEST", []byte{0x30, 0x03, 0x02, 0x01, 0x01}),
		"unterminated block": []byte("-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n"),
	}
}

// pointer matches the address encoding/asn1 prints in some structure
// errors (a parameter's tag, an *int, printed with %+v): it differs from
// one process to the next, in the apiserver too.
var pointer = regexp.MustCompile(`tag:0x[0-9a-f]+`)

// sameCSRError compares error texts, addresses aside.
func sameCSRError(a, b string) bool {
	return pointer.ReplaceAllString(a, "tag:0x") == pointer.ReplaceAllString(b, "tag:0x")
}

// TestCertificateRequestErrorReference: kdv's CEL function returns
// validateCSR's text, word for word, for every input.
func TestCertificateRequestErrorReference(t *testing.T) {
	for name, in := range csrInputs(t) {
		want := referenceCSRError(in)
		if got := cel.CertificateRequestError(in); got != want {
			t.Errorf("%s: kdv %q, apiserver %q", name, got, want)
		}
	}
}

// FuzzCertificateRequestErrorReference: the same on mutated requests.
func FuzzCertificateRequestErrorReference(f *testing.F) {
	for _, in := range csrInputs(f) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		want := referenceCSRError(in)
		if got := cel.CertificateRequestError(in); !sameCSRError(got, want) {
			t.Errorf("kdv %q, apiserver %q", got, want)
		}
	})
}
