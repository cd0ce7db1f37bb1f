// Command genfeaturegates writes builtin/data/featuregates.json, every
// feature gate of the kube-apiserver with its versioned specs (default and
// stage from a release on), read from the Go source of k8s.io/kubernetes
// pkg/features (and the staging packages its map refers to) in the module
// cache. Run through go generate in builtin/, before the schemas, which
// take their fields' lifecycle from it:
//
//	go run ./internal/cmd/genfeaturegates -kubernetes v1.37.2 -out data/featuregates.json
package main

import (
	"flag"
	"fmt"
	"os"

	"kdv.dev/builtin/internal/gendata"
)

func main() {
	version := flag.String("kubernetes", gendata.KubernetesVersion, "k8s.io/kubernetes version")
	out := flag.String("out", "", "output file")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: genfeaturegates [-kubernetes V] -out FILE")
		os.Exit(2)
	}
	d, err := gendata.FeatureGates(*version)
	var b []byte
	if err == nil {
		b, err = gendata.BuildFeatureGates(d)
	}
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
