package resource

import (
	"context"
	"strings"
	"testing"

	"kdv.dev/manifest"
)

// From 1.37 k8s.io/api tags StatefulSet's serviceName
// +k8s:alpha(since: "1.37")=+k8s:immutable, whose error has no value,
// while the apiserver (default gates: alpha declarative validation is not
// authoritative) reports the hand-written ValidateImmutableField error
// with the new value, which the rule overlay declares too (reference:
// bench/cmd/builtin-verdict -old, Kubernetes 1.37). kdv reports it once,
// with the value.
func TestBuiltInValuelessTwinDropped(t *testing.T) {
	sts := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  serviceName: %s\n  selector: {matchLabels: {app: s}}\n  template:\n    metadata: {labels: {app: s}}\n    spec:\n      containers: [{name: c, image: busybox}]\n"
	old := []byte(strings.Replace(sts, "%s", "a", 1))
	upd := []byte(strings.Replace(sts, "%s", "b", 1))
	got := builtinErrors(t, upd, old)
	want := `spec.serviceName: Invalid value: "b": field is immutable`
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// builtinErrors validates doc (as an update of old when old is not nil)
// with kdv's built-in schemas of the newest release and returns its
// errors as printed.
func builtinErrors(t *testing.T, doc, old []byte) []string {
	t.Helper()
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	opts := RunOptions{Jobs: 1}
	if old != nil {
		opts.Old = manifest.Parse("old.yaml", old, manifest.Options{})
	}
	res := Run(context.Background(), manifest.Parse("new.yaml", doc, manifest.Options{}), reg, opts)
	var got []string
	for _, e := range res.Documents[0].Errors {
		got = append(got, e.Error())
	}
	return got
}
