package bench

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// trickyCase is an explicit input of issue 11's list: valid manifests
// that look wrong to a schema (zero values the defaulters fill in,
// duplicates the apiserver only warns about, line-wrapped base64, a
// namespace on a cluster-scoped kind), and type errors the typed decoder
// rejects.
type trickyCase struct {
	Name   string
	Doc    string
	Reject bool // the apiserver's verdict, asserted on the reference
}

const trickyPod = `apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
    image: nginx
`

// podWith adds lines to the container (indent 4) or to the pod spec
// (indent 2).
func podWith(container, spec string) string {
	return trickyPod + container + spec
}

const trickyService = `apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  selector:
    app: a
  ports:
  - port: 80
`

const trickyDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  selector:
    matchLabels:
      app: a
  template:
    metadata:
      labels:
        app: a
    spec:
      containers:
      - name: c
        image: nginx
`

func trickySecret(eol string) string {
	data := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("line-wrapped secret data ", 8)))
	var lines []string
	for len(data) > 76 {
		lines = append(lines, data[:76])
		data = data[76:]
	}
	lines = append(lines, data)
	j := strings.Join(lines, eol)
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":%q}}`, j)
}

const trickyStatefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: i, volumeMounts: [{name: data, mountPath: /d}]}]
      volumes: [{name: data, persistentVolumeClaim: {readOnly: true}}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`

var trickyCases = []trickyCase{
	{"imagePullPolicy: \"\"", podWith("    imagePullPolicy: \"\"\n", ""), false},
	{"ports[].protocol: \"\"", podWith("    ports:\n    - containerPort: 80\n      protocol: \"\"\n", ""), false},
	{"httpHeaders[] without a value", podWith("    readinessProbe:\n      httpGet: {port: 80, httpHeaders: [{name: X-Probe}]}\n", ""), false},
	{"httpHeaders[] without a name", podWith("    readinessProbe:\n      httpGet: {port: 80, httpHeaders: [{value: v}]}\n", ""), true},
	{"HPA scaleDown policies: []", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}\n  maxReplicas: 3\n  behavior: {scaleDown: {policies: []}}\n", true},
	{"HPA scaleDown without policies", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}\n  maxReplicas: 3\n  behavior: {scaleDown: {stabilizationWindowSeconds: 60}}\n", false},
	{"dnsPolicy: \"\"", podWith("", "  dnsPolicy: \"\"\n"), false},
	{"restartPolicy: \"\"", podWith("", "  restartPolicy: \"\"\n"), false},
	{"terminationMessagePolicy: \"\"", podWith("    terminationMessagePolicy: \"\"\n", ""), false},
	{"Service type: \"\"", trickyService + "  type: \"\"\n", false},
	{"Service sessionAffinity: \"\"", trickyService + "  sessionAffinity: \"\"\n", false},
	{"duplicate env names", podWith("    env:\n    - name: A\n      value: \"1\"\n    - name: A\n      value: \"2\"\n", ""), false},
	{"duplicate container ports (same containerPort+protocol)", podWith("    ports:\n    - containerPort: 80\n    - containerPort: 80\n", ""), false},
	{"duplicate imagePullSecrets", podWith("", "  imagePullSecrets:\n  - name: r\n  - name: r\n"), false},
	{"duplicate hostAliases", podWith("", "  hostAliases:\n  - ip: 10.0.0.1\n    hostnames: [a]\n  - ip: 10.0.0.1\n    hostnames: [b]\n"), false},
	{"Secret data base64 wrapped at 76 columns (\\n)", trickySecret("\n"), false},
	{"Secret data base64 wrapped at 76 columns (\\r\\n)", trickySecret("\r\n"), false},
	{"metadata.namespace on ClusterRole", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\n  namespace: default\nrules: []\n", false},
	{"metadata.namespace on Namespace", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns1\n  namespace: other\n", false},
	{"metadata.namespace on PriorityClass", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: pc\n  namespace: default\nvalue: 10\n", false},
	{"cpu: 0.5 (a number quantity)", podWith("    resources:\n      limits:\n        cpu: 0.5\n", ""), false},
	{"env value: null", podWith("    env:\n    - name: A\n      value: null\n", ""), false},
	{"targetPort: named port", strings.Replace(trickyService, "  - port: 80\n", "  - port: 80\n    targetPort: http\n", 1), false},
	{"Service ports[].protocol: \"\"", strings.Replace(trickyService, "  - port: 80\n", "  - port: 80\n    protocol: \"\"\n", 1), false},
	{"Deployment strategy.type: \"\"", trickyDeployment + "  strategy:\n    type: \"\"\n", false},
	{"Deployment template restartPolicy: \"\"", trickyDeployment + "      restartPolicy: \"\"\n", false},

	{"cpu: true", podWith("    resources:\n      limits:\n        cpu: true\n", ""), true},
	{"cpu: \"1.5.5\"", podWith("    resources:\n      limits:\n        cpu: \"1.5.5\"\n", ""), true},
	{"replicas: 4294967296 (int32 overflow)", strings.Replace(trickyDeployment, "spec:\n  selector", "spec:\n  replicas: 4294967296\n  selector", 1), true},
	{"replicas: \"3\" (string for int32)", strings.Replace(trickyDeployment, "spec:\n  selector", "spec:\n  replicas: \"3\"\n  selector", 1), true},
	{"replicas: 1.5", strings.Replace(trickyDeployment, "spec:\n  selector", "spec:\n  replicas: 1.5\n  selector", 1), true},
	{"image: 5 (number for string)", strings.Replace(trickyPod, "image: nginx", "image: 5", 1), true},
	{"containerPort: \"80\" (string for int32)", podWith("    ports:\n    - containerPort: \"80\"\n", ""), true},
	{"label value: 1 (number for string)", strings.Replace(trickyPod, "  name: p\n", "  name: p\n  labels:\n    a: 1\n", 1), true},
	{"hostNetwork: \"true\" (string for bool)", podWith("", "  hostNetwork: \"true\"\n"), true},
	{"targetPort: true", strings.Replace(trickyService, "  - port: 80\n", "  - port: 80\n    targetPort: true\n", 1), true},
	{"ConfigMap data value: 3 (number for string)", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: 3\n", true},
	{"Secret data not base64", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"not base64!"}}`, true},
	{"duplicate JSON key", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1","a":"2"}}`, true},
	{"unknown field", podWith("    imagePullPolcy: Always\n", ""), true},
	{"ports[].protocol: tcp (lowercase)", podWith("    ports:\n    - containerPort: 80\n      protocol: tcp\n", ""), true},
	{"Deployment template restartPolicy: Never", trickyDeployment + "      restartPolicy: Never\n", true},
	{"Deployment selector does not match template", strings.Replace(trickyDeployment, "      app: a\n  template", "      app: b\n  template", 1), true},
	{"Pod name with uppercase", strings.Replace(trickyPod, "name: p", "name: P", 1), true},
	// names.SimpleNameGenerator cuts generateName to 58 bytes before
	// adding 5 random characters; Pods check generateName as a prefix too.
	{"Pod generateName of 300 bytes", strings.Replace(trickyPod, "name: p", "generateName: "+strings.Repeat("a", 300), 1), true},
	{"Pod generateName of 250 bytes", strings.Replace(trickyPod, "name: p", "generateName: "+strings.Repeat("a", 250), 1), false},
	{"duplicate container names", podWith("  - name: c\n    image: nginx\n", ""), true},
	{"duplicate Service port names", strings.Replace(trickyService, "  - port: 80\n", "  - port: 80\n    name: a\n  - port: 81\n    name: a\n", 1), true},
	// ValidateStatefulSetSpec replaces template volumes named like a claim
	// template before validating the template.
	{"StatefulSet volume named like a claim template, without claimName", trickyStatefulSet, false},
	// ContainerStopSignals is alpha (off): the strategy drops the field
	// before validating, whatever its value.
	{"lifecycle.stopSignal: SIGBOGUS (gate off)", podWith("    lifecycle: {stopSignal: SIGBOGUS}\n", ""), false},
	// Non-overcommitable resources: request and limit compare as
	// quantities, whatever their notation.
	{"hugepages request 2Mi, limit 2097152", podWith("    resources: {requests: {hugepages-2Mi: 2Mi, memory: 1Gi}, limits: {hugepages-2Mi: \"2097152\", memory: 1Gi}}\n", ""), false},
	{"StatefulSet volume without claimName", strings.Replace(trickyStatefulSet, "- metadata: {name: data}", "- metadata: {name: other}", 1), true},
	{"Service type: Bogus", trickyService + "  type: Bogus\n", true},
	// RawExtension and FieldsV1 keep any JSON value: a ControllerRevision
	// requires an object on create; managed fields are not validated.
	{"ControllerRevision data: a string", "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\nrevision: 1\ndata: \"x\"\n", true},
	{"managedFields[].fieldsV1: a string", strings.Replace(trickyPod, "  name: p\n", "  name: p\n  managedFields: [{manager: m, operation: Apply, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: x}]\n", 1), false},
}

