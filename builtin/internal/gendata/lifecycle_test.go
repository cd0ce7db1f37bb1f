package gendata

import (
	"testing"

	"kdv.dev/idl"
)

func TestServedAt(t *testing.T) {
	for _, tc := range []struct {
		name     string
		comments []string
		version  string
		minor    int
		want     bool
	}{
		{"no tags", []string{"Deployment enables declarative updates."}, "v1beta1", 37, true},
		// apps/v1 DaemonSet: GA versions are never removed.
		{"GA", []string{"+k8s:prerelease-lifecycle-gen:introduced=1.9"}, "v1", 37, true},
		// extensions/v1beta1 DaemonSet.
		{"removed explicitly", []string{"+k8s:prerelease-lifecycle-gen:introduced=1.1", "+k8s:prerelease-lifecycle-gen:deprecated=1.8", "+k8s:prerelease-lifecycle-gen:removed=1.16"}, "v1beta1", 37, false},
		{"before removal", []string{"+k8s:prerelease-lifecycle-gen:introduced=1.1", "+k8s:prerelease-lifecycle-gen:removed=1.16"}, "v1beta1", 15, true},
		{"at removal", []string{"+k8s:prerelease-lifecycle-gen:introduced=1.1", "+k8s:prerelease-lifecycle-gen:removed=1.16"}, "v1beta1", 16, false},
		// introduced 1.32: deprecated 1.35, removed 1.38 by default.
		{"defaults: served", []string{"+k8s:prerelease-lifecycle-gen:introduced=1.32"}, "v1beta1", 37, true},
		{"defaults: removed", []string{"+k8s:prerelease-lifecycle-gen:introduced=1.32"}, "v1beta1", 38, false},
		{"deprecated given", []string{"+k8s:prerelease-lifecycle-gen:introduced=1.20", "+k8s:prerelease-lifecycle-gen:deprecated=1.33"}, "v1beta1", 36, false},
	} {
		if got := servedAt(&idl.Type{Comments: tc.comments}, tc.version, tc.minor); got != tc.want {
			t.Errorf("%s: servedAt(1.%d) = %v, want %v", tc.name, tc.minor, got, tc.want)
		}
	}
}
