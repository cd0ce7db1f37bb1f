package builtin

import (
	"strings"
	"testing"

	"kdv.dev/schema"
)

// The built-in schemas say which zero values Go decoding makes unset
// (x-kubernetes-strip-zero on optional non-pointer fields) and which list
// types are merge metadata only (x-kubernetes-list-unique: false), in every
// embedded version. Sources: the Go types of k8s.io/api (omitempty,
// pointers) and validation-gen's +k8s:listType tags.
func TestStripZeroAndListUnique(t *testing.T) {
	for _, minor := range Versions() {
		s, err := Lookup(minor, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
		if err != nil {
			t.Fatal(err)
		}
		spec := s.Properties["spec"]
		pod := spec.Properties["template"].Properties["spec"]
		ctr := pod.Properties["containers"].Items
		for _, tc := range []struct {
			name string
			node schema.Structural
			want bool
		}{
			{"Container.imagePullPolicy (string, omitempty)", ctr.Properties["imagePullPolicy"], true},
			{"Container.terminationMessagePolicy", ctr.Properties["terminationMessagePolicy"], true},
			{"ContainerPort.protocol", ctr.Properties["ports"].Items.Properties["protocol"], true},
			{"PodSpec.dnsPolicy", pod.Properties["dnsPolicy"], true},
			{"PodSpec.restartPolicy", pod.Properties["restartPolicy"], true},
			{"PodSpec.nodeSelector (map)", pod.Properties["nodeSelector"], true},
			{"Container.args (slice)", ctr.Properties["args"], true},
			{"DeploymentSpec.paused (bool)", spec.Properties["paused"], true},
			{"DeploymentSpec.minReadySeconds (int32)", spec.Properties["minReadySeconds"], true},
			// required: whether zero is allowed is hand-written
			{"Container.name (required)", ctr.Properties["name"], false},
			{"PodSpec.containers (required)", pod.Properties["containers"], false},
			{"ContainerPort.containerPort (required)", ctr.Properties["ports"].Items.Properties["containerPort"], false},
			// pointers: null and absent are the same, zero is a value
			{"DeploymentSpec.replicas (*int32)", spec.Properties["replicas"], false},
			{"PodSpec.automountServiceAccountToken (*bool)", pod.Properties["automountServiceAccountToken"], false},
			// structs and well-known types
			{"PodSpec.securityContext (*struct)", pod.Properties["securityContext"], false},
			{"DeploymentSpec.strategy (struct)", spec.Properties["strategy"], false},
		} {
			if tc.node.XStripZero != tc.want {
				t.Errorf("1.%d %s: x-kubernetes-strip-zero %v, want %v", minor, tc.name, tc.node.XStripZero, tc.want)
			}
		}
		for _, tc := range []struct {
			name string
			node schema.Structural
		}{
			{"Container.env", ctr.Properties["env"]},
			{"Container.ports", ctr.Properties["ports"]},
			{"PodSpec.imagePullSecrets", pod.Properties["imagePullSecrets"]},
			{"PodSpec.hostAliases", pod.Properties["hostAliases"]},
		} {
			if tc.node.XListType == nil || *tc.node.XListType != "map" || tc.node.XListUnique == nil || *tc.node.XListUnique {
				t.Errorf("1.%d %s: list type %v, unique %v; want map, false", minor, tc.name, tc.node.XListType, tc.node.XListUnique)
			}
		}
	}
	// Lists whose names the hand-written validation keeps unique are
	// declared so in the overlay (+uniqueKey): merge-only map lists with
	// x-kubernetes-unique-key.
	for _, minor := range Versions() {
		s, err := Lookup(minor, schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
		if err != nil {
			t.Fatal(err)
		}
		spec := s.Properties["spec"]
		for _, tc := range []struct {
			node schema.Structural
			name string
			key  string
		}{
			{spec.Properties["containers"], "PodSpec.containers", "name"},
			{spec.Properties["initContainers"], "PodSpec.initContainers", "name"},
			{spec.Properties["volumes"], "PodSpec.volumes", "name"},
			{spec.Properties["containers"].Items.Properties["ports"], "Container.ports", "name"},
			{spec.Properties["containers"].Items.Properties["volumeMounts"], "Container.volumeMounts", "mountPath"},
		} {
			p := tc.node
			if p.XListType == nil || *p.XListType != "map" || p.XListUnique == nil || *p.XListUnique || p.XUniqueKey != tc.key {
				t.Errorf("1.%d %s: list type %v, unique %v, unique key %q; want map, merge-only, %q", minor, tc.name, p.XListType, p.XListUnique, p.XUniqueKey, tc.key)
			}
		}
	}
	// A list whose uniqueness validation-gen enforces (+k8s:listType=map,
	// not lifecycle-wrapped) keeps the default: enforced.
	s, err := Lookup(37, schema.GroupVersionKind{Group: "scheduling.k8s.io", Version: "v1alpha3", Kind: "PodGroup"})
	if err != nil {
		t.Fatal(err)
	}
	rc := s.Properties["spec"].Properties["resourceClaims"]
	if rc.XListType == nil || *rc.XListType != "map" || rc.XListUnique != nil {
		t.Errorf("PodGroupSpec.resourceClaims: list type %v, unique %v; want map, enforced", rc.XListType, rc.XListUnique)
	}
}

// Enum values are unique: k8s.io/api declares some twice (a deprecated
// constant beside its replacement), and JSON Schema tools reject repeated
// enum values.
func TestEnumValuesUnique(t *testing.T) {
	s, err := Lookup(37, schema.GroupVersionKind{Version: "v1", Kind: "Service"})
	if err != nil {
		t.Fatal(err)
	}
	p := s.Properties["spec"].Properties["externalTrafficPolicy"]
	seen := map[any]bool{}
	for _, e := range p.ValueValidation.Enum {
		if seen[e.Object] {
			t.Errorf("externalTrafficPolicy: %v repeated in %v", e.Object, p.ValueValidation.Enum)
		}
		seen[e.Object] = true
	}
	if len(seen) != 2 {
		t.Errorf("externalTrafficPolicy enum: %v", p.ValueValidation.Enum)
	}
}

// GoType names Go types as the apiserver's decoder does in its errors.
func TestGoType(t *testing.T) {
	pod := schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	for _, tc := range []struct {
		steps    []string
		typ      string
		embedded []string
	}{
		{[]string{"spec", "containers"}, "[]v1.Container", nil},
		{[]string{"spec", "containers", Items}, "v1.Container", nil},
		{[]string{"spec", "containers", Items, "imagePullPolicy"}, "v1.PullPolicy", nil},
		{[]string{"spec", "containers", Items, "resources", "limits"}, "v1.ResourceList", nil},
		{[]string{"spec", "containers", Items, "resources", "limits", Values}, "resource.Quantity", nil},
		{[]string{"spec", "volumes", Items, "configMap"}, "v1.ConfigMapVolumeSource", []string{"VolumeSource"}},
		{[]string{"spec", "containers", Items, "livenessProbe", "httpGet"}, "v1.HTTPGetAction", []string{"ProbeHandler"}},
		{[]string{"spec", "replicas"}, "", nil},
	} {
		typ, embedded, ok := GoType(37, pod, tc.steps)
		if typ != tc.typ || strings.Join(embedded, ".") != strings.Join(tc.embedded, ".") || ok != (tc.typ != "") {
			t.Errorf("%v: %q %v %v, want %q %v", tc.steps, typ, embedded, ok, tc.typ, tc.embedded)
		}
	}
}

// The overlay's +keepZero keeps a field's zero value where the
// hand-written validation tells it from a missing field: a device
// attribute's empty list is "must not be empty if specified" (feature
// gate DRAListTypeAttributes, from 1.36), and validation-gen's union of
// DeviceAttribute counts such a list only when it is not empty.
func TestKeepZero(t *testing.T) {
	for _, minor := range Versions() {
		if minor < 37 {
			continue
		}
		s, err := Lookup(minor, schema.GroupVersionKind{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceSlice"})
		if err != nil {
			t.Fatal(err)
		}
		attr := s.Properties["spec"].Properties["devices"].Items.Properties["attributes"].AdditionalProperties.Structural
		for _, f := range []string{"bools", "ints", "strings", "versions"} {
			if attr.Properties[f].XStripZero {
				t.Errorf("1.%d DeviceAttribute.%s: x-kubernetes-strip-zero, want the empty list kept", minor, f)
			}
		}
		union := false
		for _, r := range attr.XValidations {
			if strings.Contains(r.Rule, "(has(self.bools) && size(self.bools) > 0 ?1:0)") {
				union = true
			}
		}
		if !union {
			t.Errorf("1.%d DeviceAttribute: no union rule counting a non-empty bools", minor)
		}
	}
}
