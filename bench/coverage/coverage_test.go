package coverage

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kdv.dev/builtin/overlay"
)

// scope is issue 12's: Pods and workloads (core Pod, PodTemplate,
// ReplicationController and what a PodSpec reaches; apps; batch).
var scope = Scope{
	Packages: []string{"pkg/apis/core/validation", "pkg/apis/apps/validation", "pkg/apis/batch/validation"},
	Roots: []string{
		"pkg/apis/core/validation.ValidatePodCreate", "pkg/apis/core/validation.ValidatePodUpdate",
		"pkg/apis/core/validation.ValidatePodTemplate", "pkg/apis/core/validation.ValidatePodTemplateUpdate",
		"pkg/apis/core/validation.ValidateReplicationController", "pkg/apis/core/validation.ValidateReplicationControllerUpdate",
		"pkg/apis/apps/validation.ValidateDeployment", "pkg/apis/apps/validation.ValidateDeploymentUpdate",
		"pkg/apis/apps/validation.ValidateReplicaSet", "pkg/apis/apps/validation.ValidateReplicaSetUpdate",
		"pkg/apis/apps/validation.ValidateDaemonSet", "pkg/apis/apps/validation.ValidateDaemonSetUpdate",
		"pkg/apis/apps/validation.ValidateStatefulSet", "pkg/apis/apps/validation.ValidateStatefulSetUpdate",
		"pkg/apis/apps/validation.ValidateControllerRevisionCreate", "pkg/apis/apps/validation.ValidateControllerRevisionUpdate",
		"pkg/apis/batch/validation.ValidateJob", "pkg/apis/batch/validation.ValidateJobUpdate",
		"pkg/apis/batch/validation.ValidateCronJobCreate", "pkg/apis/batch/validation.ValidateCronJobUpdate",
	},
}

// kubernetesDir is the k8s.io/kubernetes module directory of the bench
// module's build list, and its version.
func kubernetesDir(t *testing.T) (dir, version string) {
	return moduleDir(t, "k8s.io/kubernetes")
}

// moduleDir returns the directory and version of a module bench requires.
func moduleDir(t *testing.T, module string) (dir, version string) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", module).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", module, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 || f[0] == "" {
		t.Fatalf("go list -m %s: %q (module not downloaded?)", module, out)
	}
	return f[0], f[1]
}

const tableFile = "../COVERAGE.md"

// TestCoverageTable regenerates the coverage table of issue 12 and fails
// when the committed bench/COVERAGE.md differs (KDV_COVERAGE=write
// rewrites it): the table stays true as rules are added.
func TestCoverageTable(t *testing.T) {
	checkTable(t, scope, tableFile, header, 300)
}

// otherScope is issue 13's: every other kind a default kube-apiserver
// serves. Its packages are scanned whole (every function is an entry
// point), except core's, whose other kinds' entry points are listed. The
// reviews of authentication and authorization (never stored),
// apiserverinternal's StorageVersion and lifecycle (not served by default)
// are out of scope; storagemigration is served from 1.37. apiregistration's APIService is
// validated in k8s.io/kube-aggregator, scanned from its module directory.
var otherScope = Scope{
	Packages: []string{
		aggregatorValidation,
		"pkg/apis/core/validation", "pkg/apis/admissionregistration/validation",
		"pkg/apis/autoscaling/validation", "pkg/apis/certificates/validation",
		"pkg/apis/coordination/validation", "pkg/apis/discovery/validation",
		"pkg/apis/flowcontrol/validation", "pkg/apis/networking/validation",
		"pkg/apis/node/validation", "pkg/apis/policy/validation",
		"pkg/apis/rbac/validation", "pkg/apis/resource/validation",
		"pkg/apis/scheduling/validation", "pkg/apis/storage/validation",
		"pkg/apis/storagemigration/validation",
	},
	Whole: []string{
		aggregatorValidation,
		"pkg/apis/admissionregistration/validation",
		"pkg/apis/autoscaling/validation", "pkg/apis/certificates/validation",
		"pkg/apis/coordination/validation", "pkg/apis/discovery/validation",
		"pkg/apis/flowcontrol/validation", "pkg/apis/networking/validation",
		"pkg/apis/node/validation", "pkg/apis/policy/validation",
		"pkg/apis/rbac/validation", "pkg/apis/resource/validation",
		"pkg/apis/scheduling/validation", "pkg/apis/storage/validation",
		"pkg/apis/storagemigration/validation",
	},
	Roots: []string{
		"pkg/apis/core/validation.ValidateServiceCreate", "pkg/apis/core/validation.ValidateServiceUpdate",
		"pkg/apis/core/validation.ValidateEndpointsCreate", "pkg/apis/core/validation.ValidateEndpointsUpdate",
		"pkg/apis/core/validation.ValidateConfigMap", "pkg/apis/core/validation.ValidateConfigMapUpdate",
		"pkg/apis/core/validation.ValidateSecret", "pkg/apis/core/validation.ValidateSecretUpdate",
		"pkg/apis/core/validation.ValidateServiceAccount", "pkg/apis/core/validation.ValidateServiceAccountUpdate",
		"pkg/apis/core/validation.ValidateNamespace", "pkg/apis/core/validation.ValidateNamespaceUpdate",
		"pkg/apis/core/validation.ValidateNode", "pkg/apis/core/validation.ValidateNodeUpdate",
		"pkg/apis/core/validation.ValidatePersistentVolume", "pkg/apis/core/validation.ValidatePersistentVolumeUpdate",
		"pkg/apis/core/validation.ValidatePersistentVolumeClaim", "pkg/apis/core/validation.ValidatePersistentVolumeClaimUpdate",
		"pkg/apis/core/validation.ValidateLimitRange", "pkg/apis/core/validation.ValidateLimitRangeUpdate",
		"pkg/apis/core/validation.ValidateResourceQuota", "pkg/apis/core/validation.ValidateResourceQuotaUpdate",
		"pkg/apis/core/validation.ValidateEventCreate", "pkg/apis/core/validation.ValidateEventUpdate",
	},
}

