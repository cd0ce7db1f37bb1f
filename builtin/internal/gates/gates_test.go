package gates

import (
	"slices"
	"testing"
)

func TestAt(t *testing.T) {
	specs := []Spec{
		{Version: "1.33", PreRelease: Alpha},
		{Version: "1.35", Default: true, PreRelease: Beta},
		{Version: "1.37", Default: true, PreRelease: GA, LockToDefault: true},
	}
	for minor, want := range map[int]string{32: PreAlpha, 33: Alpha, 34: Alpha, 35: Beta, 36: Beta, 37: GA, 40: GA} {
		if got := At(specs, minor).PreRelease; got != want {
			t.Errorf("At(1.%d) = %s, want %s", minor, got, want)
		}
	}
	// A spec with MinCompatibilityVersion 1.37 applies from 1.38 on (the
	// minimum compatibility version of 1.<minor> is 1.<minor-1>).
	mc := []Spec{{Version: "1.37", PreRelease: Beta}, {Version: "1.37", Default: true, PreRelease: Beta, MinCompatibilityVersion: "1.37"}}
	if At(mc, 37).Default || !At(mc, 38).Default {
		t.Errorf("MinCompatibilityVersion: 1.37 %v, 1.38 %v", At(mc, 37), At(mc, 38))
	}
}

func TestFieldLifecycle(t *testing.T) {
	d := &Data{Gates: map[string][]Spec{
		"A": {{Version: "1.30", PreRelease: Alpha}, {Version: "1.32", Default: true, PreRelease: Beta}},
		"B": {{Version: "1.31", PreRelease: Alpha}},
		"G": {{Version: "1.0", Default: true, PreRelease: GA}},
	}}
	for _, tc := range []struct {
		gates, status, min string
		minor              int
		unknown            []string
	}{
		{"A", Alpha, "v1.30", 31, nil},
		{"A", Beta, "v1.30", 32, nil},
		{"A,B", Alpha, "v1.31", 32, nil},
		{"G", "", "", 37, nil},
		{"A,X", Beta, "v1.30", 37, []string{"X"}},
	} {
		l, unknown := d.FieldLifecycle(tc.gates, tc.minor)
		if l.Status != tc.status || l.MinVersion != tc.min || l.FeatureGate != tc.gates || !slices.Equal(unknown, tc.unknown) {
			t.Errorf("%s at 1.%d: %+v %v", tc.gates, tc.minor, l, unknown)
		}
	}
}

func TestGatesInDescription(t *testing.T) {
	for _, tc := range []struct {
		desc         string
		field, named []string
	}{
		{"Foo. This is an alpha field and requires enabling the\nVolumeBindMountOptions feature gate.", []string{"VolumeBindMountOptions"}, []string{"VolumeBindMountOptions"}},
		{"This field is alpha and requires EmptyDirVolumeMode featuregate to be enabled.", []string{"EmptyDirVolumeMode"}, []string{"EmptyDirVolumeMode"}},
		{"(Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.", []string{"CoordinatedLeaderElection"}, []string{"CoordinatedLeaderElection"}},
		{"The PodObservedGenerationTracking feature gate must be enabled to use this field.", []string{"PodObservedGenerationTracking"}, []string{"PodObservedGenerationTracking"}},
		{"This requires the ProcMountType feature flag to be enabled.", []string{"ProcMountType"}, []string{"ProcMountType"}},
		{"This field is alpha-level and is only honored by servers that enable the UserNamespacesSupport feature.", []string{"UserNamespacesSupport"}, []string{"UserNamespacesSupport"}},
		// values and behaviours: named, not field-gated
		{"Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).", nil, []string{"TaintTolerationComparisonOperators"}},
		{"This field is mutable if MutablePVNodeAffinity feature gate is enabled.", nil, []string{"MutablePVNodeAffinity"}},
		{"This is an alpha type and requires enabling StatefulSetRecreateStrategy feature gate.", nil, []string{"StatefulSetRecreateStrategy"}},
	} {
		field, named := GatesInDescription(tc.desc)
		if !slices.Equal(field, tc.field) || !slices.Equal(named, tc.named) {
			t.Errorf("%q: field %v named %v, want %v %v", tc.desc, field, named, tc.field, tc.named)
		}
	}
}
