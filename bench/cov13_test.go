package bench

import (
	"slices"
	"strings"
	"testing"

	"kdv.dev/builtin"
)

// cov13PV is a PersistentVolume with spec (flow-mapping entries after its
// capacity and access modes).
func cov13PV(spec string) string {
	return `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], ` + spec + `}
`
}

// cov13PVC is a PersistentVolumeClaim with spec (flow-mapping entries
// after its access modes) and status.
func cov13PVC(spec, status string) string {
	return `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: default}
spec: {accessModes: [ReadWriteOnce], ` + spec + `}
status: {` + status + `}
`
}

// cov13Service is a NodePort Service with ports (a flow sequence).
func cov13Service(ports string) string {
	return `apiVersion: v1
kind: Service
metadata: {name: s, namespace: default}
spec: {type: NodePort, selector: {a: b}, ports: ` + ports + `}
`
}

// cov13Webhooks is a webhook configuration of kind (Validating or
// Mutating) with one webhook per name.
func cov13Webhooks(kind string, names ...string) string {
	var b strings.Builder
	b.WriteString("apiVersion: admissionregistration.k8s.io/v1\nkind: " + kind + "WebhookConfiguration\nmetadata: {name: w}\nwebhooks:\n")
	for _, n := range names {
		b.WriteString("- {name: " + n + ", admissionReviewVersions: [v1], sideEffects: None, clientConfig: {url: \"https://h.example.com/x\"}}\n")
	}
	return b.String()
}

// cov13Slice is a node-local ResourceSlice with devices (a flow sequence).
func cov13Slice(devices string) string {
	return `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec: {driver: dra.example.com, pool: {name: p, resourceSliceCount: 1}, nodeName: node1, devices: ` + devices + `}
`
}