const otherTableFile = "../COVERAGE-OTHER.md"

// aggregatorValidation is the package of APIService's validation.
const aggregatorValidation = "k8s.io/kube-aggregator/pkg/apis/apiregistration/validation"

// TestCoverageTableOtherKinds is TestCoverageTable for issue 13's scope
// (bench/COVERAGE-OTHER.md).
func TestCoverageTableOtherKinds(t *testing.T) {
	dir, _ := moduleDir(t, "k8s.io/kube-aggregator")
	scope := otherScope
	scope.Dirs = map[string]string{aggregatorValidation: filepath.Join(dir, "pkg/apis/apiregistration/validation")}
	checkTable(t, scope, otherTableFile, otherHeader, 500)
}

func checkTable(t *testing.T, scope Scope, file, header string, minSites int) {
	dir, version := kubernetesDir(t)
	sites, err := Analyze(dir, scope)
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) < minSites {
		t.Fatalf("only %d error sites found in scope; the scan is broken", len(sites))
	}
	ovs, err := overlay.All()
	if err != nil {
		t.Fatal(err)
	}
	exc, err := os.ReadFile("undeclarable.txt")
	if err != nil {
		t.Fatal(err)
	}
	exceptions, err := ParseExceptions(exc)
	if err != nil {
		t.Fatalf("undeclarable.txt: %v", err)
	}
	Match(sites, Rules(ovs), exceptions)
	body := Markdown(sites, version)
	want := header + body
	if os.Getenv("KDV_COVERAGE") == "write" {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("bench/%s is stale: regenerate it with `cd bench && KDV_COVERAGE=write go test ./coverage/`", strings.TrimPrefix(file, "../"))
	}
	c := count(sites)
	t.Logf("%d sites, %d declared (%.1f%%), %d not declarable %v; %d reachable, %.1f%% declared", c.Sites, c.Declared, c.Percent(), c.Excepted, c.ByCategory, c.Reachable(), c.ReachablePercent())
}

const otherHeader = `# Coverage of the hand-written validation of the other served kinds

Generated by ` + "`cd bench && KDV_COVERAGE=write go test ./coverage/`" + ` (package
bench/coverage), as bench/COVERAGE.md but for issue 13's scope: every error
call site of k8s.io/kubernetes pkg/apis/*/validation for the kinds a default
kube-apiserver serves other than Pods and workloads: the whole packages of
admissionregistration, autoscaling, certificates, coordination, discovery,
flowcontrol, networking, node, policy, rbac, resource, scheduling, storage and
storagemigration (served from 1.37), the functions of pkg/apis/core/validation reached from the entry points of
Service, Endpoints, ConfigMap, Secret, ServiceAccount, Namespace, Node,
PersistentVolume, PersistentVolumeClaim, LimitRange, ResourceQuota and Event,
and k8s.io/kube-aggregator's pkg/apis/apiregistration/validation (APIService,
served by kube-apiserver's aggregator). Out of scope: authentication and
authorization (reviews, never stored), apiserverinternal and lifecycle (not
served by default). Matching and exceptions as in bench/COVERAGE.md.

`

const header = `# Coverage of the hand-written validation by kdv's rule overlay

Generated by ` + "`cd bench && KDV_COVERAGE=write go test ./coverage/`" + ` (package
bench/coverage): every error call site (field.Invalid, field.Required, ...) of
k8s.io/kubernetes pkg/apis/{core,apps,batch}/validation in the functions reached
from the Validate* entry points of Pod, PodTemplate, ReplicationController,
Deployment, ReplicaSet, DaemonSet, StatefulSet, ControllerRevision, Job and
CronJob (issue 12's scope), matched to the overlay rules (builtin/overlay/*.tags)
whose source line cites the site's function, by error type, field and detail.
Sites data cannot declare are listed in bench/coverage/undeclarable.txt with the
reason and its category (the categories' table below). Errors built inside
apimachinery helpers (label selectors, label and annotation checks, DNS names)
are counted where the scanned code builds them, not inside the helper.

`
