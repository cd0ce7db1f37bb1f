package validation

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/builtin"
	"kdv.dev/value"
)

const msgDNS1035 = `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`

// TestNameValidationOption checks that Options.NameValidation replaces the
// DNS-subdomain rule on create, for metadata.name and generateName, with
// the messages of the kind's rule (the apiserver's: ValidateObjectMeta
// reports each message as an Invalid error), and that updates do not check
// names again.
func TestNameValidationOption(t *testing.T) {
	rule := func(g, k string) func(string, bool) []string {
		return builtin.NameValidation(k8sschema.GroupKind{Group: g, Kind: k})
	}
	meta := func(namespaced bool, rule func(string, bool) []string) *Validator {
		return mustValidator(t, `{"type":"object"}`, Options{IsResourceRoot: true, Namespaced: boolPtr(namespaced), NameValidation: rule})
	}
	service := meta(true, rule("", "Service"))
	namespace := meta(false, rule("", "Namespace"))
	clusterRole := meta(false, rule("rbac.authorization.k8s.io", "ClusterRole"))
	crd := meta(false, nil)
	cases := []struct {
		name     string
		v        *Validator
		obj, old string
		want     []string
	}{
		{"Service my.svc", service, `{"metadata":{"name":"my.svc","namespace":"default"}}`, "", []string{
			`metadata.name: Invalid value: "my.svc": ` + msgDNS1035}},
		{"Service my-svc", service, `{"metadata":{"name":"my-svc","namespace":"default"}}`, "", nil},
		{"Service generateName", service, `{"metadata":{"generateName":"svc.x-","namespace":"default"}}`, "", []string{
			`metadata.generateName: Invalid value: "svc.x-": ` + msgDNS1035,
			`metadata.name: Invalid value: "svc.x-bcdfg": ` + msgDNS1035}},
		{"Service generateName trailing dash", service, `{"metadata":{"generateName":"svc-","namespace":"default"}}`, "", nil},
		{"Service update keeps an old name", service, `{"metadata":{"name":"my.svc","namespace":"default","resourceVersion":"1"}}`,
			`{"metadata":{"name":"my.svc","namespace":"default","resourceVersion":"1"}}`, nil},
		{"Namespace a.b", namespace, `{"metadata":{"name":"a.b"}}`, "", []string{`metadata.name: Invalid value: "a.b": must not contain dots`}},
		{"ClusterRole system:kdv-reader", clusterRole, `{"metadata":{"name":"system:kdv-reader"}}`, "", nil},
		{"ClusterRole a/b", clusterRole, `{"metadata":{"name":"a/b"}}`, "", []string{`metadata.name: Invalid value: "a/b": may not contain '/'`}},
		{"custom resource system:kdv-reader", crd, `{"metadata":{"name":"system:kdv-reader"}}`, "", []string{
			`metadata.name: Invalid value: "system:kdv-reader": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
	}
	for _, tc := range cases {
		var old any
		if tc.old != "" {
			old = mustJSON(t, tc.old)
		}
		got := errStrings(t, tc.v, mustJSON(t, tc.obj), old)
		if !sortedEqual(sortedCopy(got), tc.want) {
			t.Errorf("%s: got\n\t%s\nwant\n\t%s", tc.name, strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
		}
	}
	// The fast path takes names valid under the kind's rule, and only those.
	for _, tc := range []struct {
		v    *Validator
		name string
		want bool
	}{
		{clusterRole, "system:kdv-reader", true},
		{service, "my.svc", false},
		{service, "my-svc", true},
		{crd, "system:kdv-reader", false},
	} {
		obj := value.Of(map[string]any{"metadata": map[string]any{"name": tc.name, "namespace": "default"}})
		if tc.v == clusterRole || tc.v == crd {
			obj = value.Of(map[string]any{"metadata": map[string]any{"name": tc.name}})
		}
		if got := tc.v.metaFastValid(obj, value.Value{}, false); got != tc.want {
			t.Errorf("fast path for %q: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMetaFastPathAgreesNameRules is TestMetaFastPathAgrees with the name
// rules of built-in kinds: the fast path never accepts what the slow path
// rejects.
func TestMetaFastPathAgreesNameRules(t *testing.T) {
	pieces := []string{"a", "z", "0", "-", ".", ":", "_", "/", "%", "A", "..", "::1", "10.0.0.1", ""}
	r := rand.New(rand.NewSource(2))
	gen := func() string {
		var b strings.Builder
		for i := r.Intn(5); i >= 0; i-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		if r.Intn(15) == 0 {
			b.WriteString(strings.Repeat("b", 50+r.Intn(20)))
		}
		return b.String()
	}
	rules := map[string]func(string, bool) []string{
		"DNS-1035":  metavalidation.NameIsDNS1035Label,
		"RBAC":      builtin.NameValidation(k8sschema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "Role"}),
		"IPAddress": builtin.NameValidation(k8sschema.GroupKind{Group: "networking.k8s.io", Kind: "IPAddress"}),
		"CronJob":   builtin.NameValidation(k8sschema.GroupKind{Group: "batch", Kind: "CronJob"}),
	}
	for label, rule := range rules {
		v := mustValidator(t, `{"type":"object"}`, Options{IsResourceRoot: true, NameValidation: rule})
		accepted := 0
		for i := 0; i < 2000; i++ {
			obj := value.Of(map[string]any{"metadata": map[string]any{"name": gen()}})
			fast := v.metaFastValid(obj, value.Value{}, false)
			_, slow := v.rootMetaSlow(context.Background(), obj, value.Value{}, false)
			if fast && len(slow) > 0 {
				t.Fatalf("%s: fast path accepts %v, apimachinery rejects it: %v", label, obj.Unstructured(), slow)
			}
			if fast {
				accepted++
			}
		}
		if accepted == 0 {
			t.Errorf("%s: the fast path accepted nothing", label)
		}
	}
}

// FuzzNameRuleFastPath: with a built-in kind's name rule, the metadata fast
// path never accepts a name that apimachinery's ObjectMeta validation
// rejects, and accepts every name that passes it (the common shape).
func FuzzNameRuleFastPath(f *testing.F) {
	for _, s := range []string{"system:kdv-reader", "my.svc", "my-svc", "", "..", "a/b", "2001:db8::1", "10.01.2.3", strings.Repeat("c", 60)} {
		f.Add(s, uint8(0))
	}
	kinds := []k8sschema.GroupKind{
		{Kind: "Service"}, {Kind: "Namespace"}, {Kind: "Event"},
		{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"},
		{Group: "networking.k8s.io", Kind: "IPAddress"},
		{Group: "batch", Kind: "CronJob"},
		{Group: "internal.apiserver.k8s.io", Kind: "StorageVersion"},
	}
	validators := make([]*Validator, len(kinds))
	for i, gk := range kinds {
		validators[i] = mustValidator(f, `{"type":"object"}`, Options{IsResourceRoot: true, Namespaced: boolPtr(false), NameValidation: builtin.NameValidation(gk)})
	}
	f.Fuzz(func(t *testing.T, name string, k uint8) {
		v := validators[int(k)%len(validators)]
		obj := value.Of(map[string]any{"metadata": map[string]any{"name": name}})
		fast := v.metaFastValid(obj, value.Value{}, false)
		_, slow := v.rootMetaSlow(context.Background(), obj, value.Value{}, false)
		if fast != (len(slow) == 0) {
			t.Fatalf("%v %q: fast path %v, apimachinery %v", kinds[int(k)%len(kinds)], name, fast, slow)
		}
	})
}
