// Command gen writes builtin/data/v1.<minor>.json.gz from k8s.io/api with
// kdv's generator. Run through go generate in builtin/:
//
//	go run ./internal/cmd/gen -minor 37 -out data/v1.37.json.gz
//
// -dir names a Go module whose go.mod requires the k8s.io/api version of
// that minor (default: the kdv module itself).
package main

import (
	"flag"
	"fmt"
	"os"

	"kdv.dev/builtin/internal/gendata"
)

func main() {
	minor := flag.Int("minor", 0, "Kubernetes minor version")
	out := flag.String("out", "", "output file")
	dir := flag.String("dir", "", "Go module directory providing k8s.io/api")
	flag.Parse()
	if *minor == 0 || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gen -minor N -out FILE [-dir MODULE]")
		os.Exit(2)
	}
	b, err := gendata.Build(*dir, *minor)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
