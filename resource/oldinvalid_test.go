package resource

import (
	"context"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/schema/schematest"
)

// A StatefulSet update validates the new pod template only when the old
// spec validates (ValidateStatefulSetUpdate's SkipValidatePodTemplateSpec,
// declared with x-kubernetes-skip-update-validation-if-old-invalid).
// Expectations: k8s.io/kubernetes v1.37.2 through bench's reference
// (bench TestStatefulSetUpdateOfInvalidOldMatchesApiserver).
func TestSkipUpdateValidationIfOldInvalid(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	v, err := reg.Validator(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"})
	if err != nil {
		t.Fatal(err)
	}
	if v.oldInvalid == nil || !slices.Equal(v.oldInvalid.old, []string{"spec"}) {
		t.Fatalf("StatefulSet's template skip: %+v, want one depending on spec", v.oldInvalid)
	}
	sts := func(container string) map[string]any {
		return schematest.JSON(t, `{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "default"},
			"spec": {"serviceName": "db", "selector": {"matchLabels": {"app": "db"}},
			"template": {"metadata": {"labels": {"app": "db"}}, "spec": {"containers": [`+container+`]}}}}`).(map[string]any)
	}
	const valid, noImage, blankImage = `{"name": "c", "image": "i"}`, `{"name": "c"}`, `{"name": "c", "image": " "}`
	for _, tc := range []struct {
		name, obj, old string
		want           string
	}{
		{"valid old: the template is validated", noImage, valid, "spec.template.spec.containers[0].image: Required value"},
		{"invalid old, unchanged: tolerated", noImage, noImage, ""},
		{"invalid old, another invalid template: tolerated", blankImage, noImage, ""},
		{"create: validated", noImage, "", "spec.template.spec.containers[0].image: Required value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var old map[string]any
			if tc.old != "" {
				old = sts(tc.old)
			}
			out := v.Validate(context.Background(), sts(tc.obj), old)
			var got []string
			for _, e := range out.Errors {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestWithSkippedOnUpdateCopiesThePath(t *testing.T) {
	s := schematest.Structural(t, `{"type": "object", "properties": {"spec": {"type": "object", "properties": {"template": {"type": "object"}, "other": {"type": "object"}}}}}`)
	c := withSkippedOnUpdate(s, []string{"spec", "template"})
	spec := c.Properties["spec"]
	if tmpl := spec.Properties["template"]; !tmpl.SkipsUpdateValidation() {
		t.Error("the copy's template is not marked")
	}
	if o := spec.Properties["other"]; o.SkipsUpdateValidation() {
		t.Error("a sibling is marked")
	}
	orig := s.Properties["spec"]
	if tmpl := orig.Properties["template"]; tmpl.SkipsUpdateValidation() {
		t.Error("the original schema was changed")
	}
}
