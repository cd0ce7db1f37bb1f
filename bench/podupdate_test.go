package bench

import (
	"slices"
	"strings"
	"testing"

	"kdv.dev/builtin"
)

// TestPodUpdateSpecMatchesApiserver: ValidatePodUpdate's comparison of the
// whole spec (builtin/overlay/core_v1_podupdate.tags), on the updates the
// harness found kdv wrong on. Lists compare in order, as Semantic.DeepEqual
// compares them, also where a map list's key repeats (two env entries of
// one name: the unchanged update was refused); a container's
// resources.claims, restartPolicyRules and resizePolicy are compared (they
// were left out); containers pair by index, so a reorder is a change; a
// pod with scheduling gates may change its nodeSelector
// and nodeAffinity, not its podAntiAffinity. Each case is judged by the
// reference, and kdv must report exactly its errors.
func TestPodUpdateSpecMatchesApiserver(t *testing.T) {
	const pod = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {a: LABEL}}
spec:
  GATES
  resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}, {name: fpga, resourceClaimName: fpga-claim}]
  initContainers:
  - name: init
    image: busybox
    restartPolicy: Always
    RULES
  containers:
  - name: c
    image: nginx
    env: ENV
    ports: PORTS
    resources: {requests: {cpu: 100m}, limits: {cpu: 200m}, claims: CLAIMS}
    resizePolicy: [{resourceName: cpu, restartPolicy: RESIZE}]
  AFFINITY
`
	base := []string{"LABEL", "one", "GATES", "", "RULES", "", "ENV", "[{name: A, value: '1'}]", "PORTS", "[{containerPort: 80}]",
		"CLAIMS", "[{name: gpu}]", "RESIZE", "NotRequired", "AFFINITY", ""}
	with := func(kv ...string) string {
		args := slices.Clone(base)
		for i := 0; i < len(kv); i += 2 {
			j := slices.Index(args, kv[i])
			args[j+1] = kv[i+1]
		}
		return strings.NewReplacer(args...).Replace(pod)
	}
	const (
		rules      = "restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [VALUE]}}]"
		gates      = "schedulingGates: [{name: example.com/wait}]"
		antiAff    = "affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: APP}}}]}}"
		nodeSelect = "nodeSelector: {disk: ssd}"
	)
	dupEnv := "[{name: A, value: '1'}, {name: A, value: '2'}]"
	for _, tc := range []struct {
		name, doc, old string
		rejected       bool // the reference's verdict, asserted
	}{
		{"label changed", with("LABEL", "two"), with(), false},
		{"env name repeated, unchanged", with("ENV", dupEnv), with("ENV", dupEnv), false},
		{"env name repeated, label changed", with("ENV", dupEnv, "LABEL", "two"), with("ENV", dupEnv), false},
		{"env name repeated, entries swapped", with("ENV", "[{name: A, value: '2'}, {name: A, value: '1'}]"), with("ENV", dupEnv), true},
		{"container port repeated, unchanged", with("PORTS", "[{containerPort: 80}, {containerPort: 80}]"), with("PORTS", "[{containerPort: 80}, {containerPort: 80}]"), false},
		{"claim named twice, unchanged", with("CLAIMS", "[{name: gpu, request: a}, {name: gpu, request: b}]"), with("CLAIMS", "[{name: gpu, request: a}, {name: gpu, request: b}]"), false},
		{"claim request changed", with("CLAIMS", "[{name: gpu, request: b}]"), with("CLAIMS", "[{name: gpu, request: a}]"), true},
		{"claim added", with("CLAIMS", "[{name: gpu}, {name: fpga}]"), with(), true},
		{"claims reordered", with("CLAIMS", "[{name: fpga}, {name: gpu}]"), with("CLAIMS", "[{name: gpu}, {name: fpga}]"), true},
		{"restart rule changed", with("RULES", strings.Replace(rules, "VALUE", "43", 1)), with("RULES", strings.Replace(rules, "VALUE", "42", 1)), true},
		{"restart rules removed", with(), with("RULES", strings.Replace(rules, "VALUE", "42", 1)), true},
		{"restart rules unchanged, label changed", with("RULES", strings.Replace(rules, "VALUE", "42", 1), "LABEL", "two"), with("RULES", strings.Replace(rules, "VALUE", "42", 1)), false},
		{"resize policy changed", with("RESIZE", "RestartContainer"), with(), true},
		{"gated: node selector added", with("GATES", gates, "AFFINITY", nodeSelect), with("GATES", gates), false},
		{"gated: pod anti-affinity changed", with("GATES", gates, "AFFINITY", strings.Replace(antiAff, "APP", "b", 1)), with("GATES", gates, "AFFINITY", strings.Replace(antiAff, "APP", "a", 1)), true},
		{"gated: pod anti-affinity unchanged, label changed", with("GATES", gates, "AFFINITY", strings.Replace(antiAff, "APP", "a", 1), "LABEL", "two"), with("GATES", gates, "AFFINITY", strings.Replace(antiAff, "APP", "a", 1)), false},
		{"containers reordered", strings.Replace(with(), "  containers:\n", "  containers:\n  - {name: side-b, image: nginx}\n  - {name: side-a, image: nginx}\n", 1), strings.Replace(with(), "  containers:\n", "  containers:\n  - {name: side-a, image: nginx}\n  - {name: side-b, image: nginx}\n", 1), true},
		{"not gated: pod anti-affinity changed", with("AFFINITY", strings.Replace(antiAff, "APP", "b", 1)), with("AFFINITY", strings.Replace(antiAff, "APP", "a", 1)), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, want := referenceErrors(t, tc.doc, tc.old)
			got, _ := kdvGatedErrors(t, tc.doc, tc.old, builtin.FeatureGates{})
			// the diff the apiserver appends is kdv's too; compare the
			// messages up to it
			firstLines := func(errs []string) []string {
				var out []string
				for _, e := range errs {
					out = append(out, strings.SplitN(e, "\n", 2)[0])
				}
				slices.Sort(out)
				return out
			}
			if ref.Rejected() != tc.rejected {
				t.Errorf("the reference's verdict changed: rejected %v, want %v: %q", ref.Rejected(), tc.rejected, want)
			}
			if !slices.Equal(firstLines(got), firstLines(want)) {
				t.Errorf("reference (rejected %v): %q\nkdv: %q", ref.Rejected(), firstLines(want), firstLines(got))
			}
		})
	}
}
