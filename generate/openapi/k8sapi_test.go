package openapi

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"kdv.dev/idl"
)

var (
	k8sOnce sync.Once
	k8sRes  *Result
	k8sErr  error
)

// k8sAPI generates schemas for all of k8s.io/api (the module version in
// go.mod) once per test binary.
func k8sAPI(t *testing.T) *Result {
	t.Helper()
	if testing.Short() {
		t.Skip("loads all of k8s.io/api")
	}
	k8sOnce.Do(func() {
		u, err := idl.Load(idl.Options{}, "k8s.io/api/...")
		if err != nil {
			k8sErr = err
			return
		}
		k8sRes, k8sErr = Generate(u, Options{})
	})
	if k8sErr != nil {
		t.Fatal(k8sErr)
	}
	return k8sRes
}

func TestK8sAPISmoke(t *testing.T) {
	res := k8sAPI(t)
	d := res.Definition("io.k8s.api.apps.v1.Deployment")
	if d == nil {
		for _, d := range res.Documents {
			t.Log(d.GroupVersion(), len(d.Schemas), len(d.Kinds))
		}
		t.Fatal("no Deployment")
	}
	b, _ := json.MarshalIndent(d, "", "  ")
	if os.Getenv("KDV_DUMP") != "" {
		t.Log(string(b))
		for _, n := range strings.Split(os.Getenv("KDV_DUMP"), ",") {
			b, _ := json.MarshalIndent(res.Definition(n), "", "  ")
			t.Log(n, string(b))
		}
		var sb strings.Builder
		res.Report.Write(&sb)
		t.Log(sb.String())
	}
}
