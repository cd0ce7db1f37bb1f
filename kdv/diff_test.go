package kdv_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"kdv.dev/kdv"
)

// TestUpdateDiffs checks the messages of the hand-written update checks
// that end with diff.Diff of the old and new internal values (the rules'
// x-kubernetes-diff): the unified diff of the indented JSON of the
// defaulted internal structs, after the fields an update may change are
// copied across. The expected messages are bench/cmd/builtin-verdict's
// (k8s.io/kubernetes v1.37.2) with -old on the same objects.
func TestUpdateDiffs(t *testing.T) {
	v := newValidator(t, kdv.WithBuiltins("1.37"))
	ctx := context.Background()
	for _, tc := range []struct {
		name, obj, old string
		want           string // one of the messages
	}{
		{
			name: "Pod update: the diff of the specs, updatable fields (image, activeDeadlineSeconds, tolerations) taken from the old pod",
			old: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  restartPolicy: Never
  tolerations: [{key: k, operator: Exists}]
  containers:
  - name: c
    image: nginx:1.2
    imagePullPolicy: IfNotPresent
    command: [a, b]
    resources: {limits: {cpu: 500m}, requests: {cpu: 500m, memory: 1Gi}}
`,
			obj: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  restartPolicy: Always
  activeDeadlineSeconds: 30
  tolerations: [{key: k, operator: Exists}, {key: j, operator: Exists}]
  containers:
  - name: c
    image: nginx:1.3
    imagePullPolicy: IfNotPresent
    command: [a, c]
    resources: {limits: {cpu: 500m}, requests: {cpu: 500m, memory: 1Gi}}
`,
			want: "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n@@ -7,7 +7,7 @@\n    \"Image\": \"nginx:1.2\",\n    \"Command\": [\n     \"a\",\n-    \"b\"\n+    \"c\"\n    ],\n    \"Args\": null,\n    \"WorkingDir\": \"\",\n@@ -43,7 +43,7 @@\n   }\n  ],\n  \"EphemeralContainers\": null,\n- \"RestartPolicy\": \"Never\",\n+ \"RestartPolicy\": \"Always\",\n  \"TerminationGracePeriodSeconds\": 30,\n  \"ActiveDeadlineSeconds\": null,\n  \"DNSPolicy\": \"ClusterFirst\",\n",
		},
		{
			name: "PVC update: an empty volumeName takes the new one before the diff",
			old: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`,
			obj: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec:
  accessModes: [ReadWriteMany]
  volumeName: pv1
  resources: {requests: {storage: 1Gi}}
`,
			want: "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n@@ -1,6 +1,6 @@\n {\n  \"AccessModes\": [\n-  \"ReadWriteOnce\"\n+  \"ReadWriteMany\"\n  ],\n  \"Selector\": null,\n  \"Resources\": {\n",
		},
		{
			name: "PV update: the diff of the PersistentVolumeSource fields only",
			old: `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  nfs: {server: nfs.example.com, path: /a}
`,
			obj: `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  nfs: {server: nfs.example.com, path: /b, readOnly: true}
`,
			want: "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n@@ -5,8 +5,8 @@\n  \"Glusterfs\": null,\n  \"NFS\": {\n   \"Server\": \"nfs.example.com\",\n-  \"Path\": \"/a\",\n-  \"ReadOnly\": false\n+  \"Path\": \"/b\",\n+  \"ReadOnly\": true\n  },\n  \"RBD\": null,\n  \"ISCSI\": null,\n",
		},
		{
			name: "gated pod: nodeSelector and nodeAffinity, and terminationGracePeriodSeconds 1 from negative, taken from the old pod",
			old: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  schedulingGates: [{name: g}]
  terminationGracePeriodSeconds: -1
  containers:
  - {name: c, image: nginx:1.2, imagePullPolicy: IfNotPresent, command: [a]}
`,
			obj: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  schedulingGates: [{name: g}]
  terminationGracePeriodSeconds: 1
  nodeSelector: {a: b}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: k, operator: In, values: [v]}]}]
  containers:
  - {name: c, image: nginx:1.2, imagePullPolicy: IfNotPresent, command: [b]}
`,
			want: "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n@@ -6,7 +6,7 @@\n    \"Name\": \"c\",\n    \"Image\": \"nginx:1.2\",\n    \"Command\": [\n-    \"a\"\n+    \"b\"\n    ],\n    \"Args\": null,\n    \"WorkingDir\": \"\",\n",
		},
		{
			name: "PVC update: a storageClassName set from nil is the old one (nil)",
			old: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`,
			obj: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec:
  accessModes: [ReadWriteMany]
  storageClassName: fast
  resources: {requests: {storage: 2Gi}}
`,
			want: "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n@@ -1,12 +1,12 @@\n {\n  \"AccessModes\": [\n-  \"ReadWriteOnce\"\n+  \"ReadWriteMany\"\n  ],\n  \"Selector\": null,\n  \"Resources\": {\n   \"Limits\": null,\n   \"Requests\": {\n-   \"storage\": \"1Gi\"\n+   \"storage\": \"2Gi\"\n   }\n  },\n  \"VolumeName\": \"\",\n",
		},
		{
			name: "PV update: a controllerExpandSecretRef added to a CSI source is left out",
			old: `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: d.example.com, volumeHandle: h}
`,
			obj: `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: d.example.com, volumeHandle: h2, controllerExpandSecretRef: {name: s, namespace: ns}}
`,
			want: "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n@@ -22,7 +22,7 @@\n  \"StorageOS\": null,\n  \"CSI\": {\n   \"Driver\": \"d.example.com\",\n-  \"VolumeHandle\": \"h\",\n+  \"VolumeHandle\": \"h2\",\n   \"ReadOnly\": false,\n   \"FSType\": \"\",\n   \"VolumeAttributes\": null,\n",
		},
		{
			// builtin-verdict stores the old object as a create, which
			// drops its status: this message follows ValidatePersistentVolumeClaimUpdate
			// (newPvc.Status is the stored one, PrepareForUpdate)
			name: "bound PVC update: the storage request is the old one",
			old: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
status: {phase: Bound}
`,
			obj: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec:
  accessModes: [ReadWriteMany]
  storageClassName: fast
  resources: {requests: {storage: 2Gi}}
`,
			want: "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n@@ -1,6 +1,6 @@\n {\n  \"AccessModes\": [\n-  \"ReadWriteOnce\"\n+  \"ReadWriteMany\"\n  ],\n  \"Selector\": null,\n  \"Resources\": {\n",
		},
		{
			name: "Pod update: serviceAccount follows serviceAccountName (SetDefaults_PodSpec)",
			old: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  serviceAccountName: builder
  containers:
  - {name: c, image: nginx:1.2, imagePullPolicy: IfNotPresent}
`,
			obj: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  serviceAccountName: other
  containers:
  - {name: c, image: nginx:1.2, imagePullPolicy: IfNotPresent}
`,
			want: "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n@@ -40,8 +40,8 @@\n  \"ActiveDeadlineSeconds\": null,\n  \"DNSPolicy\": \"ClusterFirst\",\n  \"NodeSelector\": null,\n- \"ServiceAccountName\": \"builder\",\n- \"DeprecatedServiceAccount\": \"builder\",\n+ \"ServiceAccountName\": \"other\",\n+ \"DeprecatedServiceAccount\": \"other\",\n  \"AutomountServiceAccountToken\": null,\n  \"NodeName\": \"\",\n  \"HostNetwork\": false,\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := fromYAML(t, tc.old)
			r, err := v.ValidateUpdate(ctx, fromYAML(t, tc.obj), old)
			if err != nil {
				t.Fatal(err)
			}
			if got := messages(r); !slices.Contains(got, tc.want) {
				t.Errorf("got\n%s\nwant among them\n%s", strings.Join(got, "\n"), tc.want)
			}
			// an unchanged update has no error, hence no diff
			r, err = v.ValidateUpdate(ctx, fromYAML(t, tc.old), old)
			if err != nil {
				t.Fatal(err)
			}
			if got := messages(r); len(got) > 0 {
				t.Errorf("unchanged update: %q", got)
			}
		})
	}
}

