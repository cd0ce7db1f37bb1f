package gendata

import (
	"fmt"
	"strings"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/generate/openapi"
	"kdv.dev/idl"
)

// customJSON are the struct types with their own MarshalJSON: a field of
// one prints as its versioned JSON (a leaf), and its zero value as given.
var customJSON = map[string]string{
	"k8s.io/apimachinery/pkg/api/resource.Quantity":                                         `"0"`,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":                                             "",
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":                                        "",
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":                                         `"0s"`,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":                                         "",
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString":                                       "0",
	"k8s.io/apimachinery/pkg/runtime.RawExtension":                                          "",
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON":                         "",
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrArray":       "",
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrBool":        "",
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrStringArray": "",
}

// internalLayout is where k8s.io/kubernetes's internal type differs from
// the versioned one the layout is computed from (bench/cmd/internal-layout
// lists them): fields the internal type adds (inserted after the slot
// printed as After, "" for first) or lacks (Drop, by versioned JSON name),
// or a type whose internal form is another shape altogether (None: no
// layout, the value prints as its versioned JSON, as before).
type internalDiff struct {
	After  string
	Insert []datafile.GoSlot
	Drop   []string
	None   bool
}

// internalDiffs are the differences in k8s.io/kubernetes v1.37.2
// pkg/apis/<group>/types.go.
var internalDiffs = map[string]internalDiff{
	// apps.DeploymentSpec.RollbackTo *RollbackConfig (after Paused)
	"io.k8s.api.apps.v1.DeploymentSpec": {After: "Paused", Insert: []datafile.GoSlot{{Name: "RollbackTo"}}},
	// apps.DaemonSetSpec.TemplateGeneration int64 (after MinReadySeconds)
	"io.k8s.api.apps.v1.DaemonSetSpec": {After: "MinReadySeconds", Insert: []datafile.GoSlot{{Name: "TemplateGeneration", Zero: "0"}}},
	// core.Secret has no StringData (conversion merges it into Data)
	"io.k8s.api.core.v1.Secret": {Drop: []string{"stringData"}},
	// core.NodeSpec has only PodCIDRs
	"io.k8s.api.core.v1.NodeSpec": {Drop: []string{"podCIDR"}},
	// certificates.PodCertificateRequestSpec.PKIXPublicKey, ProofOfPossession []byte
	"io.k8s.api.certificates.v1beta1.PodCertificateRequestSpec":  {After: "MaxExpirationSeconds", Insert: []datafile.GoSlot{{Name: "PKIXPublicKey"}, {Name: "ProofOfPossession"}}},
	"io.k8s.api.certificates.v1alpha1.PodCertificateRequestSpec": {After: "MaxExpirationSeconds", Insert: []datafile.GoSlot{{Name: "PKIXPublicKey"}, {Name: "ProofOfPossession"}}},
	"io.k8s.api.certificates.v1.PodCertificateRequestSpec":       {After: "MaxExpirationSeconds", Insert: []datafile.GoSlot{{Name: "PKIXPublicKey"}, {Name: "ProofOfPossession"}}},
	// the internal autoscaling types are v2's: autoscaling/v1 values
	// would need a conversion
	"io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec":   {None: true},
	"io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerStatus": {None: true},
	// admissionregistration.NamedRuleWithOperations keeps
	// RuleWithOperations as a named field
	"io.k8s.api.admissionregistration.v1.NamedRuleWithOperations":       {None: true},
	"io.k8s.api.admissionregistration.v1beta1.NamedRuleWithOperations":  {None: true},
	"io.k8s.api.admissionregistration.v1alpha1.NamedRuleWithOperations": {None: true},
}

// goLayouts computes datafile.Data.GoLayouts for the struct types
// reachable from the kinds' Go types.
func goLayouts(kinds []*idl.Type) map[string][]datafile.GoSlot {
	out := map[string][]datafile.GoSlot{}
	walkStructs(kinds, func(t *idl.Type) bool {
		if _, ok := customJSON[t.Package+"."+t.Name]; ok {
			return false
		}
		var slots []datafile.GoSlot
		names := map[string]bool{}
		var fields func(owner *idl.Type, fs []*idl.Field)
		fields = func(owner *idl.Type, fs []*idl.Field) {
			machinery := !isAPIPackage(owner.Package)
			for _, f := range fs {
				if f.Skip {
					continue
				}
				if f.Embedded || f.Inline {
					if n := namedStruct(f.Type); n != nil {
						if _, custom := customJSON[n.Package+"."+n.Name]; !custom {
							if f.Inline {
								fields(n, n.Fields())
							} else {
								slots = append(slots, datafile.GoSlot{JSON: f.JSONName, Struct: openapi.DefinitionName(n.Package, n.Name), Splice: true})
							}
							continue
						}
					}
				}
				s := slot(f, machinery)
				key := s.Name
				if key == "" {
					key = upperFirst(s.JSON)
				}
				if names[key] {
					continue // encoding/json: the shallower field wins
				}
				names[key] = true
				slots = append(slots, s)
			}
		}
		fields(t, t.Underlying.Fields)
		def := openapi.DefinitionName(t.Package, t.Name)
		if d, ok := internalDiffs[def]; ok {
			if d.None {
				return true
			}
			slots = applyDiff(slots, d)
		}
		out[def] = slots
		return true
	})
	return out
}

