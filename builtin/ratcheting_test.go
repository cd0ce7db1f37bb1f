package builtin

import (
	"testing"

	"kdv.dev/schema"
)

// TestOverlayRatcheting: +ratcheting (x-kubernetes-ratcheting) reaches the
// embedded schemas of every release, on fields (Endpoints' subsets, whose
// errors ValidateEndpoints drops when an update keeps them), on kinds
// (PriorityClass, which ValidatePriorityClassUpdate does not check beyond
// its immutable fields) and as false below a field that ratchets (the
// webhooks of a configuration ratchet for their names' uniqueness, each
// webhook does not); elsewhere a built-in schema says nothing, and the
// validators' built-in default, no ratcheting, applies.
func TestOverlayRatcheting(t *testing.T) {
	for _, minor := range Versions() {
		lookup := func(group, version, kind string) *schema.Structural {
			t.Helper()
			s, err := Lookup(minor, schema.GroupVersionKind{Group: group, Version: version, Kind: kind})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		ep := lookup("", "v1", "Endpoints")
		subsets := ep.Properties["subsets"]
		if !subsets.Ratchets(false) {
			t.Errorf("1.%d Endpoints.subsets: no %s", minor, schema.XRatcheting)
		}
		if ep.Ratchets(false) {
			t.Errorf("1.%d Endpoints: %s at the root", minor, schema.XRatcheting)
		}
		if pc := lookup("scheduling.k8s.io", "v1", "PriorityClass"); !pc.Ratchets(false) {
			t.Errorf("1.%d PriorityClass: no %s", minor, schema.XRatcheting)
		}
		webhooks := lookup("admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration").Properties["webhooks"]
		if !webhooks.Ratchets(false) || webhooks.Items.Ratchets(true) {
			t.Errorf("1.%d ValidatingWebhookConfiguration.webhooks: %s %v, items %v; want true, false", minor, schema.XRatcheting, webhooks.Ratchets(false), webhooks.Items.Ratchets(true))
		}
		if mc := webhooks.Items.Properties["matchConditions"]; !mc.Ratchets(false) {
			t.Errorf("1.%d ValidatingWebhook.matchConditions: no %s", minor, schema.XRatcheting)
		}
		dep := lookup("apps", "v1", "Deployment")
		if spec := dep.Properties["spec"]; spec.Ratchets(false) || dep.Ratchets(false) {
			t.Errorf("1.%d Deployment: %s", minor, schema.XRatcheting)
		}
	}
}
