package builtin

import (
	"reflect"
	"strings"
	"testing"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
)

// Messages of apimachinery's name checks (k8s.io/apimachinery
// pkg/util/validation, pkg/api/validate/content), as the apiserver reports
// them.
const (
	msgSubdomain = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	msgDNS1035   = `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`
	msgDots      = `must not contain dots`
)

// TestNameValidation checks each kind with its own rule: a name the kind
// accepts that is not a DNS subdomain (the rule kdv applied to every kind
// before), or one it rejects that is, with the apiserver's messages.
func TestNameValidation(t *testing.T) {
	core := func(k string) k8sschema.GroupKind { return k8sschema.GroupKind{Kind: k} }
	gk := func(g, k string) k8sschema.GroupKind { return k8sschema.GroupKind{Group: g, Kind: k} }
	long53 := strings.Repeat("a", 53)
	cases := []struct {
		gk     k8sschema.GroupKind
		name   string
		prefix bool
		want   []string
	}{
		// core Service: DNS-1035 label.
		{core("Service"), "my.svc", false, []string{msgDNS1035}},
		{core("Service"), "1abc", false, []string{msgDNS1035}},
		{core("Service"), "my-svc", false, nil},
		{core("Service"), "my-svc-", true, nil}, // generateName: trailing dash allowed
		// core Namespace: DNS-1123 label.
		{core("Namespace"), "a.b", false, []string{msgDots}},
		{core("Namespace"), "kube-system", false, nil},
		// core Event (v1): path segment only.
		{core("Event"), "pod.17a3:b", false, nil},
		{core("Event"), "Upper_Case", false, nil},
		{core("Event"), "a/b", false, []string{"may not contain '/'"}},
		{core("Event"), "..", false, []string{"may not be '..'"}},
		{core("Event"), "x%", true, []string{"may not contain '%'"}},
		{core("Event"), "..", true, nil}, // a prefix may be '..'
		// events.k8s.io Event keeps the default.
		{gk("events.k8s.io", "Event"), "pod.17a3:b", false, []string{msgSubdomain}},
		// apps StatefulSet: DNS-1123 label.
		{gk("apps", "StatefulSet"), "web.v1", false, []string{msgDots}},
		{gk("apps", "StatefulSet"), "web", false, nil},
		// batch CronJob: subdomain, at most 52 characters (not for prefixes).
		{gk("batch", "CronJob"), long53, false, []string{"must be no more than 52 characters"}},
		{gk("batch", "CronJob"), long53[:52], false, nil},
		{gk("batch", "CronJob"), long53, true, nil},
		{gk("batch", "CronJob"), "A" + long53, false, []string{msgSubdomain, "must be no more than 52 characters"}},
		// RBAC: path segment names, prefix or not.
		{gk("rbac.authorization.k8s.io", "ClusterRole"), "system:kdv-reader", false, nil},
		{gk("rbac.authorization.k8s.io", "ClusterRoleBinding"), "system:kube-scheduler", false, nil},
		{gk("rbac.authorization.k8s.io", "Role"), "Pod_Reader", false, nil},
		{gk("rbac.authorization.k8s.io", "RoleBinding"), "a/b", false, []string{"may not contain '/'"}},
		{gk("rbac.authorization.k8s.io", "ClusterRole"), "..", true, []string{"may not be '..'"}},
		// policy PodDisruptionBudget, certificates CSR: path segment.
		{gk("policy", "PodDisruptionBudget"), "My_PDB", false, nil},
		{gk("policy", "PodDisruptionBudget"), "a%b", false, []string{"may not contain '%'"}},
		{gk("certificates.k8s.io", "CertificateSigningRequest"), "node-csr-AbC:1", false, nil},
		{gk("certificates.k8s.io", "CertificateSigningRequest"), "a/b", false, []string{"may not contain '/'"}},
		// apiregistration APIService: path segment ("v1." is the core
		// group's, which the apiserver itself creates).
		{gk("apiregistration.k8s.io", "APIService"), "v1.", false, nil},
		{gk("apiregistration.k8s.io", "APIService"), "v1beta1.metrics.k8s.io", false, nil},
		{gk("apiregistration.k8s.io", "APIService"), "a/b", false, []string{"may not contain '/'"}},
		// networking IPAddress: canonical IP.
		{gk("networking.k8s.io", "IPAddress"), "2001:db8::1", false, nil},
		{gk("networking.k8s.io", "IPAddress"), "192.168.1.5", false, nil},
		{gk("networking.k8s.io", "IPAddress"), "2001:db8:0:0:0::1", false, []string{`must be in canonical form ("2001:db8::1")`}},
		{gk("networking.k8s.io", "IPAddress"), "10.01.2.3", false, []string{"must not have leading 0s"}},
		{gk("networking.k8s.io", "IPAddress"), "my-ip", false, []string{"must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"}},
		// coordination LeaseCandidate: config map key.
		{gk("coordination.k8s.io", "LeaseCandidate"), "kube-system_Scheduler.1", false, nil},
		{gk("coordination.k8s.io", "LeaseCandidate"), "a b", false, []string{"a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"}},
		{gk("coordination.k8s.io", "Lease"), "Upper", false, []string{msgSubdomain}},
		// apiserverinternal StorageVersion: <group>.<resource>.
		{gk("internal.apiserver.k8s.io", "StorageVersion"), "apps.deployments", false, nil},
		{gk("internal.apiserver.k8s.io", "StorageVersion"), "pods", false, []string{"name must be in the form of <group>.<resource>"}},
		{gk("internal.apiserver.k8s.io", "StorageVersion"), "Apps.deploy_ments", false, []string{"the group segment " + msgSubdomain, "the resource segment " + msgDNS1035}},
	}
	for _, tc := range cases {
		fn := NameValidation(tc.gk)
		if fn == nil {
			fn = metavalidation.NameIsDNSSubdomain // the default
		}
		if got := fn(tc.name, tc.prefix); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v %q (prefix %v):\n got %q\nwant %q", tc.gk, tc.name, tc.prefix, got, tc.want)
		}
	}
}

