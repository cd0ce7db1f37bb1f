package openapifmt

import (
	"strings"
	"testing"

	kstrfmt "k8s.io/kube-openapi/pkg/validation/strfmt"
)

// matchers pairs each strfmt.Default name with the matcher that must agree
// with it. kube-openapi is the oracle here, imported by the tests only.
var matchers = []struct {
	name string
	fn   func(string) bool
}{
	{"bsonobjectid", IsBSONObjectID},
	{"uri", IsURI},
	{"email", IsEmail},
	{"hostname", IsHostname},
	{"ipv4", IsIPv4},
	{"ipv6", IsIPv6},
	{"cidr", IsCIDR},
	{"mac", IsMAC},
	{"uuid", func(s string) bool { return IsUUID(s, AnyUUID) }},
	{"uuid3", func(s string) bool { return IsUUID(s, UUID3) }},
	{"uuid4", func(s string) bool { return IsUUID(s, UUID4) }},
	{"uuid5", func(s string) bool { return IsUUID(s, UUID5) }},
	{"isbn", func(s string) bool { return IsISBN10(s) || IsISBN13(s) }},
	{"isbn10", IsISBN10},
	{"isbn13", IsISBN13},
	{"creditcard", IsCreditCard},
	{"ssn", IsSSN},
	{"hexcolor", IsHexColor},
	{"rgbcolor", IsRGBColor},
	{"byte", IsBase64},
	{"date", IsDate},
	{"datetime", IsDateTime},
	{"duration", IsDuration},
}

