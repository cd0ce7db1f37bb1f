// Command gen writes builtin/data/v1.<minor>.json (or .json.gz, gzip-compressed) from k8s.io/api with
// kdv's generator. Run through go generate in builtin/:
//
//	go run ./internal/cmd/gen -minor 37 -out data/v1.37.json
//
// -dir names a Go module whose go.mod requires the k8s.io/api version of
// that minor (default: the kdv module itself); -api VERSION instead creates
// a scratch module requiring k8s.io/api@VERSION (needs the module proxy or
// a module cache that has it). -base FILE stores the definitions that are
// identical in FILE, a newer release's complete data file, as inherited
// from it (datafile.Delta).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"kdv.dev/builtin/internal/gendata"

	// Keeps kube-aggregator in kdv's go.mod at the k8s.io/api version, so
	// that gendata.Build can load its apiregistration/v1 types (by pattern,
	// through go/packages) from this module without a scratch module.
	_ "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
)

func main() {
	minor := flag.Int("minor", 0, "Kubernetes minor version")
	out := flag.String("out", "", "output file")
	dir := flag.String("dir", "", "Go module directory providing k8s.io/api")
	api := flag.String("api", "", "k8s.io/api version for a scratch module (instead of -dir)")
	base := flag.String("base", "", "data file of a newer release whose identical definitions this one shares")
	flag.Parse()
	if *api != "" {
		d, err := gendata.ScratchModule(*api)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	if *minor == 0 || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gen -minor N -out FILE [-dir MODULE]")
		os.Exit(2)
	}
	b, err := gendata.Build(*dir, *minor, *base)
	if err == nil && strings.HasSuffix(*out, ".gz") {
		b, err = gendata.Compress(b)
	}
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if *api != "" {
			os.RemoveAll(*dir)
		}
		os.Exit(1)
	}
}
