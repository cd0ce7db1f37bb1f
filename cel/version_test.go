package cel

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"
)

// TestCompatibilityVersion: new expressions (CheckSchema) get the libraries
// of the compatibility version, one minor below the emulated apiserver
// (environment.DefaultCompatibilityVersion of a 1.37 apiserver is 1.36);
// stored expressions (evaluation) get every library. The lists library's
// includes() arrived at 1.37 (k8s.io/apiserver pkg/cel/environment/base.go).
func TestCompatibilityVersion(t *testing.T) {
	s := yamlSchema(t, `
		type: object
		properties:
			l: {type: array, maxItems: 10, items: {type: string, maxLength: 10}}
		x-kubernetes-validations: [{rule: "self.l.includes('a')"}]
		`)
	cases := []struct {
		opts    Options
		wantErr bool
	}{
		{Options{}, true},
		{Options{KubernetesMinor: 37}, true},
		{Options{KubernetesMinor: 38}, false},
		{Options{CompatibilityVersion: version.MajorMinor(1, 37)}, false},
		{Options{KubernetesMinor: 38, CompatibilityVersion: version.MajorMinor(1, 36)}, true},
	}
	for _, c := range cases {
		errs := CheckSchema(s, field.NewPath("x"), c.opts)
		if c.wantErr != (len(errs) > 0) {
			t.Errorf("%+v: %v", c.opts, errs)
		}
		if c.wantErr && (len(errs) != 1 || !strings.Contains(errs[0].Error(), "undeclared reference to 'includes'")) {
			t.Errorf("%+v: %v", c.opts, errs)
		}
	}
	// evaluation uses the stored-expressions environment: the rule runs
	// even at the default version, as for a rule persisted by a newer server
	v, _ := NewValidator(s, true, Options{SkipCheck: true})
	errs, _ := v.Validate(context.Background(), nil, map[string]any{"l": []any{"b"}}, nil, RuntimeCELCostBudget)
	if len(errs) != 1 || errs[0].Error() != "<nil>: Invalid value: failed rule: self.l.includes('a')" {
		t.Errorf("runtime: %v", errs)
	}
	// keywords as field names need compatibility version >= 1.31
	kw := yamlSchema(t, `{type: object, properties: {namespace: {type: string}}, x-kubernetes-validations: [{rule: "self.namespace == 'x'"}]}`)
	if errs := CheckSchema(kw, nil, Options{CompatibilityVersion: version.MajorMinor(1, 30)}); len(errs) != 1 {
		t.Errorf("1.30 keyword field: %v", errs)
	}
	if errs := CheckSchema(kw, nil, Options{}); len(errs) != 0 {
		t.Errorf("default keyword field: %v", errs)
	}
}
