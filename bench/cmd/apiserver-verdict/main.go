// Command apiserver-verdict prints what the apiserver's own code
// (k8s.io/apiextensions-apiserver v0.37.2) says about custom resources, for
// deriving test expectations:
//
//	apiserver-verdict CRD.yaml OBJECTS.yaml [OLD.yaml]
//
// For each object document: the unknown fields strict decoding reports, then
// the validation errors after pruning and defaulting. With OLD.yaml, the
// documents are paired by position and validated as updates. With only
// CRD.yaml, it prints the CRD's create validation errors.
package main

import (
	"bytes"
	"fmt"
	"os"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"kdv.dev/bench"
	"sigs.k8s.io/yaml"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: apiserver-verdict CRD.yaml [OBJECTS.yaml [OLD.yaml]]")
		os.Exit(2)
	}
	crd, err := os.ReadFile(os.Args[1])
	check(err)
	if len(os.Args) == 2 {
		for _, doc := range docs(crd) {
			errs, err := bench.CheckCRD(doc)
			check(err)
			fmt.Print(bench.ErrorLines(errs))
		}
		return
	}
	parsed, err := bench.ParseV1CRD(crd)
	check(err)
	crdKind := parsed.Spec.Names.Kind
	objs := load(os.Args[2])
	var olds []map[string]any
	if len(os.Args) > 3 {
		olds = load(os.Args[3])
	}
	for i, obj := range objs {
		apiVersion, _ := obj["apiVersion"].(string)
		version := apiVersion[bytes.LastIndexByte([]byte(apiVersion), '/')+1:]
		fmt.Printf("--- document %d\n", i)
		if kind, _ := obj["kind"].(string); kind != crdKind {
			// Multi-kind manifests: only this CRD's kind is its business.
			fmt.Printf("skipped: kind %q is not the CRD's %q\n", kind, crdKind)
			continue
		}
		a, err := bench.NewAPIServer(crd, version)
		check(err)
		unknown, err := a.Decode(obj)
		if err != nil {
			fmt.Println("decode error:", err)
			continue
		}
		for _, u := range unknown {
			fmt.Printf("unknown field %q\n", u)
		}
		var old map[string]any
		if i < len(olds) {
			old = olds[i]
			_, _ = a.Decode(old)
		}
		fmt.Print(bench.ErrorLines(a.Validate(obj, old)))
	}
}

func docs(b []byte) [][]byte {
	var out [][]byte
	for _, d := range bytes.Split(b, []byte("\n---")) {
		if len(bytes.TrimSpace(d)) > 0 {
			out = append(out, d)
		}
	}
	return out
}

func load(path string) []map[string]any {
	b, err := os.ReadFile(path)
	check(err)
	var out []map[string]any
	for _, d := range docs(b) {
		j, err := yaml.YAMLToJSON(d)
		check(err)
		var m map[string]any
		check(utiljson.Unmarshal(j, &m))
		if m != nil {
			out = append(out, m)
		}
	}
	return out
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
