package builtin

import (
	"testing"

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
