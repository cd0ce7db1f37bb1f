package values

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apiserver/pkg/cel/common"
)

// TestSortedIteration: map and filter over a map's keys (additionalProperties)
// give the keys in sorted order on every run,
// the same keys as the apiserver's values give in their random order.
func TestSortedIteration(t *testing.T) {
	obj, adaptor, env := setup(t)
	obj["labels"] = map[string]any{"d": "4", "b": "2", "e": "5", "a": "1", "c": "3", "f": "6"}
	for _, tc := range []struct{ expr, want string }{
		{`self.labels.map(k, k)`, `[a b c d e f]`},
		{`self.labels.filter(k, self.labels[k] != '3')`, `[a b d e f]`},
	} {
		ast, iss := env.Compile(tc.expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", tc.expr, iss.Err())
		}
		prog, err := env.Program(ast)
		if err != nil {
			t.Fatal(err)
		}
		eval := func(v ref.Val) []string {
			out, _, err := prog.Eval(map[string]any{"self": v})
			if err != nil {
				t.Fatalf("%s: %v", tc.expr, err)
			}
			l, err := out.ConvertToNative(reflectStrings)
			if err != nil {
				t.Fatalf("%s: %v", tc.expr, err)
			}
			return l.([]string)
		}
		for range 20 {
			got := eval(ToVal(obj, adaptor))
			if fmt.Sprint(got) != tc.want {
				t.Fatalf("%s = %v, want %s", tc.expr, got, tc.want)
			}
			api := eval(common.UnstructuredToVal(obj, adaptor))
			slices.Sort(api)
			if fmt.Sprint(api) != tc.want {
				t.Fatalf("%s: the apiserver's keys are %v, want %s", tc.expr, api, tc.want)
			}
		}
	}
}

var reflectStrings = reflect.TypeOf([]string{})
