// Command genfeaturegates writes builtin/data/featuregates.json, every
// feature gate of the kube-apiserver with its versioned specs (default and
// stage from a release on), read from the Go source of k8s.io/kubernetes
// pkg/features (and the staging packages its map refers to) in the module
// cache. Run through go generate in builtin/, before the schemas, which
// take their fields' lifecycle from it:
//
//	go run ./internal/cmd/genfeaturegates -out data/featuregates.json
//
// -kubernetes lists the k8s.io/kubernetes versions read, newest first
// (default gendata.FeatureGateSources); see gendata.FeatureGatesFrom.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"kdv.dev/builtin/internal/gendata"
)

func main() {
	versions := flag.String("kubernetes", strings.Join(gendata.FeatureGateSources(), ","), "k8s.io/kubernetes versions, newest first")
	out := flag.String("out", "", "output file")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: genfeaturegates [-kubernetes V] -out FILE")
		os.Exit(2)
	}
	d, err := gendata.FeatureGatesFrom(strings.Split(*versions, ","))
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
