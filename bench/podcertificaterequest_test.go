package bench

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"kdv.dev/builtin"
)

// pcr is a PodCertificateRequest with spec (flow-mapping entries) after
// the pod, service account and node references.
func pcr(spec string) string {
	return `apiVersion: certificates.k8s.io/v1
kind: PodCertificateRequest
metadata: {name: p, namespace: default}
spec: {podName: web-0, podUID: u1, serviceAccountName: default, serviceAccountUID: u2, nodeName: node-1, nodeUID: u3, ` + spec + `}
`
}

// stubRequest is the base64 of a stub PKCS#10 request signed by key.
func stubRequest(t *testing.T, key any) string {
	t.Helper()
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, key)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(der)
}

// TestPodCertificateRequestMatchesApiserver: ValidatePodCertificateRequestCreate
// (builtin/overlay/certificates_v1_pcr.tags, kdv.x509.stubCertificateRequestError),
// one case per check: kdv reports exactly the reference's errors (full
// strings, any order), but for the value the apiserver prints for a bad
// curve or modulus, which kdv leaves out (refValue, documented in the
// overlay). An unchanged update is not validated again.
func TestPodCertificateRequestMatchesApiserver(t *testing.T) {
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p224, _ := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	rsa2048, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	good := "stubPKCS10Request: " + stubRequest(t, ed)
	der, _ := base64.StdEncoding.DecodeString(stubRequest(t, ed))
	der[len(der)-1] ^= 1
	badSig := "stubPKCS10Request: " + base64.StdEncoding.EncodeToString(der)
	for _, tc := range []struct {
		name, doc string
		reject    bool
		refValue  string // the value the apiserver prints and kdv does not
	}{
		{name: "valid ed25519", doc: pcr("signerName: example.com/s, " + good)},
		{name: "valid p256, kubernetes signer, one hour", doc: pcr("signerName: kubernetes.io/x, maxExpirationSeconds: 3600, stubPKCS10Request: " + stubRequest(t, p256))},
		{name: "no signer", doc: pcr(good), reject: true},
		{name: "bad signer", doc: pcr("signerName: nodomain, " + good), reject: true},
		{name: "kubernetes signer, two days", doc: pcr("signerName: a.kubernetes.io/x, maxExpirationSeconds: 172800, " + good), reject: true},
		{name: "other signer, 92 days", doc: pcr("signerName: example.com/s, maxExpirationSeconds: 7948800, " + good), reject: true},
		{name: "other signer, under an hour", doc: pcr("signerName: example.com/s, maxExpirationSeconds: 3599, " + good), reject: true},
		{name: "no stub", doc: pcr("signerName: example.com/s"), reject: true},
		{name: "stub not a request", doc: pcr("signerName: example.com/s, stubPKCS10Request: AAEC"), reject: true},
		{name: "stub with a bad signature", doc: pcr("signerName: example.com/s, " + badSig), reject: true},
		{name: "stub with a P-224 key", doc: pcr("signerName: example.com/s, stubPKCS10Request: " + stubRequest(t, p224)), reject: true, refValue: `"curve P-224"`},
		{name: "stub with a 2048-bit RSA key", doc: pcr("signerName: example.com/s, stubPKCS10Request: " + stubRequest(t, rsa2048)), reject: true, refValue: `"2048-bit modulus"`},
		{name: "bad names, empty UIDs", doc: strings.Replace(pcr("signerName: example.com/s, "+good), "podName: web-0, podUID: u1", "podName: Web_0, podUID: '', nodeName: ''", 1), reject: true},
		{name: "UID too long", doc: strings.Replace(pcr("signerName: example.com/s, "+good), "nodeUID: u3", "nodeUID: "+strings.Repeat("u", 129), 1), reject: true},
		{name: "user annotations", doc: pcr(`signerName: example.com/s, unverifiedUserAnnotations: {"nodomain": "a", "bad key!": "b", "Example.com/Ok": "c", "a/b/c": "d"}, ` + good), reject: true},
	} {
		for _, update := range []bool{false, true} {
			name := tc.name
			old := ""
			if update {
				name, old = name+" (unchanged update)", tc.doc
			}
			t.Run(name, func(t *testing.T) {
				_, refErrs := referenceErrors(t, tc.doc, old)
				if want := tc.reject && !update; want != (len(refErrs) > 0) {
					t.Fatalf("the reference's verdict is not %v (the case is wrong):\n%s", want, strings.Join(refErrs, "\n"))
				}
				if tc.refValue != "" {
					for i, e := range refErrs {
						refErrs[i] = strings.Replace(e, "Invalid value: "+tc.refValue+": ", "Invalid value: ", 1)
					}
				}
				got, _ := kdvGatedErrors(t, tc.doc, old, builtin.FeatureGates{})
				if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(refErrs))) {
					t.Errorf("kdv:\n%s\nreference:\n%s", strings.Join(got, "\n"), strings.Join(refErrs, "\n"))
				}
			})
		}
	}
}

// TestPodCertificateProjectionUserAnnotations: a Pod's podCertificate
// projection checks its userAnnotations as a PodCertificateRequest does
// (ValidateUserAnnotations; builtin/overlay/core_v1_cov8.tags): kdv reports
// exactly the reference's errors.
func TestPodCertificateProjectionUserAnnotations(t *testing.T) {
	pod := func(annotations string) string {
		return `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers: [{name: c, image: nginx}]
  volumes:
  - name: cert
    projected:
      sources:
      - podCertificate: {signerName: example.com/s, keyType: ED25519, credentialBundlePath: creds.pem, userAnnotations: ` + annotations + `}
`
	}
	for _, tc := range []struct {
		name, annotations string
		reject            bool
	}{
		{"valid", `{"example.com/purpose": "mtls", "Example.com/Case": "x"}`, false},
		{"no domain", `{"purpose": "mtls"}`, true},
		{"bad name part", `{"example.com/bad key!": "x"}`, true},
		{"two slashes", `{"a/b/c": "x"}`, true},
		{"empty key", `{"": "x"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, refErrs := referenceErrors(t, pod(tc.annotations), "")
			if tc.reject != (len(refErrs) > 0) {
				t.Fatalf("the reference's verdict is not %v (the case is wrong):\n%s", tc.reject, strings.Join(refErrs, "\n"))
			}
			got, _ := kdvGatedErrors(t, pod(tc.annotations), "", builtin.FeatureGates{})
			if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(refErrs))) {
				t.Errorf("kdv:\n%s\nreference:\n%s", strings.Join(got, "\n"), strings.Join(refErrs, "\n"))
			}
		})
	}
}
