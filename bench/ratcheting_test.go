package bench

import (
	"strings"
	"testing"

	"kdv.dev/builtin"
)

// Built-in kinds check an unchanged object again on update, except where
// the hand-written update validation leaves a field alone or loosens a
// check for an old object that already breaks it (x-kubernetes-ratcheting,
// transition rules). Verdicts against k8s.io/kubernetes's strategies on
// the same updates: objects the apiserver itself tolerates must stay
// updatable (a false rejection there blocks every later update of a stored
// object, a label change included), and what it checks again must be
// reported.
func TestBuiltinUpdateRatchetingMatchesApiserver(t *testing.T) {
	const (
		pvc = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  dataSourceRef: {apiGroup: GROUP, kind: VolumeSnapshot, name: s}
`
		pod = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {a: LABEL}}
spec:
  serviceAccountName: default
  containers: [{name: c, image: nginx}]
  volumes:
  - name: t
    projected:
      sources: [{serviceAccountToken: {path: PATH}}]
`
		endpoints = `apiVersion: v1
kind: Endpoints
metadata: {name: e, namespace: default}
subsets:
- addresses: [{ip: 10.0.0.1}]
  ports: [{port: PORT}]
`
		deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: default, labels: {a: LABEL}}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: TEMPLATE}}
    spec:
      containers: [{name: c, image: nginx}]
`
		statefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s, namespace: default, labels: {a: LABEL}}
spec:
  serviceName: s
  selector: {matchLabels: {app: s}}
  template:
    metadata: {labels: {app: s}}
    spec:
      containers: [{name: c, image: nginx, volumeDevices: [{name: DEVICE, devicePath: /dev/raw}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: CLAIM}}]
`
		pdb = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: b, namespace: default}
spec:
  minAvailable: MIN
  selector:
    matchLabels: {app: LABEL}
    matchExpressions: [{key: tier, operator: In, values: [VALUE]}]
