package bench

import (
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilversion "k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/endpoints/deprecation"
	"k8s.io/apiserver/pkg/server"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	aggregatorv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	aggregatorv1beta1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1beta1"

	"kdv.dev/builtin"
)

// lifecycleScheme holds every versioned type of k8s.io/api v0.37.2 and
// kube-aggregator's apiregistration.k8s.io, with the APILifecycle* methods
// prerelease-lifecycle-gen generated for them: what the apiserver's
// deprecation filter and its removal of expired kinds read.
func lifecycleScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientscheme.AddToScheme, aggregatorv1.AddToScheme, aggregatorv1beta1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// For every kind of kdv's lifecycle data that the reference scheme knows,
// kdv's deprecation warning is deprecation.WarningMessage's, and kdv's
// verdicts for Kubernetes 1.35, 1.36 and 1.37 are the apiserver's:
// deprecated as deprecation.IsDeprecated, removed as the
// ResourceExpirationEvaluator of a released apiserver of that version.
// Every type of the scheme with lifecycle methods is in kdv's data.
func TestLifecycleMatchesApiserver(t *testing.T) {
	s := lifecycleScheme(t)
	all, err := builtin.APILifecycles()
	if err != nil {
		t.Fatal(err)
	}
	evaluators := map[int]server.ResourceExpirationEvaluator{}
	for _, minor := range []int{35, 36, 37} {
		ev, err := server.NewResourceExpirationEvaluator(utilversion.MajorMinor(1, uint(minor)))
		if err != nil {
			t.Fatal(err)
		}
		evaluators[minor] = ev
	}
	known := map[schema.GroupVersionKind]bool{}
	var notInScheme []string
	checked, deprecated := 0, 0
	for _, l := range all {
		gvk := schema.GroupVersionKind{Group: l.GVK.Group, Version: l.GVK.Version, Kind: l.GVK.Kind}
		known[gvk] = true
		if !s.Recognizes(gvk) {
			notInScheme = append(notInScheme, gvk.GroupVersion().String()+" "+gvk.Kind)
			continue
		}
		obj, err := s.New(gvk)
		if err != nil {
			t.Fatal(err)
		}
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		checked++
		want := deprecation.WarningMessage(obj)
		if got := l.WarningMessage(); got != want {
			t.Errorf("%s: warning %q, the apiserver's %q", gvk, got, want)
		}
		if want != "" {
			deprecated++
		}
		for minor, ev := range evaluators {
			if got, want := l.DeprecatedIn(minor), deprecation.IsDeprecated(obj, 1, minor); got != want {
				t.Errorf("%s in 1.%d: deprecated %v, the apiserver's %v", gvk, minor, got, want)
			}
			served := true
			if r := deprecation.RemovedRelease(obj); r != "" {
				major, minorRemoved, _ := strings.Cut(r, ".")
				x, _ := strconv.Atoi(major)
				y, _ := strconv.Atoi(minorRemoved)
				served = ev.ShouldServeForVersion(x, y)
			}
			if got := l.RemovedIn(minor); got == served {
				t.Errorf("%s in 1.%d: removed %v, the apiserver serves it: %v", gvk, minor, got, served)
			}
		}
	}
	type introduced interface{ APILifecycleIntroduced() (int, int) }
	for gvk := range s.AllKnownTypes() {
		obj, err := s.New(gvk)
		if err != nil {
			continue
		}
		if _, ok := obj.(introduced); ok && !known[gvk] {
			t.Errorf("%s has lifecycle methods but no entry in kdv's data", gvk)
		}
	}
	if checked < 250 {
		t.Errorf("only %d kinds checked", checked)
	}
	t.Logf("%d kinds checked against the apiserver (%d with a deprecation warning); not in k8s.io/api v0.37.2's scheme: %s",
		checked, deprecated, strings.Join(notInScheme, ", "))
}
