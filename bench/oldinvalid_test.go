package bench

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"kdv.dev/builtin"
)

// statefulSet is a StatefulSet whose pod template's container carries
// container (flow-mapping entries after name) and whose spec carries extra
// (YAML lines indented for the spec).
func statefulSet(container, extra string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - {name: c%s}
%s`, container, extra)
}

// ValidateStatefulSetUpdate validates the new pod template only when the
// old spec validates (SkipValidatePodTemplateSpec, "to tolerate the
// existing sts"): kdv's x-kubernetes-skip-update-validation-if-old-invalid
// on the template, against k8s.io/kubernetes's strategy on the same
// updates. The errors are compared whole.
func TestStatefulSetUpdateOfInvalidOldMatchesApiserver(t *testing.T) {
	const image = ", image: i"
	for _, tc := range []struct {
		name, doc, old string
		rejected       bool
	}{
		{"valid old, new template invalid: validated", statefulSet("", ""), statefulSet(image, ""), true},
		{"valid old, new valid", statefulSet(image+", imagePullPolicy: Always", ""), statefulSet(image, ""), false},
		{"invalid old template, unchanged: tolerated", statefulSet("", ""), statefulSet("", ""), false},
		{"invalid old template, other invalid template: tolerated", statefulSet(", image: ' '", ""), statefulSet("", ""), false},
		{"invalid old template, template fixed", statefulSet(image, ""), statefulSet("", ""), false},
		{"invalid old replicas, new template invalid: tolerated", statefulSet("", "  replicas: -2\n"), statefulSet(image, "  replicas: -1\n"), true},
		{"invalid old template, new replicas invalid: reported", statefulSet("", "  replicas: -1\n"), statefulSet("", ""), true},
		{"invalid old template, new labels do not match: reported", strings.Replace(statefulSet("", ""), "labels: {app: db}", "labels: {app: x}", 1), statefulSet("", ""), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, want := referenceErrors(t, tc.doc, tc.old)
			got, warnings := kdvGatedErrors(t, tc.doc, tc.old, builtin.FeatureGates{})
			slices.Sort(want)
			slices.Sort(got)
			if ref.Rejected() != tc.rejected || !slices.Equal(want, got) {
				t.Errorf("want rejected %v\nreference: %q\nkdv:       %q (warnings %q)", tc.rejected, want, got, warnings)
			}
		})
	}
}
