package cel

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apiserver/pkg/cel/common"
)

// TestValuesAdaptorCorpus: evaluating with kdv's value adaptor
// (internal/values.ToVal, the default) and with the apiserver's
// common.UnstructuredToVal gives the same errors, warnings and remaining
// budget (so the same actual costs) for every CRD version with rules in the
// corpus and its corpus objects, on create, on update from itself and
// between the objects and their mutations.
func TestValuesAdaptorCorpus(t *testing.T) {
	crds := corpusCRDs(t, "gateway-api/config/crd", "prometheus-operator", "cluster-api")
	objects := corpusObjects(t)
	compared := 0
	for _, c := range crds {
		for _, ver := range c.crd.Spec.Versions {
			k := gvk{c.crd.Spec.Group, ver.Name, c.crd.Spec.Names.Kind}
			s, err := ver.Structural()
			if err != nil || !hasXValidations(s) || len(objects[k]) == 0 {
				continue
			}
			ours, _ := NewValidator(s, true, Options{SkipCheck: true})
			theirs, _ := NewValidator(s, true, Options{SkipCheck: true})
			theirs.toVal = common.UnstructuredToVal
			objs := objects[k]
			if len(objs) > 20 {
				objs = objs[:20]
			}
			for i, o := range objs {
				obj := deepCopy(o.obj).(map[string]any)
				applyDefaults(obj, s)
				pairs := [][2]any{{obj, nil}, {obj, deepCopy(obj)}}
				for _, m := range mutations(obj, 8, int64(i)) {
					pairs = append(pairs, [2]any{m, nil}, [2]any{m, obj}, [2]any{obj, m})
				}
				for j, p := range pairs {
					name := fmt.Sprintf("%s %s pair %d", c.file, o.name, j)
					gotErrs, gotWarns, gotRem := ours.ValidateWithWarnings(context.Background(), nil, p[0], p[1], RuntimeCELCostBudget)
					wantErrs, wantWarns, wantRem := theirs.ValidateWithWarnings(context.Background(), nil, p[0], p[1], RuntimeCELCostBudget)
					if !equalStrings(errList(gotErrs), errList(wantErrs)) || !equalStrings(gotWarns, wantWarns) || gotRem != wantRem {
						t.Errorf("%s:\n got %q %q %d\nwant %q %q %d", name, errList(gotErrs), gotWarns, gotRem, errList(wantErrs), wantWarns, wantRem)
					}
					compared++
				}
			}
		}
	}
	t.Logf("compared %d (object, old object) pairs", compared)
	if compared < 500 {
		t.Errorf("only %d comparisons", compared)
	}
}
