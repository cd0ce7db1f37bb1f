package cel

import (
	"bytes"
	"context"
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
	"strings"
	"testing"
	"time"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// testCSR returns a PEM certificate signing request signed by a fresh
// P-256 key, its DER, and a self-signed CERTIFICATE of the same key.
func testCSR(t testing.TB) (csrPEM, csrDER, certPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	csrDER, err = x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{
		Subject:  pkix.Name{CommonName: "system:node:a", Organization: []string{"system:nodes"}},
		DNSNames: []string{"a.example.com"},
	}, key)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "a"}, NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<32, 0)}
	certDER, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: csrDER}), csrDER,
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: certDER})
}

// TestCertificateRequestError: the texts are those of k8s.io/kubernetes
// certificates.ParseCSR and CheckSignature (validateCSR), checked against
// that code on the same inputs by bench's TestCertificateRequestErrorReference.
func TestCertificateRequestError(t *testing.T) {
	csrPEM, csrDER, certPEM := testCSR(t)
	// the lowercased base64 text (the harness's "lowercase" mutation)
	// still decodes, to bytes that hold no PEM block
	lower, err := base64.StdEncoding.DecodeString(strings.ToLower(base64.StdEncoding.EncodeToString(csrPEM)))
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(certPEM)
	certDER := block.Bytes
	badSig := bytes.Clone(csrDER)
	badSig[len(badSig)-3] ^= 0x55 // in the signature's last integer
	pemOf := func(typ string, der []byte) []byte { return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}) }
	for _, c := range []struct {
		name    string
		request []byte
		want    string
	}{
		{"valid", csrPEM, ""},
		{"valid after other text", append([]byte("\xfe\xff~?\n"), csrPEM...), ""},
		{"only the first block counts", append(bytes.Clone(csrPEM), certPEM...), ""},
		{"empty", nil, "PEM block type must be CERTIFICATE REQUEST"},
		{"lowercased base64", lower, "PEM block type must be CERTIFICATE REQUEST"},
		{"DER without PEM", csrDER, "PEM block type must be CERTIFICATE REQUEST"},
		{"a CERTIFICATE block", certPEM, "PEM block type must be CERTIFICATE REQUEST"},
		{"a certificate's DER as a request", pemOf("CERTIFICATE REQUEST", certDER), "asn1: structure error: tags don't match (2 vs {class:2 tag:0 length:3 isCompound:true}) {optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false} int @2"},
		{"truncated DER", pemOf("CERTIFICATE REQUEST", csrDER[:len(csrDER)-10]), "asn1: syntax error: data truncated"},
		{"corrupted signature", pemOf("CERTIFICATE REQUEST", badSig), "x509: ECDSA verification failure"},
	} {
		if got := CertificateRequestError(c.request); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// csrSchema is a CertificateSigningRequestSpec's request and the overlay's
// rule on it (builtin/overlay/certificates_v1_rules.tags).
const csrSchema = `
type: object
properties:
	request: {type: string, format: byte}
x-kubernetes-validations:
- rule: "has(self.request) && kdv.x509.certificateRequestError(self.request) == ''"
  messageExpression: "has(self.request) ? kdv.x509.certificateRequestError(self.request) : 'PEM block type must be CERTIFICATE REQUEST'"
  reason: FieldValueInvalid
  fieldPath: .request
`

// TestCertificateRequestRule: in a built-in schema the function is
// declared and reports as validateCertificateSigningRequest does, on the
// base64 text encoding/json decodes (StdEncoding: a request with '+' or
// '/' in its text is converted, where the apiserver's CRD conversion
// fails).
func TestCertificateRequestRule(t *testing.T) {
	csrPEM, _, certPEM := testCSR(t)
	// bytes before the block that encode to '+' and '/'
	preamble := append([]byte("\xfb\xff\xbf\n"), csrPEM...)
	preambleText := base64.StdEncoding.EncodeToString(preamble)
	if !strings.ContainsAny(preambleText, "+/") {
		t.Fatalf("preamble text %q has no '+' or '/'", preambleText)
	}
	b64 := base64.StdEncoding.EncodeToString
	certText := b64(certPEM)
	for _, c := range []struct {
		name string
		obj  map[string]any
		want string
	}{
		{"valid", map[string]any{"request": b64(csrPEM)}, "[]"},
		{"valid, text with + and /", map[string]any{"request": preambleText}, "[]"},
		{"absent", map[string]any{}, "[spec.request: Invalid value: null: PEM block type must be CERTIFICATE REQUEST]"},
		{"empty", map[string]any{"request": ""}, `[spec.request: Invalid value: "": PEM block type must be CERTIFICATE REQUEST]`},
		{"certificate", map[string]any{"request": certText}, fmt.Sprintf("[spec.request: Invalid value: %q: PEM block type must be CERTIFICATE REQUEST]", certText)},
	} {
		for _, cache := range []bool{false, true} {
			if cache {
				if err := SetCompileCacheDir(t.TempDir()); err != nil {
					t.Fatal(err)
				}
			}
			v, errs := NewValidator(yamlSchema(t, csrSchema), false, Options{BuiltIn: true})
			if len(errs) > 0 {
				t.Fatalf("%s: %v", c.name, errs)
			}
			got, _ := v.ValidateObject(context.Background(), field.NewPath("spec"), c.obj, nil, RuntimeCELCostBudget)
			if fmt.Sprint(got) != c.want {
				t.Errorf("%s (cache %v): got %v, want %s", c.name, cache, got, c.want)
			}
			SetCompileCacheDir("")
		}
	}
}

// TestCertificateRequestNotInCRDs: the function is kdv's, not the
// apiserver's: a CRD rule calling it does not compile, even after a
// built-in schema of the same shape put its compiled rule in the compile
// cache (the cache keys tell the two environments apart).
func TestCertificateRequestNotInCRDs(t *testing.T) {
	if err := SetCompileCacheDir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	defer SetCompileCacheDir("")
	s := yamlSchema(t, csrSchema)
	v, _ := NewValidator(s, false, Options{BuiltIn: true, SkipCheck: true})
	if got, _ := v.ValidateObject(context.Background(), nil, map[string]any{}, nil, RuntimeCELCostBudget); len(got) != 1 {
		t.Fatalf("built-in: %v", got)
	}
	errs := CheckSchema(s, field.NewPath("schema"), Options{})
	if len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), "undeclared reference to 'certificateRequestError'") {
		t.Errorf("CRD check: %v, want an undeclared reference", errs)
	}
	crd, _ := NewValidator(s, false, Options{SkipCheck: true})
	got, _ := crd.ValidateObject(context.Background(), nil, map[string]any{}, nil, RuntimeCELCostBudget)
	if len(got) != 1 || !strings.Contains(got[0].Error(), "compilation failed") {
		t.Errorf("CRD validation: %v, want the compilation error", got)
	}
}