// TestNameValidationDefault checks that kinds with the DNS-subdomain rule,
// and unknown kinds, get nil.
func TestNameValidationDefault(t *testing.T) {
	for _, gk := range []k8sschema.GroupKind{
		{Kind: "Pod"}, {Kind: "ConfigMap"}, {Kind: "Secret"}, {Kind: "PersistentVolume"},
		{Group: "apps", Kind: "Deployment"}, {Group: "batch", Kind: "Job"},
		{Group: "networking.k8s.io", Kind: "Ingress"}, {Group: "events.k8s.io", Kind: "Event"},
		{Group: "example.com", Kind: "Service"}, {Group: "rbac.authorization.k8s.io", Kind: "Unknown"},
	} {
		if NameValidation(gk) != nil {
			t.Errorf("%v: want the default (nil)", gk)
		}
	}
}

// TestNameRulesKindsExist guards the table against misspelt groups and
// kinds: every entry is a built-in kind of some embedded version.
func TestNameRulesKindsExist(t *testing.T) {
	known := map[k8sschema.GroupKind]bool{}
	for _, minor := range Versions() {
		kinds, err := Kinds(minor)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range kinds {
			known[k8sschema.GroupKind{Group: k.Group, Kind: k.Kind}] = true
		}
	}
	for gk := range nameRules {
		if !known[gk] {
			t.Errorf("%v is not a built-in kind", gk)
		}
	}
}

// TestNameValidationForLongNameKinds: from 1.37 validation-gen decides a
// ReplicationController's and a DeviceClass's name (validate.LongName,
// "bytes" in its message; generateName not checked on its own, only the
// name generated from it); 1.34 still checks them as DNS subdomains.
// Messages as k8s.io/kubernetes prints them (bench's builtin-verdict).
func TestNameValidationForLongNameKinds(t *testing.T) {
	long := strings.Repeat("a", 300)
	for _, gk := range []k8sschema.GroupKind{{Kind: "ReplicationController"}, {Group: "resource.k8s.io", Kind: "DeviceClass"}} {
		f := NameValidationFor(gk, 37)
		if got := f(long, false); len(got) != 1 || got[0] != "must be no more than 253 bytes" {
			t.Errorf("%s 1.37 name: %q", gk, got)
		}
		if got := f(long, true); got != nil {
			t.Errorf("%s 1.37 generateName: %q, want none", gk, got)
		}
		if got := NameValidationFor(gk, 34)(long, false); len(got) != 1 || got[0] != "must be no more than 253 characters" {
			t.Errorf("%s 1.34 name: %q", gk, got)
		}
		// 1.34's ValidateObjectMeta checks generateName with the name rule
		// (k8s.io/kubernetes v1.34.4 rejects generateName "Bad_Prefix-"
		// beside a valid name; v1.35.4 accepts it)
		if got := NameValidationFor(gk, 34)("Bad_Prefix-", true); len(got) != 1 {
			t.Errorf("%s 1.34 generateName Bad_Prefix-: %q, want one message", gk, got)
		}
		if got := NameValidationFor(gk, 35)("Bad_Prefix-", true); got != nil {
			t.Errorf("%s 1.35 generateName: %q, want none", gk, got)
		}
		if got := NameValidationFor(gk, 35)(long, false); len(got) != 1 || got[0] != "must be no more than 253 bytes" {
			t.Errorf("%s 1.35 name: %q", gk, got)
		}
	}
}

// TestMetaValidatedOnUpdateFor: kinds whose strategies re-ran the create
// validation on update in older releases (k8s.io/kubernetes v1.33.13
// ValidateServiceUpdate ends with ValidateService, v1.34.4 does not;
// v1.35.4's NetworkPolicy strategy calls ValidateNetworkPolicy, v1.36.3's
// does not).
func TestMetaValidatedOnUpdateFor(t *testing.T) {
	for _, c := range []struct {
		gk    k8sschema.GroupKind
		minor int
		want  bool
	}{
		{k8sschema.GroupKind{Kind: "Service"}, 33, true},
		{k8sschema.GroupKind{Kind: "Service"}, 34, false},
		{k8sschema.GroupKind{Kind: "Service"}, 0, false},
		{k8sschema.GroupKind{Kind: "ReplicationController"}, 34, true},
		{k8sschema.GroupKind{Kind: "ReplicationController"}, 35, false},
		{k8sschema.GroupKind{Group: "networking.k8s.io", Kind: "NetworkPolicy"}, 35, true},
		{k8sschema.GroupKind{Group: "networking.k8s.io", Kind: "NetworkPolicy"}, 36, false},
		{k8sschema.GroupKind{Kind: "ConfigMap"}, 30, true},
		{k8sschema.GroupKind{Kind: "ConfigMap"}, 0, true},
		{k8sschema.GroupKind{Group: "apps", Kind: "Deployment"}, 30, false},
	} {
		if got := MetaValidatedOnUpdateFor(c.gk, c.minor); got != c.want {
			t.Errorf("MetaValidatedOnUpdateFor(%s, %d) = %v, want %v", c.gk, c.minor, got, c.want)
		}
	}
}
