package bench

import (
	"slices"
	"strings"
	"testing"

	"kdv.dev/builtin"
)

// apiService is an APIService named name with spec (flow-mapping
// entries).
func apiService(name, spec string) string {
	return "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: " + name + "}\nspec: {" + spec + "}\n"
}

// TestAPIServiceMatchesApiserver: kube-aggregator's ValidateAPIService,
// one case per rule of builtin/overlay/apiregistration_v1.tags and the
// cases beside each, as a create and as an unchanged update:
// kdv reports exactly the reference's errors (full error strings, in any
// order). The one difference is the value printed for a local
// APIService's CA bundle (the apiserver prints its length, kdv the
// bundle), documented in the overlay.
func TestAPIServiceMatchesApiserver(t *testing.T) {
	const svc = "service: {name: api, namespace: ns}, "
	const prio = ", groupPriorityMinimum: 100, versionPriority: 100"
	valid := apiService("v1.example.com", svc+"group: example.com, version: v1"+prio)
	for _, tc := range []struct {
		name, doc string
		reject    bool // the reference's verdict, asserted
		// kdvValue replaces, in kdv's errors, the reference's printed
		// value ("2 bytes") by kdv's (the bundle)
		refValue, kdvValue string
	}{
		{name: "valid with a service", doc: valid},
		// the strategy does not drop repeated errors: a bad label four
		// times on update, a name that is no path segment twice
		{name: "bad label", doc: strings.Replace(valid, "{name: v1.example.com}", "{name: v1.example.com, labels: {a: \"bad value!\"}}", 1), reject: true},
		{name: "valid local", doc: apiService("v1.apps", "group: apps, version: v1"+prio)},
		{name: "valid legacy group", doc: apiService("v1.", "version: v1"+prio)},
		{name: "valid service, default port, bundle", doc: apiService("v1.example.com", svc+"group: example.com, version: v1, caBundle: Y2E="+prio)},
		{name: "valid priorities at their maximum", doc: apiService("v1.example.com", svc+"group: example.com, version: v1, groupPriorityMinimum: 20000, versionPriority: 1000")},
		{name: "name is not version.group", doc: apiService("v1.example", svc+"group: example.com, version: v1"+prio), reject: true},
		{name: "name with the group first", doc: apiService("example.com.v1", svc+"group: example.com, version: v1"+prio), reject: true},
		{name: "name not a path segment", doc: apiService("..", svc+"group: example.com, version: v1"+prio), reject: true},
		{name: "generateName not the required name", doc: strings.Replace(valid, "{name: v1.example.com}", "{name: v1.example.com, generateName: Bad_Prefix-}", 1), reject: true},
		{name: "generateName the required name", doc: strings.Replace(valid, "{name: v1.example.com}", "{name: v1.example.com, generateName: v1.example.com}", 1)},
		{name: "generateName not a path segment", doc: strings.Replace(valid, "{name: v1.example.com}", "{name: v1.example.com, generateName: a/b}", 1), reject: true},
		{name: "empty group, version v2", doc: apiService("v2.", "version: v2"+prio), reject: true},
		{name: "no version, no group", doc: apiService("x", prio[2:]), reject: true},
		{name: "group not a subdomain", doc: apiService("v1.Example_com", svc+"group: Example_com, version: v1"+prio), reject: true},
		{name: "group too long", doc: apiService("v1."+strings.Repeat("a", 254), svc+"group: "+strings.Repeat("a", 254)+", version: v1"+prio), reject: true},
		{name: "group too long and not a subdomain", doc: apiService("v1."+strings.Repeat("A", 254), svc+"group: "+strings.Repeat("A", 254)+", version: v1"+prio), reject: true},
		{name: "version not a DNS-1035 label", doc: apiService("1v.example.com", svc+"group: example.com, version: 1v"+prio), reject: true},
		{name: "version too long", doc: apiService("v"+strings.Repeat("1", 63)+".example.com", svc+"group: example.com, version: v"+strings.Repeat("1", 63)+prio), reject: true},
		{name: "no priorities", doc: apiService("v1.example.com", svc+"group: example.com, version: v1"), reject: true},
		{name: "priorities too high", doc: apiService("v1.example.com", svc+"group: example.com, version: v1, groupPriorityMinimum: 20001, versionPriority: 1001"), reject: true},
		{name: "priorities negative", doc: apiService("v1.example.com", svc+"group: example.com, version: v1, groupPriorityMinimum: -1, versionPriority: -5"), reject: true},
		{name: "local with a bundle", doc: apiService("v1.apps", "group: apps, version: v1, caBundle: Y2E="+prio), reject: true, refValue: `"2 bytes"`, kdvValue: `"Y2E="`},
		{name: "local, insecure", doc: apiService("v1.apps", "group: apps, version: v1, insecureSkipTLSVerify: true"+prio), reject: true},
		{name: "empty service", doc: apiService("v1.example.com", "service: {}, group: example.com, version: v1"+prio), reject: true},
		{name: "service port 0", doc: apiService("v1.example.com", "service: {name: a, namespace: b, port: 0}, group: example.com, version: v1"+prio), reject: true},
		{name: "service port too high", doc: apiService("v1.example.com", "service: {name: a, namespace: b, port: 65536}, group: example.com, version: v1"+prio), reject: true},
		{name: "insecure with a bundle", doc: apiService("v1.example.com", svc+"group: example.com, version: v1, caBundle: Y2E=, insecureSkipTLSVerify: true"+prio), reject: true},
		{name: "insecure without a bundle", doc: apiService("v1.example.com", svc+"group: example.com, version: v1, insecureSkipTLSVerify: true"+prio)},
	} {
		// an update leaves the object as it was (an APIService is renamed
		// by no one): the apiserver validates it again in full
		for _, old := range []string{"", tc.doc} {
			name := tc.name
			if old != "" {
				name += " (update)"
			}
			t.Run(name, func(t *testing.T) {
				_, refErrs := referenceErrors(t, tc.doc, old)
				if tc.reject != (len(refErrs) > 0) {
					t.Fatalf("the reference's verdict is not %v (the case is wrong):\n%s", tc.reject, strings.Join(refErrs, "\n"))
				}
				if tc.refValue != "" {
					for i, e := range refErrs {
						refErrs[i] = strings.Replace(e, tc.refValue, tc.kdvValue, 1)
					}
				}
				got, _ := kdvGatedErrors(t, tc.doc, old, builtin.FeatureGates{})
				if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(refErrs))) {
					t.Errorf("kdv:\n%s\nreference:\n%s", strings.Join(got, "\n"), strings.Join(refErrs, "\n"))
				}
			})
		}
	}
}
