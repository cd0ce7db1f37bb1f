package schema

import (
	"strings"
	"testing"
)

// TestValidFieldPath holds the cases of apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation_test.go TestValidateFieldPath.
func TestValidFieldPath(t *testing.T) {
	s := mustStructural(t, `type: object
properties:
  foo:
    type: object
    additionalProperties:
      type: object
      properties:
        f1: {type: number}
  a:
    type: object
    properties:
      bbb:
        type: object
        properties:
          c: {type: number}
          "34": {type: number}
      bbb.c:
        type: object
        properties:
          a-b34: {type: number}
  list:
    type: array
    items:
      type: object
      properties:
        a: {type: number}
        a-b.34: {type: number}
`)
	for _, tc := range []struct{ path, errMsg string }{
		{".a", ""},
		{".a.bbb", ""},
		{".foo.f1", ""},
		{".a['bbb']", ""},
		{".a['bbb.c']", ""},
		{".a['bbb.c'].a-b34", ""},
		{".a['bbb.c']['a-b34']", ""},
		{".a.bbb.c", ""},
		{".a.bbb['34']", ""},
		{".a.foo", "does not refer to a valid field"},
		{".a.bbb[0]", "expected single quoted string but got 0"},
		{".a.bbb.34", ""},
		{".list", ""},
		{".list[1]", "expected single quoted string but got 1"},
		{".list.a", "does not refer to a valid field"},
		{".list['a-b.34']", "does not refer to a valid field"},
		{".list.a-b.34", "does not refer to a valid field"},
		{"a", "expected [ or . but got: a"},
		{".c", "does not refer to a valid field"},
		{".a..b", "does not refer to a valid field"},
		{".list[-1]", "expected single quoted string but got -1"},
		{".list[1.0]", "expected single quoted string but got 1"},
	} {
		_, err := ValidFieldPath(tc.path, s)
		switch {
		case err == nil && tc.errMsg != "":
			t.Errorf("%s: want error %q", tc.path, tc.errMsg)
		case err != nil && (tc.errMsg == "" || !strings.Contains(err.Error(), tc.errMsg)):
			t.Errorf("%s: error %v, want %q", tc.path, err, tc.errMsg)
		}
	}
}
