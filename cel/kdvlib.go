package cel

import (
	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"kdv.dev/formats"
)

// Built-in rules (Options.BuiltIn) compile in the apiserver's base
// environment plus kdv's functions (builtinEnvSet), among them one for
// hand-written checks whose value is found by a rule but checked by Go
// code (a named format of formats/, e.g. the JSON of an annotation, which
// CEL cannot parse):
//
//	kdv.formatErrors(name string, value string) list(string)
//
// returns the details of the named format's errors for value, in order
// (empty when valid); an unknown name is an evaluation error. CRD rules
// never see it: it is not the apiserver's.

// builtinFormats resolves the names kdv.formatErrors takes: every format
// kdv knows, with the hand-written validation's errors.
var builtinFormats = formats.New(formats.Options{Declarative: true})

// kdvLibrary is the CEL declaration of kdv.formatErrors.
func kdvLibrary() celgo.EnvOption {
	return celgo.Function("kdv.formatErrors",
		celgo.Overload("kdv_format_errors_string_string", []*celgo.Type{celgo.StringType, celgo.StringType}, celgo.ListType(celgo.StringType),
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
					return types.NewErr("kdv.formatErrors: unknown format %q", string(name))
				}
				details := []string{}
				for _, e := range c.Errors(nil, string(s)) {
					details = append(details, e.Detail)
				}
				return types.DefaultTypeAdapter.NativeToValue(details)
			})))
}
