package formats

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// testCertPEM returns a self-signed certificate, a CA with valid basic
// constraints or a leaf, PEM-encoded.
func testCertPEM(t *testing.T, ca bool) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "test"},
		NotBefore:             time.Unix(0, 0),
		NotAfter:              time.Unix(1<<31, 0),
		IsCA:                  ca,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// TestCertificateFormats: the errors are what k8s.io/kubernetes v1.37.2
// reports for a ClusterTrustBundle's or a CSR's field with the same value
// (bench/cmd/builtin-verdict): ValidateSignerName and validateTrustBundle.
func TestCertificateFormats(t *testing.T) {
	ca, ca2, leaf := testCertPEM(t, true), testCertPEM(t, true), testCertPEM(t, false)
	garbage := "-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n"
	foo := "-----BEGIN FOO-----\naGVsbG8=\n-----END FOO-----\n"
	headers := "-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\naGVsbG8=\n-----END CERTIFICATE-----\n"
	label := strings.Repeat("x", 300)
	const omitted = "<value omitted>"
	tooLongValue := field.TooLong(nil, "", 1).BadValue // what TooLong reports for an unused value
	type e struct {
		typ    field.ErrorType
		value  any
		detail string
	}
	for _, tc := range []struct {
		format, value string
		want          []e
	}{
		{"k8s-signer-name", "", nil},
		{"k8s-signer-name", "example.com/my-signer", nil},
		{"k8s-signer-name", "kubernetes.io/legacy-unknown", nil},
		{"k8s-signer-name", "example", []e{{field.ErrorTypeInvalid, "example", "must be a fully qualified domain and path of the form 'example.com/signer-name'"}}},
		{"k8s-signer-name", "a.b/c/d", []e{{field.ErrorTypeInvalid, "a.b/c/d", "must be a fully qualified domain and path of the form 'example.com/signer-name'"}}},
		{"k8s-signer-name", "ab/c", []e{{field.ErrorTypeInvalid, "ab", "should be a domain with at least two segments separated by dots"}}},
		{"k8s-signer-name", "-a.b/C_", []e{
			{field.ErrorTypeInvalid, "-a.b", `validating label "-a": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
			{field.ErrorTypeInvalid, "C_", `validating label "C_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		}},
		{"k8s-signer-name", "a.b/" + label, []e{{field.ErrorTypeInvalid, label, `validating label "` + label + `": must be no more than 253 characters`}}},
		{"k8s-signer-name", strings.Repeat("a.", 130) + "b/c", []e{{field.ErrorTypeTooLong, tooLongValue, "may not be more than 253 bytes"}}},
		{"k8s-trust-bundle", ca, nil},
		{"k8s-trust-bundle", "preamble\n" + ca + "between\n" + ca2, nil},
		{"k8s-trust-bundle", "", []e{{field.ErrorTypeInvalid, omitted, "at least one trust anchor must be provided"}}},
		{"k8s-trust-bundle", "hello", []e{{field.ErrorTypeInvalid, omitted, "at least one trust anchor must be provided"}}},
		{"k8s-trust-bundle", ca + ca2 + ca + ca2 + ca, []e{
			{field.ErrorTypeInvalid, omitted, "duplicate trust anchor (indices [0 2 4])"},
			{field.ErrorTypeInvalid, omitted, "duplicate trust anchor (indices [1 3])"},
		}},
		{"k8s-trust-bundle", leaf, []e{{field.ErrorTypeInvalid, omitted, "entry 0 does not have the CA bit set"}}},
		{"k8s-trust-bundle", ca + foo + ca, []e{{field.ErrorTypeInvalid, omitted, "entry 1 has bad block type: FOO"}}},
		{"k8s-trust-bundle", headers, []e{{field.ErrorTypeInvalid, omitted, "entry 0 has PEM block headers"}}},
		{"k8s-trust-bundle", garbage + leaf, []e{
			{field.ErrorTypeInvalid, omitted, "entry 0 does not parse as X.509"},
			{field.ErrorTypeInvalid, omitted, "entry 1 does not have the CA bit set"},
		}},
		{"k8s-trust-bundle", strings.Repeat(" ", maxTrustBundleSize+1), []e{{field.ErrorTypeTooLong, tooLongValue, "may not be more than 1048576 bytes"}}},
	} {
		c, ok := New(Options{Declarative: true}).Lookup(tc.format)
		if !ok || c.Family() != HandWritten {
			t.Fatalf("%s: not a hand-written format", tc.format)
		}
		var got []e
		for _, err := range c.Errors(field.NewPath("spec", "x"), tc.value) {
			got = append(got, e{err.Type, err.BadValue, err.Detail})
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %.40q: got %+v, want %+v", tc.format, tc.value, got, tc.want)
		}
		if c.Valid(tc.value) != (len(tc.want) == 0) {
			t.Errorf("%s %.40q: Valid disagrees with Errors", tc.format, tc.value)
		}
	}
}
