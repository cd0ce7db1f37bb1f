package formats

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// allCheckers returns every checker a Registry can hand out: the CRD ones with
// strfmt semantics, and all validation-gen and KEP-4153 ones.
func allCheckers(tb testing.TB) []*Checker {
	var out []*Checker
	crd, dv := ForVersion(DefaultKubeMinor), New(Options{Declarative: true})
	for _, f := range []Family{OpenAPI, KubernetesCRD, ValidationGen, KEPAlias, HandWritten} {
		r := dv
		if f == OpenAPI || f == KubernetesCRD {
			r = crd
		}
		for _, n := range Names(f) {
			c, ok := r.Lookup(n)
			if !ok || c.Family() != f {
				tb.Fatalf("Lookup(%q) = %v, %v", n, c, ok)
			}
			out = append(out, c)
		}
	}
	return out
}

// FuzzCheckers checks that no value panics any checker and that Valid and
// Errors always agree.
func FuzzCheckers(f *testing.F) {
	for _, s := range []string{"", "a", "a.b", "A-", "a/b", "/", "x/y/z", "kubernetes.io/x", "requests.a/b", "2014-12-15T19:30:20Z",
		"1 day", "rgb(1,2,3)", "::1", "1.2.3.4/8", "01:02:03:04:05:06", "\xff", "%", "..",
		"*/5 * * * *", "Europe/Paris", "1-3,5", "object.spec.x > 1", "example.com/signer", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"} {
		f.Add(uint8(0), s)
	}
	checkers := allCheckers(f)
	path := field.NewPath("spec", "x")
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		c := checkers[int(which)%len(checkers)]
		valid := c.Valid(s)
		errs := c.Errors(path, s)
		if valid != (len(errs) == 0) {
			t.Errorf("%s(%q): Valid = %v, Errors = %v", c.Name(), s, valid, errs)
		}
		for _, e := range errs {
			if e.Field != "spec.x" {
				t.Errorf("%s(%q): error at %q", c.Name(), s, e.Field)
			}
		}
	})
}

// benchmarks: Lookup once at compile time, then Valid per value.
func benchValid(b *testing.B, r *Registry, format, value string) {
	c, ok := r.Lookup(format)
	if !ok || !c.Valid(value) {
		b.Fatalf("%s %q is not a valid value", format, value)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !c.Valid(value) {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkValidUUID(b *testing.B) {
	benchValid(b, ForVersion(37), "uuid", "16fd2706-8baf-433b-82eb-8c7fada847da")
}

func BenchmarkValidDateTime(b *testing.B) {
	benchValid(b, ForVersion(37), "date-time", "2011-08-18T19:03:37.000000000+01:00")
}

func BenchmarkValidHostname(b *testing.B) {
	benchValid(b, ForVersion(37), "hostname", "www.example-hyphenated.org")
}

func BenchmarkValidShortNameCRD(b *testing.B) {
	benchValid(b, ForVersion(37), "k8s-short-name", "my-app-0123456789")
}

func BenchmarkValidShortNameDeclarative(b *testing.B) {
	benchValid(b, New(Options{Declarative: true}), "k8s-short-name", "my-app-0123456789")
}

func BenchmarkValidDuration(b *testing.B) {
	benchValid(b, ForVersion(37), "duration", "1h30m")
}

func BenchmarkValidIPv4(b *testing.B) {
	benchValid(b, ForVersion(37), "ipv4", "192.168.1.1")
}

func BenchmarkValidLabelKey(b *testing.B) {
	benchValid(b, New(Options{Extended: true}), "k8s-label-key", "app.kubernetes.io/name")
}

func BenchmarkLookup(b *testing.B) {
	r := ForVersion(37)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok := r.Lookup("date-time"); !ok {
			b.Fatal("unknown")
		}
	}
}
