package cel

import (
	"strings"
	"testing"

	"kdv.dev/schema"
)

// CompileErrors compiles the rules a lazily compiling validator has not
// compiled yet and reports the ones that do not compile (here: a field the
// schema lacks, as a rule written for another release would read).
func TestCompileErrors(t *testing.T) {
	s := yamlSchema(t, `
		type: object
		properties:
		  spec:
		    type: object
		    properties:
		      a: {type: string}
	`)
	spec := s.Properties["spec"]
	spec.XValidations = []schema.ValidationRule{{Rule: "has(self.a)"}, {Rule: "self.mode == 'x'"}}
	s.Properties["spec"] = spec
	v, errs := NewValidator(s, true, Options{BuiltIn: true, SkipCheck: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := v.CompileErrors()
	if len(got) != 1 || got[0].Field != "spec" || !strings.Contains(got[0].Detail, "rule compile error") || !strings.Contains(got[0].Detail, "undefined field 'mode'") {
		t.Errorf("got %v", got)
	}
}
