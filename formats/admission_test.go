package formats

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestAdmissionExpressionFormats: the errors are what k8s.io/kubernetes
// v1.37.2 reports for the same expressions in a ValidatingAdmissionPolicy
// with a paramKind and variables, and in a ValidatingWebhookConfiguration
// (bench/cmd/builtin-verdict); the last cases are the permissive
// environment's known misses (params without a paramKind, a variable's
// type), which must stay accepted, never refused with another error.
func TestAdmissionExpressionFormats(t *testing.T) {
	r := New(Options{Declarative: true})
	for _, tc := range []struct {
		format, value, want string
	}{
		{"k8s-admission-condition", "object.spec.replicas <= 5", ""},
		{"k8s-admission-condition", "   ", ""},
		{"k8s-admission-condition", "object.spec.replicas + 'a'", `spec.x: Invalid value: "object.spec.replicas + 'a'": must evaluate to bool but got string`},
		{"k8s-admission-condition", "1 + 1", `spec.x: Invalid value: "1 + 1": must evaluate to bool but got int`},
		{"k8s-admission-condition", "object.spec.enabled", `spec.x: Invalid value: "object.spec.enabled": must evaluate to bool but got dyn`},
		{"k8s-admission-match-condition", " object.metadata.name == ", "spec.x: Invalid value: \"object.metadata.name ==\": compilation failed: ERROR: <input>:1:24: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.metadata.name ==\n | .......................^"},
		{"k8s-admission-match-condition", "request.userInfo.username == 'x'", ""},
		{"k8s-admission-message-expression", "'bad ' + object.metadata.name", ""},
		{"k8s-admission-message-expression", "authorizer.path('x')", "spec.x: Invalid value: \"authorizer.path('x')\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.path('x')\n | ^"},
		{"k8s-admission-audit-expression", "  1 + ", "spec.x: Invalid value: \"  1 + \": compilation failed: ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 +\n | ...^"},
		{"k8s-admission-audit-expression", "object.metadata.name", `spec.x: Invalid value: "object.metadata.name": must evaluate to one of [string null_type] but got dyn`},
		{"k8s-admission-variable", "object.spec.(", "spec.x: Invalid value: \"object.spec.(\": compilation failed: ERROR: <input>:1:13: Syntax error: no viable alternative at input '.('\n | object.spec.(\n | ............^"},
		{"k8s-admission-variable", "object.spec.replicas > 1", ""},
		// known misses of the permissive environment
		{"k8s-admission-condition", "params.max > 1", ""},
		{"k8s-admission-condition", "variables.num", ""},
		{"k8s-admission-condition", "variables.num + 'a' == 'x'", ""},
	} {
		c, ok := r.Lookup(tc.format)
		if !ok || c.Family() != HandWritten {
			t.Fatalf("%s: not a hand-written format", tc.format)
		}
		got := ""
		for _, e := range c.Errors(field.NewPath("spec", "x"), tc.value) {
			got += e.Error()
		}
		if got != tc.want {
			t.Errorf("%s %q:\ngot  %s\nwant %s", tc.format, tc.value, got, tc.want)
		}
		if c.Valid(tc.value) != (tc.want == "") {
			t.Errorf("%s %q: Valid disagrees with Errors", tc.format, tc.value)
		}
	}
}
