package validation

import (
	"context"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"kdv.dev/value"
)

func typePaths(t testing.TB, v *Validator, obj any) []string {
	t.Helper()
	var out []string
	for _, e := range v.Validate(context.Background(), obj, nil) {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	sort.Strings(out)
	return out
}

func sortedEqual(got, want []string) bool {
	w := append([]string(nil), want...)
	sort.Strings(w)
	return strings.Join(got, "\n") == strings.Join(w, "\n")
}

// Ported from apiextensions-apiserver pkg/apiserver/schema/objectmeta
// validation_test.go (TestValidateEmbeddedResource, TestValidate).
func TestEmbeddedResourceApiserverCases(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`, Options{})
	cases := []struct {
		name string
		obj  map[string]any
		want []string
	}{
		{"empty", map[string]any{}, []string{"FieldValueRequired e.apiVersion", "FieldValueRequired e.kind"}},
		{"version and kind", map[string]any{"apiVersion": "foo/v1", "kind": "Foo"}, nil},
		{"invalid kind", map[string]any{"apiVersion": "foo/v1", "kind": "foo.bar-com"}, []string{"FieldValueInvalid e.kind"}},
		{"no name", map[string]any{"apiVersion": "foo/v1", "kind": "Foo", "metadata": map[string]any{"namespace": "kube-system"}}, nil},
		{"no namespace", map[string]any{"apiVersion": "foo/v1", "kind": "Foo", "metadata": map[string]any{"name": "foo"}}, nil},
		{"invalid", map[string]any{"apiVersion": "foo/v1", "kind": "Foo", "metadata": map[string]any{
			"name": "..", "namespace": "$$$", "labels": map[string]any{"#": "#"}, "annotations": map[string]any{"#": "#"}}},
			[]string{"FieldValueInvalid e.metadata.name", "FieldValueInvalid e.metadata.namespace", "FieldValueInvalid e.metadata.labels",
				"FieldValueInvalid e.metadata.labels", "FieldValueInvalid e.metadata.annotations"}},
	}
	for _, tc := range cases {
		if got := typePaths(t, v, map[string]any{"e": tc.obj}); !sortedEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}

	nested := mustValidator(t, `{"type":"object","properties":{
		"embedded":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"nested":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"properties":{"embedded":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}},
		"items":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},
		"additionalProperties":{"type":"object","additionalProperties":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}`, Options{})
	walk := []struct {
		obj  string
		want []string
	}{
		{`{}`, nil},
		{`{"embedded":{}}`, []string{"FieldValueRequired embedded.apiVersion", "FieldValueRequired embedded.kind"}},
		{`{"nested":{"embedded":{}}}`, []string{"FieldValueRequired nested.apiVersion", "FieldValueRequired nested.kind",
			"FieldValueRequired nested.embedded.apiVersion", "FieldValueRequired nested.embedded.kind"}},
		{`{"items":[{}]}`, []string{"FieldValueRequired items[0].apiVersion", "FieldValueRequired items[0].kind"}},
		{`{"additionalProperties":{"foo":{}}}`, []string{"FieldValueRequired additionalProperties[foo].apiVersion", "FieldValueRequired additionalProperties[foo].kind"}},
	}
	for _, tc := range walk {
		if got := typePaths(t, nested, mustJSON(t, tc.obj)); !sortedEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.obj, got, tc.want)
		}
	}
}

func TestRootObjectMeta(t *testing.T) {
	ns := mustValidator(t, `{"type":"object"}`, Options{IsResourceRoot: true, Namespaced: boolPtr(true)})
	cluster := mustValidator(t, `{"type":"object"}`, Options{IsResourceRoot: true, Namespaced: boolPtr(false)})
	typed := mustValidator(t, `{"type":"object"}`, Options{IsResourceRoot: true, Kind: "Foo", APIVersion: "example.com/v1"})
	cases := []struct {
		name     string
		v        *Validator
		obj, old string
		want     []string
	}{
		{"valid", ns, `{"metadata":{"name":"a","namespace":"b","labels":{"app.kubernetes.io/name":"x"}}}`, "", nil},
		{"missing name", ns, `{"metadata":{"namespace":"b"}}`, "", []string{"metadata.name: Required value: name or generateName is required"}},
		{"generateName", ns, `{"metadata":{"generateName":"a-","namespace":"b"}}`, "", nil},
		// names.SimpleNameGenerator cuts the base to 58 bytes before
		// appending 5 random characters, so the generated name is valid;
		// ValidateObjectMetaAccessor checks generateName itself as a
		// prefix. (A ReplicationController of 1.37, whose name checks
		// validation-gen took over, accepts it: bench's builtin-verdict.)
		{"long generateName", ns, `{"metadata":{"generateName":"` + strings.Repeat("a", 300) + `","namespace":"b"}}`, "", []string{
			`metadata.generateName: Invalid value: "` + strings.Repeat("a", 300) + `": must be no more than 253 characters`}},
		{"invalid name", ns, `{"metadata":{"name":"A_b","namespace":"b"}}`, "", []string{
			`metadata.name: Invalid value: "A_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{"namespace required", ns, `{"metadata":{"name":"a"}}`, "", []string{"metadata.namespace: Required value"}},
		{"namespace forbidden", cluster, `{"metadata":{"name":"a","namespace":"b"}}`, "", []string{"metadata.namespace: Forbidden: not allowed on this type"}},
		{"bad label value", cluster, `{"metadata":{"name":"a","labels":{"k":"-x"}}}`, "", []string{
			`metadata.labels: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{"metadata not an object", cluster, `{"metadata":"x"}`, "", []string{`metadata: Invalid value: "x": expected map[string]interface{}, got string`}},
		// On update, rest.ValidateUpdate's validateCommonFields and the
		// strategy both run the update checks: the apiserver's causes list
		// their errors twice (bench's reference agrees).
		{"update renames", cluster, `{"metadata":{"name":"b","resourceVersion":"1"}}`, `{"metadata":{"name":"a","resourceVersion":"1"}}`, []string{
			`metadata.name: Invalid value: "b": field is immutable`, `metadata.name: Invalid value: "b": field is immutable`}},
		{"update without resourceVersion", cluster, `{"metadata":{"name":"a"}}`, `{"metadata":{"name":"a"}}`, []string{
			`metadata.resourceVersion: Invalid value: "": must be specified for an update`, `metadata.resourceVersion: Invalid value: "": must be specified for an update`}},
		{"update adds a finalizer that is not a qualified name", cluster, `{"metadata":{"name":"a","resourceVersion":"1","finalizers":["a/b/c"]}}`, `{"metadata":{"name":"a","resourceVersion":"1"}}`, []string{
			`metadata.finalizers: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`}},
		{"type meta", typed, `{"apiVersion":"example.com/v2","kind":"Bar","metadata":{"name":"A"}}`, "", []string{
			`kind: Invalid value: "Bar": must be Foo`, `apiVersion: Invalid value: "example.com/v2": must be example.com/v1`}},
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
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// TestMetaFastPathAgrees checks that the metadata fast path never accepts
// metadata that apimachinery's validation rejects.
func TestMetaFastPathAgrees(t *testing.T) {
	pieces := []string{"a", "b", "z", "0", "9", "-", ".", "_", "/", "A", "é", "example.com/", "x.y/", ""}
	gen := func(r *rand.Rand) string {
		var b strings.Builder
		for i := r.Intn(6); i >= 0; i-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		if r.Intn(20) == 0 {
			b.WriteString(strings.Repeat("a", 60+r.Intn(10)))
		}
		return b.String()
	}
	r := rand.New(rand.NewSource(1))
	for _, namespaced := range []*bool{nil, boolPtr(true), boolPtr(false)} {
		v := mustValidator(t, `{"type":"object"}`, Options{IsResourceRoot: true, Namespaced: namespaced})
		for i := 0; i < 3000; i++ {
			meta := map[string]any{"name": gen(r)}
			if r.Intn(2) == 0 {
				meta["namespace"] = gen(r)
			}
			if r.Intn(2) == 0 {
				meta["labels"] = map[string]any{gen(r): gen(r)}
			}
			if r.Intn(2) == 0 {
				meta["annotations"] = map[string]any{gen(r): gen(r)}
			}
			obj := value.Of(map[string]any{"metadata": meta})
			fast := v.metaFastValid(obj, value.Value{}, false)
			v2 := *v
			_, slowErrs := v2.rootMetaSlow(context.Background(), obj, value.Value{}, false)
			if fast && len(slowErrs) > 0 {
				t.Fatalf("fast path accepts %v, apimachinery rejects it: %v", meta, slowErrs)
			}
		}
	}
}

func TestScale(t *testing.T) {
	sel := ".status.selector"
	v := mustValidator(t, `{"type":"object"}`, Options{Scale: &Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas", LabelSelectorPath: &sel}})
	got := errStrings(t, v, mustJSON(t, `{"spec":{"replicas":-1},"status":{"replicas":"x","selector":3}}`), nil)
	want := []string{
		`.spec.replicas: Invalid value: -1: should be a non-negative integer`,
		`.status.replicas: Invalid value: 0: .status.replicas accessor error: x is of the type string, expected int64`,
		`.status.selector: Invalid value: "": .status.selector accessor error: 3 is of the type int64, expected string`,
	}
	if !sortedEqual(sortedCopy(got), want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if errs := errStrings(t, v, mustJSON(t, `{"spec":{"replicas":3},"status":{"replicas":2147483647}}`), nil); len(errs) > 0 {
		t.Errorf("unexpected %v", errs)
	}
	if errs := errStrings(t, v, mustJSON(t, `{"spec":{"replicas":2147483648}}`), nil); len(errs) != 1 {
		t.Errorf("replicas above MaxInt32: %v", errs)
	}
}

func boolPtr(b bool) *bool { return &b }