// The sites of issue 13 declared on branch cov13 (coarser and mechanism
// entries of bench/coverage/undeclarable.txt made exact): kdv reports
// exactly the reference's errors (field, type and detail, in the full
// error strings, in any order), and the reference reports the site (site,
// a substring of one of its errors, written from the hand-written code),
// or accepts.
func TestCov13SitesMatchApiserver(t *testing.T) {
	for _, tc := range []struct {
		name, doc, old string
		site           string // "" when the reference accepts
		// kdvMisses is an error of the reference kdv does not report, a
		// difference documented where the site is declared
		kdvMisses string
		// kdvExtra is an error kdv reports instead (documented there too)
		kdvExtra string
	}{
		// ValidatePersistentVolumeUpdate: the source is immutable, the
		// message ends with the diff of the old and new source
		{name: "pv: nfs path changed", doc: cov13PV("nfs: {server: a, path: /y}"), old: cov13PV("nfs: {server: a, path: /x}"),
			site: "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n"},
		{name: "pv: source kind changed", doc: cov13PV("hostPath: {path: /x}"), old: cov13PV("nfs: {server: a, path: /x}"),
			site: "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n"},
		{name: "pv: csi expand secret added", doc: cov13PV("csi: {driver: d, volumeHandle: h, controllerExpandSecretRef: {name: s, namespace: ns}}"), old: cov13PV("csi: {driver: d, volumeHandle: h}")},
		{name: "pv: csi handle changed", doc: cov13PV("csi: {driver: d, volumeHandle: h2}"), old: cov13PV("csi: {driver: d, volumeHandle: h}"),
			site: "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n"},
		{name: "pv: unchanged", doc: cov13PV("nfs: {server: a, path: /x}"), old: cov13PV("nfs: {server: a, path: /x}")},

		// ValidatePersistentVolumeClaimUpdate: the spec is immutable but
		// for what a bound claim may change, with the diff of the specs
		// (the reference stores old by a create, which drops its status:
		// its claims are pending)
		{name: "pvc: pending, size changed", doc: cov13PVC("resources: {requests: {storage: 2Gi}}", "phase: Pending"), old: cov13PVC("resources: {requests: {storage: 1Gi}}", "phase: Pending"),
			site: "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"},
		{name: "pvc: bound, unchanged", doc: cov13PVC("resources: {requests: {storage: 1Gi}}, volumeName: v", "phase: Bound"), old: cov13PVC("resources: {requests: {storage: 1Gi}}, volumeName: v", "phase: Bound")},
		{name: "pvc: bound, volume name changed", doc: cov13PVC("resources: {requests: {storage: 1Gi}}, volumeName: w", "phase: Bound"), old: cov13PVC("resources: {requests: {storage: 1Gi}}, volumeName: v", "phase: Bound"),
			site: "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"},
		{name: "pvc: bound, access modes changed", doc: cov13PVC("accessModes: [ReadWriteMany], resources: {requests: {storage: 1Gi}}", "phase: Bound"), old: cov13PVC("resources: {requests: {storage: 1Gi}}", "phase: Bound"),
			site: "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"},

		// validateService: node ports unique by (nodePort, protocol),
		// zero not compared; port names are checked on their own
		{name: "service: node port repeated", doc: cov13Service("[{name: a, port: 80, nodePort: 30000}, {name: b, port: 81, nodePort: 30000}]"),
			site: "spec.ports[1].nodePort: Duplicate value: 30000"},
		{name: "service: node port repeated thrice", doc: cov13Service("[{name: a, port: 80, nodePort: 30000}, {name: b, port: 81, nodePort: 30000}, {name: c, port: 82, nodePort: 30000, protocol: TCP}]"),
			site: "spec.ports[2].nodePort: Duplicate value: 30000"},
		{name: "service: node port under two protocols", doc: cov13Service("[{name: a, port: 80, nodePort: 30000}, {name: b, port: 80, nodePort: 30000, protocol: UDP}]")},
		{name: "service: node port, protocol defaulted", doc: cov13Service("[{name: a, port: 80, nodePort: 30000, protocol: TCP}, {name: b, port: 81, nodePort: 30000}]"),
			site: "spec.ports[1].nodePort: Duplicate value: 30000"},
		{name: "service: zero node ports", doc: cov13Service("[{name: a, port: 80, nodePort: 0}, {name: b, port: 81, nodePort: 0}]")},
		{name: "service: node port and name repeated", doc: cov13Service("[{name: a, port: 80, nodePort: 30000}, {name: a, port: 81, nodePort: 30000}]"),
			site: "spec.ports[1].nodePort: Duplicate value: 30000"},
		{name: "service: distinct node ports", doc: cov13Service("[{name: a, port: 80, nodePort: 30000}, {name: b, port: 81, nodePort: 30001}]")},
		{name: "service: udp pair repeated", doc: cov13Service("[{name: a, port: 80, nodePort: 30000, protocol: UDP}, {name: b, port: 81, nodePort: 30000}, {name: c, port: 82, nodePort: 30000, protocol: UDP}]"),
			site: "spec.ports[2].nodePort: Duplicate value: 30000"},

		// validateValidatingWebhookConfiguration,
		// validateMutatingWebhookConfiguration: webhook names unique
		{name: "validating webhooks: name repeated", doc: cov13Webhooks("Validating", "a.example.com", "b.example.com", "a.example.com", "a.example.com"),
			site: "webhooks[2].name: Duplicate value: \"a.example.com\""},
		{name: "validating webhooks: distinct names", doc: cov13Webhooks("Validating", "a.example.com", "b.example.com")},
		{name: "validating webhooks: name repeated on update", doc: cov13Webhooks("Validating", "a.example.com", "a.example.com"), old: cov13Webhooks("Validating", "a.example.com"),
			site: "webhooks[1].name: Duplicate value: \"a.example.com\""},
		{name: "mutating webhooks: name repeated", doc: cov13Webhooks("Mutating", "a.example.com", "a.example.com"),
			site: "webhooks[1].name: Duplicate value: \"a.example.com\""},
		{name: "mutating webhooks: name repeated on update", doc: cov13Webhooks("Mutating", "b.example.com", "a.example.com", "b.example.com"), old: cov13Webhooks("Mutating", "a.example.com", "b.example.com"),
			site: "webhooks[2].name: Duplicate value: \"b.example.com\""},

		// validateSingleAllocatableDeviceCapacity: a request policy only
		// with allowMultipleAllocations, checked when the capacity changed
		{name: "slice: request policy, single allocation", doc: cov13Slice("[{name: d, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}, cores: {value: 4}, zz: {value: 2, requestPolicy: {default: 1, validValues: [1]}}}}]"),
			site: "spec.devices[0].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true"},
		{name: "slice: request policy, two devices", doc: cov13Slice("[{name: a, capacity: {mem: {value: 1Gi}}}, {name: b, allowMultipleAllocations: false, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]"),
			site: "spec.devices[1].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true"},
		{name: "slice: request policy, multiple allocations", doc: cov13Slice("[{name: d, allowMultipleAllocations: true, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]")},
		{name: "slice: request policy, capacity changed on update", doc: cov13Slice("[{name: d, capacity: {mem: {value: 2Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]"),
			old:  cov13Slice("[{name: d, allowMultipleAllocations: true, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]"),
			site: "spec.devices[0].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true"},
		{name: "slice: request policy, capacity unchanged on update", doc: cov13Slice("[{name: d, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]"),
			old: cov13Slice("[{name: d, allowMultipleAllocations: true, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]")},
		{name: "slice: request policy, other key added on update", doc: cov13Slice("[{name: d, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}, cores: {value: 4, requestPolicy: {default: 1, validValues: [1]}}}}]"),
			old:       cov13Slice("[{name: d, allowMultipleAllocations: true, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]"),
			site:      "spec.devices[0].capacity[cores].requestPolicy: Forbidden: allowMultipleAllocations must be true",
			kdvMisses: "spec.devices[0].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true"},
		{name: "slice: request policy, key removed on update", doc: cov13Slice("[{name: d, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}, a: {value: 1}}}]"),
			old:       cov13Slice("[{name: d, allowMultipleAllocations: true, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}, a: {value: 1}, b: {value: 1}}}]"),
			site:      "spec.devices[0].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true",
			kdvMisses: "spec.devices[0].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true",
			kdvExtra:  "spec.devices: Forbidden: allowMultipleAllocations must be true"},
		{name: "slice: request policy, unchanged device beside a changed one", doc: cov13Slice("[{name: d, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}, a: {value: 1, requestPolicy: {default: 1, validValues: [1]}}}}, {name: e, capacity: {mem: {value: 2Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]"),
			old:  cov13Slice("[{name: d, allowMultipleAllocations: true, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}, a: {value: 1, requestPolicy: {default: 1, validValues: [1]}}}}, {name: e, allowMultipleAllocations: true, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Mi, validValues: [1Mi]}}}}]"),
			site: "spec.devices[1].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, refErrs := referenceErrors(t, tc.doc, tc.old)
			if tc.site == "" && len(refErrs) > 0 {
				t.Fatalf("the reference rejects (the case is wrong):\n%s", strings.Join(refErrs, "\n"))
			}
			if tc.site != "" && !slices.ContainsFunc(refErrs, func(e string) bool { return strings.Contains(e, tc.site) }) {
				t.Fatalf("the reference does not report %q (the case is wrong):\n%s", tc.site, strings.Join(refErrs, "\n"))
			}
			if tc.kdvMisses != "" {
				if !slices.Contains(refErrs, tc.kdvMisses) {
					t.Fatalf("the reference does not report %q (the case is wrong):\n%s", tc.kdvMisses, strings.Join(refErrs, "\n"))
				}
				refErrs = slices.DeleteFunc(refErrs, func(e string) bool { return e == tc.kdvMisses })
			}
			if tc.kdvExtra != "" {
				refErrs = append(refErrs, tc.kdvExtra)
			}
			got, _ := kdvGatedErrors(t, tc.doc, tc.old, builtin.FeatureGates{})
			// the reference lists a map's keys in Go's random map order,
			// kdv in key order: compared as sets
			if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(refErrs))) {
				t.Errorf("kdv:\n%s\nreference:\n%s", strings.Join(got, "\n"), strings.Join(refErrs, "\n"))
			}
		})
	}
}
