package coverage

import (
	"strings"
	"testing"

	"kdv.dev/idl"
)

// Sites match the overlay entries that cite their function, by error type,
// field and detail (a Sprintf format's verbs match anything); others stay
// open or take the exceptions file's reason.
func TestMatch(t *testing.T) {
	ov, err := idl.ParseOverlay("x.tags", []byte(`package k8s.io/api/apps/v1
source k8s.io/kubernetes pkg/apis/apps/validation/validation.go ValidateDeploymentSpec, Other (note)
DeploymentSpec.replicas +minimum=0
DeploymentSpec +validationRule="true",message="empty selector is invalid for deployment",reason="FieldValueInvalid",fieldPath=".selector"
source k8s.io/kubernetes pkg/apis/core/validation/validation.go validateContainerPorts
Container.ports +uniqueKey=name
source k8s.io/kubernetes pkg/apis/apps/validation/validation.go ValidateControllerRevisionCreate
ControllerRevision +validationError="required",message="data is mandatory"
ControllerRevision.revision +validationError="minimum",message="not declared: no minimum here"
source k8s.io/kubernetes pkg/apis/core/validation/validation.go validateInitContainers
PodSpec.initContainers +kubebuilder:validation:items:XValidation:rule="true",message="may not be set",reason="FieldValueForbidden",fieldPath=".lifecycle"
source k8s.io/kubernetes pkg/apis/core/validation/validation.go ValidateServiceClusterIPsRelatedFields
ServiceSpec +validationRule="true",message="must be a valid IP address",reason="FieldValueInvalid",fieldPath=".clusterIPs[*]"
source k8s.io/kubernetes pkg/apis/core/validation/validation.go validateTopologySelectorLabelRequirement
TopologySelectorLabelRequirement.values +k8s:listType=set
TopologySelectorLabelRequirement.other +k8s:listType=map
source k8s.io/kubernetes pkg/apis/core/validation/validation.go validateService
Service +validationRule="true",message="must match",reason="FieldValueInvalid",fieldPath=".metadata.annotations['a.b/c']"
source k8s.io/kubernetes pkg/apis/core/validation/validation.go ValidatePersistentVolumeClaimSpec
PersistentVolumeClaimSpec +validationRule="true",message="Required value",reason="FieldValueRequired",fieldPath=".resources.requests['storage'] as .resources[storage]"
PersistentVolume +validationRule="true",message="gone",reason="FieldValueForbidden",fieldPath=".spec as .spec.persistentvolumesource"
source k8s.io/kubernetes pkg/apis/core/validation/validation.go validateFlexVolumeSource
FlexVolumeSource +validationRule="true",message="reserved",reason="FieldValueInvalid",fieldPath=".options[@]"
source k8s.io/kubernetes pkg/apis/core/validation/validation.go ValidatePodUpdate (note)
Pod +validationRule="true",message="pod updates may not change fields other than `+"`spec.x`"+`",reason="FieldValueForbidden",fieldPath=".spec",diff=".spec"
`))
	if err != nil {
		t.Fatal(err)
	}
	rules := Rules([]*idl.Overlay{ov})
	if len(rules) != 12 || strings.Join(rules[0].Funcs, ",") != "ValidateDeploymentSpec,Other" || rules[0].Package != "pkg/apis/apps/validation" {
		t.Fatalf("rules: %+v", rules)
	}
	sites := []Site{
		{Package: "pkg/apis/apps/validation", Func: "ValidateDeploymentSpec", Type: "Invalid", Field: "replicas", Detail: "must be greater than or equal to 0"},
		{Package: "pkg/apis/apps/validation", Func: "ValidateDeploymentSpec", Type: "Invalid", Field: "replicas", Detail: "must be less than or equal to %d when x"},
		{Package: "pkg/apis/apps/validation", Func: "ValidateDeploymentSpec", Type: "Invalid", Field: "selector", Detail: "empty selector is invalid for deployment"},
		{Package: "pkg/apis/apps/validation", Func: "ValidateDeploymentSpec", Type: "Invalid", Field: "selector", Detail: "invalid label selector"},
		{Package: "pkg/apis/apps/validation", Func: "ValidateDeploymentSpec", Type: "Required", Field: "selector"},
		{Package: "pkg/apis/core/validation", Func: "validateContainerPorts", Type: "Duplicate", Field: "name"},
		{Package: "pkg/apis/core/validation", Func: "validateProbe", Type: "Invalid", Field: "port"},
		{Package: "pkg/apis/apps/validation", Func: "ValidateControllerRevisionCreate", Type: "Required", Field: "data", Detail: "data is mandatory"},
		{Package: "pkg/apis/apps/validation", Func: "ValidateControllerRevisionCreate", Type: "Required", Field: "data", Detail: "data must be a valid JSON object"},
		// a rule on the items of a list declares its payload's site
		{Package: "pkg/apis/core/validation", Func: "validateInitContainers", Type: "Forbidden", Field: "lifecycle", Detail: "may not be set"},
		// a wildcard fieldPath reports at the list's items
		{Package: "pkg/apis/core/validation", Func: "ValidateServiceClusterIPsRelatedFields", Type: "Invalid", Field: "clusterIPs", Detail: "must be a valid IP address"},
		// a set reports repeated items as Duplicate; a map declares nothing
		{Package: "pkg/apis/core/validation", Func: "validateTopologySelectorLabelRequirement", Type: "Duplicate", Field: "values"},
		{Package: "pkg/apis/core/validation", Func: "validateTopologySelectorLabelRequirement", Type: "Duplicate", Field: "other"},
		// a map key's path reports at the map
		{Package: "pkg/apis/core/validation", Func: "validateService", Type: "Invalid", Field: "annotations", Detail: "must match"},
		// "<value path> as <reported path>" reports at the reported path
		{Package: "pkg/apis/core/validation", Func: "ValidatePersistentVolumeClaimSpec", Type: "Required", Field: "resources"},
		{Package: "pkg/apis/core/validation", Func: "ValidatePersistentVolumeClaimSpec", Type: "Forbidden", Field: "persistentvolumesource", Detail: "gone"},
		// a function of the same name in another package is another site
		{Package: "pkg/apis/resource/validation", Func: "validateContainerPorts", Type: "Duplicate", Field: "name"},
		// a function defined in one package is cited from any package's file
		{Package: "pkg/apis/core/validation", Func: "Other", Type: "Invalid", Field: "replicas", Detail: "must be greater than or equal to 0"},
		// a map's keys ("[@]") report at map[key], whose field is the map's
		{Package: "pkg/apis/core/validation", Func: "validateFlexVolumeSource", Type: "Invalid", Field: "options", Detail: "reserved"},
		// a rule with x-kubernetes-diff ends its message with a newline
		// and the diff ("...%s\n%v" with diff.Diff); a detail without
		// the diff is another site
		{Package: "pkg/apis/core/validation", Func: "ValidatePodUpdate", Type: "Forbidden", Detail: "pod updates may not change fields other than %s\n%v"},
		{Package: "pkg/apis/core/validation", Func: "ValidatePodUpdate", Type: "Forbidden", Detail: "pod updates may not change fields other than %s"},
	}
	Match(sites, rules, map[string]Exception{"ValidateDeploymentSpec Required selector": {Category: "mechanism", Reason: "why not"}})
	want := []string{"x.tags:3", "", "x.tags:4", "", "", "x.tags:6", "", "x.tags:8", "", "x.tags:11", "x.tags:13", "x.tags:15", "", "x.tags:18", "x.tags:20", "x.tags:21", "", "x.tags:3", "x.tags:23", "x.tags:25", ""}
	for i, s := range sites {
		if s.Rule != want[i] {
			t.Errorf("site %d (%+v): declared by %q, want %q", i, s, s.Rule, want[i])
		}
	}
	if sites[4].Exception != "why not" || sites[4].Category != "mechanism" {
		t.Errorf("exception not applied: %+v", sites[4])
	}
	if !detailMatches("must be no more than %d characters", "must be no more than 52 characters") || detailMatches("must be %d", "must not be 3") {
		t.Error("detailMatches")
	}
}

