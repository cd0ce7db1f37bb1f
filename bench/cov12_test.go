package bench

import (
	"strings"
	"testing"
)

// cov12Case is a document (an update of Old when Old is set) that reaches
// one hand-written error site of issue 12 declared after the coverage
// table listed it as coarser or lacking a mechanism. Site is a part of the
// site's message the reference must report, so that the case exercises
// it; the full error strings of kdv and the reference must be equal (in
// any order: kdv checks list keys in a pass of their own).
type cov12Case struct {
	Name, Doc, Old string
	Site           string // "" for a case the reference accepts
	// Differs, when set, says why kdv's messages differ from the
	// reference's on this case (a known corner): only the verdicts are
	// compared.
	Differs string
}

// cov12Devices is a Pod whose container uses two claims as block devices;
// the cases replace DEVICES.
const cov12Devices = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  volumes:
  - {name: a, persistentVolumeClaim: {claimName: ca}}
  - {name: b, persistentVolumeClaim: {claimName: cb}}
  - {name: c, persistentVolumeClaim: {claimName: cc}}
  containers:
  - name: c
    image: nginx
    volumeDevices: DEVICES
`

// cov12Ephemeral is a Pod named NAME with an ephemeral volume named VOL
// (and a source set before ephemeral when EXTRA says so).
const cov12Ephemeral = `apiVersion: v1
kind: Pod
metadata: {name: NAME, namespace: default}
spec:
  volumes:
  - name: VOL
    EXTRA
    ephemeral:
      volumeClaimTemplate:
        spec:
          accessModes: [ReadWriteOnce]
          resources: {requests: {storage: 1Gi}}
  containers:
  - name: c
    image: nginx
`

func cov12WithEphemeral(name, vol, extra string) string {
	if extra == "" {
		extra = "csi: null"
	}
	return strings.NewReplacer("NAME", name, "VOL", vol, "EXTRA", extra).Replace(cov12Ephemeral)
}

func cov12WithDevices(devices string) string {
	return strings.Replace(cov12Devices, "DEVICES", devices, 1)
}

// cov12Pod is a Pod as a stored object: the fields the update cases
// change are set explicitly.
const cov12Pod = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  restartPolicy: Never
  tolerations: [{key: k, operator: Exists}]
  containers:
  - name: c
    image: nginx:1.2
    command: [a, b]
    resources: {limits: {cpu: 500m}, requests: {cpu: 500m, memory: 1Gi}}
`

// cov12PV and cov12PVC are stored PersistentVolumes and claims whose
// update cases are of issue 13's scope: their sites were declared by the
// same fix of the coverage matcher (a rule's x-kubernetes-diff).
const cov12PV = `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  nfs: {server: nfs.example.com, path: /a}
`

const cov12PVC = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`

var cov12Cases = []cov12Case{
	// validateVolumeSource: an ephemeral volume's PVC name
	// <pod name>-<volume name> (core_v1_cov12.tags)
	{
		Name: "ephemeral volume: PVC name too long",
		Doc:  cov12WithEphemeral(strings.Repeat("a", 250), "data", ""),
		Site: "must be no more than 253 characters",
	},
	{
		Name: "ephemeral volume: PVC name too long and not a subdomain",
		Doc:  cov12WithEphemeral(strings.Repeat("a", 250), "Data", ""),
		Site: "a lowercase RFC 1123 subdomain",
	},
	{
		Name: "ephemeral volume: PVC name not a subdomain",
		Doc:  cov12WithEphemeral("p", "Data", ""),
		Site: "PVC name",
	},
	{
		Name: "ephemeral volume: another source first (reported as such)",
		Doc:  cov12WithEphemeral(strings.Repeat("a", 250), "data", "emptyDir: {}"),
		Site: "may not specify more than 1 volume type",
	},
	{
		Name: "ephemeral volume: a valid PVC name (accepted)",
		Doc:  cov12WithEphemeral(strings.Repeat("a", 240), "data", ""),
	},
	// ValidateVolumeDevices: device paths unique within a container, at
	// volumeDevices[i].devicePath (a second unique key of the list,
	// core_v1_cov12.tags)
	{
		Name: "volumeDevices: a repeated device path",
		Doc:  cov12WithDevices("[{name: a, devicePath: /dev/x}, {name: b, devicePath: /dev/x}, {name: c, devicePath: /dev/x}]"),
		Site: "devicePath: Invalid value: \"/dev/x\": must be unique",
	},
	{
		Name: "volumeDevices: a repeated name and device path",
		Doc:  cov12WithDevices("[{name: a, devicePath: /dev/x}, {name: b, devicePath: /dev/y}, {name: a, devicePath: /dev/y}]"),
		Site: "devicePath: Invalid value: \"/dev/y\": must be unique",
	},
	{
		Name: "volumeDevices: distinct device paths (accepted)",
		Doc:  cov12WithDevices("[{name: a, devicePath: /dev/x}, {name: b, devicePath: /dev/y}]"),
	},
	{
		Name:    "volumeDevices: a repeated device path with a '..' element",
		Doc:     cov12WithDevices("[{name: a, devicePath: /dev/../x}, {name: b, devicePath: /dev/../x}]"),
		Site:    "can not contain backsteps",
		Differs: "the apiserver leaves a path with '..' out of its set of paths seen; kdv's unique key also reports the repeat",
	},
	{
		Name:    "volumeDevices: two devices without a path",
		Doc:     cov12WithDevices("[{name: a}, {name: b}]"),
		Site:    "devicePath: Required value",
		Differs: "the apiserver also reports the second empty path as not unique; a unique key skips empty values",
	},
	{
		Name: "Deployment: a repeated device path in the template",
		Doc: `apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: default}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      volumes:
      - {name: a, persistentVolumeClaim: {claimName: ca}}
      - {name: b, persistentVolumeClaim: {claimName: cb}}
      initContainers:
      - {name: i, image: busybox, volumeDevices: [{name: a, devicePath: /dev/x}, {name: b, devicePath: /dev/x}]}
      containers:
      - {name: c, image: nginx, volumeDevices: [{name: a, devicePath: /dev/x}, {name: b, devicePath: /dev/y}]}