// runTrickyCases runs the explicit inputs on both sides, asserts the
// reference's verdict (checking the harness itself), logs kdv's and
// returns the markdown table.
func runTrickyCases(t *testing.T) string {
	var b strings.Builder
	b.WriteString("| input | apiserver | kdv | |\n|---|---|---|---|\n")
	fr, miss := 0, 0
	for _, c := range trickyCases {
		ref, err := refBuiltin([]byte(c.Doc), nil)
		if err != nil {
			t.Errorf("%s: reference: %v", c.Name, err)
			continue
		}
		if ref.Rejected != c.Reject {
			t.Errorf("%s: the reference says %s, the case expects reject=%v", c.Name, ref, c.Reject)
		}
		kdv, err := kdvBuiltin([]byte(c.Doc), nil)
		mark := ""
		switch {
		case err != nil:
			t.Errorf("%s: kdv: %v", c.Name, err)
			continue
		case kdv.Rejected && !ref.Rejected:
			mark, fr = "**false rejection**", fr+1
		case ref.Rejected && !kdv.Rejected:
			mark, miss = "miss", miss+1
		case !sameMessages(ref.Messages, kdv.Messages):
			mark = "other message"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdEscape(c.Name), mdEscape(short(ref.String(), 300)), mdEscape(short(kdv.String(), 300)), mark)
	}
	t.Logf("tricky inputs: %d cases, %d false rejections, %d misses\n%s", len(trickyCases), fr, miss, b.String())
	if fr > 0 {
		t.Errorf("tricky inputs: %d false rejections (kdv rejects what the apiserver accepts)", fr)
	}
	return b.String()
}

// TestBuiltinTricky runs the explicit inputs (no corpus needed).
func TestBuiltinTricky(t *testing.T) {
	runTrickyCases(t)
}
