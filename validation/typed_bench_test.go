package validation

import (
	"context"
	"testing"

	"kdv.dev/value"
)

// BenchmarkTyped compares validating a typed Go object with validating its
// unstructured form.
func BenchmarkTyped(b *testing.B) {
	v := mustValidator(b, typedSchema, Options{IsResourceRoot: true, Namespaced: boolPtr(true), SkipCEL: true})
	obj := &typedObj{}
	obj.Name, obj.Namespace = "bench", "default"
	obj.Spec = typedSpec{typedCommon: typedCommon{Mode: "a", Level: 1}, Name: "abc", Tags: []string{"aa", "bb"},
		Labels: map[string]string{"k": "v"}, Items: []typedItem{{Name: "a", Value: i64(2)}, {Name: "b"}}, Ratio: 0.5, NoTag: true, Nil: &typedItem{}}
	u := deepCopy(value.Of(obj).Unstructured())
	ctx := context.Background()
	if errs := v.Validate(ctx, obj, nil); len(errs) > 0 {
		b.Fatal(errs)
	}
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = v.Validate(ctx, obj, nil)
		}
	})
	b.Run("unstructured", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = v.Validate(ctx, u, nil)
		}
	})
}

func deepCopy(x any) any {
	switch t := x.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, v := range t {
			m[k] = deepCopy(v)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, v := range t {
			l[i] = deepCopy(v)
		}
		return l
	}
	return x
}

// TestConcurrentValidate runs one Validator from many goroutines (run with
// -race): compiled validators are shared, per-call state is pooled.
func TestConcurrentValidate(t *testing.T) {
	v := mustValidator(t, typedSchema, Options{IsResourceRoot: true, SkipCEL: true})
	bad := mustJSON(t, `{"metadata":{"name":"X"},"spec":{"name":"ABC","tags":["a","a"],"port":true}}`)
	good := mustJSON(t, `{"metadata":{"name":"x"},"spec":{"name":"abc","mode":"a","NoTag":true,"nil":{}}}`)
	want := len(v.Validate(context.Background(), bad, nil))
	done := make(chan bool)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 200; i++ {
				if n := len(v.Validate(context.Background(), bad, good)); n == 0 {
					t.Error("no errors")
				}
				if n := len(v.Validate(context.Background(), bad, nil)); n != want {
					t.Errorf("got %d errors, want %d", n, want)
				}
				if errs := v.Validate(context.Background(), good, nil); len(errs) > 0 {
					t.Errorf("unexpected %v", errs)
				}
			}
			done <- true
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
}