// isAPIPackage reports whether Go types of pkg print with their Go field
// names in the internal form: k8s.io/api (whose internal twins in
// k8s.io/kubernetes have no json tags) and the aggregator's API.
func isAPIPackage(pkg string) bool {
	return strings.HasPrefix(pkg, "k8s.io/api/") || strings.HasPrefix(pkg, "k8s.io/kube-aggregator/")
}

func unalias(t *idl.Type) *idl.Type {
	for t.Alias && t.Underlying != nil && t.Underlying.Kind == idl.Named {
		t = t.Underlying.Named
	}
	return t
}

// slot describes one non-embedded field.
func slot(f *idl.Field, machinery bool) datafile.GoSlot {
	s := datafile.GoSlot{JSON: f.JSONName}
	if machinery {
		s.Name, s.OmitEmpty = f.JSONName, f.OmitEmpty || f.OmitZero
	} else if f.Name != upperFirst(f.JSONName) {
		s.Name = f.Name
	}
	if s.Name == upperFirst(s.JSON) {
		s.Name = ""
	}
	r := f.Type
	if r != nil && r.Kind == idl.Pointer {
		if n := namedStruct(r); n != nil {
			if _, custom := customJSON[n.Package+"."+n.Name]; !custom {
				s.Struct = openapi.DefinitionName(n.Package, n.Name)
			}
		}
		if e := elemStruct(deref(r)); e != "" {
			s.Elem = e
		}
		return s
	}
	if n := namedStruct(r); n != nil {
		if z, custom := customJSON[n.Package+"."+n.Name]; custom {
			s.Zero = z
		} else {
			s.Struct, s.Value = openapi.DefinitionName(n.Package, n.Name), true
		}
		return s
	}
	s.Elem = elemStruct(r)
	for r != nil && r.Kind == idl.Named {
		r = r.Named.Underlying
	}
	if r != nil && r.Kind == idl.Basic {
		switch {
		case r.Basic == "string":
			s.Zero = `""`
		case r.Basic == "bool":
			s.Zero = "false"
		default:
			s.Zero = "0"
		}
	}
	return s
}

// elemStruct is the definition of the struct items of a slice or values
// of a map (through pointers and named types), "" otherwise.
func elemStruct(r *idl.TypeRef) string {
	for r != nil && r.Kind == idl.Named {
		r = r.Named.Underlying
	}
	if r == nil || (r.Kind != idl.Slice && r.Kind != idl.Map) {
		return ""
	}
	n := namedStruct(r.Elem)
	if n == nil {
		return ""
	}
	if _, custom := customJSON[n.Package+"."+n.Name]; custom {
		return ""
	}
	return openapi.DefinitionName(n.Package, n.Name)
}

// applyDiff rewrites a versioned layout into the internal one.
func applyDiff(slots []datafile.GoSlot, d internalDiff) []datafile.GoSlot {
	var out []datafile.GoSlot
	drop := map[string]bool{}
	for _, j := range d.Drop {
		drop[j] = true
	}
	if d.After == "" {
		out = append(out, d.Insert...)
	}
	for _, s := range slots {
		if drop[s.JSON] {
			continue
		}
		out = append(out, s)
		name := s.Name
		if name == "" {
			name = upperFirst(s.JSON)
		}
		if d.After != "" && name == d.After {
			out = append(out, d.Insert...)
		}
	}
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// checkLayouts reports a difference of internalDiffs that did not apply:
// an inserted field missing (its After names no field) or a dropped one
// still there.
func checkLayouts(layouts map[string][]datafile.GoSlot) error {
	for def, d := range internalDiffs {
		slots, ok := layouts[def]
		if !ok || d.None {
			continue
		}
		has := map[string]bool{}
		for _, s := range slots {
			n := s.Name
			if n == "" {
				n = upperFirst(s.JSON)
			}
			has[n] = true
		}
		for _, in := range d.Insert {
			if !has[in.Name] {
				return fmt.Errorf("GoLayouts %s: %s not inserted after %s", def, in.Name, d.After)
			}
		}
		for _, j := range d.Drop {
			if has[upperFirst(j)] {
				return fmt.Errorf("GoLayouts %s: %s not dropped", def, j)
			}
		}
	}
	return nil
}
