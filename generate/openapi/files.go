package openapi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kdv.dev/idl"
	"sigs.k8s.io/yaml"
)

// Mode selects what WriteFiles generates.
type Mode string

const (
	// ModeOpenAPI writes one OpenAPI v3 document per group-version, named
	// as the apiserver's discovery paths are saved by kubectl-validate:
	// api__v1_openapi.json, apis__<group>__<version>_openapi.json.
	ModeOpenAPI Mode = "openapi"
	// ModeCRD writes one CRD per group and kind, <group>_<plural>.yaml, as
	// controller-gen names them.
	ModeCRD Mode = "crd"
)

// WriteFiles is the entry point of "kdv gen openapi|crd": it loads the Go
// packages matching patterns (resolved in dir, "" = current directory),
// generates, and writes the files into outDir (created if missing). It
// returns the written paths, sorted, and the tag report. Unknown or
// malformed tags fail the whole run (with every file:line listed) before
// anything is written.
func WriteFiles(mode Mode, dir string, patterns []string, outDir string, opts Options) ([]string, *Report, error) {
	u, err := idl.Load(idl.Options{Dir: dir}, patterns...)
	if err != nil {
		return nil, nil, err
	}
	files := map[string][]byte{}
	var rep *Report
	switch mode {
	case ModeOpenAPI:
		res, err := Generate(u, opts)
		if err != nil {
			return nil, nil, err
		}
		rep = res.Report
		if len(res.Documents) == 0 {
			return nil, rep, fmt.Errorf("no API packages (+groupName) in %s", strings.Join(patterns, " "))
		}
		for _, d := range res.Documents {
			b, err := json.MarshalIndent(d, "", "  ")
			if err != nil {
				return nil, rep, err
			}
			name := "apis__" + d.Group + "__" + d.Version + "_openapi.json"
			if d.Group == "" {
				name = "api__" + d.Version + "_openapi.json"
			}
			files[name] = append(b, '\n')
		}
	case ModeCRD:
		crds, r, err := CRDs(u, opts)
		rep = r
		if err != nil {
			return nil, rep, err
		}
		if len(crds) == 0 {
			return nil, rep, fmt.Errorf("no kinds with +kubebuilder:object:root=true in %s", strings.Join(patterns, " "))
		}
		for _, c := range crds {
			b, err := yaml.Marshal(c)
			if err != nil {
				return nil, rep, err
			}
			files[c.Spec.Group+"_"+c.Spec.Names.Plural+".yaml"] = append([]byte("---\n"), b...)
		}
	default:
		return nil, nil, fmt.Errorf("unknown mode %q (want openapi or crd)", mode)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, rep, err
	}
	var out []string
	for name, b := range files {
		p := filepath.Join(outDir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, rep, err
		}
		out = append(out, p)
	}
	sortStrings(out)
	return out, rep, nil
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
