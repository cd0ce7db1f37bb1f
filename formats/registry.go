package formats

import (
	"sort"
	"strings"
)

// DefaultKubeMinor is the Kubernetes minor version (1.<minor>) used when none
// is given: the version kdv's Kubernetes dependencies come from.
const DefaultKubeMinor = 37

// Options selects the apiserver version and how far beyond the apiserver a
// Registry enforces formats.
type Options struct {
	// KubeMinor is the apiserver's minor version (1.<KubeMinor>); 0 or less
	// means DefaultKubeMinor. Formats are recognized at the apiserver's default
	// compatibility version, KubeMinor-1.
	KubeMinor int
	// Extended also enforces validation-gen and KEP-4153 formats that the
	// apiserver ignores in CRD schemas at this version, with their own errors.
	Extended bool
	// Declarative checks validation-gen names with validation-gen's errors
	// even where the CRD path knows them too (k8s-short-name, k8s-long-name),
	// as the apiserver does for built-in types. It implies Extended.
	Declarative bool
}

// Registry answers which formats are recognized and enforced, for one
// apiserver version and set of Options. It is immutable and safe for
// concurrent use.
type Registry struct {
	opts        Options
	compatMinor int
	// crd maps normalized names (no '-') to the strfmt formats kept in CRD
	// schemas at compatMinor.
	crd map[string]*crdFormat
}

// ForVersion returns the Registry of the apiserver 1.<kubeMinor> (0 or less:
// DefaultKubeMinor) for custom resources: only the formats it enforces.
func ForVersion(kubeMinor int) *Registry {
	return New(Options{KubeMinor: kubeMinor})
}

// New returns a Registry for opts.
func New(opts Options) *Registry {
	if opts.KubeMinor <= 0 {
		opts.KubeMinor = DefaultKubeMinor
	}
	if opts.Declarative {
		opts.Extended = true
	}
	r := &Registry{opts: opts, compatMinor: opts.KubeMinor - 1, crd: map[string]*crdFormat{}}
	for i := range crdFormats {
		f := &crdFormats[i]
		if r.compatMinor >= f.sinceMinor {
			r.crd[normalize(f.name)] = f
		}
	}
	return r
}

// Options returns the options the registry was built with, defaults applied.
func (r *Registry) Options() Options { return r.opts }

// CompatibilityMinor returns the compatibility version (1.<minor>) whose CRD
// format set the registry uses: KubeMinor-1, as the apiserver's
// environment.DefaultCompatibilityVersion.
func (r *Registry) CompatibilityMinor() int { return r.compatMinor }

// Lookup returns the checker for string values of a schema node with this
// format, or known == false when the format is not enforced (the apiserver
// strips it; the value is not checked). An empty format is never enforced.
//
// Resolution order: a CRD-recognized name (after '-' removal) uses strfmt
// semantics, unless Declarative is set and validation-gen knows the exact
// name; otherwise, with Extended, an exact validation-gen name, then an exact
// KEP-4153 alias.
func (r *Registry) Lookup(format string) (c *Checker, known bool) {
	if format == "" {
		return nil, false
	}
	if f, ok := r.crd[normalize(format)]; ok {
		if !(r.opts.Declarative && validationGenFormats[format] != nil) {
			return &Checker{name: format, family: f.family, valid: f.valid}, true
		}
	}
	if !r.opts.Extended {
		return nil, false
	}
	if f := validationGenFormats[format]; f != nil {
		return &Checker{name: format, family: ValidationGen, valid: f.valid, errs: f.errs}, true
	}
	if f := kepFormats[format]; f != nil {
		return &Checker{name: format, family: KEPAlias, valid: f.valid, errs: f.errs}, true
	}
	if f := handWrittenFormats[format]; f != nil {
		return &Checker{name: format, family: HandWritten, valid: f.valid, errs: f.errs}, true
	}
	return nil, false
}

// Recognized reports whether the apiserver recognizes format on a schema node
// of schemaType at the registry's compatibility version, i.e. whether
// apiextensions-apiserver's GetUnrecognizedFormats leaves it out. An empty
// format is recognized. For "" and "string" nodes the CRD string formats count
// (Extended and Declarative do not change this answer: it is the apiserver's);
// "integer" accepts int32 and int64, "number" float and double; any other type
// recognizes no format. Unrecognized formats draw UnrecognizedFormatWarning.
func (r *Registry) Recognized(schemaType, format string) bool {
	if format == "" {
		return true
	}
	switch schemaType {
	case "", "string":
		_, ok := r.crd[normalize(format)]
		return ok
	case "integer":
		return format == "int32" || format == "int64"
	case "number":
		return format == "float" || format == "double"
	}
	return false
}

// Names returns the canonical names of a family's formats, sorted. For
// KubernetesCRD and OpenAPI these are the names of the apiserver's table, which
// a Registry may not all recognize at its version.
func Names(f Family) []string {
	var out []string
	switch f {
	case OpenAPI, KubernetesCRD:
		for _, c := range crdFormats {
			if c.family == f {
				out = append(out, c.name)
			}
		}
	case ValidationGen:
		for n := range validationGenFormats {
			out = append(out, n)
		}
	case KEPAlias:
		for n := range kepFormats {
			out = append(out, n)
		}
	case HandWritten:
		for n := range handWrittenFormats {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// normalize is go-openapi's DefaultNameNormalizer, which the apiextensions-
// apiserver also applies: every '-' removed.
func normalize(name string) string {
	if strings.IndexByte(name, '-') < 0 {
		return name
	}
	return strings.ReplaceAll(name, "-", "")
}
