package formats

import (
	"reflect"
	"testing"

	kstrfmt "k8s.io/kube-openapi/pkg/validation/strfmt"
)

// TestRecognized ports apiextensions-apiserver's TestGetUnrecognizedFormats
// (pkg/apiserver/validation/formats_test.go). Its cases name a compatibility
// version; ForVersion takes the apiserver version, one minor above it.
func TestRecognized(t *testing.T) {
	cases := []struct {
		name       string
		compat     int // compatibility minor of the upstream case
		schemaType string
		format     string
		want       bool
	}{
		{"empty format", 0, "string", "", true},
		{"recognized format at version 1.0", 0, "string", "email", true},
		{"unrecognized format at version 1.0", 0, "string", "unknown-format", false},
		{"recognized format with normalization", 34, "string", "k8s-short-name", true},
		{"unrecognized format with normalization", 33, "string", "k8s-long-name", false},
		{"format introduced in later version", 0, "string", "k8s-short-name", false},
		{"format with dash normalization", 34, "string", "k8sshortname", true},
		{"recognized format at exact version", 0, "string", "uuid", true},
		{"recognized format at higher version", 35, "string", "email", true},
		{"unrecognized format for integer type is reported", 0, "integer", "unknown-format", false},
		// upstream "string,null" and "no type" both reach the "" branch
		{"unrecognized format for no type is reported", 0, "", "unknown-format", false},
		// the post-processor's type rules (StripUnsupportedFormatsPostProcessorForVersion)
		{"integer int32", 36, "integer", "int32", true},
		{"integer int64", 36, "integer", "int64", true},
		{"integer with string format", 36, "integer", "uuid", false},
		{"number float", 36, "number", "float", true},
		{"number double", 36, "number", "double", true},
		{"number int32", 36, "number", "int32", false},
		{"boolean", 36, "boolean", "byte", false},
		{"object", 36, "object", "uuid", false},
		{"date-time normalized", 36, "string", "date-time", true},
		{"no type date", 36, "", "date", true},
		{"case matters", 36, "string", "UUID", false},
		{"validation-gen only", 36, "string", "k8s-label-key", false},
		{"kep alias", 36, "string", "dns1123label", false},
		{"int32 on string", 36, "string", "int32", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, opts := range []Options{{KubeMinor: tc.compat + 1}, {KubeMinor: tc.compat + 1, Extended: true, Declarative: true}} {
				r := New(opts)
				if r.CompatibilityMinor() != tc.compat {
					t.Fatalf("CompatibilityMinor = %d, want %d", r.CompatibilityMinor(), tc.compat)
				}
				if got := r.Recognized(tc.schemaType, tc.format); got != tc.want {
					t.Errorf("Recognized(%q, %q) with %+v = %v, want %v", tc.schemaType, tc.format, opts, got, tc.want)
				}
			}
		})
	}
}

// TestSupportedFormatsByVersion follows TestSupportedFormats: the Kubernetes
// names appear with compatibility version 1.34, i.e. apiserver 1.35.
func TestSupportedFormatsByVersion(t *testing.T) {
	for _, tc := range []struct {
		kubeMinor int
		want      bool
	}{{1, false}, {30, false}, {34, false}, {35, true}, {36, true}, {37, true}, {0, true}, {-3, true}, {40, true}} {
		r := ForVersion(tc.kubeMinor)
		for _, f := range []string{"k8s-short-name", "k8s-long-name", "k8sshortname", "k8s-longname"} {
			if got := r.Recognized("string", f); got != tc.want {
				t.Errorf("ForVersion(%d).Recognized(%q) = %v, want %v", tc.kubeMinor, f, got, tc.want)
			}
			if _, known := r.Lookup(f); known != tc.want {
				t.Errorf("ForVersion(%d).Lookup(%q) known = %v, want %v", tc.kubeMinor, f, known, tc.want)
			}
		}
		for _, f := range Names(OpenAPI) {
			if !r.Recognized("string", f) {
				t.Errorf("ForVersion(%d) does not recognize %q", tc.kubeMinor, f)
			}
		}
	}
	if got := ForVersion(0).Options().KubeMinor; got != DefaultKubeMinor {
		t.Errorf("default KubeMinor = %d", got)
	}
}

// TestRegistryFormats follows the upstream test of the same name: every CRD
// format must be one kube-openapi's strfmt.Default registers.
func TestRegistryFormats(t *testing.T) {
	for _, f := range append(Names(OpenAPI), Names(KubernetesCRD)...) {
		if !kstrfmt.Default.ContainsName(f) {
			t.Errorf("format %q is not in kube-openapi strfmt.Default", f)
		}
	}
}