`,
		Site: "spec.template.spec.initContainers[0].volumeDevices[1].devicePath: Invalid value: \"/dev/x\": must be unique",
	},
	// ValidatePodUpdate: "pod updates may not change fields other than
	// ...\n<diff.Diff of the specs>" (core_v1_podupdate.tags)
	{
		Name: "Pod update: command changed",
		Old:  cov12Pod,
		Doc:  strings.Replace(cov12Pod, "command: [a, b]", "command: [a, c]", 1),
		Site: "pod updates may not change fields other than",
	},
	{
		Name: "Pod update: image (updatable) and restartPolicy changed",
		Old:  cov12Pod,
		Doc:  strings.Replace(strings.Replace(cov12Pod, "nginx:1.2", "nginx:1.3", 1), "restartPolicy: Never", "restartPolicy: OnFailure", 1),
		Site: "pod updates may not change fields other than",
	},
	{
		Name: "Pod update: a toleration added, a request changed",
		Old:  cov12Pod,
		Doc:  strings.Replace(strings.Replace(cov12Pod, "tolerations: [{key: k, operator: Exists}]", "tolerations: [{key: k, operator: Exists}, {key: l, operator: Exists}]", 1), "memory: 1Gi", "memory: 2Gi", 1),
		Site: "pod updates may not change fields other than",
	},
	{
		Name: "Pod update: image and activeDeadlineSeconds only (accepted)",
		Old:  cov12Pod,
		Doc:  strings.Replace(cov12Pod, "nginx:1.2", "nginx:1.3", 1) + "  activeDeadlineSeconds: 30\n",
	},
	// ValidatePersistentVolumeUpdate, ValidatePersistentVolumeClaimUpdate:
	// "... is immutable after creation ...\n<diff.Diff>" (core_v1_storage.tags)
	{
		Name: "PV update: the NFS source changed",
		Old:  cov12PV,
		Doc:  strings.Replace(cov12PV, "path: /a}", "path: /b, readOnly: true}", 1),
		Site: "spec.persistentvolumesource is immutable after creation",
	},
	{
		Name: "PVC update: access modes changed",
		Old:  cov12PVC,
		Doc:  strings.Replace(cov12PVC, "[ReadWriteOnce]", "[ReadWriteMany]", 1),
		Site: "spec is immutable after creation except",
	},
}

// TestCov12MatchesApiserver compares kdv's full error strings with the
// reference's on the cases of the sites declared for issue 12.
func TestCov12MatchesApiserver(t *testing.T) {
	for _, c := range cov12Cases {
		t.Run(c.Name, func(t *testing.T) {
			var old []byte
			if c.Old != "" {
				old = []byte(c.Old)
			}
			ref, err := refBuiltin([]byte(c.Doc), old)
			if err != nil {
				t.Fatalf("reference: %v", err)
			}
			if c.Site == "" && ref.Rejected {
				t.Fatalf("the reference rejects the case: %s", ref)
			}
			if c.Site != "" && !strings.Contains(strings.Join(ref.Messages, "\n"), c.Site) {
				t.Fatalf("the reference does not report %q: %s", c.Site, ref)
			}
			got, err := kdvBuiltin([]byte(c.Doc), old)
			if err != nil {
				t.Fatalf("kdv: %v", err)
			}
			if got.Rejected && !ref.Rejected {
				t.Fatalf("false rejection: kdv %s", got)
			}
			if got.Rejected != ref.Rejected {
				t.Fatalf("kdv %s; reference %s", got, ref)
			}
			if c.Differs != "" {
				t.Logf("known difference (%s):\nkdv:\n%s\nreference:\n%s", c.Differs, strings.Join(got.Messages, "\n"), strings.Join(ref.Messages, "\n"))
				return
			}
			if !sameMessages(got.Messages, ref.Messages) {
				t.Errorf("kdv:\n%s\nreference:\n%s", strings.Join(got.Messages, "\n"), strings.Join(ref.Messages, "\n"))
			}
		})
	}
}
