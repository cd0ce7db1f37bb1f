package manifest_test

import (
	"fmt"

	"kdv.dev/manifest"
)

func ExampleParse() {
	in := `# a Deployment, a ConfigMap with a repeated key and a broken document
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: web
        image: nginx
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  name: b
---
kind: [
`
	for _, d := range manifest.Parse("app.yaml", []byte(in), manifest.Options{}) {
		if d.Err != nil {
			fmt.Println("error:", d.Err)
			continue
		}
		for _, w := range d.Warnings {
			fmt.Println("warning:", w)
		}
		fmt.Println(d.GVK().Kind, "at line", d.Line, "named", d.Object["metadata"].(map[string]any)["name"])
		fmt.Println("kind at", d.File, d.LineOf("kind"))
	}
	// Output:
	// Deployment at line 2 named web
	// kind at app.yaml 3
	// warning: line 18: key "name" already set in map; the last value is used, as kubectl sends it
	// ConfigMap at line 14 named b
	// kind at app.yaml 15
	// error: app.yaml:20: yaml: line 20: did not find expected node content
}
