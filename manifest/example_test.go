package manifest_test

import (
	"fmt"

	"kdv.dev/manifest"
)

func ExampleParse() {
	in := `# a Deployment and a broken document
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
`
	for _, d := range manifest.Parse("app.yaml", []byte(in), manifest.Options{}) {
		if d.Err != nil {
			fmt.Println("error:", d.Err)
			continue
		}
		fmt.Println(d.GVK().Kind, "at line", d.Line, "replicas", d.Object["spec"].(map[string]any)["replicas"])
		fmt.Println("image at", d.File, d.LineOf("spec.template.spec.containers[0].image"))
	}
	// Output:
	// Deployment at line 2 replicas 3
	// image at app.yaml 12
	// error: app.yaml:18: key "name" already set in map
}
