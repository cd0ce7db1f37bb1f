package main

import (
	"strings"
	"testing"
)

const (
	removedIngress = `apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
spec:
  backend:
    serviceName: web
    servicePort: 80
`
	deprecatedVAC = `apiVersion: storage.k8s.io/v1beta1
kind: VolumeAttributesClass
metadata:
  name: gold
driverName: csi.example.com
parameters:
  iops: "1000"
`
	validConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  a: b
`
)

// A removed built-in API version is an error naming its replacement, with
// the exit code of an invalid document, and --ignore-missing-schemas does
// not hide it; the other documents are validated.
func TestValidateRemovedAPIVersion(t *testing.T) {
	in := removedIngress + "---\n" + validConfigMap
	for _, args := range [][]string{
		{"validate", "-"},
		{"validate", "--ignore-missing-schemas", "-"},
		{"validate", "--kubernetes-version", "1.35", "-"},
	} {
		code, out, _ := kdv(t, in, args...)
		if code != exitInvalid {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitInvalid, out)
		}
		wantLines(t, out,
			`-:1: extensions/v1beta1 Ingress was removed in v1.22; use networking.k8s.io/v1 Ingress (no matches for kind "Ingress" in version "extensions/v1beta1")`,
			"2 documents in 1 file: 1 valid, 0 invalid, 1 failed, 0 skipped")
		if strings.Contains(out, "no schema") {
			t.Errorf("%v: reported as a missing schema:\n%s", args, out)
		}
	}
	// SARIF names the rule.
	_, out, _ := kdv(t, removedIngress, "validate", "-o", "sarif", "-")
	wantLines(t, out, `"ruleId": "RemovedAPI"`)
}

// A deprecated, still served version: the apiserver's warning, validation
// as usual, and exit 0 unless --warnings-as-errors. In the release that
// removes it, an error.
func TestValidateDeprecatedAPIVersion(t *testing.T) {
	const warning = `-:1: warning: storage.k8s.io/VolumeAttributesClass gold: storage.k8s.io/v1beta1 VolumeAttributesClass is deprecated in v1.34+, unavailable in v1.37+; use storage.k8s.io/v1 VolumeAttributesClass`
	code, out, _ := kdv(t, deprecatedVAC, "validate", "--kubernetes-version", "1.36", "-")
	if code != exitValid {
		t.Errorf("exit %d, want 0\n%s", code, out)
	}
	wantLines(t, out, warning, "1 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 1 warning)")

	code, out, _ = kdv(t, deprecatedVAC, "validate", "--kubernetes-version", "1.36", "--warnings-as-errors", "-")
	if code != exitInvalid {
		t.Errorf("--warnings-as-errors: exit %d, want %d\n%s", code, exitInvalid, out)
	}
	wantLines(t, out, warning)

	// Still validated: the warning and the error together.
	code, out, _ = kdv(t, strings.Replace(deprecatedVAC, "driverName: csi.example.com\n", "", 1), "validate", "--kubernetes-version", "1.35", "-")
	if code != exitInvalid {
		t.Errorf("invalid: exit %d, want %d\n%s", code, exitInvalid, out)
	}
	wantLines(t, out, "is deprecated in v1.34+", "driverName: Required value")

	code, out, _ = kdv(t, deprecatedVAC, "validate", "--kubernetes-version", "1.37", "-")
	if code != exitInvalid {
		t.Errorf("1.37: exit %d, want %d\n%s", code, exitInvalid, out)
	}
	wantLines(t, out, "storage.k8s.io/v1beta1 VolumeAttributesClass was removed in v1.37; use storage.k8s.io/v1 VolumeAttributesClass")

	// Without warnings --warnings-as-errors changes nothing.
	if code, out, _ := kdv(t, validConfigMap, "validate", "--warnings-as-errors", "-"); code != exitValid {
		t.Errorf("no warnings: exit %d\n%s", code, out)
	}
}

// A deprecated CRD version: its deprecationWarning, or the
// apiextensions-apiserver's default text.
func TestValidateDeprecatedCRDVersion(t *testing.T) {
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: false
    deprecated: true
    schema: {openAPIV3Schema: {type: object}}
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: "example.com/v1beta1 Gadget is going away; use example.com/v1"
    schema: {openAPIV3Schema: {type: object}}
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
`
	objs := "---\napiVersion: example.com/v1alpha1\nkind: Gadget\nmetadata:\n  name: a\n" +
		"---\napiVersion: example.com/v1beta1\nkind: Gadget\nmetadata:\n  name: b\n" +
		"---\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: c\n"
	code, out, _ := kdv(t, crd+objs, "validate", "-")
	if code != exitValid {
		t.Errorf("exit %d, want 0\n%s", code, out)
	}
	wantLines(t, out,
		"-:26: warning: example.com/Gadget default/a: example.com/v1alpha1 Gadget is deprecated; use example.com/v1 Gadget",
		"-:31: warning: example.com/Gadget default/b: example.com/v1beta1 Gadget is going away; use example.com/v1",
		"4 documents in 1 file: 4 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 2 warnings)")
	if code, _, _ := kdv(t, crd+objs, "validate", "--warnings-as-errors", "-"); code != exitInvalid {
		t.Errorf("--warnings-as-errors: exit %d, want %d", code, exitInvalid)
	}
}
