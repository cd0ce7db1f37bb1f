package defaulting

import (
	"testing"

	"kdv.dev/pruning"
)

// Benchmarks on the largest Prometheus Operator Prometheus example with its
// CRD (prometheus-operator-crd-full). The object is valid, so pruning walks
// it without removing anything: the common case.

// BenchmarkPrunePrometheus measures pruning.Prune with path tracking
// (strict field validation), as PruneWithOptions(obj, s, true,
// {TrackUnknownFieldPaths: true}).
func BenchmarkPrunePrometheus(b *testing.B) {
	o := prometheusObject(b)
	b.ReportAllocs()
	for b.Loop() {
		pruning.Prune(o.obj, o.schema, pruning.Options{IsResourceRoot: true})
	}
}

// BenchmarkPrunePrometheusNoPaths measures pruning.Prune without paths.
func BenchmarkPrunePrometheusNoPaths(b *testing.B) {
	o := prometheusObject(b)
	b.ReportAllocs()
	for b.Loop() {
		pruning.Prune(o.obj, o.schema, pruning.Options{IsResourceRoot: true, DiscardPaths: true})
	}
}

// BenchmarkApplyPrometheus measures the whole decode step (root metadata
// decoding, pruning, null pruning, embedded metadata coercion) on a fresh
// copy each iteration; subtract BenchmarkDeepCopyPrometheus for the step
// alone (stopping the timer per iteration would cost more than the step).
func BenchmarkApplyPrometheus(b *testing.B) {
	o := prometheusObject(b)
	b.ReportAllocs()
	for b.Loop() {
		obj := deepCopyJSON(o.obj).(map[string]any)
		if _, err := pruning.Apply(obj, o.schema, pruning.ApplyOptions{ReturnUnknownFieldPaths: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDefaultPrometheus measures Default on a fresh (undefaulted) copy
// each iteration; subtract BenchmarkDeepCopyPrometheus for Default alone.
func BenchmarkDefaultPrometheus(b *testing.B) {
	o := prometheusObject(b)
	b.ReportAllocs()
	for b.Loop() {
		Default(deepCopyJSON(o.obj), o.schema)
	}
}

// BenchmarkDefaultPrometheusDefaulted measures Default on an object that is
// already defaulted: the walk alone, nothing copied.
func BenchmarkDefaultPrometheusDefaulted(b *testing.B) {
	o := prometheusObject(b)
	Default(o.obj, o.schema)
	b.ReportAllocs()
	for b.Loop() {
		Default(o.obj, o.schema)
	}
}

// BenchmarkDeepCopyPrometheus is the baseline cost of copying the object.
func BenchmarkDeepCopyPrometheus(b *testing.B) {
	o := prometheusObject(b)
	b.ReportAllocs()
	for b.Loop() {
		deepCopyJSON(o.obj)
	}
}

// BenchmarkDefaulterPrometheus is BenchmarkDefaultPrometheus with the
// compiled Defaulter.
func BenchmarkDefaulterPrometheus(b *testing.B) {
	o := prometheusObject(b)
	d := NewDefaulter(o.schema)
	b.ReportAllocs()
	for b.Loop() {
		d.Default(deepCopyJSON(o.obj))
	}
}

// BenchmarkDefaulterPrometheusDefaulted is
// BenchmarkDefaultPrometheusDefaulted with the compiled Defaulter.
func BenchmarkDefaulterPrometheusDefaulted(b *testing.B) {
	o := prometheusObject(b)
	d := NewDefaulter(o.schema)
	d.Default(o.obj)
	b.ReportAllocs()
	for b.Loop() {
		d.Default(o.obj)
	}
}

// BenchmarkNewDefaulterPrometheus measures compiling the Prometheus schema.
func BenchmarkNewDefaulterPrometheus(b *testing.B) {
	o := prometheusObject(b)
	b.ReportAllocs()
	for b.Loop() {
		NewDefaulter(o.schema)
	}
}

// BenchmarkDefaultExpression times kdv's default expressions of the
// built-in schemas on typical parents: a container's imagePullPolicy and a
// volume's emptyDir (the Evaluator decides both; about 4.5 µs each through
// CEL alone).
// Run: cd defaulting && go test -run '^$' -bench DefaultExpression -benchmem .
func BenchmarkDefaultExpression(b *testing.B) {
	for _, c := range []struct {
		name, expr string
		parent     map[string]any
	}{
		{"imagePullPolicy", "imageTag(self.?image.orValue('')) == 'latest' ? 'Always' : 'IfNotPresent'",
			map[string]any{"name": "web", "image": "registry.example.com/shop/web:2.4.1", "args": []any{"--port=8080"}}},
		{"emptyDir", "self.all(k, k == 'name' || self[k] == null) ? optional.of({}) : optional.none()",
			map[string]any{"name": "config", "configMap": map[string]any{"name": "web-config"}}},
	} {
		e, err := CompileDefaultExpression(c.expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.Eval(c.parent)
			}
		})
	}
}
