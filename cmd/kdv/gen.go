package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"kdv.dev/generate/openapi"
	"kdv.dev/idl"
	"kdv.dev/schema"
)

func newGenCommand() *cobra.Command {
	var (
		out          string
		standardOnly bool
		details      bool
	)
	cmd := &cobra.Command{
		Use:   "gen openapi|crd [flags] PACKAGE...",
		Short: "Generate OpenAPI v3 documents or CRDs from Go types and their tags",
		Long: `Gen loads Go packages (go list patterns) and turns their types and comment tags
(validation-gen +k8s: tags, KEP-4153 tags such as +minimum and +validationRule,
kubebuilder markers, +lifecycle) into OpenAPI v3 documents, one per
group-version (gen openapi), or CustomResourceDefinitions, one per kind
(gen crd). Every tag is published as an OpenAPI keyword, an x-kubernetes-*
extension or a CEL rule, or listed in the generation report (stderr) with the
reason it could not be. An unknown or malformed tag is an error with its file
and line.`,
		Example: `  kdv gen openapi --out openapi/ k8s.io/api/...
  kdv gen crd --out config/crd/ ./api/...`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			what, patterns := args[0], args[1:]
			if what != "openapi" && what != "crd" {
				return &exitError{exitUsage, fmt.Errorf("gen: want openapi or crd, got %q", what)}
			}
			u, err := idl.Load(idl.Options{}, patterns...)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			for _, w := range u.Warnings() {
				fmt.Fprintln(cmd.ErrOrStderr(), "kdv: warning:", w)
			}
			opts := openapi.Options{StandardOnly: standardOnly, CRD: what == "crd"}
			var rep *openapi.Report
			if what == "openapi" {
				res, err := openapi.Generate(u, opts)
				if err != nil {
					return &exitError{exitInvalid, err}
				}
				rep = res.Report
				if err := writeOpenAPI(cmd.OutOrStdout(), out, res.Documents); err != nil {
					return &exitError{exitUsage, err}
				}
			} else {
				crds, r, err := openapi.CRDs(u, opts)
				if err != nil {
					return &exitError{exitInvalid, err}
				}
				rep = r
				if err := writeCRDs(cmd.OutOrStdout(), out, crds); err != nil {
					return &exitError{exitUsage, err}
				}
			}
			if details {
				rep.WriteDetails(cmd.ErrOrStderr())
			} else {
				rep.Write(cmd.ErrOrStderr())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory to write files to (default: stdout)")
	cmd.Flags().BoolVar(&standardOnly, "standard-only", false, "leave out extensions the apiserver does not publish (x-kubernetes-api-lifecycle), for consumers that reject them; the tags are reported instead")
	cmd.Flags().BoolVar(&details, "report-details", false, "list every tag that was not published, with its position and reason")
	return cmd
}

// openAPIFileName names a group-version's document as the apiserver's
// /openapi/v3 paths do: api__v1_openapi.json, apis__apps__v1_openapi.json.
func openAPIFileName(d *openapi.Document) string {
	if d.Group == "" {
		return "api__" + d.Version + "_openapi.json"
	}
	return "apis__" + d.Group + "__" + d.Version + "_openapi.json"
}

func writeOpenAPI(stdout io.Writer, dir string, docs []*openapi.Document) error {
	for _, d := range docs {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return fmt.Errorf("%s: %w", d.GroupVersion(), err)
		}
		b = append(b, '\n')
		if dir == "" {
			if _, err := stdout.Write(b); err != nil {
				return err
			}
			continue
		}
		if err := writeFile(filepath.Join(dir, openAPIFileName(d)), b); err != nil {
			return err
		}
	}
	return nil
}

func writeCRDs(stdout io.Writer, dir string, crds []*schema.CRD) error {
	for i, c := range crds {
		b, err := yaml.Marshal(c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Metadata.Name, err)
		}
		if dir == "" {
			if i > 0 {
				b = append([]byte("---\n"), b...)
			}
			if _, err := stdout.Write(b); err != nil {
				return err
			}
			continue
		}
		// controller-gen's file names: <group>_<plural>.yaml.
		name := strings.ToLower(c.Spec.Group + "_" + c.Spec.Names.Plural + ".yaml")
		if err := writeFile(filepath.Join(dir, name), append([]byte("---\n"), b...)); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
