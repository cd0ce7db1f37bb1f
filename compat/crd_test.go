package compat

import (
	"strings"
	"testing"

	"kdv.dev/schema"
)

// crdYAML is a CRD with versions v1beta1 (served, not stored) and v1
// (storage); edit applies string replacements to vary it.
const crdYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList, shortNames: [wd]}
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: string}}}}}
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: string}}}}}
`

func mustCRD(t *testing.T, edits ...string) *schema.CRD {
	t.Helper()
	y := crdYAML
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(y, edits[i]) {
			t.Fatalf("edit %q does not apply", edits[i])
		}
		y = strings.Replace(y, edits[i], edits[i+1], 1)
	}
	c, err := schema.ParseCRD([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCRDRules is the table test of the CRD-level rules: the breaking
// edit, its report line, and a compatible edit.
func TestCRDRules(t *testing.T) {
	for _, tc := range []struct {
		name       string
		breaking   []string
		want       string
		compatible []string
	}{{
		name:       "version removed",
		breaking:   []string{"  - name: v1beta1\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: string}}}}}\n", ""},
		want:       "widgets.example.com/v1beta1: breaks-objects version-removed: version v1beta1 removed",
		compatible: []string{"  - name: v1\n", "  - name: v2\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema: {type: object}\n  - name: v1\n"},
	}, {
		name:       "version no longer served",
		breaking:   []string{"served: true\n    storage: false", "served: false\n    storage: false"},
		want:       "widgets.example.com/v1beta1: breaks-clients version-unserved: version v1beta1 no longer served",
		compatible: []string{"  - name: v1beta1\n", "  - name: v1beta1\n    deprecated: true\n"},
	}, {
		name: "storage moved to a version added in the same release",
		breaking: []string{"  - name: v1\n    served: true\n    storage: true\n",
			"  - name: v2\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object}\n  - name: v1\n    served: true\n    storage: false\n"},
		want:       "widgets.example.com: spec.versions: breaks-clients storage-version-changed: storage version changed from v1 to v2, a version this release adds: an apiserver rolled back cannot decode objects stored in it (v1 was the storage version)",
		compatible: []string{"storage: false", "storage: true", "    storage: true\n    subresources", "    storage: false\n    subresources"},
	}, {
		name:       "scope changed",
		breaking:   []string{"scope: Namespaced", "scope: Cluster"},
		want:       "widgets.example.com: spec.scope: breaks-objects scope-changed: scope changed from Namespaced to Cluster",
		compatible: []string{"scope: Namespaced", ""},
	}, {
		name:       "kind renamed",
		breaking:   []string{"kind: Widget, listKind: WidgetList", "kind: Gadget, listKind: GadgetList"},
		want:       `widgets.example.com: spec.names.kind: breaks-clients names-changed: kind changed from "Widget" to "Gadget"`,
		compatible: []string{"listKind: WidgetList, ", ""},
	}, {
		name:       "short name removed",
		breaking:   []string{"shortNames: [wd]", "shortNames: []"},
		want:       `widgets.example.com: spec.names.shortNames: breaks-clients names-changed: shortNames entry "wd" removed`,
		compatible: []string{"shortNames: [wd]", "shortNames: [wd, wdg], categories: [all]"},
	}, {
		name:       "status subresource removed",
		breaking:   []string{"    subresources: {status: {}}\n", ""},
		want:       "widgets.example.com/v1: subresources.status: breaks-clients subresource-changed: status subresource removed",
		compatible: []string{"subresources: {status: {}}", "subresources: {status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			old := mustCRD(t)
			got, errs := CompareCRDs(old, mustCRD(t, tc.breaking...))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			found := false
			for _, c := range got {
				found = found || c.String() == tc.want
			}
			if !found {
				t.Errorf("want line\n  %s\ngot:\n%s", tc.want, lines(got))
			}
			got, _ = CompareCRDs(old, mustCRD(t, tc.compatible...))
			for _, c := range got {
				if c.Severity > Safe {
					t.Errorf("compatible edit reported %s", c)
				}
			}
		})
	}
	t.Run("conversion webhook dropped", func(t *testing.T) {
		withWebhook := mustCRD(t, "  scope: Namespaced\n", "  scope: Namespaced\n  conversion: {strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig: {url: 'https://conv.example.com'}}}\n")
		got, _ := CompareCRDs(withWebhook, mustCRD(t))
		want := "widgets.example.com: spec.conversion.strategy: breaks-objects conversion-changed: conversion strategy changed from Webhook to None: objects stored in another version are no longer converted"
		if len(got) != 1 || got[0].String() != want {
			t.Errorf("got:\n%swant:\n  %s", lines(got), want)
		}
		got, _ = CompareCRDs(mustCRD(t), withWebhook)
		if w, _ := Worst(got); w != Safe {
			t.Errorf("None to Webhook: %s", lines(got))
		}
	})
	t.Run("identical", func(t *testing.T) {
		if got, _ := CompareCRDs(mustCRD(t), mustCRD(t)); len(got) != 0 {
			t.Errorf("identical CRDs: %s", lines(got))
		}
	})
	t.Run("schema change in a common version", func(t *testing.T) {
		got, _ := CompareCRDs(mustCRD(t), mustCRD(t, "properties: {size: {type: string}}}}}\n  - name: v1\n", "properties: {size: {type: string, enum: [s, m]}}}}}\n  - name: v1\n"))
		want := `widgets.example.com/v1beta1: spec.size: breaks-objects enum-added: restricted to the values ["s","m"]`
		if len(got) != 1 || got[0].String() != want {
			t.Errorf("got:\n%swant:\n  %s", lines(got), want)
		}
	})
}
