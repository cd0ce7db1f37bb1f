package gendata

import (
	"reflect"
	"testing"

	"kdv.dev/builtin/internal/datafile"
)

// TestApplyDiff rewrites versioned layouts into internal ones as
// internalDiffs says (k8s.io/kubernetes v1.37.2 pkg/apis/apps/types.go:
// DeploymentSpec.RollbackTo after Paused; pkg/apis/core/types.go: Secret
// without StringData).
func TestApplyDiff(t *testing.T) {
	dep := []datafile.GoSlot{{JSON: "minReadySeconds", Zero: "0"}, {JSON: "paused", Zero: "false"}, {JSON: "progressDeadlineSeconds"}}
	got := applyDiff(dep, internalDiffs["io.k8s.api.apps.v1.DeploymentSpec"])
	want := []datafile.GoSlot{{JSON: "minReadySeconds", Zero: "0"}, {JSON: "paused", Zero: "false"}, {Name: "RollbackTo"}, {JSON: "progressDeadlineSeconds"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DeploymentSpec: %+v, want %+v", got, want)
	}
	sec := []datafile.GoSlot{{Name: "metadata"}, {JSON: "data"}, {JSON: "stringData"}, {JSON: "type", Zero: `""`}}
	got = applyDiff(sec, internalDiffs["io.k8s.api.core.v1.Secret"])
	want = []datafile.GoSlot{{Name: "metadata"}, {JSON: "data"}, {JSON: "type", Zero: `""`}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Secret: %+v, want %+v", got, want)
	}
	// a difference that no longer applies is an error
	if err := checkLayouts(map[string][]datafile.GoSlot{"io.k8s.api.apps.v1.DeploymentSpec": dep}); err == nil {
		t.Error("checkLayouts: no error for a DeploymentSpec without RollbackTo")
	}
	if err := checkLayouts(map[string][]datafile.GoSlot{"io.k8s.api.core.v1.Secret": sec}); err == nil {
		t.Error("checkLayouts: no error for a Secret with StringData")
	}
}