// TestCertificateRequestCost: the checker's estimate grows linearly with
// the request's maximal size, and the runtime cost with its actual size.
func TestCertificateRequestCost(t *testing.T) {
	env, err := builtinEnvSet(Options{BuiltIn: true}.compatibilityVersion()).NewExpressionsEnv().Extend(celgo.Variable("b", celgo.BytesType))
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := env.Compile("kdv.x509.certificateRequestError(b) == ''")
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	est := func(max uint64) uint64 {
		e, err := env.EstimateCost(ast, fixedSize(max))
		if err != nil {
			t.Fatal(err)
		}
		return e.Max
	}
	small, large := est(1000), est(2000)
	if small < 400 || large < 2*small-10 || large > 2*small+10 {
		t.Errorf("estimates %d (1000 bytes), %d (2000 bytes): want about 0.4 per byte, linear", small, large)
	}
	prog, err := env.Program(ast, celgo.CostTracking(nil))
	if err != nil {
		t.Fatal(err)
	}
	run := func(n int) uint64 {
		_, det, err := prog.Eval(map[string]any{"b": make([]byte, n)})
		if err != nil {
			t.Fatal(err)
		}
		return *det.ActualCost()
	}
	if c1, c2 := run(1000), run(2000); c1 < 400 || c2 < 2*c1-10 || c2 > 2*c1+10 {
		t.Errorf("runtime costs %d, %d: want linear in the size", c1, c2)
	}
}

// fixedSize sizes every value at most max.
type fixedSize uint64

func (f fixedSize) EstimateSize(checker.AstNode) *checker.SizeEstimate {
	return &checker.SizeEstimate{Min: 0, Max: uint64(f)}
}

func (fixedSize) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// stubCSR is a DER PKCS#10 request without subject signed by key.
func stubCSR(t *testing.T, key any) []byte {
	t.Helper()
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// TestStubCertificateRequestError: the details are those of k8s.io/kubernetes
// validateStubPKCS10Request (pkg/apis/certificates/validation, v1.37),
// by key type, key parameters and signature; bench's harness checks the
// PodCertificateRequest rules that call it against that code.
func TestStubCertificateRequestError(t *testing.T) {
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p224, err := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rsa2048, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	valid := stubCSR(t, ed)
	badSig := bytes.Clone(valid)
	badSig[len(badSig)-1] ^= 0x01 // the Ed25519 signature's last byte
	for _, c := range []struct {
		name    string
		request []byte
		want    string
	}{
		{"ed25519", valid, ""},
		{"p256", stubCSR(t, p256), ""},
		{"p224", stubCSR(t, p224), "elliptic public keys must use curve P256, P384, or P521"},
		{"rsa 2048", stubCSR(t, rsa2048), "RSA keys must have modulus size 3072 or 4096"},
		{"empty", nil, "must be a valid PKCS#10 CSR"},
		{"PEM, not DER", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: valid}), "must be a valid PKCS#10 CSR"},
		{"truncated", valid[:len(valid)-5], "must be a valid PKCS#10 CSR"},
		{"corrupted signature", badSig, "invalid signature"},
	} {
		if got := StubCertificateRequestError(c.request); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// FuzzStubCertificateRequestError: any bytes give one of
// validateStubPKCS10Request's details or "", the same each time, never a
// panic.
func FuzzStubCertificateRequestError(f *testing.F) {
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	valid, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, ed)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	f.Add([]byte{})
	f.Add([]byte("-----BEGIN CERTIFICATE REQUEST-----"))
	details := map[string]bool{
		"": true, "must be a valid PKCS#10 CSR": true, "invalid signature": true,
		"elliptic public keys must use curve P256, P384, or P521":              true,
		"RSA keys must have modulus size 3072 or 4096":                         true,
		"unknown public key type; supported types are Ed25519, ECDSA, and RSA": true,
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := StubCertificateRequestError(b)
		if !details[got] {
			t.Fatalf("detail %q is not one of validateStubPKCS10Request's", got)
		}
		if again := StubCertificateRequestError(b); again != got {
			t.Fatalf("not deterministic: %q then %q", got, again)
		}
	})
}
