package bench

import (
	"testing"

	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// FuzzDifferential feeds arbitrary JSON objects of the corpus kinds to kdv
// and to the apiserver's code, on create and as an update of the corpus
// example they were seeded from, and fails on any disagreement outside
// the allow-list. Seeds: every corpus example.
//
//	go test -run XXX -fuzz FuzzDifferential -fuzztime 60s .
func FuzzDifferential(f *testing.F) {
	c := loadCorpus(f)
	for _, ex := range c.Examples {
		j, err := utiljson.Marshal(ex.Obj)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(j)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var obj map[string]any
		if err := utiljson.Unmarshal(data, &obj); err != nil || obj == nil {
			return
		}
		apiVersion, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		gv, err := k8sschema.ParseGroupVersion(apiVersion)
		if err != nil {
			return
		}
		kp := c.Kinds[gv.WithKind(kind)]
		if kp == nil {
			return
		}
		var old map[string]any
		for _, ex := range c.Examples {
			if ex.Kind == kp {
				old = ex.Obj
				break
			}
		}
		// The allow-list knows a request's status by its mutation kind.
		mutation := "fuzz"
		if _, ok := obj["status"]; ok {
			mutation = "status"
		}
		for _, cs := range []objCase{
			{Name: "create", Mutation: mutation, Kind: kp, Obj: obj},
			{Name: "update", Mutation: mutation, Kind: kp, Obj: obj, Old: old},
		} {
			d := compareCase(cs)
			if d == nil || d.Class != "" {
				continue
			}
			allowed := false
			for _, k := range knownObjectDifferences {
				if k.Match(d) {
					allowed = true
					break
				}
			}
			if !allowed {
				t.Errorf("%s of %s:\napiserver:\n%skdv:\n%s", cs.Name, data, d.Ref, d.KDV)
			}
		}
	})
}
