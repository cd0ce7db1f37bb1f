package resource

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/builtin"
	"kdv.dev/manifest"
)

var (
	deploymentGVK  = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	statefulSetGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}
)

// gatedObject is a Deployment whose pod template's first container (with
// spec.os linux), pod spec or volume carries extra, a YAML flow mapping
// entry merged at the place where; or, with where "statefulset", a
// StatefulSet whose spec carries it.
func gatedObject(where, extra string) map[string]any {
	container, spec, volume := "", "", ""
	switch where {
	case "container":
		// a stop signal needs spec.os (validateStopSignal)
		container, spec = ", "+extra, "\n      os: {name: linux}"
	case "spec":
		spec = "\n      " + extra
	case "volume":
		volume = ", " + extra
	}
	y := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      containers:
      - {name: c, image: i%s}
      volumes:
      - {name: v%s}%s
`, container, volume, spec)
	if where == "statefulset" {
		y = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n      containers:\n      - {name: c, image: i}\n  " + extra + "\n"
	}
	docs := manifest.Parse("o.yaml", []byte(y), manifest.Options{})
	if docs[0].Err != nil {
		panic(docs[0].Err)
	}
	return docs[0].Object
}

// lookup follows a dotted path ("spec.template.spec.containers.0.lifecycle") in obj.
func lookup(obj any, path string) (any, bool) {
	for step := range strings.SplitSeq(path, ".") {
		switch x := obj.(type) {
		case map[string]any:
			v, ok := x[step]
			if !ok {
				return nil, false
			}
			obj = v
		case []any:
			var i int
			if _, err := fmt.Sscan(step, &i); err != nil || i >= len(x) {
				return nil, false
			}
			obj = x[i]
		default:
			return nil, false
		}
	}
	return obj, true
}

// The API-change guide's rules for fields of disabled features (its
// dropDisabledFields pattern, k8s.io/kubernetes pkg/api/pod/util.go
// dropDisabledPodFields), with real gated fields of Kubernetes 1.37 and
// 1.35: Lifecycle.stopSignal (ContainerStopSignals, alpha: off),
// EmptyDirVolumeSource.mode (EmptyDirVolumeMode, alpha: off),
// PodSpec.schedulingGroup (GenericWorkload: alpha in 1.35, beta but off by
// default in 1.37) and PodSpec.resources (PodLevelResources, beta: on).
// Each row is one object; old is the stored object of an update.
func TestGatedFieldRules(t *testing.T) {
	const (
		bogus       = "lifecycle: {stopSignal: SIGBOGUS}"
		sigterm     = "lifecycle: {stopSignal: SIGTERM}"
		stopPath    = "spec.template.spec.containers.0.lifecycle.stopSignal"
		unsupported = `spec.template.spec.containers[0].lifecycle.stopSignal: Unsupported value: "SIGBOGUS"`
		dropStop    = "spec.template.spec.containers[0].lifecycle.stopSignal: dropped: feature gate ContainerStopSignals is alpha, off by default in Kubernetes 1.37; the apiserver drops this field before validating"
		group       = "schedulingGroup: {podGroupName: g}"
		podRes      = "resources: {limits: {cpu: '1'}}"
		maxUnavail  = "updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}"
	)
	for _, tc := range []struct {
		name          string
		minor         int
		gates, level  string
		where, extra  string
		oldWhere, old string // no old: a create
		path          string
		kept          bool
		errs          []string // prefixes, in order
		warnings      []string // prefixes, in order
	}{
		// Off on create: dropped, with a warning, and not validated.
		{name: "alpha off, create: dropped", where: "container", extra: bogus, path: stopPath, warnings: []string{dropStop}},
		{name: "alpha off, create: dropped (volume)", where: "volume", extra: "emptyDir: {mode: 0755}", path: "spec.template.spec.volumes.0.emptyDir.mode",
			warnings: []string{"spec.template.spec.volumes[0].emptyDir.mode: dropped: feature gate EmptyDirVolumeMode is alpha, off by default in Kubernetes 1.37"}},
		{name: "beta off by default, create: dropped", where: "spec", extra: group, path: "spec.template.spec.schedulingGroup",
			warnings: []string{"spec.template.spec.schedulingGroup: dropped: feature gate GenericWorkload is beta, off by default in Kubernetes 1.37"}},
		// Per release: MaxUnavailableStatefulSet is beta and off by
		// default in 1.35, on in 1.37.
		{name: "beta off in 1.35, create: dropped", minor: 35, where: "statefulset", extra: maxUnavail, path: "spec.updateStrategy.rollingUpdate.maxUnavailable",
			warnings: []string{"spec.updateStrategy.rollingUpdate.maxUnavailable: dropped: feature gate MaxUnavailableStatefulSet is beta, off by default in Kubernetes 1.35"}},
		{name: "beta on in 1.37, create: kept", where: "statefulset", extra: maxUnavail, path: "spec.updateStrategy.rollingUpdate.maxUnavailable", kept: true},
		// Off on update, the old object uses the field: kept, and
		// validated (the value changed, so the error stands).
		{name: "alpha off, update, old uses it: kept and validated", where: "container", extra: bogus, oldWhere: "container", old: sigterm, path: stopPath, kept: true,
			errs:     []string{unsupported},
			warnings: []string{"spec.template.spec.containers[0].lifecycle.stopSignal: alpha field (feature gate ContainerStopSignals is alpha, off by default in Kubernetes 1.37; kept because the old object uses it)"}},
		{name: "beta off, update, old uses it: kept", where: "spec", extra: group, oldWhere: "spec", old: group, path: "spec.template.spec.schedulingGroup", kept: true},
		// Off on update, only the new object has it: dropped.
		{name: "alpha off, update, only new: dropped", where: "container", extra: bogus, oldWhere: "container", old: "", path: stopPath, warnings: []string{dropStop}},
		{name: "beta off, update, only new: dropped", where: "spec", extra: group, oldWhere: "spec", old: "", path: "spec.template.spec.schedulingGroup",
			warnings: []string{"spec.template.spec.schedulingGroup: dropped: feature gate GenericWorkload is beta"}},
		// On through --feature-gates: kept and validated.
		{name: "alpha on by flag: validated", gates: "ContainerStopSignals=true", where: "container", extra: bogus, path: stopPath, kept: true,
			errs:     []string{unsupported},
			warnings: []string{"spec.template.spec.containers[0].lifecycle.stopSignal: alpha field (feature gate ContainerStopSignals): it may change or go away in a later release"}},
		{name: "alpha on by AllAlpha", gates: "AllAlpha=true", where: "volume", extra: "emptyDir: {mode: 0755}", path: "spec.template.spec.volumes.0.emptyDir.mode", kept: true,
			warnings: []string{"spec.template.spec.volumes[0].emptyDir.mode: alpha field (feature gate EmptyDirVolumeMode)"}},
		{name: "alpha on, valid, --lifecycle-warnings=none", gates: "ContainerStopSignals=true", level: LifecycleWarnNone, where: "container", extra: sigterm, path: stopPath, kept: true},
		{name: "beta on by flag", gates: "GenericWorkload=true", where: "spec", extra: group, path: "spec.template.spec.schedulingGroup", kept: true},
		// Beta on by default: kept; said only at level beta.
		{name: "beta on, level alpha: no warning", where: "spec", extra: podRes, path: "spec.template.spec.resources", kept: true},
		{name: "beta on, level beta: warning", level: LifecycleWarnBeta, where: "spec", extra: podRes, path: "spec.template.spec.resources", kept: true,
			warnings: []string{"spec.template.spec.resources: beta field (feature gate PodLevelResources)"}},
		{name: "beta turned off by flag: dropped", gates: "PodLevelResources=false", where: "spec", extra: podRes, path: "spec.template.spec.resources",
			warnings: []string{"spec.template.spec.resources: dropped: feature gate PodLevelResources is off (--feature-gates)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			minor := tc.minor
			if minor == 0 {
				minor = 37
			}
			fg, err := builtin.ParseFeatureGates(tc.gates, minor)
			if err != nil {
				t.Fatal(err)
			}
			reg := NewRegistry(Options{KubernetesMinor: minor, FeatureGates: fg, LifecycleWarnings: tc.level})
			if err := UseBuiltin(reg, minor); err != nil {
				t.Fatal(err)
			}
			obj := gatedObject(tc.where, tc.extra)
			var old map[string]any
			if tc.oldWhere != "" {
				old = gatedObject(tc.oldWhere, tc.old)
				if tc.old == "" {
					old = gatedObject("", "")
				}
			}
			gvk := deploymentGVK
			if tc.where == "statefulset" {
				gvk = statefulSetGVK
			}
			v, err := reg.Validator(gvk)
			if err != nil {
				t.Fatal(err)
			}
			out := v.Validate(context.Background(), obj, old)
			if out.DecodeErr != nil || out.DecodeError != "" || len(out.UnknownFields) > 0 {
				t.Fatalf("decode: %v %s %v", out.DecodeErr, out.DecodeError, out.UnknownFields)
			}
			if _, ok := lookup(out.Object, tc.path); ok != tc.kept {
				t.Errorf("%s kept = %v, want %v", tc.path, ok, tc.kept)
			}
			var errs []string
			for _, e := range out.Errors {
				errs = append(errs, e.Error())
			}
			if !prefixes(errs, tc.errs) {
				t.Errorf("errors %q, want %q", errs, tc.errs)
			}
			if !prefixes(out.Warnings, tc.warnings) {
				t.Errorf("warnings %q, want %q", out.Warnings, tc.warnings)
			}
		})
	}
}

// prefixes reports whether got has one element per want, each starting
// with it.
func prefixes(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) {
			return false
		}
	}
	return true
}

// A field the Go defaulters would set is not said to be dropped when the
// manifest does not have it: only what the input sets is reported.
func TestGatedWarnOnlyInput(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	v, err := reg.Validator(deploymentGVK)
	if err != nil {
		t.Fatal(err)
	}
	out := v.Validate(context.Background(), gatedObject("", ""), nil)
	if len(out.Warnings) != 0 || len(out.Errors) != 0 {
		t.Errorf("plain pod: warnings %q, errors %v", out.Warnings, out.Errors)
	}
}
