package formats

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// check looks format up in r, checks value at path spec.x and returns the
// rendered errors; it fails the test when Valid and Errors disagree.
func check(t *testing.T, r *Registry, format, value string) []string {
	t.Helper()
	c, ok := r.Lookup(format)
	if !ok {
		t.Fatalf("format %q is not known", format)
	}
	errs := c.Errors(field.NewPath("spec", "x"), value)
	if c.Valid(value) != (len(errs) == 0) {
		t.Fatalf("%s: Valid(%q) = %v but Errors = %v", format, value, c.Valid(value), errs)
	}
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestOpenAPIFormats takes its values from kube-openapi's strfmt tests
// (default_test.go, time_test.go, date_test.go, duration_test.go,
// kubernetes-extensions_test.go); the errors are what the apiserver returns for
// a CRD field "x" under "spec" with that format.
func TestOpenAPIFormats(t *testing.T) {
	cases := []struct {
		format, value string
		err           string // "" when valid
	}{
		{"bsonobjectid", "507f1f77bcf86cd799439011", ""},
		{"bsonobjectid", "507f1f77bcf86cd79943901", `spec.x: Invalid value: "507f1f77bcf86cd79943901": spec.x in body must be of type bsonobjectid: "507f1f77bcf86cd79943901"`},
		{"uri", "http://somewhere.com", ""},
		{"uri", "somewhere.com", `spec.x: Invalid value: "somewhere.com": spec.x in body must be of type uri: "somewhere.com"`},
		{"email", "somebody@somewhere.com", ""},
		{"email", `"Fred Bloggs"@example.com`, ""},
		{"email", "postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws", ""},
		{"email", "somebody@somewhere@com", `spec.x: Invalid value: "somebody@somewhere@com": spec.x in body must be of type email: "somebody@somewhere@com"`},
		{"hostname", "somewhere.com", ""},
		{"hostname", "www.詹姆斯.london", ""},
		{"hostname", "x-y", ""},
		{"hostname", "ex$ample", ""},
		{"hostname", "www.example-hyphenated.org", ""},
		{"hostname", "1.1.1.1", `spec.x: Invalid value: "1.1.1.1": spec.x in body must be of type hostname: "1.1.1.1"`},
		{"hostname", "www.example_underscored.org", `spec.x: Invalid value: "www.example_underscored.org": spec.x in body must be of type hostname: "www.example_underscored.org"`},
		{"hostname", "x.y." + strings.Repeat("a", 64), `spec.x: Invalid value: "x.y.` + strings.Repeat("a", 64) + `": spec.x in body must be of type hostname: "x.y.` + strings.Repeat("a", 64) + `"`},
		{"hostname", "www.詹姆斯.x", `spec.x: Invalid value: "www.詹姆斯.x": spec.x in body must be of type hostname: "www.詹姆斯.x"`},
		{"ipv4", "192.168.1.01", ""},
		{"ipv4", "198.168.254.2.2", `spec.x: Invalid value: "198.168.254.2.2": spec.x in body must be of type ipv4: "198.168.254.2.2"`},
		{"ipv6", "::1", ""},
		{"ipv6", "127.0.0.1", `spec.x: Invalid value: "127.0.0.1": spec.x in body must be of type ipv6: "127.0.0.1"`},
		{"ipv6", "fe80::1%eth0", `spec.x: Invalid value: "fe80::1%eth0": spec.x in body must be of type ipv6: "fe80::1%eth0"`},
		{"cidr", "192.0.02.1/24", ""},
		{"cidr", "2001:db8:a0b:12f0::1/32", ""},
		{"cidr", "198.168.254.2", `spec.x: Invalid value: "198.168.254.2": spec.x in body must be of type cidr: "198.168.254.2"`},
		{"mac", "01:02:03:04:05:06", ""},
		{"mac", "01:02:03:04:05", `spec.x: Invalid value: "01:02:03:04:05": spec.x in body must be of type mac: "01:02:03:04:05"`},
		{"uuid", "A8098C1AF86E11DABD1A00112444BE1E", ""},
		{"uuid", "not-a-uuid", `spec.x: Invalid value: "not-a-uuid": spec.x in body must be of type uuid: "not-a-uuid"`},
		{"uuid3", "6fa459ea-ee8a-3ca4-894e-db77e160355e", ""},
		{"uuid3", "16fd2706-8baf-433b-82eb-8c7fada847da", `spec.x: Invalid value: "16fd2706-8baf-433b-82eb-8c7fada847da": spec.x in body must be of type uuid3: "16fd2706-8baf-433b-82eb-8c7fada847da"`},
		{"uuid4", "16fd2706-8baf-433b-82eb-8c7fada847da", ""},
		{"uuid4", "16fd2706-8baf-433b-c2eb-8c7fada847da", `spec.x: Invalid value: "16fd2706-8baf-433b-c2eb-8c7fada847da": spec.x in body must be of type uuid4: "16fd2706-8baf-433b-c2eb-8c7fada847da"`},
		{"uuid5", "886313e1-3b8a-5372-9b90-0c9aee199e5d", ""},
		{"uuid5", "not-a-uuid", `spec.x: Invalid value: "not-a-uuid": spec.x in body must be of type uuid5: "not-a-uuid"`},
		{"isbn", "0321751043", ""},
		{"isbn", "978-0321751041", ""},
		{"isbn10", "836217463", `spec.x: Invalid value: "836217463": spec.x in body must be of type isbn10: "836217463"`},
		{"isbn13", "978-0321751042", `spec.x: Invalid value: "978-0321751042": spec.x in body must be of type isbn13: "978-0321751042"`},
		{"creditcard", "4111-1111-1111-1111", ""},
		{"creditcard", "9999-9999-9999-999", `spec.x: Invalid value: "9999-9999-9999-999": spec.x in body must be of type creditcard: "9999-9999-9999-999"`},
		{"ssn", "111-11-1111", ""},
		{"ssn", "999 99 999", `spec.x: Invalid value: "999 99 999": spec.x in body must be of type ssn: "999 99 999"`},
		{"hexcolor", "#FFFFFF", ""},
		{"hexcolor", "#fffffffz", `spec.x: Invalid value: "#fffffffz": spec.x in body must be of type hexcolor: "#fffffffz"`},
		{"rgbcolor", "rgb(255,255,255)", ""},
		{"rgbcolor", "rgb(300,0,0)", `spec.x: Invalid value: "rgb(300,0,0)": spec.x in body must be of type rgbcolor: "rgb(300,0,0)"`},
		{"byte", "VGhpcyBpcyBh", ""},
		{"byte", "ZWxpemFiZXRocG9zZXk", `spec.x: Invalid value: "ZWxpemFiZXRocG9zZXk": spec.x in body must be of type byte: "ZWxpemFiZXRocG9zZXk"`},
		{"password", "", ""},
		{"password", "super secret!!!", ""},
		{"date", "2000-02-29", ""},
		{"date", "2017-02-29", `spec.x: Invalid value: "2017-02-29": spec.x in body must be of type date: "2017-02-29"`},
		{"date-time", "2014-12-15T19:30:20Z", ""},
		{"date-time", "2011-08-18T19:03:37.000000000+01:00", ""},
		{"datetime", "2014-12-15T08:00:00.000Z", ""},
		{"date-time", "2014-12-15T08:00:00", `spec.x: Invalid value: "2014-12-15T08:00:00": spec.x in body must be of type date-time: "2014-12-15T08:00:00"`},
		{"date-time", "1972-12-31T23:59:60.000Z", `spec.x: Invalid value: "1972-12-31T23:59:60.000Z": spec.x in body must be of type date-time: "1972-12-31T23:59:60.000Z"`},
		{"duration", "1h30m", ""},
		{"duration", "3 days", ""},
		{"duration", "1  wk", ""},
		{"duration", "45 weeekks", `spec.x: Invalid value: "45 weeekks": spec.x in body must be of type duration: "45 weeekks"`},
		{"k8s-short-name", "a--1--2--b", ""},
		{"k8s-short-name", strings.Repeat("a", 63), ""},
		{"k8s-short-name", "a.b", `spec.x: Invalid value: "a.b": spec.x in body must be of type k8s-short-name: "a.b"`},
		{"k8s-short-name", "", `spec.x: Invalid value: "": spec.x in body must be of type k8s-short-name: ""`},
		{"k8s-long-name", "a.b.c.d.e", ""},
		{"k8s-long-name", "a..b", `spec.x: Invalid value: "a..b": spec.x in body must be of type k8s-long-name: "a..b"`},
		{"k8slongname", "A", `spec.x: Invalid value: "A": spec.x in body must be of type k8slongname: "A"`},
		// %q quoting of the value in the detail
		{"uuid", "a\"b\n", `spec.x: Invalid value: "a\"b\n": spec.x in body must be of type uuid: "a\"b\n"`},
	}
	r := ForVersion(37)
	for _, tc := range cases {
		got := check(t, r, tc.format, tc.value)
		switch {
		case tc.err == "" && len(got) != 0:
			t.Errorf("%s %q: unexpected errors %q", tc.format, tc.value, got)
		case tc.err != "" && (len(got) != 1 || got[0] != tc.err):
			t.Errorf("%s %q:\n got %q\nwant %q", tc.format, tc.value, got, tc.err)
		}
	}
}

func TestOpenAPIErrorShape(t *testing.T) {
	c, _ := ForVersion(37).Lookup("uuid")
	errs := c.Errors(field.NewPath("spec").Child("items").Index(0).Child("id"), "abc")
	if len(errs) != 1 {
		t.Fatalf("errors: %v", errs)
	}
	e := errs[0]
	if e.Type != field.ErrorTypeTypeInvalid || e.BadValue != "abc" || e.Origin != "" ||
		e.Detail != `spec.items[0].id in body must be of type uuid: "abc"` {
		t.Errorf("error = %#v", e)
	}
	if got := c.Errors(nil, "abc")[0].Detail; got != ` in body must be of type uuid: "abc"` {
		t.Errorf("root detail = %q", got)
	}
	if got := TypeDetail("spec.x", "date-time", "ä"); got != `spec.x in body must be of type date-time: "ä"` {
		t.Errorf("TypeDetail = %q", got)
	}
}

// TestValidationGenFormats takes its values and messages from
// k8s.io/apimachinery v0.37.2 pkg/api/validate/strfmt_test.go.
func TestValidationGenFormats(t *testing.T) {
	const (
		label     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
		subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
		caseless  = "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
		keyName   = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
		value     = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
		cIdent    = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')"
	)
	long254 := strings.Repeat("a", 254)
	cases := []struct {
		format, value string
		want          []string // Error() of each error, "spec.x: " omitted
		origin        string
	}{
		{"k8s-short-name", "abc-123", nil, ""},
		{"k8s-short-name", "", []string{`Invalid value: "": ` + label}, "format=k8s-short-name"},
		{"k8s-short-name", "01234567890123456789012345678901234567890123456789012345678901234", []string{`Invalid value: "01234567890123456789012345678901234567890123456789012345678901234": must be no more than 63 bytes`}, "format=k8s-short-name"},
		{"k8s-short-name", "a.b", []string{`Invalid value: "a.b": must not contain dots`}, "format=k8s-short-name"},
		{"k8s-short-name", "ABC-123", []string{`Invalid value: "ABC-123": ` + label}, "format=k8s-short-name"},
		{"k8s-long-name", "a.b.c", nil, ""},
		{"k8s-long-name", "a_b.c", []string{`Invalid value: "a_b.c": ` + subdomain}, "format=k8s-long-name"},
		{"k8s-long-name", long254, []string{`Invalid value: "` + long254 + `": must be no more than 253 bytes`}, "format=k8s-long-name"},
		{"k8s-long-name-caseless", "A.b.C", nil, ""},
		{"k8s-long-name-caseless", "-A.b.C", []string{`Invalid value: "-A.b.C": ` + caseless}, "format=k8s-long-name-caseless"},
		{"k8s-label-key", "example.com/app", nil, ""},
		{"k8s-label-key", "app_name", nil, ""},
		{"k8s-label-key", "app^", []string{`Invalid value: "app^": ` + keyName}, "format=k8s-label-key"},
		{"k8s-prefixed-label-key", "example.com/app", nil, ""},
		{"k8s-prefixed-label-key", "app", []string{`Invalid value: "app": must include a prefix (e.g. 'example.com/key')`}, "format=k8s-prefixed-label-key"},
		{"k8s-label-value", "", nil, ""},
		{"k8s-label-value", "Valid-Value", nil, ""},
		{"k8s-label-value", "invalid@value", []string{`Invalid value: "invalid@value": ` + value}, "format=k8s-label-value"},
		{"k8s-path-segment-name", "Iñtërnâtiônàlizætiøn", nil, ""},
		{"k8s-path-segment-name", "..", []string{`Invalid value: "..": may not be '..'`}, "format=k8s-path-segment-name"},
		{"k8s-path-segment-name", "foo/bar%baz", []string{`Invalid value: "foo/bar%baz": may not contain '/'`, `Invalid value: "foo/bar%baz": may not contain '%'`}, "format=k8s-path-segment-name"},
		{"k8s-uuid", "123e4567-e89b-12d3-a456-426614174000", nil, ""},
		{"k8s-uuid", "123E4567-E89B-12D3-A456-426614174000", []string{`Invalid value: "123E4567-E89B-12D3-A456-426614174000": must be a lowercase UUID in 8-4-4-4-12 format`}, "format=k8s-uuid"},
		{"k8s-resource-pool-name", "a/b/c.d.e", nil, ""},
		{"k8s-resource-pool-name", "/", []string{`Invalid value: "/": segment 0: must not be empty`, `Invalid value: "/": segment 1: must not be empty`}, "format=k8s-resource-pool-name"},
		{"k8s-resource-pool-name", "a.valid.name/" + strings.Repeat("b", 253), []string{`Too long: may not be more than 253 bytes`}, "format=k8s-resource-pool-name"},
		{"k8s-extended-resource-name", "example-kub.io/foo", nil, ""},
		{"k8s-extended-resource-name", "kubernetes.io/foo", []string{`Invalid value: "kubernetes.io/foo": must not have "kubernetes.io/" domain`}, "format=k8s-extended-resource-name"},
		{"k8s-extended-resource-name", "requests.example.com/foo", []string{`Invalid value: "requests.example.com/foo": must not have "requests." prefix`}, "format=k8s-extended-resource-name"},
		{"k8s-resource-fully-qualified-name", "prefix.com/name", nil, ""},
		{"k8s-resource-fully-qualified-name", "prefix.com/name/extra", nil, ""},
		{"k8s-resource-fully-qualified-name", "prefix.com/", []string{`Invalid value: "": name must not be empty`}, "format=k8s-resource-fully-qualified-name"},
		{"k8s-resource-fully-qualified-name", "prefix.com/name-with-dashes", []string{`Invalid value: "name-with-dashes": ` + cIdent}, "format=k8s-resource-fully-qualified-name"},
		{"k8s-resource-fully-qualified-name", "name", []string{`Invalid value: "name": a fully qualified name must be a domain and a name separated by a slash`}, "format=k8s-resource-fully-qualified-name"},
	}
	r := New(Options{Declarative: true})
	for _, tc := range cases {
		c, _ := r.Lookup(tc.format)
		got := check(t, r, tc.format, tc.value)
		if len(got) != len(tc.want) {
			t.Errorf("%s %q: got %q, want %q", tc.format, tc.value, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != "spec.x: "+tc.want[i] {
				t.Errorf("%s %q [%d]:\n got %s\nwant spec.x: %s", tc.format, tc.value, i, got[i], tc.want[i])
			}
		}
		for _, e := range c.Errors(field.NewPath("spec", "x"), tc.value) {
			if e.Origin != tc.origin {
				t.Errorf("%s %q: origin %q, want %q", tc.format, tc.value, e.Origin, tc.origin)
			}
		}
	}
}

// TestKEPAliases checks the KEP-4153 names against the messages of
// k8s.io/apimachinery/pkg/util/validation (validation_test.go values).
func TestKEPAliases(t *testing.T) {
	const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	cases := []struct {
		format, value string
		want          []string
	}{
		{"dns1123label", "a-b", nil},
		{"dns1123label", "1-b", nil},
		{"dns1123label", "a.b", []string{`spec.x: Invalid value: "a.b": must not contain dots`}},
		{"dns1123subdomain", "a.b-c.d", nil},
		// util/validation's MaxLenError says "characters" where content's says "bytes"
		{"dns1123subdomain", strings.Repeat("a", 254), []string{`spec.x: Invalid value: "` + strings.Repeat("a", 254) + `": must be no more than 253 characters`}},
		{"dns1035label", "abc-123", nil},
		{"dns1035label", "1abc", []string{`spec.x: Invalid value: "1abc": ` + dns1035}},
		{"qualifiedname", "example.com/MyName", nil},
		{"qualifiedname", "a/b/c", []string{`spec.x: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`}},
		{"labelvalue", "", nil},
		{"portname", "http", nil},
		{"portname", "h2c-8080", nil},
		{"portname", "1.5.5", []string{`spec.x: Invalid value: "1.5.5": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`, `spec.x: Invalid value: "1.5.5": must contain at least one letter (a-z)`}},
		{"portname", "-a--b-c-very-long", []string{`spec.x: Invalid value: "-a--b-c-very-long": must be no more than 15 characters`, `spec.x: Invalid value: "-a--b-c-very-long": must not contain consecutive hyphens`, `spec.x: Invalid value: "-a--b-c-very-long": must not begin or end with a hyphen`}},
		{"portname", "HTTP", []string{`spec.x: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`, `spec.x: Invalid value: "HTTP": must contain at least one letter (a-z)`}},
		{"labelvalue", strings.Repeat("a", 64), []string{`spec.x: Invalid value: "` + strings.Repeat("a", 64) + `": must be no more than 63 bytes`}},
	}
	r := New(Options{Extended: true})
	for _, tc := range cases {
		got := check(t, r, tc.format, tc.value)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s %q:\n got %q\nwant %q", tc.format, tc.value, got, tc.want)
		}
		c, _ := r.Lookup(tc.format)
		for _, e := range c.Errors(nil, tc.value) {
			if e.Origin != "format="+tc.format || e.Type != field.ErrorTypeInvalid {
				t.Errorf("%s: error %#v", tc.format, e)
			}
		}
	}
}

// TestCRDAndDeclarativeAgree checks that the two checkers of k8s-short-name
// and k8s-long-name (strfmt's for CRDs, validation-gen's for built-in types)
// accept the same values, using kube-openapi's kubernetes-extensions_test.go
// samples; only their messages differ.
func TestCRDAndDeclarativeAgree(t *testing.T) {
	values := []string{"a", "ab", "a-1", "a--1--2--b", "0", "1--a--b--2", strings.Repeat("a", 63), strings.Repeat("a", 64),
		strings.Repeat("a", 253), strings.Repeat("a", 254), "", "A", "aBc", "-", "-a", "a-", "_", "a_b", ".", "a.", ".a", "a.b",
		"a..b", " ", "a b", "A.a", "a.B.c.d.e", "a@b", "a$b", "a.1", "012.a"}
	crd, dv := ForVersion(37), New(Options{Declarative: true})
	for _, f := range []string{"k8s-short-name", "k8s-long-name"} {
		a, _ := crd.Lookup(f)
		b, _ := dv.Lookup(f)
		if a.Family() != KubernetesCRD || b.Family() != ValidationGen {
			t.Fatalf("families %v %v", a.Family(), b.Family())
		}
		for _, v := range values {
			if a.Valid(v) != b.Valid(v) {
				t.Errorf("%s %q: CRD %v, validation-gen %v", f, v, a.Valid(v), b.Valid(v))
			}
		}
	}
}
