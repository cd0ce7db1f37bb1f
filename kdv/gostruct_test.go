package kdv_test

import (
	"slices"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"kdv.dev/kdv"
)

// TestGoStructValues checks struct-valued bad values of built-in kinds,
// which the apiserver prints as encoding/json prints its internal Go types
// (Go field names in Go order, every field, embedded structs flattened,
// ObjectMeta with its own json tags). The expected messages are
// bench/cmd/builtin-verdict's (k8s.io/kubernetes v1.37.2) on the same
// objects.
func TestGoStructValues(t *testing.T) {
	v := newValidator(t, kdv.WithBuiltins("1.37"))
	for _, tc := range []struct {
		name, obj, old string
		want           string // one of the messages
	}{
		{
			// a struct held by value (Spec), ObjectMeta flattened, an
			// embedded VolumeSource flattened, lists of structs,
			// Quantities, absent fields as zero values
			name: "Job template immutable",
			old: `
apiVersion: batch/v1
kind: Job
metadata: {name: job, namespace: default}
spec:
  selector: {matchLabels: {app: x}}
  manualSelector: true
  template:
    metadata: {labels: {app: x}, annotations: {a: b}}
    spec:
      restartPolicy: Never
      volumes: [{name: v, emptyDir: {sizeLimit: 1Gi}}]
      containers: [{name: c, image: busybox, imagePullPolicy: IfNotPresent, ports: [{containerPort: 80}], resources: {limits: {cpu: "1"}}}]
`,
			obj: `
apiVersion: batch/v1
kind: Job
metadata: {name: job, namespace: default}
spec:
  selector: {matchLabels: {app: x}}
  manualSelector: true
  template:
    metadata: {labels: {app: x}, annotations: {a: b}}
    spec:
      restartPolicy: Never
      volumes: [{name: v, emptyDir: {sizeLimit: 1Gi}}]
      containers: [{name: c, image: busybox2, imagePullPolicy: IfNotPresent, ports: [{containerPort: 80}], resources: {limits: {cpu: "1"}}}]
`,
			want: `spec.template: Invalid value: {"labels":{"app":"x"},"annotations":{"a":"b"},"Spec":{"Volumes":[{"Name":"v","HostPath":null,"EmptyDir":{"Medium":"","SizeLimit":"1Gi","Mode":null},"GCEPersistentDisk":null,"AWSElasticBlockStore":null,"GitRepo":null,"Secret":null,"NFS":null,"ISCSI":null,"Glusterfs":null,"PersistentVolumeClaim":null,"RBD":null,"FlexVolume":null,"Cinder":null,"CephFS":null,"Flocker":null,"DownwardAPI":null,"FC":null,"AzureFile":null,"ConfigMap":null,"VsphereVolume":null,"Quobyte":null,"AzureDisk":null,"PhotonPersistentDisk":null,"Projected":null,"PortworxVolume":null,"ScaleIO":null,"StorageOS":null,"CSI":null,"Ephemeral":null,"Image":null}],"InitContainers":null,"Containers":[{"Name":"c","Image":"busybox2","Command":null,"Args":null,"WorkingDir":"","Ports":[{"Name":"","HostPort":0,"ContainerPort":80,"Protocol":"TCP","HostIP":""}],"EnvFrom":null,"Env":null,"Resources":{"Limits":{"cpu":"1"},"Requests":null,"Claims":null},"ResizePolicy":null,"RestartPolicy":null,"RestartPolicyRules":null,"VolumeMounts":null,"VolumeDevices":null,"LivenessProbe":null,"ReadinessProbe":null,"StartupProbe":null,"Lifecycle":null,"TerminationMessagePath":"/dev/termination-log","TerminationMessagePolicy":"File","ImagePullPolicy":"IfNotPresent","SecurityContext":null,"Stdin":false,"StdinOnce":false,"TTY":false}],"EphemeralContainers":null,"RestartPolicy":"Never","TerminationGracePeriodSeconds":30,"ActiveDeadlineSeconds":null,"DNSPolicy":"ClusterFirst","NodeSelector":null,"ServiceAccountName":"","DeprecatedServiceAccount":"","AutomountServiceAccountToken":null,"NodeName":"","HostNetwork":false,"HostPID":false,"HostIPC":false,"ShareProcessNamespace":null,"SecurityContext":{"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"SupplementalGroups":null,"SupplementalGroupsPolicy":null,"FSGroup":null,"Sysctls":null,"FSGroupChangePolicy":null,"SeccompProfile":null,"AppArmorProfile":null,"SELinuxChangePolicy":null},"ImagePullSecrets":null,"Hostname":"","Subdomain":"","Affinity":null,"SchedulerName":"default-scheduler","Tolerations":null,"HostAliases":null,"PriorityClassName":"","Priority":null,"DNSConfig":null,"ReadinessGates":null,"RuntimeClassName":null,"EnableServiceLinks":null,"PreemptionPolicy":null,"Overhead":null,"TopologySpreadConstraints":null,"SetHostnameAsFQDN":null,"OS":null,"HostUsers":null,"SchedulingGates":null,"ResourceClaims":null,"Resources":null,"HostnameOverride":null,"SchedulingGroup":null,"EvictionResponders":null}}: field is immutable`,
		},
		{
			// the key struct of validateServicePort's duplicate check
			name: "Service duplicate port",
			obj: `
apiVersion: v1
kind: Service
metadata: {name: s, namespace: default}
spec:
  ports:
  - {port: 80, targetPort: 8080, name: http}
  - {port: 80, targetPort: 8080, name: http}
`,
			want: `spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}`,
		},
		{
			// ". as .localhostProfile": the struct reported at its field
			name: "seccomp localhostProfile without Localhost",
			obj: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  securityContext: {seccompProfile: {type: RuntimeDefault, localhostProfile: a.json}}
  containers: [{name: c, image: busybox, imagePullPolicy: Always}]
`,
			want: `spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"Type":"RuntimeDefault","LocalhostProfile":"a.json"}: can only be set when seccomp type is Localhost`,
		},
		{
			name: "ServiceCIDR with three CIDRs",
			obj: `
apiVersion: networking.k8s.io/v1
kind: ServiceCIDR
metadata: {name: s}
spec:
  cidrs: [10.0.0.0/16, "fd00::/108", 10.1.0.0/16]
`,
			want: `spec.cidrs: Invalid value: {"CIDRs":["10.0.0.0/16","fd00::/108","10.1.0.0/16"]}: may only hold up to 2 values`,
		},
		{
			// ValidateImmutableField of a template's spec
			name: "ResourceClaimTemplate spec immutable",
			old: `
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t, namespace: default}
spec:
  metadata: {labels: {a: b}}
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
`,
			obj: `
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t, namespace: default}
spec:
  metadata: {labels: {a: b}}
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu2.example.com}
`,
			want: `spec: Invalid value: {"labels":{"a":"b"},"Spec":{"Devices":{"Requests":[{"Name":"gpu","Exactly":{"DeviceClassName":"gpu2.example.com","Selectors":null,"AllocationMode":"ExactCount","Count":1,"AdminAccess":null,"Tolerations":null,"Capacity":null,"DerivedAttributes":null},"FirstAvailable":null}],"Constraints":null,"Config":null}}}: field is immutable`,
		},
		{
			name: "ClusterRoleBinding roleRef immutable",
			old: `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: User, name: u, apiGroup: rbac.authorization.k8s.io}]
`,
			obj: `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{kind: User, name: u, apiGroup: rbac.authorization.k8s.io}]
`,
			want: `roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: field is immutable`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := fromYAML(t, tc.obj)
			var got []string
			if tc.old == "" {
				r, err := v.Validate(ctx, obj)
				if err != nil {
					t.Fatal(err)
				}
				got = messages(r)
			} else {
				r, err := v.ValidateUpdate(ctx, obj, fromYAML(t, tc.old))
				if err != nil {
					t.Fatal(err)
				}
				got = messages(r)
			}
			if !slices.Contains(got, tc.want) {
				t.Errorf("got\n%s\nwant among them\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}

func fromYAML(t *testing.T, s string) map[string]any {
	t.Helper()
	// integers as int64, as a client's JSON decodes
	j, err := yaml.YAMLToJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := utiljson.Unmarshal(j, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
