package cel

import (
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"

	"kdv.dev/formats"
)

// Built-in rules (Options.BuiltIn) compile in the apiserver's base
// environment plus one function of kdv's, for hand-written checks whose
// value is found by a rule but checked by Go code (a named format of
// formats/, e.g. the JSON of an annotation, which CEL cannot parse):
//
//	kdvFormatErrors(name string, value string) list(string)
//
// returns the details of the named format's errors for value, in order
// (empty when valid); an unknown name is an evaluation error. CRD rules
// never see it: it is not the apiserver's.

// builtinFormats resolves the names kdvFormatErrors takes: every format
// kdv knows, with the hand-written validation's errors.
var builtinFormats = formats.New(formats.Options{Declarative: true})

// kdvLibrary is the CEL declaration of kdvFormatErrors.
func kdvLibrary() celgo.EnvOption {
	return celgo.Function("kdvFormatErrors",
		celgo.Overload("kdvFormatErrors_string_string", []*celgo.Type{celgo.StringType, celgo.StringType}, celgo.ListType(celgo.StringType),
			celgo.BinaryBinding(func(n, v ref.Val) ref.Val {
				name, ok := n.(types.String)
				if !ok {
					return types.MaybeNoSuchOverloadErr(n)
				}
				s, ok := v.(types.String)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				c, known := builtinFormats.Lookup(string(name))
				if !known {
					return types.NewErr("kdvFormatErrors: unknown format %q", string(name))
				}
				details := []string{}
				for _, e := range c.Errors(nil, string(s)) {
					details = append(details, e.Detail)
				}
				return types.DefaultTypeAdapter.NativeToValue(details)
			})))
}

var builtinEnvs sync.Map // "major.minor" -> *environment.EnvSet

// kdvEnvs holds the environments builtinEnvSet built, whose compile cache
// entries must not be shared with the base environment of the same
// version (astcache.go openStore).
var kdvEnvs sync.Map // *environment.EnvSet → struct{}

// builtinEnvSet returns the environment of built-in rules at compatibility
// version v: baseEnvSet's with kdvLibrary.
func builtinEnvSet(v *version.Version) *environment.EnvSet {
	key := v.String()
	if e, ok := builtinEnvs.Load(key); ok {
		return e.(*environment.EnvSet)
	}
	e, err := baseEnvSet(v).Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        []celgo.EnvOption{kdvLibrary()},
	})
	if err != nil {
		// A static declaration that does not fit the base environment is a
		// programming error, caught by any test compiling a built-in rule.
		panic(err)
	}
	if prev, loaded := builtinEnvs.LoadOrStore(key, e); loaded {
		return prev.(*environment.EnvSet)
	}
	kdvEnvs.Store(e, struct{}{})
	envVersions.Store(e, key)
	return e
}
