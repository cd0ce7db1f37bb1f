package kdv

import (
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// An Option configures New.
type Option func(*settings)

// settings collects the options; New checks them, so that an Option
// itself never fails.
type settings struct {
	crdFiles        []string
	crds            []any
	version         string
	openAPIDirs     []string
	fieldValidation string
	schemes         []*runtime.Scheme
	skipCRDChecks   bool
	featureGates    string
}

// WithCRDFiles adds the CustomResourceDefinitions in files and
// directories (walked recursively: .yaml, .yml and .json files;
// multi-document YAML, JSON and kind: List). Documents that are not CRDs
// are ignored, as kubectl apply -k directories often hold kustomizations
// next to them, but a path holding no CRD at all is an error. Every served
// version with a schema becomes a kind the Validator knows.
func WithCRDFiles(paths ...string) Option {
	return func(s *settings) { s.crdFiles = append(s.crdFiles, paths...) }
}

// WithCRDs adds CustomResourceDefinitions given as objects: a typed
// *apiextensionsv1.CustomResourceDefinition (k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/v1, converted with
// runtime.DefaultUnstructuredConverter; its empty TypeMeta is fine), an
// *unstructured.Unstructured or a map[string]any as decoded from YAML or
// JSON.
func WithCRDs(objs ...any) Option {
	return func(s *settings) { s.crds = append(s.crds, objs...) }
}

// WithBuiltins selects the embedded schemas and apiserver behaviour of a
// Kubernetes release, as "1.35", "v1.35" or "1.35.2" (the patch does not
// matter). Without it, or with "", the newest release kdv embeds is used.
// New fails for a release kdv does not embed, naming those it does.
func WithBuiltins(version string) Option {
	return func(s *settings) { s.version = version }
}

// WithFeatureGates models a cluster whose kube-apiserver runs with
// --feature-gates value ("Gate=true,Other=false", AllAlpha and AllBeta
// too). Fields of built-in kinds whose gates are off in it (by default:
// alpha gates, and beta gates off by default) are dropped before
// validation, as the apiserver drops them, with a warning; New fails for
// a gate the release does not know or cannot set.
func WithFeatureGates(value string) Option {
	return func(s *settings) { s.featureGates = value }
}

// WithOpenAPI adds the kinds of the OpenAPI v3 documents under dirs (an
// apiserver's /openapi/v3 output, for aggregated APIs and kinds kdv does
// not embed); a file is read whatever its name.
func WithOpenAPI(dirs ...string) Option {
	return func(s *settings) { s.openAPIDirs = append(s.openAPIDirs, dirs...) }
}

// WithFieldValidation sets what unknown fields do, as the apiserver's
// fieldValidation parameter: "Strict" (the default here, and kubectl's)
// makes them a 400 Bad Request (Result.UnknownFields); "Warn" (the
// apiserver's default for clients that do not say, such as client-go and
// controller-runtime clients) prunes them with a warning each,
// `unknown field "spec.x"`; "Ignore" prunes them silently. The names are
// metav1.FieldValidationStrict, FieldValidationWarn and
// FieldValidationIgnore.
func WithFieldValidation(mode string) Option {
	return func(s *settings) { s.fieldValidation = mode }
}

// WithScheme lets Validate find the group, version and kind of typed
// objects whose TypeMeta is empty (as Go code usually builds them), by the
// scheme their types are registered in, e.g. an operator's scheme. Types of
// k8s.io/api are found without one.
func WithScheme(scheme *runtime.Scheme) Option {
	return func(s *settings) { s.schemes = append(s.schemes, scheme) }
}

// WithoutCRDChecks registers the CRDs of WithCRDFiles and WithCRDs without
// first checking them as the apiserver does when they are created (the
// structural schema rules, defaults, CEL compilation and cost). The
// checks compile every CEL rule of every CRD, most of New's time; skip
// them only for CRDs checked elsewhere (kdv check in CI, for example).
func WithoutCRDChecks() Option {
	return func(s *settings) { s.skipCRDChecks = true }
}

// fieldValidationMode checks a WithFieldValidation value.
func fieldValidationMode(m string) (string, error) {
	switch m {
	case "":
		return metav1.FieldValidationStrict, nil
	case metav1.FieldValidationStrict, metav1.FieldValidationWarn, metav1.FieldValidationIgnore:
		return m, nil
	}
	return "", fmt.Errorf("kdv.WithFieldValidation(%q): want %q, %q or %q", m, metav1.FieldValidationStrict, metav1.FieldValidationWarn, metav1.FieldValidationIgnore)
}

// parseVersion turns "1.37", "v1.37" or "1.37.2" into the minor version
// 37; "" is 0, the newest kdv embeds.
func parseVersion(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) >= 2 && len(parts) <= 3 && parts[0] == "1" {
		if minor, err := strconv.Atoi(parts[1]); err == nil && minor > 0 {
			return minor, nil
		}
	}
	return 0, fmt.Errorf("kdv.WithBuiltins(%q): want 1.<minor>, e.g. 1.37", s)
}
