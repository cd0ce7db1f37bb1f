package bench

import (
	"fmt"
	"slices"
	"testing"
)

// gatedLease is a Lease whose spec carries spec (flow-mapping entries).
func gatedLease(spec string) string {
	return fmt.Sprintf(`apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: l, namespace: default}
spec: {holderIdentity: h%s}
`, prefixComma(spec))
}

// gatedSlice is a node-local ResourceSlice of driver dra.example.com with
// spec (YAML lines indented for the spec) and one device d carrying
// device (flow-mapping entries).
func gatedSlice(spec, device string) string {
	return fmt.Sprintf(`apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: dra.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: node1
%s  devices:
  - {name: d%s}
`, spec, prefixComma(device))
}

// gatedClaim is a ResourceClaim whose spec.devices is devices (YAML lines
// indented for it).
func gatedClaim(devices string) string {
	return `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
` + devices
}

func prefixComma(s string) string {
	if s == "" {
		return ""
	}
	return ", " + s
}

// The checks of fields whose feature gate is off by default
// (resource_v1_gated.tags, coordination_v1_gated.tags), with the gate on
// in the reference (featuregatetesting.SetFeatureGateDuringTest) and in
// kdv (--feature-gates): verdicts and the full error strings (field,
// type, detail) must agree. With the gate off both drop the fields.
func TestGated13FieldsMatchApiserver(t *testing.T) {
	const (
		cle    = "CoordinatedLeaderElection=true"
		nar    = "DRANodeAllocatableResources=true"
		lta    = "DRAListTypeAttributes=true"
		pdt    = "DRAResourcePoolStatus=true,DRAPartitionableDevicesType=true"
		ono    = "DRAOptionalNodeOperations=true"
		derive = "DRADerivedAttributes=true"
	)
	nodeAlloc := func(m string) string { return "capacity: {mem: {value: 1Gi}}, nodeAllocatableResources: {" + m + "}" }
	counters := "consumesCounters: [{counterSet: cs, counters: {c: {value: 1}}}]"
	exact := func(attrs string) string {
		return "    requests:\n    - name: r\n      exactly: {deviceClassName: cls, derivedAttributes: [" + attrs + "]}\n"
	}
	sub := func(attrs string) string {
		return "    requests:\n    - name: r\n      firstAvailable:\n      - {name: s, deviceClassName: cls, derivedAttributes: [" + attrs + "]}\n"
	}
	attr := "{name: dra.example.com/x, expression: device.driver}"
	for _, tc := range []struct {
		name     string
		doc      string
		gates    string
		rejected bool
		// kdvExtra is an error kdv reports besides the reference's: the
		// message of k8s.io/api's +k8s:alpha declarative validation,
		// which the apiserver does not report (alpha declarative
		// validation is not authoritative; the hand-written message is).
		kdvExtra string
		// refExtra is an error of another site the reference reports
		// and kdv does not word the same: validation-gen's union of
		// DeviceAttribute prints the value "" where kdv's union rule
		// prints null, and validateDeviceAttribute's own "exactly one
		// value must be specified" (a non-nil empty list counts as
		// set there, not in the union) is not declared.
		refExtra string
	}{
		// ValidateLeaseSpec, ValidateCoordinatedLeaseStrategy
		{name: "lease: gate off, dropped", doc: gatedLease("strategy: bogus, preferredHolder: p")},
		{name: "lease: holder without strategy", doc: gatedLease("preferredHolder: p"), gates: cle, rejected: true},
		{name: "lease: empty holder without strategy", doc: gatedLease(`preferredHolder: ""`), gates: cle},
		{name: "lease: holder with strategy", doc: gatedLease("strategy: OldestEmulationVersion, preferredHolder: p"), gates: cle},
		{name: "lease: unknown strategy", doc: gatedLease("strategy: Newest"), gates: cle, rejected: true},
		{name: "lease: empty strategy", doc: gatedLease(`strategy: ""`), gates: cle, rejected: true},
		{name: "lease: holder with empty strategy", doc: gatedLease(`strategy: "", preferredHolder: p`), gates: cle, rejected: true},
		{name: "lease: qualified strategy", doc: gatedLease("strategy: example.com/mine"), gates: cle},
		{name: "lease: bad qualified strategy", doc: gatedLease("strategy: example.com/-mine"), gates: cle, rejected: true},
		{name: "lease: two slashes", doc: gatedLease("strategy: a/b/c"), gates: cle, rejected: true},
		{name: "lease: bad prefix and name", doc: gatedLease("strategy: Ex_/-a"), gates: cle, rejected: true},
		{name: "lease: empty name", doc: gatedLease("strategy: example.com/"), gates: cle, rejected: true},

		// validateNodeAllocatableResources, validateNodeAllocatableMapping,
		// validateNodeAllocatableOverheadMapping
		{name: "node allocatable: gate off, dropped", doc: gatedSlice("", nodeAlloc("gpu: {}"))},
		{name: "node allocatable: valid mapping", doc: gatedSlice("", nodeAlloc("memory: {mapping: {capacityKey: mem, capacityMultiplier: 1}}")), gates: nar},
		{name: "node allocatable: valid hugepages overhead", doc: gatedSlice("", nodeAlloc("hugepages-2Mi: {overhead: {perPod: 0}}")), gates: nar},
		{name: "node allocatable: valid cpu device multiplier", doc: gatedSlice("", nodeAlloc("cpu: {mapping: {deviceMultiplier: 1m}}")), gates: nar},
		{name: "node allocatable: not allocatable", doc: gatedSlice("", nodeAlloc("nvidia.com/gpu: {overhead: {perPod: 1}}")), gates: nar, rejected: true},
		{name: "node allocatable: neither", doc: gatedSlice("", nodeAlloc("cpu: {}")), gates: nar, rejected: true},
		{name: "node allocatable: empty capacity key", doc: gatedSlice("", nodeAlloc(`memory: {mapping: {capacityKey: "", capacityMultiplier: 1}}`)), gates: nar, rejected: true},
		{name: "node allocatable: unknown capacity key", doc: gatedSlice("", nodeAlloc("memory: {mapping: {capacityKey: other, capacityMultiplier: 1}}")), gates: nar, rejected: true},
		{name: "node allocatable: no capacity", doc: gatedSlice("", "nodeAllocatableResources: {memory: {mapping: {capacityKey: mem, capacityMultiplier: 1}}}"), gates: nar, rejected: true},
		{name: "node allocatable: key without multiplier", doc: gatedSlice("", nodeAlloc("memory: {mapping: {capacityKey: mem}}")), gates: nar, rejected: true,
			kdvExtra: "spec.devices[0].nodeAllocatableResources[memory].mapping.capacityMultiplier: Required value: must be set when capacityKey is set"},
		{name: "node allocatable: zero multiplier", doc: gatedSlice("", nodeAlloc("memory: {mapping: {capacityKey: mem, capacityMultiplier: 0}}")), gates: nar, rejected: true},
		{name: "node allocatable: negative multiplier", doc: gatedSlice("", nodeAlloc("memory: {mapping: {capacityKey: mem, capacityMultiplier: -1m}}")), gates: nar, rejected: true},
		{name: "node allocatable: zero device multiplier", doc: gatedSlice("", nodeAlloc("cpu: {mapping: {deviceMultiplier: 0}}")), gates: nar, rejected: true},
		{name: "node allocatable: multiplier without key", doc: gatedSlice("", nodeAlloc("memory: {mapping: {capacityMultiplier: 2, deviceMultiplier: 1}}")), gates: nar, rejected: true,
			kdvExtra: "spec.devices[0].nodeAllocatableResources[memory].mapping.capacityKey: Required value: must be set when capacityMultiplier is set"},
		{name: "node allocatable: empty overhead", doc: gatedSlice("", nodeAlloc("cpu: {overhead: {}}")), gates: nar, rejected: true},
		{name: "node allocatable: negative per pod", doc: gatedSlice("", nodeAlloc("cpu: {overhead: {perPod: -1m}}")), gates: nar, rejected: true},
		{name: "node allocatable: negative per container", doc: gatedSlice("", nodeAlloc("cpu: {overhead: {perPod: 1, perContainer: -1}}")), gates: nar, rejected: true},
		{name: "node allocatable: zero per container", doc: gatedSlice("", nodeAlloc("cpu: {overhead: {perContainer: 0}}")), gates: nar},

		// validateDeviceAttribute (list-valued attributes)
		{name: "list attributes: gate off, dropped", doc: gatedSlice("", "attributes: {a: {int: 1, bools: []}}")},
		{name: "list attributes: bools", doc: gatedSlice("", "attributes: {a: {bools: [true]}}"), gates: lta},
		{name: "list attributes: empty bools", doc: gatedSlice("", "attributes: {a: {bools: []}}"), gates: lta, rejected: true,
			refExtra: "spec.devices[0].attributes[a]: Invalid value: \"\": must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`", kdvExtra: "spec.devices[0].attributes[a]: Invalid value: null: must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`"},
		{name: "list attributes: empty bools with int", doc: gatedSlice("", "attributes: {a: {int: 1, bools: []}}"), gates: lta, rejected: true,
			refExtra: "spec.devices[0].attributes[a]: Invalid value: {\"IntValue\":1,\"BoolValue\":null,\"StringValue\":null,\"VersionValue\":null,\"IntValues\":null,\"BoolValues\":[],\"StringValues\":null,\"VersionValues\":null}: exactly one value must be specified"},
		{name: "list attributes: empty ints", doc: gatedSlice("", "attributes: {a: {ints: []}}"), gates: lta, rejected: true,
			refExtra: "spec.devices[0].attributes[a]: Invalid value: \"\": must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`", kdvExtra: "spec.devices[0].attributes[a]: Invalid value: null: must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`"},
		{name: "list attributes: empty ints with int", doc: gatedSlice("", "attributes: {a: {int: 1, ints: []}}"), gates: lta, rejected: true,
			refExtra: "spec.devices[0].attributes[a]: Invalid value: {\"IntValue\":1,\"BoolValue\":null,\"StringValue\":null,\"VersionValue\":null,\"IntValues\":[],\"BoolValues\":null,\"StringValues\":null,\"VersionValues\":null}: exactly one value must be specified"},
		{name: "list attributes: empty strings", doc: gatedSlice("", "attributes: {a: {strings: []}}"), gates: lta, rejected: true,
			refExtra: "spec.devices[0].attributes[a]: Invalid value: \"\": must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`", kdvExtra: "spec.devices[0].attributes[a]: Invalid value: null: must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`"},
		{name: "list attributes: empty strings with int", doc: gatedSlice("", "attributes: {a: {int: 1, strings: []}}"), gates: lta, rejected: true,
			refExtra: "spec.devices[0].attributes[a]: Invalid value: {\"IntValue\":1,\"BoolValue\":null,\"StringValue\":null,\"VersionValue\":null,\"IntValues\":null,\"BoolValues\":null,\"StringValues\":[],\"VersionValues\":null}: exactly one value must be specified"},
		{name: "list attributes: empty versions", doc: gatedSlice("", "attributes: {a: {versions: []}}"), gates: lta, rejected: true,
			refExtra: "spec.devices[0].attributes[a]: Invalid value: \"\": must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`", kdvExtra: "spec.devices[0].attributes[a]: Invalid value: null: must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`"},
		{name: "list attributes: empty versions with int", doc: gatedSlice("", "attributes: {a: {int: 1, versions: []}}"), gates: lta, rejected: true,
			refExtra: "spec.devices[0].attributes[a]: Invalid value: {\"IntValue\":1,\"BoolValue\":null,\"StringValue\":null,\"VersionValue\":null,\"IntValues\":null,\"BoolValues\":null,\"StringValues\":null,\"VersionValues\":[]}: exactly one value must be specified"},
		{name: "list attributes: versions", doc: gatedSlice("", "attributes: {a: {versions: [1.0.0]}}"), gates: lta},

		// validateSkipNodeOperations
		{name: "skip operations: gate off, dropped", doc: gatedSlice("  skipNodeOperations: [NodePrepareResources]\n", "")},
		{name: "skip operations: prepare only", doc: gatedSlice("  skipNodeOperations: [NodePrepareResources]\n", ""), gates: ono, rejected: true},
		{name: "skip operations: prepare and unprepare", doc: gatedSlice("  skipNodeOperations: [NodePrepareResources, NodeUnprepareResources]\n", ""), gates: ono},
		{name: "skip operations: prepare and all", doc: gatedSlice("  skipNodeOperations: [NodePrepareResources, \"*\"]\n", ""), gates: ono},
		{name: "skip operations: unprepare only", doc: gatedSlice("  skipNodeOperations: [NodeUnprepareResources]\n", ""), gates: ono},

		// validatePartitionTypeAttribute
		{name: "partition type: gate off, dropped", doc: gatedSlice("  partitionTypeAttribute: dra.example.com/type\n", "")},
		{name: "partition type: no counters", doc: gatedSlice("  partitionTypeAttribute: dra.example.com/type\n", "attributes: {dra.example.com/type: {string: full}}"), gates: pdt, rejected: true},
		{name: "partition type: string", doc: gatedSlice("  partitionTypeAttribute: dra.example.com/type\n", counters+", attributes: {dra.example.com/type: {string: full}}"), gates: pdt},
		{name: "partition type: bare string", doc: gatedSlice("  partitionTypeAttribute: dra.example.com/type\n", counters+", attributes: {type: {string: full}}"), gates: pdt},
		{name: "partition type: not a string", doc: gatedSlice("  partitionTypeAttribute: dra.example.com/type\n", counters+", attributes: {dra.example.com/type: {int: 1}}"), gates: pdt, rejected: true},

		// validateDeviceDerivedAttribute
		{name: "derived: gate off, dropped", doc: gatedClaim(exact(attr))},
		{name: "derived: unreferenced", doc: gatedClaim(exact(attr)), gates: derive, rejected: true},
		{name: "derived: global match", doc: gatedClaim(exact(attr) + "    constraints:\n    - {matchAttribute: dra.example.com/x}\n"), gates: derive},
		{name: "derived: distinct on the request", doc: gatedClaim(exact(attr) + "    constraints:\n    - {requests: [r], distinctAttribute: dra.example.com/x}\n"), gates: derive},
		{name: "derived: other attribute", doc: gatedClaim(exact(attr) + "    constraints:\n    - {requests: [r], matchAttribute: dra.example.com/y}\n"), gates: derive, rejected: true},
		{name: "derived: subrequest unreferenced", doc: gatedClaim(sub(attr)), gates: derive, rejected: true},
		{name: "derived: subrequest by parent", doc: gatedClaim(sub(attr) + "    constraints:\n    - {requests: [r], matchAttribute: dra.example.com/x}\n"), gates: derive},
		{name: "derived: subrequest by name", doc: gatedClaim(sub(attr) + "    constraints:\n    - {requests: [r/s], matchAttribute: dra.example.com/x}\n"), gates: derive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fg := setGates(t, tc.gates)
			ref, refErrs := referenceErrors(t, tc.doc, "")
			if tc.refExtra != "" {
				if i := slices.Index(refErrs, tc.refExtra); i >= 0 {
					refErrs = slices.Delete(refErrs, i, i+1)
				} else {
					t.Errorf("known reference error %q gone: %q", tc.refExtra, refErrs)
				}
			}
			kdvErrs, warnings := kdvGatedErrors(t, tc.doc, "", fg)
			if tc.kdvExtra != "" {
				if i := slices.Index(kdvErrs, tc.kdvExtra); i >= 0 {
					kdvErrs = slices.Delete(kdvErrs, i, i+1)
				} else {
					t.Errorf("known extra error %q gone: %q", tc.kdvExtra, kdvErrs)
				}
			}
			slices.Sort(refErrs)
			slices.Sort(kdvErrs)
			if ref.Rejected() != tc.rejected || !slices.Equal(refErrs, kdvErrs) {
				t.Errorf("want rejected %v\nreference: %q\nkdv:       %q (warnings %q)", tc.rejected, refErrs, kdvErrs, warnings)
			}
		})
	}
}
