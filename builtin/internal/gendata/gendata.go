// Package gendata builds the embedded built-in schema data of package
// builtin from k8s.io/api with kdv's own generator, in the format of
// package datafile.
package gendata

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/builtin/overlay"
	"kdv.dev/generate/openapi"
	"kdv.dev/idl"
	"kdv.dev/schema"
)

// Packages are the Go packages whose types are the built-in kinds:
// k8s.io/api, and kube-aggregator's apiregistration.k8s.io/v1 (APIService,
// which every kube-apiserver serves through its aggregator).
var Packages = []string{"k8s.io/api/...", aggregatorV1}

const aggregatorV1 = "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"

// ScratchModule creates a temporary Go module requiring k8s.io/api@version
// and k8s.io/kube-aggregator@version, released together with the same
// version numbers (go get, then go mod tidy inside that module only), and
// returns its directory; the caller removes it.
func ScratchModule(version string) (string, error) {
	dir, err := os.MkdirTemp("", "kdv-k8sapi-")
	if err != nil {
		return "", err
	}
	src := "package x\n\nimport (\n\t_ \"k8s.io/api/core/v1\"\n\t_ \"" + aggregatorV1 + "\"\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		return "", err
	}
	for _, args := range [][]string{
		{"mod", "init", "kdv.dev/scratch/k8sapi"},
		{"get", "k8s.io/api@" + version, "k8s.io/kube-aggregator@" + version},
		{"mod", "tidy"},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return dir, nil
}

// Build loads Packages in the Go module at dir (its go.mod pins the
// k8s.io/api and k8s.io/kube-aggregator versions) and returns the data file for minor
// (JSON text; Compress gives the gzip form of the older releases' files).
// The schemas are the published ones except for openapi-gen's enforced
// default "" on non-pointer strings (openapi.Options.NoStringZeroDefaults),
// so a missing required string is reported as the apiserver reports it,
// and for x-kubernetes-strip-zero on optional non-pointer fields
// (openapi.Options.StripZero), so an empty enum value such as
// imagePullPolicy: "" is unset, as after the apiserver's Go decoding.
//
// Fields guarded by feature gates get their KEP-2558 lifecycle in
// Kubernetes 1.<minor> (status, minVersion) from the feature specs of
// k8s.io/kubernetes KubernetesVersion and OlderKubernetesVersions
// (gates.Data.Annotate).
//
// The tags of kdv's rule overlay (package kdv.dev/builtin/overlay: the Go
// defaulters' constant defaults, ...) are merged with k8s.io/api's own.
// The overlay is written against the newest k8s.io/api: in an older
// release, its entries for absent fields match nothing (a warning), and
// its rules that read absent fields are dropped (dropUncompilable).
//
// Scope: k8s.io/api types carry +genclient:nonNamespaced on cluster-scoped
// resources (the tag client-gen uses to build cluster-scoped clients);
// "<Kind>List" kinds take their item kind's scope; kinds without a
// +genclient tag (options, reviews, subresources such as Scale or
// Eviction) are namespaced unless their item kind says otherwise, and
// metav1's kinds are marked cluster-scoped. This is the static source of
// scope; k8s.io/api has no other.
//
// baseFile, when not "", is the data file of a newer release (written
// first): the definitions identical there are stored as inherited from it
// (datafile.Delta), so releases share their identical definitions.
func Build(dir string, minor int, baseFile string) ([]byte, error) {
	d, err := Generate(dir, minor)
	if err != nil {
		return nil, err
	}
	if baseFile != "" {
		j, err := ReadFile(baseFile)
		if err != nil {
			return nil, err
		}
		var base struct {
			Minor   int                        `json:"minor"`
			Base    int                        `json:"base"`
			Schemas map[string]json.RawMessage `json:"schemas"`
		}
		if err := json.Unmarshal(j, &base); err != nil {
			return nil, fmt.Errorf("%s: %w", baseFile, err)
		}
		if base.Base != 0 {
			return nil, fmt.Errorf("%s shares definitions itself: a base must be complete", baseFile)
		}
		if err := datafile.Delta(d, base.Minor, base.Schemas); err != nil {
			return nil, err
		}
	}
	return json.Marshal(d)
}

