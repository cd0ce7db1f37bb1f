package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"kdv.dev/manifest"
	"kdv.dev/resource"
)

// transform is what kdv prune and kdv default do to one object.
type transform func(v *resource.Validator, obj map[string]any) (notes []string, err error)

func newPruneCommand() *cobra.Command {
	var showPruned bool
	cmd, f := newTransformCommand("prune",
		"Print documents as the apiserver stores them after pruning unknown fields",
		`Prune prints every document with the fields its schema does not specify
removed, as the apiserver prunes them on decode (x-kubernetes-preserve-unknown-fields,
embedded resources and metadata handled as the apiserver does). The removed paths
go to stderr, or to stdout after each document with --show-pruned.`,
		`  kdv prune --crds config/crd/ my-widget.yaml
  kdv prune --crds crd.yaml --show-pruned - < obj.json`,
		func(v *resource.Validator, obj map[string]any) ([]string, error) {
			return v.Prune(obj)
		})
	cmd.Flags().BoolVar(&showPruned, "show-pruned", false, "write the removed fields to stdout, as comments after each document, instead of stderr")
	f.showNotes = &showPruned
	return cmd
}

func newDefaultCommand() *cobra.Command {
	var prune bool
	cmd, _ := newTransformCommand("default",
		"Print documents with the defaults of their schema applied",
		`Default prints every document with the default values of its schema applied,
as the apiserver applies them on decode (parents before children, nulls of
non-nullable fields defaulted). With --prune, unknown fields are pruned first,
giving exactly what the apiserver would store.`,
		`  kdv default --crds config/crd/ my-widget.yaml`,
		func(v *resource.Validator, obj map[string]any) ([]string, error) {
			var notes []string
			if prune {
				var err error
				if notes, err = v.Prune(obj); err != nil {
					return nil, err
				}
			}
			v.Default(obj)
			return notes, nil
		})
	cmd.Flags().BoolVar(&prune, "prune", false, "prune unknown fields before defaulting, as the apiserver does")
	return cmd
}

type transformFlags struct {
	crds              []string
	schemas           []string
	kubernetesVersion string
	showNotes         *bool
}

func newTransformCommand(name, short, long, example string, t transform) (*cobra.Command, *transformFlags) {
	f := &transformFlags{}
	cmd := &cobra.Command{
		Use:     name + " [flags] PATH...|-",
		Short:   short,
		Long:    long + "\n\nDocuments keep their order; YAML in gives YAML out and JSON in gives JSON out.",
		Example: example,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			minor, err := parseKubernetesVersion(f.kubernetesVersion)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			reg, badSchemas, err := newRegistry(cmd.InOrStdin(), cmd.ErrOrStderr(), resource.Options{KubernetesMinor: minor}, f.crds, f.schemas)
			if err != nil {
				return &exitError{exitUsage, err}
			}
			docs, readErr := manifest.Read(args, cmd.InOrStdin(), manifest.Options{})
			show := f.showNotes != nil && *f.showNotes
			code := exitValid
			if readErr != nil {
				printErrors(cmd.ErrOrStderr(), "", readErr)
				code = exitUsage
			}
			if badSchemas {
				code = exitUsage
			}
			out := cmd.OutOrStdout()
			for i := range docs {
				if err := transformDocument(out, cmd.ErrOrStderr(), &docs[i], i == 0, reg, t, show); err != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), "kdv:", err)
					code = max(code, exitUsage)
				}
			}
			if code != exitValid {
				return &exitError{code: code}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&f.crds, "crds", nil, "CustomResourceDefinitions: a file or directory (repeatable)")
	cmd.Flags().StringArrayVar(&f.schemas, "schemas", nil, "a directory of OpenAPI v3 documents (repeatable)")
	cmd.Flags().StringVar(&f.kubernetesVersion, "kubernetes-version", "", "the Kubernetes version of the built-in schemas, e.g. 1.37")
	return cmd, f
}

// transformDocument applies t to one document and writes it in its input
// syntax; an error leaves the document out and names it.
func transformDocument(w, stderr io.Writer, d *manifest.Document, first bool, reg *resource.Registry, t transform, show bool) error {
	loc := fmt.Sprintf("%s:%d", d.File, d.Line)
	if d.Err != nil {
		return d.Err
	}
	if d.NotManifest != "" {
		// Left out of the output, which holds objects only; said on stderr.
		fmt.Fprintf(stderr, "%s: skipped: not a manifest: %s\n", loc, d.NotManifest)
		return nil
	}
	if d.Object == nil {
		return nil
	}
	v, err := reg.Validator(d.GVK())
	if err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	notes, err := t(v, d.Object)
	if err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	isJSON := bytes.HasPrefix(bytes.TrimSpace(d.Raw), []byte("{"))
	var b []byte
	if isJSON {
		b, err = json.MarshalIndent(d.Object, "", "  ")
		b = append(b, '\n')
	} else {
		b, err = yaml.Marshal(d.Object)
		if !first {
			b = append([]byte("---\n"), b...)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	for _, n := range notes {
		if show {
			fmt.Fprintf(w, "# pruned: %s\n", n)
		} else {
			fmt.Fprintf(stderr, "%s: %s\n", loc, n)
		}
	}
	return nil
}
