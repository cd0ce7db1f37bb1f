package bench

import (
	"strings"
	"testing"
)

// cov12Case is a document (an update of Old when Old is set) that reaches
// one hand-written error site of issue 12 declared after the coverage
// table listed it as coarser or lacking a mechanism. Site is a part of the
// site's message the reference must report, so that the case exercises
// it; the full error strings of kdv and the reference must be equal.
type cov12Case struct {
	Name, Doc, Old string
	Site           string // "" for a case the reference accepts
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
			if !equalStrings(got.Messages, ref.Messages) {
				t.Errorf("kdv:\n%s\nreference:\n%s", strings.Join(got.Messages, "\n"), strings.Join(ref.Messages, "\n"))
			}
		})
	}
}
