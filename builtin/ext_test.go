package builtin

import (
	"reflect"
	"strings"
	"testing"

	"kdv.dev/defaulting"
	"kdv.dev/schema"
)

// The rule overlay's kdv-only tags reach the embedded schemas of every
// version: +defaultFrom (x-kubernetes-default-from, SetDefaults_Service's
// targetPort), +skipUpdateValidation (x-kubernetes-skip-update-validation,
// ValidateResourceClaimUpdate) and +noEnum (the +enum of a type whose
// values the hand-written validation checks itself: ResourceQuota scopes
// and scope selector operators, on fields and on list items alike),
// +reportedAt (x-kubernetes-reported-at) and tuples of unique keys.
func TestOverlayExtensions(t *testing.T) {
	for _, minor := range Versions() {
		svc, err := Lookup(minor, schema.GroupVersionKind{Version: "v1", Kind: "Service"})
		if err != nil {
			t.Fatal(err)
		}
		tp := svc.Properties["spec"].Properties["ports"].Items.Properties["targetPort"]
		if got := tp.XOther[schema.XDefaultFrom]; got != "port" {
			t.Errorf("1.%d ServicePort.targetPort: %s = %v, want port", minor, schema.XDefaultFrom, got)
		}
		// resource.k8s.io/v1 is served from 1.34 (the overlay covers v1 only)
		if minor >= 34 {
			rc, err := Lookup(minor, schema.GroupVersionKind{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaim"})
			if err != nil {
				t.Fatal(err)
			}
			spec := rc.Properties["spec"]
			if !spec.SkipsUpdateValidation() {
				t.Errorf("1.%d ResourceClaim.spec: no %s", minor, schema.XSkipUpdateValidation)
			}
			if md := rc.Properties["metadata"]; md.SkipsUpdateValidation() {
				t.Errorf("1.%d ResourceClaim.metadata: %s", minor, schema.XSkipUpdateValidation)
			}
		}
		// +skipUpdateValidationIfOldInvalid: a StatefulSet's pod template
		// from 1.34 (ValidateStatefulSetUpdate; before, no template is
		// validated: +skipValidation)
		sts, err := Lookup(minor, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"})
		if err != nil {
			t.Fatal(err)
		}
		tmpl := sts.Properties["spec"].Properties["template"]
		if got, want := tmpl.SkipsUpdateValidationIfOldInvalid(), map[bool]string{true: "spec"}[minor >= 34]; got != want {
			t.Errorf("1.%d StatefulSetSpec.template: %s = %q, want %q", minor, schema.XSkipUpdateValidationIfOldInvalid, got, want)
		}
		rq, err := Lookup(minor, schema.GroupVersionKind{Version: "v1", Kind: "ResourceQuota"})
		if err != nil {
			t.Fatal(err)
		}
		rqs := rq.Properties["spec"]
		req := rqs.Properties["scopeSelector"].Properties["matchExpressions"].Items
		for name, n := range map[string]*schema.Structural{
			"ResourceQuotaSpec.scopes[*]":                 rqs.Properties["scopes"].Items,
			"ScopedResourceSelectorRequirement.scopeName": ptr(req.Properties["scopeName"]),
			"ScopedResourceSelectorRequirement.operator":  ptr(req.Properties["operator"]),
		} {
			if n.ValueValidation != nil && len(n.ValueValidation.Enum) > 0 {
				t.Errorf("1.%d %s: enum %v, want none", minor, name, n.ValueValidation.Enum)
			}
		}
		// +reportedAt and a +uniqueKey tuple: ValidateNode's taints at
		// metadata.taints, unique by (key, effect)
		node, err := Lookup(minor, schema.GroupVersionKind{Version: "v1", Kind: "Node"})
		if err != nil {
			t.Fatal(err)
		}
		taints := node.Properties["spec"].Properties["taints"]
		if got := taints.ReportedAt(); got != "metadata.taints" {
			t.Errorf("1.%d NodeSpec.taints: %s = %q, want metadata.taints", minor, schema.XReportedAt, got)
		}
		if taints.XUniqueKey != "key,effect" {
			t.Errorf("1.%d NodeSpec.taints: unique key %q, want key,effect", minor, taints.XUniqueKey)
		}
		// validation-gen's +k8s:unique=map on an atomic list (1.37:
		// DeviceClaim.requests, keyed by name) is a tuple of one key
		if minor >= 37 {
			rc, err := Lookup(minor, schema.GroupVersionKind{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaim"})
			if err != nil {
				t.Fatal(err)
			}
			if got := rc.Properties["spec"].Properties["devices"].Properties["requests"].XUniqueKey; got != "name," {
				t.Errorf("1.%d DeviceClaim.requests: unique key %q, want name,", minor, got)
			}
		}
		// other +enum types keep theirs
		if p := svc.Properties["spec"].Properties["ports"].Items.Properties["protocol"]; p.ValueValidation == nil || len(p.ValueValidation.Enum) == 0 {
			t.Errorf("1.%d ServicePort.protocol: no enum", minor)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// The computed defaults (+defaultExpression, x-kubernetes-default-
// expression) reach every release's schemas and compile, and defaulting
// a Pod and a Job computes what the Go defaulters do: imagePullPolicy
// from the image's tag (SetDefaults_Container, for init and ephemeral
// containers too), a Job's completions and backoffLimit
// (SetDefaults_Job), an emptyDir for a volume without a source
// (SetDefaults_Volume, in a Pod and a Deployment's template).
func TestOverlayDefaultExpressions(t *testing.T) {
	for _, minor := range Versions() {
		pod, err := Lookup(minor, schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
		if err != nil {
			t.Fatal(err)
		}
		spec := pod.Properties["spec"]
		for _, list := range []string{"containers", "initContainers", "ephemeralContainers"} {
			p := spec.Properties[list].Items.Properties["imagePullPolicy"]
			src := defaulting.DefaultExpression(&p)
			if src == "" {
				t.Errorf("1.%d Pod spec.%s[*].imagePullPolicy: no %s", minor, list, schema.XDefaultExpression)
				continue
			}
			if _, err := defaulting.CompileDefaultExpression(src); err != nil {
				t.Errorf("1.%d Pod spec.%s[*].imagePullPolicy: %v", minor, list, err)
			}
		}
		obj := map[string]any{"spec": map[string]any{
			"containers":          []any{map[string]any{"name": "a", "image": "nginx"}, map[string]any{"name": "b", "image": "nginx:1.25"}},
			"initContainers":      []any{map[string]any{"name": "i", "image": "busybox:latest"}},
			"ephemeralContainers": []any{map[string]any{"name": "e", "image": "busybox@sha256:" + strings.Repeat("a", 64)}},
		}}
		defaulting.NewDefaulter(pod).Default(obj)
		s := obj["spec"].(map[string]any)
		for _, c := range []struct {
			list string
			i    int
			want string
		}{{"containers", 0, "Always"}, {"containers", 1, "IfNotPresent"}, {"initContainers", 0, "Always"}, {"ephemeralContainers", 0, "IfNotPresent"}} {
			if got := s[c.list].([]any)[c.i].(map[string]any)["imagePullPolicy"]; got != c.want {
				t.Errorf("1.%d Pod spec.%s[%d].imagePullPolicy = %v, want %s", minor, c.list, c.i, got, c.want)
			}
		}
		for _, kind := range []schema.GroupVersionKind{{Version: "v1", Kind: "Pod"}, {Group: "apps", Version: "v1", Kind: "Deployment"}} {
			s, err := Lookup(minor, kind)
			if err != nil {
				t.Fatal(err)
			}
			volumes := []any{
				map[string]any{"name": "none"},
				map[string]any{"name": "null", "hostPath": nil},
				map[string]any{"name": "host", "hostPath": map[string]any{"path": "/x"}},
				map[string]any{"name": "mem", "emptyDir": map[string]any{"medium": "Memory"}},
			}
			obj := map[string]any{"spec": map[string]any{"volumes": volumes}}
			if kind.Kind == "Deployment" {
				obj = map[string]any{"spec": map[string]any{"template": obj}}
			}
			defaulting.NewDefaulter(s).Default(obj)
			for i, want := range []any{map[string]any{}, map[string]any{}, nil, map[string]any{"medium": "Memory"}} {
				got, found := volumes[i].(map[string]any)["emptyDir"]
				if want == nil && found || want != nil && !reflect.DeepEqual(got, want) {
					t.Errorf("1.%d %s volume %d: emptyDir %v (%v), want %v", minor, kind.Kind, i, got, found, want)
				}
			}
		}
		job, err := Lookup(minor, schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			spec                            map[string]any
			completions, parallelism, limit any
		}{
			{map[string]any{}, int64(1), int64(1), int64(6)},
			{map[string]any{"parallelism": int64(3)}, nil, int64(3), int64(6)},
			{map[string]any{"completions": int64(5), "backoffLimitPerIndex": int64(1)}, int64(5), int64(1), int64(2147483647)},
			{map[string]any{"backoffLimit": int64(2)}, int64(1), int64(1), int64(2)},
		} {
			obj := map[string]any{"spec": c.spec}
			defaulting.NewDefaulter(job).Default(obj)
			if got := c.spec["completions"]; got != c.completions {
				t.Errorf("1.%d Job %v: completions %v, want %v", minor, c.spec, got, c.completions)
			}
			if got := c.spec["parallelism"]; got != c.parallelism {
				t.Errorf("1.%d Job %v: parallelism %v, want %v", minor, c.spec, got, c.parallelism)
			}
			if got := c.spec["backoffLimit"]; got != c.limit {
				t.Errorf("1.%d Job %v: backoffLimit %v, want %v", minor, c.spec, got, c.limit)
			}
		}
	}
}

// +validationRule's diff arguments (x-kubernetes-diff) reach the update
// rules of Pod, PersistentVolumeClaim and PersistentVolume from 1.34 on
// (diffSince; a rule whose diff did not compile would have been dropped by
// gendata for that release), and only the rules before.
func TestOverlayRuleDiffs(t *testing.T) {
	for _, minor := range Versions() {
		for kind, want := range map[string]string{"Pod": "pod updates may not change fields other than", "PersistentVolumeClaim": "spec is immutable after creation except", "PersistentVolume": "spec.persistentvolumesource is immutable"} {
			s, err := Lookup(minor, schema.GroupVersionKind{Version: "v1", Kind: kind})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, r := range s.XValidations {
				if strings.HasPrefix(r.Message, want) {
					found = true
					switch {
					case minor < 34 && r.Diff != nil:
						t.Errorf("1.%d %s: rule %q has diff %+v, want none before 1.34", minor, kind, want, r.Diff)
					case minor >= 34 && (r.Diff == nil || r.Diff.Path != ".spec" || r.Diff.Since != ""):
						t.Errorf("1.%d %s: rule %q has diff %+v, want path .spec (since cleared)", minor, kind, want, r.Diff)
					}
				}
			}
			if !found {
				t.Errorf("1.%d %s: no rule %q", minor, kind, want)
			}
		}
	}
}
