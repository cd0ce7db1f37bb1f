package main

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// kdv compat on k8s.io/api's apps/v1 between Kubernetes 1.36 and 1.37 (the
// module versions v0.36.6 and v0.37.2, from the module cache; .ci/run
// fetches them). Every change above safe, and a sample of the tightenings
// k8s.io/api declares with validation-gen tags, checked by hand against the
// types and the hand-written validation of k8s.io/kubernetes v1.37.2 (the
// comments say what each is). List kinds repeat their items' changes and are
// left out.
func TestCompatKubernetesAPIReleases(t *testing.T) {
	old := moduleCacheDir(t, "k8s.io/api@v0.36.6/apps/v1")
	new := moduleCacheDir(t, "k8s.io/api@v0.37.2/apps/v1")
	_, out, errOut := kdv(t, "", "compat", "-o", "json", old, new)
	var res struct {
		Changes []struct{ Object, Path, Kind, Severity, Rule, Message string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errOut)
	}
	type key struct{ object, path, kind string }
	got := map[key]string{} // severity
	rules := map[key]string{}
	var above []string
	for _, c := range res.Changes {
		if strings.HasSuffix(c.Object, "List.apps") {
			continue
		}
		k := key{c.Object, c.Path, c.Kind}
		got[k], rules[k] = c.Severity, c.Rule
		if c.Severity != "safe" {
			above = append(above, c.Object+" "+c.Path+" "+c.Kind+" "+c.Severity)
		}
	}
	sort.Strings(above)
	want := []string{
		// +required on ControllerRevision.data (v0.36: omitempty, optional in
		// the schema). The apiserver required it before: ValidateControllerRevisionCreate
		// reports "data is mandatory" for empty data. k8s.io/api does not mark
		// it as a declarative migration, so kdv cannot tell: a schema change
		// that does not change the apiserver's verdict.
		"ControllerRevision.apps data required-added breaks-objects",
		// StatefulSetUpdateStrategy gains the alpha type Recreate
		// (RecreateStatefulSetStrategyType, gate StatefulSetRecreateStrategy):
		// clients switching on the type meet a new value.
		"StatefulSet.apps spec.updateStrategy.type enum-value-added breaks-clients",
	}
	if strings.Join(above, "\n") != strings.Join(want, "\n") {
		t.Errorf("changes above safe:\n%s\nwant:\n%s", strings.Join(above, "\n"), strings.Join(want, "\n"))
	}
	// The rule validation-gen writes for the alpha
	// +k8s:dependentForbidden("schedulingGroup") on the new (1.37)
	// PodSpec.evictionResponders, "!has(self.evictionResponders) ||
	// !has(self.schedulingGroup)": no existing object has the new field, so
	// the rule rejects none of them.
	for _, o := range []string{"Deployment.apps", "DaemonSet.apps", "ReplicaSet.apps", "StatefulSet.apps"} {
		k := key{o, "spec.template.spec", "rule-added"}
		if got[k] != "safe" || !strings.Contains(rules[k], "fields NEW adds") {
			t.Errorf("%v: severity %q, rule %q; want safe, a rule about new fields", k, got[k], rules[k])
		}
	}
	// Tightenings declared by validation-gen tags that 1.37 adds and marks
	// as migrating hand-written checks (x-kubernetes-api-lifecycle
	// "declarative-validation"), each already enforced by the hand-written
	// function named: safe, as declared.
	for _, d := range []struct {
		k   key
		why string
	}{
		{key{"StatefulSet.apps", "metadata.uid", "rule-added"}, "ValidateObjectMetaUpdate: uid immutable"},
		{key{"StatefulSet.apps", "metadata.creationTimestamp", "rule-added"}, "ValidateObjectMetaUpdate: creationTimestamp immutable"},
		{key{"StatefulSet.apps", "metadata.deletionTimestamp", "rule-added"}, "ValidateObjectMetaUpdate: deletionTimestamp immutable"},
		{key{"StatefulSet.apps", "metadata.deletionGracePeriodSeconds", "rule-added"}, "ValidateObjectMetaUpdate: deletionGracePeriodSeconds immutable"},
		{key{"StatefulSet.apps", "metadata.generation", "min-tightened"}, "ValidateObjectMetaAccessorUpdate: ValidateNonnegativeField(generation)"},
		{key{"StatefulSet.apps", "metadata.managedFields[*].operation", "enum-added"}, "ValidateManagedFields: operation Apply or Update"},
		{key{"StatefulSet.apps", "metadata.managedFields[*].operation", "required-added"}, "ValidateManagedFields: an empty operation is NotSupported"},
		{key{"StatefulSet.apps", "metadata", "rule-added"}, "ValidateObjectMetaUpdate: uid, timestamps set or unset"},
		{key{"StatefulSet.apps", "spec.selector", "rule-added"}, "ValidateStatefulSetUpdate: selector immutable"},
		{key{"StatefulSet.apps", "spec.serviceName", "rule-added"}, "ValidateStatefulSetUpdate: serviceName immutable"},
		{key{"StatefulSet.apps", "spec.podManagementPolicy", "rule-added"}, "ValidateStatefulSetUpdate: podManagementPolicy immutable"},
		{key{"StatefulSet.apps", "spec.volumeClaimTemplates", "rule-added"}, "ValidateStatefulSetUpdate: volumeClaimTemplates immutable"},
		{key{"StatefulSet.apps", "spec", "rule-added"}, "ValidateStatefulSetUpdate: the same fields set or unset"},
		{key{"StatefulSet.apps", "spec.template.spec.tolerations[*].key", "format-changed"}, "validateTolerations: a toleration key is a label key"},
		{key{"Deployment.apps", "spec.template.spec.tolerations[*].key", "format-changed"}, "validateTolerations"},
		{key{"DaemonSet.apps", "spec.template.spec.tolerations[*].key", "format-changed"}, "validateTolerations"},
		{key{"ReplicaSet.apps", "spec.template.spec.tolerations[*].key", "format-changed"}, "validateTolerations"},
		{key{"Deployment.apps", "metadata.uid", "rule-added"}, "ValidateObjectMetaUpdate"},
		{key{"DaemonSet.apps", "metadata.uid", "rule-added"}, "ValidateObjectMetaUpdate"},
		{key{"ControllerRevision.apps", "metadata.uid", "rule-added"}, "ValidateObjectMetaUpdate"},
		{key{"Deployment.apps", "spec.template.metadata.generation", "min-tightened"}, "ValidateObjectMeta of the template"},
	} {
		sev, ok := got[d.k]
		if !ok || sev != "safe" || !strings.Contains(rules[d.k], "KEP-5073") {
			t.Errorf("%v (%s): severity %q, rule %q; want safe, declared", d.k, d.why, sev, rules[d.k])
		}
	}
}