`
		netpol = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np, namespace: default}
spec:
  podSelector:
    matchExpressions: [{key: tier, operator: In, values: [OWN]}]
  ingress:
  - from:
    - podSelector:
        matchExpressions: [{key: tier, operator: In, values: [PEER]}]
`
		nodeAffinity = `apiVersion: v1
kind: Pod
metadata: {name: na, namespace: default, labels: {a: LABEL}}
spec:
  containers: [{name: c, image: nginx}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [VALUE]}]}]
`
	)
	with := func(doc string, kv ...string) string { return strings.NewReplacer(kv...).Replace(doc) }
	for _, tc := range []struct {
		name, doc, old string
		rejected       bool
	}{
		// AllowInvalidAPIGroupInDataSourceOrRef
		{"claim: invalid data source group, unchanged", with(pvc, "GROUP", "Snapshot.Storage.K8s.io"), with(pvc, "GROUP", "Snapshot.Storage.K8s.io"), false},
		{"claim: invalid data source group, new", with(pvc, "GROUP", "Snapshot.Storage.K8s.io"), "", true},
		// AllowNonLocalProjectedTokenPath
		{"pod: non-local token path, label changed", with(pod, "PATH", "../token", "LABEL", "two"), with(pod, "PATH", "../token", "LABEL", "one"), false},
		{"pod: non-local token path, new", with(pod, "PATH", "../token", "LABEL", "one"), "", true},
		// ValidateEndpoints: unchanged subsets' errors dropped
		{"endpoints: port 65536, unchanged", with(endpoints, "PORT", "65536"), with(endpoints, "PORT", "65536"), false},
		{"endpoints: port 65536, changed from 80", with(endpoints, "PORT", "65536"), with(endpoints, "PORT", "80"), true},
		// ValidateDeploymentUpdate checks the whole spec again
		{"deployment: selector not matching, label changed", with(deployment, "TEMPLATE", "b", "LABEL", "two"), with(deployment, "TEMPLATE", "b", "LABEL", "one"), true},
		// ValidateStatefulSetUpdate skips the pod template when the old
		// spec has an error (SkipValidatePodTemplateSpec)
		{"statefulset: device names no volume, label changed", with(statefulSet, "DEVICE", "raw", "CLAIM", "c", "LABEL", "two"), with(statefulSet, "DEVICE", "raw", "CLAIM", "c", "LABEL", "one"), false},
		{"statefulset: device names no volume, new", with(statefulSet, "DEVICE", "raw", "CLAIM", "c", "LABEL", "one"), "", true},
		{"statefulset: device names no volume, from valid", with(statefulSet, "DEVICE", "raw", "CLAIM", "c", "LABEL", "one"), with(statefulSet, "DEVICE", "data", "CLAIM", "c", "LABEL", "one"), true},
		{"statefulset: claim name empty, label changed", with(statefulSet, "DEVICE", "data", "CLAIM", "''", "LABEL", "two"), with(statefulSet, "DEVICE", "data", "CLAIM", "''", "LABEL", "one"), false},
		{"statefulset: claim name empty, new", with(statefulSet, "DEVICE", "data", "CLAIM", "''", "LABEL", "one"), "", true},
		// a budget's selector: invalid requirement values are allowed on
		// update when the old selector fails ValidateLabelSelector
		// (AllowInvalidLabelValueInSelector); invalid matchLabels values
		// never are
		{"pdb: invalid requirement value, minAvailable changed", with(pdb, "MIN", "2", "LABEL", "a", "VALUE", "b_"), with(pdb, "MIN", "1", "LABEL", "a", "VALUE", "b_"), false},
		{"pdb: invalid requirement value, new", with(pdb, "MIN", "1", "LABEL", "a", "VALUE", "b_"), "", true},
		{"pdb: invalid requirement value, from valid", with(pdb, "MIN", "1", "LABEL", "a", "VALUE", "b_"), with(pdb, "MIN", "1", "LABEL", "a", "VALUE", "b"), true},
		{"pdb: invalid requirement value, old has another", with(pdb, "MIN", "1", "LABEL", "a", "VALUE", "c_"), with(pdb, "MIN", "1", "LABEL", "a", "VALUE", "b_"), false},
		{"pdb: invalid label value, old invalid too", with(pdb, "MIN", "2", "LABEL", "a_", "VALUE", "b"), with(pdb, "MIN", "1", "LABEL", "a_", "VALUE", "b"), true},
		// a network policy: invalid requirement values anywhere are
		// allowed on update when the old policy's pod selector fails
		// ValidateLabelSelector
		{"netpol: invalid peer value, old pod selector invalid", with(netpol, "OWN", "a_", "PEER", "b_"), with(netpol, "OWN", "a_", "PEER", "b"), false},
		{"netpol: invalid peer value, old pod selector valid", with(netpol, "OWN", "a", "PEER", "b_"), with(netpol, "OWN", "a", "PEER", "b"), true},
		{"netpol: invalid values, new", with(netpol, "OWN", "a_", "PEER", "b_"), "", true},
		{"netpol: pod selector made invalid", with(netpol, "OWN", "a_", "PEER", "b"), with(netpol, "OWN", "a", "PEER", "b"), true},
		// AllowInvalidLabelValueInRequiredNodeAffinity
		{"pod: invalid required node affinity value, label changed", with(nodeAffinity, "VALUE", "a_", "LABEL", "two"), with(nodeAffinity, "VALUE", "a_", "LABEL", "one"), false},
		{"pod: invalid required node affinity value, new", with(nodeAffinity, "VALUE", "a_", "LABEL", "one"), "", true},
		{"deployment: valid, label changed", with(deployment, "TEMPLATE", "a", "LABEL", "two"), with(deployment, "TEMPLATE", "a", "LABEL", "one"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, want := referenceErrors(t, tc.doc, tc.old)
			got, warnings := kdvGatedErrors(t, tc.doc, tc.old, builtin.FeatureGates{})
			if ref.Rejected() != tc.rejected || (len(got) > 0) != tc.rejected {
				t.Errorf("want rejected %v\nreference: %q\nkdv:       %q (warnings %q)", tc.rejected, want, got, warnings)
			}
		})
	}
}
