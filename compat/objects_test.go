package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/schema"
)

// apiOf wraps CRDs in an API, as Load would return it.
func apiOf(crds ...*schema.CRD) *API {
	api := NewAPI()
	for _, c := range crds {
		if err := api.AddCRD(c, "crd.yaml:1"); err != nil {
			panic(err)
		}
	}
	return api
}

// widgetSpec replaces the v1 spec schema of crdYAML.
func widgetSpec(t *testing.T, props string) *schema.CRD {
	const v1 = "    subresources: {status: {}}\n    schema:\n      openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: string}}}}}"
	return mustCRD(t, v1, "    subresources: {status: {}}\n    schema:\n      openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {"+props+"}}}}")
}

func parseObjects(t *testing.T, y string) []manifest.Document {
	t.Helper()
	return manifest.Parse("objects.yaml", []byte(y), manifest.Options{})
}

const widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec: "

// TestCheckObjects is the table test of --objects: each case is an OLD and
// a NEW CRD and one object, with its verdict and NEW's errors on create and
// on an unchanged update.
func TestCheckObjects(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new *schema.CRD
		object   string
		status   string
		create   string // NEW's errors on create, joined by "; "
		update   string // NEW's errors on an unchanged update
		ratchet  string // errors ratcheting forgives on update
		pruned   string
	}{{
		name:   "identical schemas",
		old:    widgetSpec(t, "size: {type: string, maxLength: 3}"),
		new:    widgetSpec(t, "size: {type: string, maxLength: 3}"),
		object: widget + "{size: abc}",
		status: ObjectOK,
	}, {
		name:    "tightened bound: create fails, ratcheting saves updates",
		old:     widgetSpec(t, "size: {type: string, maxLength: 5}"),
		new:     widgetSpec(t, "size: {type: string, maxLength: 3}"),
		object:  widget + "{size: abcd}",
		status:  ObjectStranded,
		create:  "spec.size: Too long: may not be more than 3 bytes",
		ratchet: "spec.size: Too long: may not be more than 3 bytes",
	}, {
		name:   "loosened bound",
		old:    widgetSpec(t, "size: {type: string, maxLength: 3}"),
		new:    widgetSpec(t, "size: {type: string, maxLength: 5}"),
		object: widget + "{size: abc}",
		status: ObjectOK,
	}, {
		name:   "transition rule is not ratcheted: the unchanged update fails too",
		old:    widgetSpec(t, "size: {type: string}"),
		new:    widgetSpec(t, "size: {type: string, maxLength: 10, x-kubernetes-validations: [{rule: 'oldSelf.size() <= 3', message: shrink it first}]}"),
		object: widget + "{size: abcd}",
		status: ObjectStranded,
		update: "spec.size: Invalid value: \"abcd\": shrink it first",
	}, {
		name:   "removed field: create rejects it, the stored object loses it",
		old:    widgetSpec(t, "size: {type: string}, color: {type: string}"),
		new:    widgetSpec(t, "size: {type: string}"),
		object: widget + "{size: a, color: red}",
		status: ObjectStranded,
		create: `unknown field "spec.color"`,
		pruned: `"spec.color"`,
	}, {
		name:   "new default does not strand",
		old:    widgetSpec(t, "size: {type: string}"),
		new:    widgetSpec(t, "size: {type: string}, color: {type: string, default: red, enum: [red]}"),
		object: widget + "{size: a}",
		status: ObjectOK,
	}, {
		name:   "invalid under OLD already",
		old:    widgetSpec(t, "size: {type: string, maxLength: 1}"),
		new:    widgetSpec(t, "size: {type: string, maxLength: 1}"),
		object: widget + "{size: abc}",
		status: ObjectInvalidOld,
	}, {
		name:   "version no longer served",
		old:    mustCRD(t),
		new:    mustCRD(t, "  - name: v1beta1\n    served: true", "  - name: v1beta1\n    served: false"),
		object: strings.Replace(widget, "example.com/v1", "example.com/v1beta1", 1) + "{size: a}",
		status: ObjectStranded,
		create: "NEW does not serve example.com/v1beta1 Widget: the apiserver answers 404 (no schema for example.com/v1beta1, Kind=Widget)",
		update: "NEW does not serve example.com/v1beta1 Widget: the apiserver answers 404 (no schema for example.com/v1beta1, Kind=Widget)",
	}, {
		name:   "kind neither defines",
		old:    mustCRD(t),
		new:    mustCRD(t),
		object: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
		status: ObjectSkipped,
	}, {
		name:   "unreadable document",
		old:    mustCRD(t),
		new:    mustCRD(t),
		object: "apiVersion: [\n",
		status: ObjectError,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res := CheckObjects(context.Background(), apiOf(tc.old), apiOf(tc.new), parseObjects(t, tc.object), ObjectOptions{})
			if len(res) != 1 {
				t.Fatalf("%d results, want 1", len(res))
			}
			r := res[0]
			if r.Status != tc.status {
				t.Errorf("status %q, want %q: %+v", r.Status, tc.status, r)
			}
			for _, c := range []struct{ what, got, want string }{
				{"create", strings.Join(r.CreateErrors, "; "), tc.create},
				{"update", strings.Join(r.UpdateErrors, "; "), tc.update},
				{"ratcheted", strings.Join(r.Ratcheted, "; "), tc.ratchet},
				{"pruned", strings.Join(r.Pruned, "; "), tc.pruned},
			} {
				if !strings.Contains(c.got, c.want) || (c.want == "") != (c.got == "") {
					t.Errorf("%s errors %q, want %q", c.what, c.got, c.want)
				}
			}
			if r.Stranded() != AnyStranded(res) {
				t.Error("AnyStranded disagrees")
			}
		})
	}
}

