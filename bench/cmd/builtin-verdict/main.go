// Command builtin-verdict prints what the apiserver's own code
// (k8s.io/kubernetes v1.37.2: the legacyscheme decoder and the registry
// strategies) says about built-in objects, for deriving kdv's test
// expectations and for checking a disagreement by hand:
//
//	builtin-verdict [-old OLD.yaml] FILE...
//
// Each document of each file (YAML, multi-document YAML, JSON, kind: List)
// is checked as a create, or, with -old, as an update of the old document
// with the same group, kind, namespace and name. One line per problem:
//
//	file#doc: group/Kind namespace/name: <field error>
//
// then "valid" for accepted documents, and the strategy's warnings. Kinds
// the reference does not cover are reported as skipped. Exit code: 0 all
// valid, 1 something rejected, 2 unreadable input or a reference error.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"kdv.dev/bench"
	"sigs.k8s.io/yaml"
)

func main() {
	oldPath := flag.String("old", "", "previous versions of the objects: validate matching documents as updates")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: builtin-verdict [-old OLD.yaml] FILE...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	olds := map[string][]byte{}
	if *oldPath != "" {
		docs, err := readDocs(*oldPath)
		check(err)
		for _, d := range docs {
			olds[key(d)] = d
		}
	}
	exit := 0
	for _, f := range flag.Args() {
		docs, err := readDocs(f)
		check(err)
		for i, d := range docs {
			where := fmt.Sprintf("%s#%d", f, i)
			v, err := bench.CheckBuiltin(d, olds[key(d)])
			if errors.Is(err, bench.ErrNotServed) {
				fmt.Printf("%s: skipped: %v\n", where, err)
				continue
			}
			if err != nil {
				fmt.Printf("%s: reference error: %v\n", where, err)
				exit = 2
				continue
			}
			obj := v.GVK.GroupKind().String() + " " + v.Name
			if v.Namespace != "" {
				obj = v.GVK.GroupKind().String() + " " + v.Namespace + "/" + v.Name
			}
			if v.DecodeErr != "" {
				fmt.Printf("%s: %s: %s\n", where, obj, v.DecodeErr)
			}
			for _, e := range v.Errors {
				fmt.Printf("%s: %s: %s\n", where, obj, e.Error())
			}
			if !v.Rejected() {
				fmt.Printf("%s: %s: valid\n", where, obj)
			} else if exit == 0 {
				exit = 1
			}
			for _, w := range v.Warnings {
				fmt.Printf("%s: %s: warning: %s\n", where, obj, w)
			}
		}
	}
	os.Exit(exit)
}

// readDocs splits a file into documents, expanding lists, each kept as
// the bytes kubectl would read (YAML stays YAML, JSON stays JSON).
func readDocs(path string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	var out [][]byte
	for {
		d, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(bytes.TrimSpace(d)) == 0 {
			continue
		}
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		if j, err := yaml.YAMLToJSON(d); err == nil && json.Unmarshal(j, &list) == nil && list.Items != nil {
			for _, it := range list.Items {
				out = append(out, it)
			}
			continue
		}
		out = append(out, d)
	}
}

// key identifies a document for pairing with its old version.
func key(doc []byte) string {
	var m struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name, Namespace string
		} `json:"metadata"`
	}
	_ = yaml.Unmarshal(doc, &m)
	return fmt.Sprintf("%s/%s/%s/%s", m.APIVersion, m.Kind, m.Metadata.Namespace, m.Metadata.Name)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
