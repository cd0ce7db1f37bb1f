package cel

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"math"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// The X.509 library of built-in rules: checks of the hand-written
// validation that parse certificates, which no Kubernetes CEL library
// does. Its functions are namespaced under kdv. so that no present or
// future library of the apiserver can clash with them, and they exist only
// in the environment of built-in rules (Options.BuiltIn): a CRD rule that
// calls one fails to compile, as in the apiserver.
//
//	kdv.x509.certificateRequestError(bytes) string: CertificateRequestError
//	kdv.x509.stubCertificateRequestError(bytes) string: StubCertificateRequestError

// CertificateRequestErrorFunction is the qualified name of the CEL function
// of CertificateRequestError.
const CertificateRequestErrorFunction = "kdv.x509.certificateRequestError"

const certificateRequestErrorOverload = "kdv_x509_certificate_request_error_bytes"

// CertificateRequestError returns the error text k8s.io/kubernetes
// pkg/apis/certificates/validation validateCSR reports for a
// CertificateSigningRequest's spec.request (the decoded bytes of the
// base64 text), or "" when the request is valid. validateCSR calls
// certificates.ParseCSR (pkg/apis/certificates/helpers.go: the first PEM
// block, of type "CERTIFICATE REQUEST", parsed by
// x509.ParseCertificateRequest) and then the request's CheckSignature;
// validateCertificateSigningRequest prints the error with %v. Nothing
// before or after the first PEM block is looked at, as there.
func CertificateRequestError(request []byte) string {
	block, _ := pem.Decode(request)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return "PEM block type must be CERTIFICATE REQUEST"
	}
	csr, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil {
		return err.Error()
	}
	if err := csr.CheckSignature(); err != nil {
		return err.Error()
	}
	return ""
}

// StubCertificateRequestFunction is the qualified name of the CEL function
// of StubCertificateRequestError.
const StubCertificateRequestFunction = "kdv.x509.stubCertificateRequestError"

const stubCertificateRequestOverload = "kdv_x509_stub_certificate_request_error_bytes"

// StubCertificateRequestError returns the detail k8s.io/kubernetes
// pkg/apis/certificates/validation validateStubPKCS10Request reports for a
// PodCertificateRequest's spec.stubPKCS10Request (DER, the decoded bytes of
// the base64 text) after its size check, or "" when the request is valid:
// x509.ParseCertificateRequest, then the key's type and parameters
// (Ed25519; ECDSA on P-256, P-384 or P-521; RSA of 3072 or 4096 bits),
// then the request's own signature. The contents of the request are not
// looked at, as there.
func StubCertificateRequestError(request []byte) string {
	csr, err := x509.ParseCertificateRequest(request)
	if err != nil {
		return "must be a valid PKCS#10 CSR"
	}
	switch pub := csr.PublicKey.(type) {
	case ed25519.PublicKey:
	case *ecdsa.PublicKey:
		if pub.Curve != elliptic.P256() && pub.Curve != elliptic.P384() && pub.Curve != elliptic.P521() {
			return "elliptic public keys must use curve P256, P384, or P521"
		}
	case *rsa.PublicKey:
		if bits := pub.Size() * 8; bits != 3072 && bits != 4096 {
			return "RSA keys must have modulus size 3072 or 4096"
		}
	default:
		return "unknown public key type; supported types are Ed25519, ECDSA, and RSA"
	}
	if err := csr.CheckSignature(); err != nil {
		return "invalid signature"
	}
	return ""
}

// x509Library declares the X.509 functions, with cost estimates for
// the checker and the runtime cost tracker (built-in rules run without
// cost limits today; the estimates keep them honest if that changes).
func x509Library() celgo.EnvOption {
	return celgo.Lib(x509Lib{})
}

type x509Lib struct{}

// LibraryName makes the library idempotent when environments are extended.
func (x509Lib) LibraryName() string { return "kdv.x509" }

func (x509Lib) CompileOptions() []celgo.EnvOption {
	return []celgo.EnvOption{
		celgo.Function(CertificateRequestErrorFunction,
			celgo.Overload(certificateRequestErrorOverload, []*celgo.Type{celgo.BytesType}, celgo.StringType,
				celgo.UnaryBinding(bytesToString(CertificateRequestError)))),
		celgo.Function(StubCertificateRequestFunction,
			celgo.Overload(stubCertificateRequestOverload, []*celgo.Type{celgo.BytesType}, celgo.StringType,
				celgo.UnaryBinding(bytesToString(StubCertificateRequestError)))),
		celgo.CostEstimatorOptions(checker.OverloadCostEstimate(certificateRequestErrorOverload, estimateCertificateRequestCost)),
		celgo.CostEstimatorOptions(checker.OverloadCostEstimate(stubCertificateRequestOverload, estimateCertificateRequestCost)),
	}
}

// bytesToString binds a function of bytes returning a string (an error
// text) as a CEL overload.
func bytesToString(f func([]byte) string) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		b, ok := v.(types.Bytes)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return types.String(f([]byte(b)))
	}
}

func (x509Lib) ProgramOptions() []celgo.ProgramOption {
	return []celgo.ProgramOption{
		celgo.CostTrackerOptions(interpreter.OverloadCostTracker(certificateRequestErrorOverload, trackCertificateRequestCost)),
		celgo.CostTrackerOptions(interpreter.OverloadCostTracker(stubCertificateRequestOverload, trackCertificateRequestCost)),
	}
}

// certificateRequestCostFactor charges parsing a request per byte: PEM and
// base64 decoding, DER parsing and hashing for the signature are each a
// pass over the input (the signature verification itself depends on the
// key size, which the request's size bounds).
const certificateRequestCostFactor = 4 * common.StringTraversalCostFactor

func estimateCertificateRequestCost(est checker.CostEstimator, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if len(args) != 1 {
		return nil
	}
	sz := checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
	if s := est.EstimateSize(args[0]); s != nil {
		sz = *s
	} else if s := args[0].ComputedSize(); s != nil {
		sz = *s
	}
	return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(certificateRequestCostFactor).Add(checker.CostEstimate{Min: 1, Max: 1})}
}

func trackCertificateRequestCost(args []ref.Val, _ ref.Val) *uint64 {
	if len(args) != 1 {
		return nil
	}
	b, ok := args[0].(types.Bytes)
	if !ok {
		return nil
	}
	cost := 1 + uint64(math.Ceil(float64(len(b))*certificateRequestCostFactor))
	return &cost
}