// samples are the values of kube-openapi's strfmt tests (default_test.go,
// time_test.go, date_test.go, duration_test.go, bson_test.go) plus edge cases
// for the quirks the matchers reproduce. Every sample is checked against every
// format.
var samples = []string{
	"", " ", "a", "x", "-", ".", "t", "T", "z", "\n", "\xff", "\uFFFD",
	// uri, email
	"http://somewhere.com", "http://somewhereelse.com", "somewhere.com", "/relative/path", "http://[::1]:80/x?y#z", "%zz",
	"somebody@somewhere.com", "blah@gmail.com", "test@d.verylongtoplevel", "email+tag@gmail.com", `" "@example.com`,
	`"Abc\@def"@example.com`, `"Fred Bloggs"@example.com`, `"Joe\\Blow"@example.com`, `"Abc@def"@example.com`,
	"customer/department=shipping@example.com", "$A12345@example.com", "!def!xyz%abc@example.com", "_somename@example.com",
	"!#$%&'*+-/=?^_`{}|~@example.com", "Miles.O'Brian@example.com", "postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws", "root@localhost",
	"john@com", "api@piston.ninja", "somebody@somewhere@com", "Name <a@b.c>",
	// hostname
	"somewhere.com!", "user@email.domain", "1.1.1.1", strings.Repeat("a", 256), strings.Repeat("a", 63), strings.Repeat("a", 64),
	"x.y." + strings.Repeat("a", 64), "x." + strings.Repeat("a", 63), strings.Repeat("a.", 127) + "ab", strings.Repeat("a.", 126) + "ab",
	"www.example-.org", "www.--example.org", "-www.example.org", "www-.example.org", "www.d-.org", "www.-d.org", "www-", "-www",
	"www.ex ample.org", "_www.example.org", "www.ex;ample.org", "www.example_underscored.org", "www.詹姆斯.x", "a.b.c.d", "-xyz",
	"xyz-", "x.", "a.b.c.dot-", "a.b.c.é;ö", "888.com", "a.com", "1.2.3.4.com", "1wwworg.example.com", "xn--bcher-kva.example.com",
	"xn-80ak6aa92e.co", "xn--ls8h.la", "☁→❄→☃→☀→☺→☂→☹→✝.ws", "www.example.ôlà", "ôlà.ôlà", "ex$ample", "localhost", "x-y",
	"a-", "my-host", "a-b-c", "ex=ample.com", "<foo>", "www.example-hyphenated.org", "www.élégigôö.org", "www.詹姆斯.london",
	"a.\xff\xfe", "\xff.com", "a\xffb", "é" + strings.Repeat("a", 62), "a-" + strings.Repeat("b", 62), "a.b1", "a.ªº", "a.µb",
	// ip, cidr, mac
	"127.0.0.1", "192.168.1.01", "198.168.254.2.2", "::1", "::2", "fe80::1%eth0", "::ffff:1.2.3.4", "1.2.3", "01.02.03.004",
	"192.168.254.1/24", "192.0.02.1/24", "2001:db8:a0b:12f0::1/32", "198.168.254.2", "2001:db8:a0b:12f0::1", "1.2.3.4/33", "::/0",
	"01:02:03:04:05:06", "01-02-03-04-05-06", "01:02:03:04:05", "0102.0304.0506", "010203040506", "01:02-03:04:05:06",
	"01:02:03:04:05:06:07:08", "0g:02:03:04:05:06", "0102.0304.050g", "0102.0304:0506", "01020304050607080910111213141516171819ab",
	// uuid
	"a8098c1a-f86e-11da-bd1a-00112444be1e", "A8098C1A-F86E-11DA-BD1A-00112444BE1E", "a8098c1af86e11dabd1a00112444be1e",
	"6fa459ea-ee8a-3ca4-894e-db77e160355e", "16fd2706-8baf-433b-82eb-8c7fada847da", "886313e1-3b8a-5372-9b90-0c9aee199e5d",
	"16fd2706-8baf-433b-c2eb-8c7fada847da", "16fd2706-8baf-433b-A2eb-8c7fada847da", "16fd27068baf-433b-82eb8c7fada847da",
	"not-a-uuid", "16fd2706-8baf-433b-82eb-8c7fada847d", "16fd2706-8baf-433b-82eb-8c7fada847daa", "-16fd2706-8baf-433b-82eb-8c7fada847da",
	"16fd2706--8baf-433b-82eb-8c7fada847da",
	// isbn, creditcard, ssn, colors, byte
	"0321751043", "836217463", "978-0321751041", "978-0321751042", "0-321-75104-3", "0 321 75104 3", "080442957X", "080442957x",
	"9780321751041", "978\t0321751041", "4111-1111-1111-1111", "4012-8888-8888-1881", "9999-9999-9999-999", "378282246310005",
	"30569309025904", "6011111111111117", "3530111333300000", "5105105105105100", "4222222222222", "x4111 1111 1111 1111y",
	"111-11-1111", "999 99 9999", "999 99 999", "999-999999", "#FFFFFF", "#000000", "#fffffffz", "fff", "#ab", "rgb(255,255,255)",
	"rgb(0,0,0)", "rgb(300,0,0)", "rgb( 1 , 22 ,\t199 )", "rgb(01,0,0)", "rgb(256,0,0)", "rgb(250,249,200)", "rgb(0,0,0) ",
	"VGhpcyBpcyBh", "VGhpcyBpcw==", "VGhpcyBpcyA=", "ZWxpemFiZXRocG9zZXk", "ZWxpemFiZXRocG9zZXk=", "a===", "ab=c", "-_-_",
	// date, date-time
	"2017-12-22", "2017-1-1", "17-13-22", "2017-02-29", "1900-02-29", "2100-02-29", "2000-02-29", "2400-02-29", "2017-13-22",
	"2017-12-32", "20171-12-32", "YYYY-MM-DD", "20-17-2017", "2017-12-22T01:02:03Z", "0000-01-01", "+017-12-22",
	"2014-12-15T08:00:00", "2014-12-15T08:00:00.000Z", "2011-08-18T19:03:37.000000000+01:00", "2014-12-15T19:30:20Z",
	"0001-01-01T00:00:00Z", "yada", "zor", "zorg", "zorgTx", "1972-12-31Tx", "1972-12-31T24:40:00.000Z", "1972-12-31T23:63:00.000Z",
	"1972-12-31T23:59:60.000Z", "2014-12-15t19:30:20z", "2014-12-15T19:30:20Ztrailing", "2014-12-15T19:30:20x5Z",
	"2014-12-15T19:30:20é5+01:00", "2014-12-15T19:30:20\n5Z", "2014-12-15T19:30:20.Z", "2014-12-15T19:30:20+0100",
	"2014-12-15T19:30:20\xff5z", "2014-12-15TT19:30:20Z", "2014-12-15T19:30:20.5-01:00x",
	// duration
	"0ms", "2ms", "three week", "9999999999999999999999999999999999999999999999999999999 weeks", "12 parsecs", "12 y",
	"45 wekk", "45 weeekks", "1ns", "1us", "1µs", "1ms", "1s", "1m", "1h", "1hr", "1d", "1w", "1wk", "1nanoseconds", "1nanos",
	"1microseconds", "1micros", "1millis", "1milliseconds", "1second", "1sec", "1min", "1minute", "1hour", "1day", "1week",
	"1  ns", "1  µs", "1  wk", "3 DAYS", "about 3 days ago", "3 parsecs and 2 days", "2 days 9999999999999999999 s",
	"2 days 9223372036854775807 s", "2 days 9223372036854775808 s", "000000000000000000000000001 h", "1h30m", "-1.5h", "1 hrs",
	"5\n\tmins", "12abc3h", "1µ", "1 Μs",
	// k8s names
	"a--1--2--b", "a.b.c.d.e", "A.a", "a..b",
}

func TestMatchersAgreeWithKubeOpenAPI(t *testing.T) {
	for _, m := range matchers {
		if !kstrfmt.Default.ContainsName(m.name) {
			t.Fatalf("kube-openapi has no format %q", m.name)
		}
		for _, s := range samples {
			want := kstrfmt.Default.Validates(m.name, s)
			if got := m.fn(s); got != want {
				t.Errorf("%s(%q) = %v, kube-openapi says %v", m.name, s, got, want)
			}
		}
	}
}

// FuzzMatchersAgreeWithKubeOpenAPI checks that no input panics and that every
// matcher decides as kube-openapi does.
func FuzzMatchersAgreeWithKubeOpenAPI(f *testing.F) {
	for i, s := range samples {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		m := matchers[int(which)%len(matchers)]
		if got, want := m.fn(s), kstrfmt.Default.Validates(m.name, s); got != want {
			t.Errorf("%s(%q) = %v, kube-openapi says %v", m.name, s, got, want)
		}
	})
}