// Compress returns the gzip form of a data file's JSON text j (best
// compression; deterministic, so regenerating is byte-stable).
func Compress(j []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(j); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadFile returns the JSON text of the data file at path: as stored when
// its name ends in .json, decompressed when it ends in .json.gz.
func ReadFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	j, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return j, nil
}

// Generate returns the complete data of release minor from the k8s.io/api
// of the Go module at dir (see Build).
func Generate(dir string, minor int) (*datafile.Data, error) {
	overlays, err := overlay.ForRelease(minor)
	if err != nil {
		return nil, err
	}
	u, err := idl.Load(idl.Options{Dir: dir, Overlays: overlays}, Packages...)
	if err != nil {
		return nil, err
	}
	for _, w := range u.Warnings() {
		// Overlay entries for fields an older k8s.io/api lacks, and tags of
		// dependencies kdv does not know: said, not fatal.
		fmt.Fprintf(os.Stderr, "gendata 1.%d: %v\n", minor, w)
	}
	// validation-gen decides (and ratchets) from 1.37 (DeclarativeValidationBeta
	// on); before, the hand-written code it mirrors decides and repeats.
	res, err := openapi.Generate(u, openapi.Options{NoStringZeroDefaults: true, StripZero: true, ListUniqueFromTags: true, DeclarativeRatcheting: minor >= 37})
	if err != nil {
		return nil, err
	}
	// Gated fields: their lifecycle in this release, from the feature
	// specs of k8s.io/kubernetes (see gates.Data.Annotate).
	fg, err := FeatureGatesFrom(FeatureGateSources())
	if err != nil {
		return nil, err
	}
	noted := map[string]bool{}
	for _, doc := range res.Documents {
		// Documents share definitions: say each note once.
		for _, n := range fg.Annotate(doc.Schemas, minor) {
			if !noted[n] {
				noted[n] = true
				fmt.Fprintf(os.Stderr, "gendata 1.%d: %s\n", minor, n)
			}
		}
	}
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Version}}", "k8s.io/api", "k8s.io/kube-aggregator")
	cmd.Dir = dir
	src, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m k8s.io/api k8s.io/kube-aggregator: %w", err)
	}
	source := strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimSpace(string(src)), "\n", ", ")), " ")
	d := datafile.Data{Minor: minor, Source: source, Schemas: map[string]*schema.Props{}}
	scope := map[string]bool{} // group/version/Kind -> namespaced
	for _, doc := range res.Documents {
		for name, p := range doc.Schemas {
			d.Schemas[name] = p
		}
		for _, k := range doc.Kinds {
			scope[doc.GroupVersion()+"/"+k.Kind] = k.Namespaced
		}
	}
	var kindTypes []*idl.Type
	for _, doc := range res.Documents {
		for _, k := range doc.Kinds {
			// k8s.io/api keeps the types of removed API versions for
			// clients; the apiserver no longer serves them.
			if !servedAt(k.Type, k.Version, minor) {
				continue
			}
			ns := k.Namespaced
			if item, ok := strings.CutSuffix(k.Kind, "List"); ok {
				if v, ok := scope[doc.GroupVersion()+"/"+item]; ok {
					ns = v
				}
			}
			if strings.HasPrefix(k.Definition, "io.k8s.apimachinery.") {
				ns = false
			}
			d.Kinds = append(d.Kinds, datafile.Kind{GroupVersionKind: schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}, Namespaced: ns, Definition: k.Definition})
			kindTypes = append(kindTypes, k.Type)
		}
	}
	// The overlay follows the newest k8s.io/api: its rules that read
	// fields this release lacks are left out of it.
	dropped, err := dropUncompilable(&d, minor)
	if err != nil {
		return nil, err
	}
	for _, n := range dropped {
		fmt.Fprintf(os.Stderr, "gendata 1.%d: %s\n", minor, n)
	}
	published := map[string]bool{}
	for name := range d.Schemas {
		published[name] = true
	}
	d.GoFields = goFields(kindTypes, published)
	d.GoLayouts = goLayouts(kindTypes)
	if err := checkLayouts(d.GoLayouts); err != nil {
		return nil, err
	}
	sort.Slice(d.Kinds, func(i, j int) bool {
		a, b := d.Kinds[i], d.Kinds[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	return &d, nil
}
