package builtin

import (
	"strings"
	"testing"

	"kdv.dev/schema"
)

// The rule overlay's kdv-only tags reach the embedded schemas of every
// version: +defaultFrom (x-kubernetes-default-from, SetDefaults_Service's
// targetPort), +skipUpdateValidation (x-kubernetes-skip-update-validation,
// ValidateResourceClaimUpdate) and +noEnum (the +enum of a type whose
// values the hand-written validation checks itself: ResourceQuota scopes
// and scope selector operators, on fields and on list items alike).
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
		// other +enum types keep theirs
		if p := svc.Properties["spec"].Properties["ports"].Items.Properties["protocol"]; p.ValueValidation == nil || len(p.ValueValidation.Enum) == 0 {
			t.Errorf("1.%d ServicePort.protocol: no enum", minor)
		}
	}
}

func ptr[T any](v T) *T { return &v }

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