func TestNames(t *testing.T) {
	want := map[Family][]string{
		OpenAPI: {"bsonobjectid", "byte", "cidr", "creditcard", "date", "datetime", "duration", "email", "hexcolor",
			"hostname", "ipv4", "ipv6", "isbn", "isbn10", "isbn13", "mac", "password", "rgbcolor", "ssn", "uri", "uuid",
			"uuid3", "uuid4", "uuid5"},
		KubernetesCRD: {"k8s-long-name", "k8s-short-name"},
		ValidationGen: {"k8s-extended-resource-name", "k8s-label-key", "k8s-label-value", "k8s-long-name",
			"k8s-long-name-caseless", "k8s-path-segment-name", "k8s-prefixed-label-key",
			"k8s-resource-fully-qualified-name", "k8s-resource-pool-name", "k8s-short-name", "k8s-uuid"},
		KEPAlias: {"dns1035label", "dns1123label", "dns1123subdomain", "labelvalue", "portname", "qualifiedname"},
	}
	for f, names := range want {
		if got := Names(f); !reflect.DeepEqual(got, names) {
			t.Errorf("Names(%v) = %q, want %q", f, got, names)
		}
	}
}

func TestLookupResolution(t *testing.T) {
	type want struct {
		known  bool
		family Family
	}
	cases := []struct {
		format string
		opts   Options
		want   want
	}{
		{"", Options{}, want{}},
		{"", Options{Declarative: true}, want{}},
		{"uuid", Options{}, want{true, OpenAPI}},
		{"date-time", Options{}, want{true, OpenAPI}},
		{"d-a-t-e", Options{}, want{true, OpenAPI}},
		{"int32", Options{}, want{}},
		{"unknown", Options{Extended: true, Declarative: true}, want{}},
		{"k8s-short-name", Options{}, want{true, KubernetesCRD}},
		{"k8s-short-name", Options{Extended: true}, want{true, KubernetesCRD}},
		{"k8s-short-name", Options{Declarative: true}, want{true, ValidationGen}},
		{"k8sshortname", Options{Declarative: true}, want{true, KubernetesCRD}},
		{"k8s-short-name", Options{KubeMinor: 34}, want{}},
		{"k8s-short-name", Options{KubeMinor: 34, Extended: true}, want{true, ValidationGen}},
		{"k8s-label-key", Options{}, want{}},
		{"k8s-label-key", Options{Extended: true}, want{true, ValidationGen}},
		{"k8s-label-key", Options{Declarative: true}, want{true, ValidationGen}},
		{"k8slabelkey", Options{Extended: true}, want{}},
		{"k8s-uuid", Options{Extended: true}, want{true, ValidationGen}},
		{"k8s-ip", Options{Extended: true}, want{}},
		{"k8s-cidr", Options{Extended: true}, want{}},
		{"dns1123label", Options{}, want{}},
		{"dns1123label", Options{Extended: true}, want{true, KEPAlias}},
		{"qualifiedname", Options{Declarative: true}, want{true, KEPAlias}},
	}
	for _, tc := range cases {
		c, known := New(tc.opts).Lookup(tc.format)
		if known != tc.want.known {
			t.Errorf("Lookup(%q) with %+v known = %v, want %v", tc.format, tc.opts, known, tc.want.known)
			continue
		}
		if !known {
			if c != nil {
				t.Errorf("Lookup(%q) returned a checker for an unknown format", tc.format)
			}
			continue
		}
		if c.Family() != tc.want.family || c.Name() != tc.format {
			t.Errorf("Lookup(%q) with %+v = %s/%s, want %s/%s", tc.format, tc.opts, c.Name(), c.Family(), tc.format, tc.want.family)
		}
	}
}

func TestUnrecognizedFormatWarning(t *testing.T) {
	// strategy_test.go: wantWarningMessages `unrecognized format "invalidformat"`
	if got := UnrecognizedFormatWarning("invalidformat"); got != `unrecognized format "invalidformat"` {
		t.Errorf("got %s", got)
	}
	if got := UnrecognizedFormatWarning(`a"b`); got != `unrecognized format "a\"b"` {
		t.Errorf("got %s", got)
	}
}

// TestUnrecognizedFormatWarnings follows strategy_test.go's warning cases:
// every occurrence on create, only new formats on update.
func TestUnrecognizedFormatWarnings(t *testing.T) {
	create := UnrecognizedFormatWarnings([]string{"unknownformat1", "unknownformat2", "unknownformat1"}, nil)
	want := []string{`unrecognized format "unknownformat1"`, `unrecognized format "unknownformat2"`, `unrecognized format "unknownformat1"`}
	if !reflect.DeepEqual(create, want) {
		t.Errorf("create: %q", create)
	}
	update := UnrecognizedFormatWarnings([]string{"invalidformat", "unknownformat2"}, []string{"invalidformat"})
	if !reflect.DeepEqual(update, []string{`unrecognized format "unknownformat2"`}) {
		t.Errorf("update: %q", update)
	}
	if got := UnrecognizedFormatWarnings([]string{"invalidformat"}, []string{"invalidformat"}); got != nil {
		t.Errorf("ratcheted: %q", got)
	}
}
