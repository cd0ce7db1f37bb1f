package kdv

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/builtin"
	"kdv.dev/manifest"
	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// Validator validates Kubernetes objects as the kube-apiserver of one
// release would on create and update: decoding (unknown fields, and for
// built-in kinds the typed decoder's errors), pruning, defaulting, then
// validation (ObjectMeta, OpenAPI value validations and formats, list
// types, embedded resources, CEL rules with transition rules and
// ratcheting), each as the apiserver does it and with its messages.
//
// A Validator holds no mutable state once New returns, except the
// schemas it compiles on first use of each kind (once, under a lock): it
// is safe for concurrent use by any number of goroutines, and meant to be
// built once (per test binary, say) and called many times. Nothing is
// global: two Validators share nothing.
type Validator struct {
	reg             *resource.Registry
	minor           int
	fieldValidation string
	schemes         []*k8sruntime.Scheme
	warnings        []string

	kindsOnce sync.Once
	kinds     map[gvkKey][]string // Version+Kind of embedded built-in kinds -> groups
}

// crdGroupKind is the GroupKind the apiserver names in a CRD's 422.
var crdGroupKind = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}

// New builds a Validator. Without options it knows the built-in kinds of
// the newest Kubernetes release kdv embeds; WithCRDFiles and WithCRDs add
// custom resources, WithOpenAPI other kinds.
//
// CRDs are first checked as the apiserver checks them when they are
// created (unless WithoutCRDChecks). New fails when a CRD is invalid or
// cannot be read, a path holds none, an OpenAPI document cannot be loaded,
// or an option is wrong; the error joins every problem (errors.Join), each
// naming its file and line or WithCRDs argument and the CRD, e.g.
//
//	crds/widgets.yaml:1: CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields
//
// Warnings of the checks (an unrecognized format, say) are kept in
// Warnings.
func New(opts ...Option) (*Validator, error) {
	var s settings
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	var errs []error
	fv, err := fieldValidationMode(s.fieldValidation)
	if err != nil {
		errs = append(errs, err)
	}
	minor, err := parseVersion(s.version)
	if err != nil {
		return nil, errors.Join(append(errs, err)...)
	}
	if minor == 0 {
		if vs := builtin.Versions(); len(vs) > 0 {
			minor = vs[len(vs)-1]
		}
	}
	gates, err := builtin.ParseFeatureGates(s.featureGates, minor)
	if err != nil {
		return nil, errors.Join(append(errs, fmt.Errorf("kdv.WithFeatureGates(%q): %w", s.featureGates, err))...)
	}
	reg := resource.NewRegistry(resource.Options{KubernetesMinor: minor, FeatureGates: gates})
	if err := resource.UseBuiltin(reg, minor); err != nil {
		return nil, errors.Join(append(errs, fmt.Errorf("kdv.WithBuiltins(%q): %w", s.version, err))...)
	}
	v := &Validator{reg: reg, minor: minor, fieldValidation: fv, schemes: s.schemes}
	l := crdLoader{v: v, check: !s.skipCRDChecks}
	for _, p := range s.crdFiles {
		l.file(p)
	}
	for i, obj := range s.crds {
		l.object(i, obj)
	}
	errs = append(errs, l.register()...)
	for _, dir := range s.openAPIDirs {
		if _, err := resource.LoadOpenAPIDir(reg, dir, resource.BuiltinScope(minor)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return v, nil
}

// KubernetesVersion returns the Kubernetes release the Validator
// reproduces, as "1.37".
func (v *Validator) KubernetesVersion() string { return fmt.Sprintf("1.%d", v.minor) }

// Warnings returns what New's CRD checks warned about, as the apiserver
// warns when the CRDs are created ("<source>: <warning>").
func (v *Validator) Warnings() []string { return v.warnings }

// crdLoader gathers the CRDs of New's options, checks them in parallel
// and registers them in the order given.
type crdLoader struct {
	v     *Validator
	check bool
	crds  []pendingCRD
	errs  []error
}

// pendingCRD is one CRD object and where it came from.
type pendingCRD struct {
	loc string
	obj map[string]any
	// result of parsing and checking
	crd      *kdvschema.CRD
	err      error
	warnings []string
}

// file reads the CRDs of one WithCRDFiles path.
func (l *crdLoader) file(path string) {
	docs, err := manifest.Read([]string{path}, nil, manifest.Options{})
	if err != nil {
		l.errs = append(l.errs, err)
	}
	found := err != nil // its error says enough
	for i := range docs {
		d := &docs[i]
		if d.Err != nil {
			l.errs = append(l.errs, d.Err)
			found = true
			continue
		}
		if d.Object == nil || !isCRD(d.Object) {
			continue
		}
		found = true
		l.crds = append(l.crds, pendingCRD{loc: fmt.Sprintf("%s:%d", d.File, d.Line), obj: d.Object})
	}
	if !found {
		l.errs = append(l.errs, fmt.Errorf("kdv.WithCRDFiles: %s: no CustomResourceDefinition found", path))
	}
}

// object takes the i-th argument of WithCRDs.
func (l *crdLoader) object(i int, obj any) {
	loc := fmt.Sprintf("kdv.WithCRDs argument %d", i)
	m, err := l.v.toMap(obj)
	if err == nil && !isCRD(m) {
		err = fmt.Errorf("apiVersion %v, kind %v: not a CustomResourceDefinition", m["apiVersion"], m["kind"])
	}
	if err != nil {
		l.errs = append(l.errs, fmt.Errorf("%s: %w", loc, err))
		return
	}
	l.crds = append(l.crds, pendingCRD{loc: loc, obj: m})
}

// register parses and checks the CRDs (in parallel: CheckCRD compiles
// every CEL rule) and registers the valid ones in order; it returns the
// errors of the others, and of reading.
func (l *crdLoader) register() []error {
	opts := resource.CheckOptions{KubernetesMinor: l.v.minor, StrictUnknownFields: l.v.fieldValidation == metav1.FieldValidationStrict}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range l.crds {
		p := &l.crds[i]
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			p.crd, p.err = kdvschema.ParseCRDObject(p.obj)
			if p.err != nil || !l.check {
				return
			}
			errs, warnings := resource.CheckCRD(p.crd, opts)
			if len(errs) > 0 {
				p.err = apierrors.NewInvalid(crdGroupKind, p.crd.Metadata.Name, errs)
			}
			p.warnings = warnings
		})
	}
	wg.Wait()
	errs := l.errs
	for i := range l.crds {
		p := &l.crds[i]
		for _, w := range p.warnings {
			l.v.warnings = append(l.v.warnings, p.loc+": "+w)
		}
		if p.err == nil {
			p.err = l.v.reg.AddCRD(p.crd, p.loc)
		}
		if p.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.loc, p.err))
		}
	}
	return errs
}

// isCRD reports whether obj is an apiextensions.k8s.io CustomResourceDefinition.
func isCRD(obj map[string]any) bool {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return kdvschema.IsCRD(apiVersion, kind)
}
