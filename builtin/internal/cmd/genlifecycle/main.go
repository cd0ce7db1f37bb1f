// Command genlifecycle writes builtin/data/lifecycle.json, the lifecycle of
// every built-in API version and kind, from the +k8s:prerelease-lifecycle-gen
// tags of k8s.io/api and k8s.io/kube-aggregator. Run through go generate
// in builtin/:
//
//	go run ./internal/cmd/genlifecycle -api v0.37.2,v0.36.6,v0.35.10 -out data/lifecycle.json
//
// -api lists the module versions to read, newest first (each from the
// module cache, downloaded when missing): older ones add the group-versions
// newer ones no longer carry.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"kdv.dev/builtin/internal/gendata"
)

func main() {
	api := flag.String("api", strings.Join(gendata.APIVersions, ","), "k8s.io/api and k8s.io/kube-aggregator versions, newest first, comma-separated")
	out := flag.String("out", "", "output file")
	flag.Parse()
	if *api == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: genlifecycle -api V1,V2,... -out FILE")
		os.Exit(2)
	}
	sources, err := gendata.LifecycleSources(strings.Split(*api, ","))
	var b []byte
	if err == nil {
		b, err = gendata.BuildLifecycle(sources)
	}
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