// TestCheckObjectsGatewayAPI checks HTTPRoutes and ReferenceGrants valid
// under Gateway API v1.5.1 against v1.6.0, whose release notes say
// "`retry.attempts` must be >= 1 (#4907)" and "Make `referencegrant.spec`
// field required (#4845)": both strand the objects on create. Ratcheting
// lets the HTTPRoute's unchanged update through (the error is on a value
// that correlates with the stored one) but not the ReferenceGrant's: a
// required error belongs to the root object, which never correlates as
// unchanged because metadata's keys have no schema (CorrelatedObject.
// CachedDeepEqual in k8s.io/apiserver pkg/cel/common/equality.go).
func TestCheckObjectsGatewayAPI(t *testing.T) {
	old, new := gatewayRelease(t, "v1.5.1"), gatewayRelease(t, "v1.6.0")
	docs := parseObjects(t, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: retry-zero, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{name: svc, port: 80}]
    retry: {attempts: 0}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: fine, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{name: svc, port: 80}]
    retry: {attempts: 2}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: no-spec, namespace: default}
`)
	res := CheckObjects(context.Background(), old, new, docs, ObjectOptions{})
	var got []string
	for _, r := range res {
		got = append(got, r.Name+" "+r.Status+": "+strings.Join(r.CreateErrors, "; ")+" | "+strings.Join(r.UpdateErrors, "; ")+" | "+strings.Join(r.Ratcheted, "; "))
	}
	want := []string{
		"retry-zero stranded: spec.rules[0].retry.attempts: Invalid value: 0: spec.rules[0].retry.attempts in body should be greater than or equal to 1 |  | spec.rules[0].retry.attempts: Invalid value: 0: spec.rules[0].retry.attempts in body should be greater than or equal to 1",
		"fine ok:  |  | ",
		"no-spec stranded: spec: Required value | spec: Required value | ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	var text bytes.Buffer
	if err := WriteObjects(&text, "text", res); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"objects.yaml:1: HTTPRoute default/retry-zero: stranded (NEW rejects it on create)",
		"    create: spec.rules[0].retry.attempts: Invalid value: 0:",
		"3 objects: 2 stranded, 1 ok, 0 invalid under OLD, 0 skipped, 0 unreadable",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text output lacks %q:\n%s", line, text.String())
		}
	}
	var js bytes.Buffer
	if err := WriteObjects(&js, "json", res); err != nil {
		t.Fatal(err)
	}
	var decoded struct{ Objects []ObjectResult }
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil || len(decoded.Objects) != 3 || decoded.Objects[2].Status != ObjectStranded {
		t.Errorf("json: %v %s", err, js.String())
	}
}
