package bench

import (
	"sort"
	"strings"
	"testing"
)

// mapKeyCases have several bad keys in one map: the hand-written
// validation reports one error per bad key (its name or its value, at the
// map or at map[key]), kdv's rules through the map wildcards of their
// fieldPath ([*] with the key's value, [@] with the key).
var mapKeyCases = []struct{ name, doc string }{
	{"template labels, annotations, resource names", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  selector:
    matchLabels:
      app: x
  template:
    metadata:
      labels: {app: x, "-bad": "{{x}}", "a/b/c": v, z: "{{y}}"}
      annotations:
        "-bad": x
        "a/b/c": x
        container.apparmor.security.beta.kubernetes.io/c: bogus
        container.apparmor.security.beta.kubernetes.io/d: alsobad
    spec:
      containers:
      - name: c
        image: i
      - name: d
        image: i
        resources:
          limits: {foo: "1", "-x/y_": "2", "a/b/c": "1", "example.com/requests.x": "1"}
          requests: {bar: "1", cpu: "1"}
`},
	{"selector matchLabels", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  selector:
    matchLabels: {"-bad": "{{x}}", "a/b/c": v, z: "{{y}}"}
  template:
    metadata:
      labels: {app: x}
    spec:
      containers:
      - name: c
        image: i
`},
	{"network policy selectors", `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np}
spec:
  podSelector:
    matchLabels: {"-a": "{{x}}", b: "{{y}}"}
  ingress:
  - from:
    - podSelector:
        matchLabels: {"-a": "{{x}}", b: "{{y}}"}
      namespaceSelector:
        matchLabels: {"-a": "{{x}}", b: "{{y}}"}
`},
	{"resource quota hard", `apiVersion: v1
kind: ResourceQuota
metadata: {name: rq}
spec:
  hard: {foo: "1", "-x": "1", pods: "-1", services: "1.5", secrets: "-2"}
`},
	{"limit range maps", `apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec:
  limits:
  - type: PersistentVolumeClaim
    max: {storage: 1Gi, foo: "1", "-x": "1", example.com/a: "1", example.com/b: "5"}
    min: {example.com/a: "2", example.com/b: "6"}
    default: {example.com/a: "3", example.com/b: "7", bar: "1"}
    defaultRequest: {example.com/a: "4", example.com/b: "8"}
    maxLimitRequestRatio: {example.com/a: "0.5", example.com/b: "0.5", "x y": "1"}
`},
	{"runtime class overhead and node selector", `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: rc}
handler: h
overhead:
  podFixed: {foo: "1", bar: "2", cpu: "-1", example.com/x: "-2", example.com/requests.y: "1"}
scheduling:
  nodeSelector: {"-a": "{{x}}", b: "{{y}}"}
`},
	{"config map keys", `apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
data: {"a b": "x", "..c": "w", dup: "z", ok: "v"}
binaryData: {dup: eA==, "d e": eA==, "..f": eA==}
`},
	{"secret keys, data and stringData", `apiVersion: v1
kind: Secret
metadata: {name: s2}
data: {ok: eA==, "..c": eA==, "a b": eA==}
stringData: {"d e": "x", ok: "w", "..c": "z"}
`},
	{"service selector", `apiVersion: v1
kind: Service
metadata: {name: svc}
spec:
  selector: {"-a": "{{x}}", b: "{{y}}"}
  ports: [{port: 80}]
`},
	{"flex volume options", `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: i}]
  volumes:
  - name: v
    flexVolume:
      driver: d
      options: {kubernetes.io/a: "x", k8s.io/b: "w", ok: "z"}
`},
	{"pod node selector and overhead", `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelector: {"-a": "{{x}}", b: "{{y}}", "c/d/e": "ok"}
  overhead: {foo: "1", cpu: "-1", example.com/requests.x: "1", "-x/y_": "2"}
  containers: [{name: c, image: i}]
`},
}

// TestBuiltinMapKeys: kdv reports exactly the apiserver's errors (as
// multisets: the apiserver walks a Go map in random order) for maps with
// several bad keys.
func TestBuiltinMapKeys(t *testing.T) {
	for _, c := range mapKeyCases {
		ref, err := refBuiltin([]byte(c.doc), nil)
		if err != nil {
			t.Fatalf("%s: reference: %v", c.name, err)
		}
		kdv, err := kdvBuiltin([]byte(c.doc), nil)
		if err != nil {
			t.Fatalf("%s: kdv: %v", c.name, err)
		}
		for _, m := range ref.Messages {
			if strings.Contains(m, "cannot be handled as") {
				t.Fatalf("%s: the document does not decode: %s", c.name, m)
			}
		}
		if !ref.Rejected || !sameMessages(ref.Messages, kdv.Messages) {
			x, y := append([]string(nil), ref.Messages...), append([]string(nil), kdv.Messages...)
			sort.Strings(x)
			sort.Strings(y)
			t.Errorf("%s: apiserver\n%s\nkdv\n%s", c.name, strings.Join(x, "\n"), strings.Join(y, "\n"))
		}
	}
}
