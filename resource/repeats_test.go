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
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	res := Run(context.Background(), manifest.Parse("new.yaml", upd, manifest.Options{}), reg, RunOptions{Jobs: 1, Old: manifest.Parse("old.yaml", old, manifest.Options{})})
	var got []string
	for _, e := range res.Documents[0].Errors {
		got = append(got, e.Error())
	}
	want := `spec.serviceName: Invalid value: "b": field is immutable`
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}
