package builtin

import (
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
			{"PodSpec.containers", pod.Properties["containers"]},
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