// Every exception names a known category; an entry without one, or with an
// unknown one, is refused with its line.
func TestParseExceptionsCategory(t *testing.T) {
	got, err := ParseExceptions([]byte("# comment\nf Required x: [gate-off] dropped\n"))
	if err != nil || got["f Required x"] != (Exception{Category: "gate-off", Reason: "dropped"}) {
		t.Fatalf("got %+v, %v", got, err)
	}
	for _, bad := range []string{"f Required x: dropped", "f Required x: [later] dropped", "f Required x: [status]", "f Required x: [status dropped"} {
		if _, err := ParseExceptions([]byte("# c\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: err %v, want an error on line 2", bad, err)
		}
	}
	for _, c := range Categories {
		if c.Name == "" || c.Definition == "" {
			t.Errorf("category %+v lacks a name or definition", c)
		}
	}
}

// An x-kubernetes-validation-errors override applies to the property's
// keyword whichever overlay file of the package declares it: a list's
// "uniqueKey" override in one file makes a unique key added in another
// report Invalid "must be unique".
func TestMatchOverrideAcrossFiles(t *testing.T) {
	a, err := idl.ParseOverlay("a.tags", []byte(`package k8s.io/api/core/v1
source k8s.io/kubernetes pkg/apis/core/validation/validation.go ValidateVolumeDevices
Container.volumeDevices +uniqueKey=name
Container.volumeDevices +validationError="uniqueKey",reason="FieldValueInvalid",message="must be unique"
`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := idl.ParseOverlay("b.tags", []byte(`package k8s.io/api/core/v1
source k8s.io/kubernetes pkg/apis/core/validation/validation.go ValidateVolumeDevices
Container.volumeDevices +uniqueKey=devicePath
`))
	if err != nil {
		t.Fatal(err)
	}
	sites := []Site{
		{Package: "pkg/apis/core/validation", Func: "ValidateVolumeDevices", Type: "Invalid", Field: "name", Detail: "must be unique"},
		{Package: "pkg/apis/core/validation", Func: "ValidateVolumeDevices", Type: "Invalid", Field: "devicePath", Detail: "must be unique"},
	}
	Match(sites, Rules([]*idl.Overlay{a, b}), nil)
	if sites[0].Rule != "a.tags:3" || sites[1].Rule != "b.tags:3" {
		t.Errorf("declared by %q and %q, want a.tags:3 and b.tags:3", sites[0].Rule, sites[1].Rule)
	}
}

// A rule whose message is computed (messageExpression) matches any detail,
// so it declares a site only when no rule with a literal message does,
// whatever the order of the overlay files.
func TestMatchComputedLast(t *testing.T) {
	a, err := idl.ParseOverlay("a.tags", []byte(`package k8s.io/api/core/v1
source k8s.io/kubernetes pkg/apis/core/validation/validation.go validateVolumeSource
Pod +validationRule="true",messageExpression="'PVC name ' + self.metadata.name",reason="FieldValueInvalid",fieldPath=".spec.volumes[*].name"
`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := idl.ParseOverlay("b.tags", []byte(`package k8s.io/api/core/v1
source k8s.io/kubernetes pkg/apis/core/validation/validation.go validateVolumeSource
Volume +validationRule="true",message="Total length must be under 64 characters",reason="FieldValueInvalid",fieldPath=".name"
`))
	if err != nil {
		t.Fatal(err)
	}
	sites := []Site{
		{Package: "pkg/apis/core/validation", Func: "validateVolumeSource", Type: "Invalid", Field: "name"},
		{Package: "pkg/apis/core/validation", Func: "validateVolumeSource", Type: "Invalid", Field: "name", Detail: "PVC name %q: %v"},
	}
	Match(sites, Rules([]*idl.Overlay{a, b}), nil)
	if sites[0].Rule != "b.tags:3" || sites[1].Rule != "a.tags:3" {
		t.Errorf("declared by %q and %q, want b.tags:3 and a.tags:3", sites[0].Rule, sites[1].Rule)
	}
}
