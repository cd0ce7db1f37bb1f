package bench

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// gatedPod is a Pod whose container carries container (a flow-mapping
// entry) and whose spec carries extra (YAML lines indented for the spec).
func gatedPod(container, extra string) string {
	if container != "" {
		container = ", " + container
	}
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: c, image: i%s}
%s`, container, extra)
}

// gatedJob is a Job whose spec carries extra (YAML lines indented for the
// spec); its selector is manual, so that an update keeps it.
func gatedJob(extra string) string {
	return `apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: default}
spec:
  manualSelector: true
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      restartPolicy: Never
      containers:
      - {name: c, image: i}
` + extra
}

// gatedCronJob is a CronJob whose Job template's spec carries extra (YAML
// lines indented for that spec).
func gatedCronJob(extra string) string {
	return `apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default}
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
          - {name: c, image: i}
` + extra
}

// The checks of fields whose feature gate is off by default
// (bench/coverage/undeclarable.txt's gate-off sites of issue 12), with the
// gate on in the reference (featuregatetesting) and in kdv
// (--feature-gates): the full errors (field, type, value, detail) must be
// the same, in any order. Each check has a rejected row and an accepted
// one near its boundary.
func TestGateOffSitesMatchApiserver(t *testing.T) {
	const (
		stopGate  = "ContainerStopSignals=true"
		bindGate  = "VolumeBindMountOptions=true"
		h2cGate   = "H2CContainerProbe=true"
		grpcGate  = "GRPCContainerProbeTLS=true"
		modeGate  = "EmptyDirVolumeMode=true"
		userGate  = "AtomicWriteVolumeUserFields=true"
		groupGate = "GenericWorkload=true"
		jobGate   = "GenericWorkload=true,WorkloadWithJob=true"
	)
	stop := func(v string) string { return "lifecycle: {stopSignal: " + v + "}" }
	linux, windows := "  os: {name: linux}\n", "  os: {name: windows}\n"
	mount := func(opts string) string {
		return "volumeMounts: [{name: v, mountPath: /v, bindMountOptions: [" + opts + "]}]"
	}
	emptyDirVol := "  volumes: [{name: v, emptyDir: {}}]\n"
	imageVol := "  volumes: [{name: v, image: {reference: img}}]\n"
	probe := func(httpGet string) string { return "readinessProbe: {httpGet: {port: 80" + httpGet + "}}" }
	vol := func(v string) string { return "  volumes: [{name: v, " + v + "}]\n" }
	group := func(g string) string { return "  schedulingGroup: " + g + "\n" }
	gang := func(minCount string) string {
		return "  scheduling: {schedulingPolicy: {gang: {minCount: " + minCount + "}}}\n"
	}
	for _, tc := range []struct {
		name     string
		doc, old string
		gates    string
		rejected bool
	}{
		// ContainerStopSignals: validateStopSignal
		{name: "stopSignal without os", doc: gatedPod(stop("SIGTERM"), ""), gates: stopGate, rejected: true},
		{name: "stopSignal without os, second container", doc: gatedPod("", "  - {name: d, image: i, "+stop("SIGTERM")+"}\n"), gates: stopGate, rejected: true},
		{name: "stopSignal linux unsupported", doc: gatedPod(stop("SIGBOGUS"), linux), gates: stopGate, rejected: true},
		{name: "stopSignal linux supported", doc: gatedPod(stop("SIGRTMAX-14"), linux), gates: stopGate},
		{name: "stopSignal windows unsupported", doc: gatedPod(stop("SIGUSR1"), windows), gates: stopGate, rejected: true},
		{name: "stopSignal windows supported", doc: gatedPod(stop("SIGKILL"), windows), gates: stopGate},
		{name: "stopSignal sidecar without os", doc: gatedPod("", "  initContainers: [{name: s, image: i, restartPolicy: Always, "+stop("SIGTERM")+"}]\n"), gates: stopGate, rejected: true},
		{name: "stopSignal sidecar windows unsupported", doc: gatedPod("", windows+"  initContainers: [{name: s, image: i, restartPolicy: Always, "+stop("SIGINT")+"}]\n"), gates: stopGate, rejected: true},
		{name: "stopSignal sidecar linux supported", doc: gatedPod("", linux+"  initContainers: [{name: s, image: i, restartPolicy: Always, "+stop("SIGINT")+"}]\n"), gates: stopGate},
		{name: "stopSignal plain init container: lifecycle forbidden", doc: gatedPod("", linux+"  initContainers: [{name: s, image: i, "+stop("SIGBOGUS")+"}]\n"), gates: stopGate, rejected: true},
		{name: "stopSignal update", doc: gatedPod(stop("SIGBOGUS"), linux), old: gatedPod(stop("SIGTERM"), linux), gates: stopGate, rejected: true},

		// VolumeBindMountOptions: validateBindMountOptions, ValidateVolumeMounts
		{name: "bindMountOptions supported", doc: gatedPod(mount("noexec, nodev, nosuid"), emptyDirVol), gates: bindGate},
		{name: "bindMountOptions unsupported", doc: gatedPod(mount("noexec, ro"), emptyDirVol), gates: bindGate, rejected: true},
		{name: "bindMountOptions duplicate", doc: gatedPod(mount("nodev, noexec, nodev"), emptyDirVol), gates: bindGate, rejected: true},
		{name: "bindMountOptions unsupported twice", doc: gatedPod(mount("x, x"), emptyDirVol), gates: bindGate, rejected: true},
		{name: "bindMountOptions on an image volume", doc: gatedPod(mount("noexec"), imageVol), gates: bindGate, rejected: true},
		{name: "no bindMountOptions on an image volume", doc: gatedPod("volumeMounts: [{name: v, mountPath: /v}]", imageVol), gates: bindGate},
		{name: "bindMountOptions of an init container on an image volume", doc: gatedPod("", imageVol+"  initContainers: [{name: s, image: i, "+mount("nosuid")+"}]\n"), gates: bindGate, rejected: true},

		// H2CContainerProbe: validateHTTPGetAction
		{name: "protocol HTTP2", doc: gatedPod(probe(", protocol: HTTP2"), ""), gates: h2cGate},
		{name: "protocol HTTP1 with https and host", doc: gatedPod(probe(", protocol: HTTP1, scheme: HTTPS, host: h"), ""), gates: h2cGate},
		{name: "protocol unsupported", doc: gatedPod(probe(", protocol: HTTP3"), ""), gates: h2cGate, rejected: true},
		{name: "protocol empty", doc: gatedPod(probe(`, protocol: ""`), ""), gates: h2cGate, rejected: true},
		{name: "protocol HTTP2 with https", doc: gatedPod(probe(", protocol: HTTP2, scheme: HTTPS"), ""), gates: h2cGate, rejected: true},
		{name: "protocol HTTP2 with host", doc: gatedPod(probe(", protocol: HTTP2, host: h"), ""), gates: h2cGate, rejected: true},
		{name: "protocol HTTP2 with https and host", doc: gatedPod(probe(", protocol: HTTP2, scheme: HTTPS, host: h"), ""), gates: h2cGate, rejected: true},
		{name: "protocol HTTP2 in a lifecycle handler with https", doc: gatedPod("lifecycle: {postStart: {httpGet: {path: /, port: 80, protocol: HTTP2, scheme: HTTPS}}}", ""), gates: h2cGate, rejected: true},

		// GRPCContainerProbeTLS: validateGRPCAction
		{name: "grpc mode TLS", doc: gatedPod("livenessProbe: {grpc: {port: 9000, mode: TLS}}", ""), gates: grpcGate},
		{name: "grpc mode unsupported", doc: gatedPod("livenessProbe: {grpc: {port: 9000, mode: tls}}", ""), gates: grpcGate, rejected: true},

		// EmptyDirVolumeMode: validateVolumeSource
		{name: "emptyDir mode 01777", doc: gatedPod("", vol("emptyDir: {mode: 1023}")), gates: modeGate},
		{name: "emptyDir mode 0", doc: gatedPod("", vol("emptyDir: {mode: 0}")), gates: modeGate},
		{name: "emptyDir mode above 01777", doc: gatedPod("", vol("emptyDir: {mode: 1024}")), gates: modeGate, rejected: true},
		{name: "emptyDir mode negative", doc: gatedPod("", vol("emptyDir: {mode: -1}")), gates: modeGate, rejected: true},

		// AtomicWriteVolumeUserFields: validateUserField
		{name: "secret defaultUser max", doc: gatedPod("", vol("secret: {secretName: s, defaultUser: 2147483647}")), gates: userGate},
		{name: "secret defaultUser above max", doc: gatedPod("", vol("secret: {secretName: s, defaultUser: 2147483648}")), gates: userGate, rejected: true},
		{name: "configMap item user negative", doc: gatedPod("", vol("configMap: {name: c, defaultUser: 0, items: [{key: k, path: p, user: -1}]}")), gates: userGate, rejected: true},
		{name: "downwardAPI users", doc: gatedPod("", vol("downwardAPI: {defaultUser: -1, items: [{path: p, fieldRef: {fieldPath: metadata.name}, user: 2147483648}]}")), gates: userGate, rejected: true},
		{name: "downwardAPI users of two items", doc: gatedPod("", vol("downwardAPI: {items: [{path: p, fieldRef: {fieldPath: metadata.name}, user: -1}, {path: q, fieldRef: {fieldPath: metadata.name}, user: 1}, {path: r, fieldRef: {fieldPath: metadata.name}, user: -3}]}")), gates: userGate, rejected: true},
		{name: "projected downwardAPI user", doc: gatedPod("", vol("projected: {sources: [{downwardAPI: {items: [{path: p, fieldRef: {fieldPath: metadata.name}, user: -1}]}}]}")), gates: userGate, rejected: true},
		{name: "downwardAPI users valid", doc: gatedPod("", vol("downwardAPI: {defaultUser: 1000, items: [{path: p, fieldRef: {fieldPath: metadata.name}, user: 0}]}")), gates: userGate},
		{name: "projected users", doc: gatedPod("", vol("projected: {defaultUser: -5, sources: [{serviceAccountToken: {path: t, user: -1}}, {configMap: {name: c, items: [{key: k, path: p, user: 2147483648}]}}, {clusterTrustBundle: {signerName: a.b/c, path: b, user: -2}}]}")), gates: userGate, rejected: true},
		{name: "projected users valid", doc: gatedPod("", "  serviceAccountName: sa\n"+vol("projected: {defaultUser: 5, sources: [{serviceAccountToken: {path: t, user: 1}}, {secret: {name: s, items: [{key: k, path: p, user: 2147483647}]}}]}")), gates: userGate},

		// GenericWorkload: validateSchedulingGroup, ValidatePodSpec
		{name: "schedulingGroup valid", doc: gatedPod("", group("{podGroupName: a.b-c}")), gates: groupGate},
		{name: "schedulingGroup empty", doc: gatedPod("", group("{}")), gates: groupGate, rejected: true},
		{name: "schedulingGroup bad name", doc: gatedPod("", group("{podGroupName: Bad_Name}")), gates: groupGate, rejected: true},
		{name: "schedulingGroup empty name", doc: gatedPod("", group(`{podGroupName: ""}`)), gates: groupGate, rejected: true},
		{name: "schedulingGroup name of 253", doc: gatedPod("", group("{podGroupName: "+strings.Repeat("a", 253)+"}")), gates: groupGate},
		{name: "schedulingGroup name of 254", doc: gatedPod("", group("{podGroupName: "+strings.Repeat("a", 254)+"}")), gates: groupGate, rejected: true},
		{name: "schedulingGroup name of 254, bad", doc: gatedPod("", group("{podGroupName: "+strings.Repeat("A", 254)+"}")), gates: groupGate, rejected: true},
		{name: "schedulingGroup in a template", doc: gatedDeployment("", "      schedulingGroup: {podGroupName: -x}\n"), gates: groupGate, rejected: true},
		{name: "schedulingGroup with evictionResponders", doc: gatedPod("", group("{podGroupName: g}")+"  evictionResponders: [{name: example.com/r, priority: 1000}]\n"), gates: groupGate + ",EvictionRequestAPI=true", rejected: true},
		{name: "evictionResponders without schedulingGroup", doc: gatedPod("", "  evictionResponders: [{name: example.com/r, priority: 1000}]\n"), gates: groupGate + ",EvictionRequestAPI=true"},

		// WorkloadWithJob: validateGangMinCount, validateJobSchedulingUpdate
		{name: "gang minCount at parallelism", doc: gatedJob("  parallelism: 3\n" + gang("3")), gates: jobGate},
		{name: "gang minCount above parallelism", doc: gatedJob("  parallelism: 3\n" + gang("4")), gates: jobGate, rejected: true},
		{name: "gang minCount above default parallelism", doc: gatedJob(gang("2")), gates: jobGate, rejected: true},
		{name: "gang minCount at default parallelism", doc: gatedJob(gang("1")), gates: jobGate},
		{name: "gang minCount in a CronJob", doc: gatedCronJob("      parallelism: 2\n    " + gang("5")), gates: jobGate, rejected: true},
		{name: "gang minCount changed", doc: gatedJob("  parallelism: 3\n" + gang("2")), old: gatedJob("  parallelism: 3\n" + gang("3")), gates: jobGate},
		{name: "gang to basic", doc: gatedJob("  scheduling: {schedulingPolicy: {basic: {}}}\n"), old: gatedJob(gang("1")), gates: jobGate, rejected: true},
		{name: "basic to gang", doc: gatedJob(gang("1")), old: gatedJob("  scheduling: {schedulingPolicy: {basic: {}}}\n"), gates: jobGate, rejected: true},
		{name: "gang to basic in a CronJob: not checked", doc: gatedCronJob("      scheduling: {schedulingPolicy: {basic: {}}}\n"), old: gatedCronJob("    " + gang("1")), gates: jobGate},
		{name: "basic kept", doc: gatedJob("  scheduling: {schedulingPolicy: {basic: {}}}\n"), old: gatedJob("  scheduling: {schedulingPolicy: {basic: {}}}\n"), gates: jobGate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fg := setGates(t, tc.gates)
			ref, want := referenceErrors(t, tc.doc, tc.old)
			got, _ := kdvGatedErrors(t, tc.doc, tc.old, fg)
			slices.Sort(want)
			slices.Sort(got)
			t.Logf("reference: %q", want)
			if ref.Rejected() != tc.rejected {
				t.Errorf("reference: rejected %v, want %v: %q", ref.Rejected(), tc.rejected, want)
			}
			if !slices.Equal(want, got) {
				t.Errorf("errors differ\nreference: %q\nkdv:       %q", want, got)
			}
		})
	}
}