// serviceAccount is an alias of serviceAccountName (SetDefaults_PodSpec):
// a Pod giving only the alias has its serviceAccountName checked.
func TestServiceAccountAlias(t *testing.T) {
	v := newValidator(t, kdv.WithBuiltins("1.37"))
	r, err := v.Validate(context.Background(), fromYAML(t, `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  serviceAccount: Bad_Name
  containers:
  - {name: c, image: nginx:1.2, imagePullPolicy: IfNotPresent}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := `spec.serviceAccountName: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	if got := messages(r); !slices.Equal(got, []string{want}) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A Pod update that changes only the alias serviceAccount, with
// serviceAccountName set, is accepted: SetDefaults_PodSpec overwrites the
// alias with serviceAccountName, so the specs compare equal (checked with
// k8s.io/kubernetes v1.37.2's update validation).
func TestServiceAccountAliasUpdate(t *testing.T) {
	v := newValidator(t, kdv.WithBuiltins("1.37"))
	pod := func(alias string) string {
		return `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  serviceAccountName: a
  serviceAccount: ` + alias + `
  containers:
  - {name: c, image: nginx:1.2, imagePullPolicy: IfNotPresent}
`
	}
	r, err := v.ValidateUpdate(context.Background(), fromYAML(t, pod("b")), fromYAML(t, pod("a")))
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(r); len(got) > 0 {
		t.Errorf("got %q, want the update accepted", got)
	}
}
