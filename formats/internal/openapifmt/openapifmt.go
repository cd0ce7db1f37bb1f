// Package openapifmt holds allocation-free matchers with the same accept/reject
// decisions as the validators that k8s.io/kube-openapi/pkg/validation/strfmt
// registers in strfmt.Default (and its internal govalidator copy), at the
// kube-openapi version Kubernetes 1.37 uses (v0.0.0-20260721132016-d427ff9ee9ad).
//
// kube-openapi implements most of these with regular expressions, string splits
// and parsers that allocate; the apiserver calls them once per value. These
// matchers are written by hand from the regular expressions, quirks included,
// and the package tests check them against kube-openapi itself (table and fuzz
// differential tests), so a change in kube-openapi is caught there.
//
// Regular-expression semantics that matter below: Go's regexp decodes the input
// as UTF-8 and treats each invalid byte as utf8.RuneError (U+FFFD, category So,
// i.e. a symbol); \d and \s are ASCII only (\s is [\t\n\f\r ]); `.` matches any
// rune except '\n'.
package openapifmt

import (
	"net/mail"
	"net/netip"
	"net/url"
	"strings"
	"time"

	netutils "k8s.io/utils/net"
)

// IsBSONObjectID mirrors strfmt.IsBSONObjectID: hex.DecodeString must succeed
// and yield exactly 12 bytes, i.e. 24 hex digits of either case.
func IsBSONObjectID(s string) bool {
	if len(s) != 24 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// IsURI mirrors govalidator.IsRequestURI: url.ParseRequestURI must succeed.
// It allocates (the parsed URL), as the apiserver does.
func IsURI(s string) bool {
	_, err := url.ParseRequestURI(s)
	return err == nil
}

// IsEmail mirrors strfmt.IsEmail: net/mail.ParseAddress must succeed with a
// non-empty address. It allocates, as the apiserver does.
func IsEmail(s string) bool {
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address != ""
}

// IsIPv4 mirrors strfmt's isIPv4: k8s.io/utils/net.ParseIPSloppy accepts it
// (IPv4 octets may have leading zeros) and it contains a '.'. Note that this
// accepts IPv4-mapped IPv6 such as "::ffff:1.2.3.4", as kube-openapi does.
func IsIPv4(s string) bool {
	return strings.IndexByte(s, '.') >= 0 && netutils.ParseIPSloppy(s) != nil
}

// IsIPv6 mirrors govalidator.IsIPv6: net.ParseIP accepts it and it contains a
// ':'. net.ParseIP is netip.ParseAddr rejecting zones, used here directly to
// avoid allocating the 16-byte result.
func IsIPv6(s string) bool {
	if strings.IndexByte(s, ':') < 0 {
		return false
	}
	ip, err := netip.ParseAddr(s)
	return err == nil && ip.Zone() == ""
}

// IsCIDR mirrors strfmt's isCIDR: k8s.io/utils/net.ParseCIDRSloppy must
// succeed (leading zeros in IPv4 octets allowed).
func IsCIDR(s string) bool {
	_, _, err := netutils.ParseCIDRSloppy(s)
	return err == nil
}

// IsMAC mirrors govalidator.IsMAC, i.e. net.ParseMAC succeeding: 6, 8 or 20
// octets written as colon- or dash-separated hex pairs, dot-separated groups of
// four hex digits, or plain hex. Unlike net.ParseMAC it does not allocate.
func IsMAC(s string) bool {
	if len(s) < 12 {
		return false
	}
	switch {
	case s[2] == ':' || s[2] == '-':
		if (len(s)+1)%3 != 0 {
			return false
		}
		n := (len(s) + 1) / 3
		if n != 6 && n != 8 && n != 20 {
			return false
		}
		sep := s[2]
		for i, x := 0, 0; i < n; i, x = i+1, x+3 {
			if !isHex(s[x]) || !isHex(s[x+1]) {
				return false
			}
			if i < n-1 && s[x+2] != sep {
				return false
			}
		}
		return true
	case s[4] == '.':
		if (len(s)+1)%5 != 0 {
			return false
		}
		n := 2 * (len(s) + 1) / 5
		if n != 6 && n != 8 && n != 20 {
			return false
		}
		for i, x := 0, 0; i < n; i, x = i+2, x+5 {
			if !isHex(s[x]) || !isHex(s[x+1]) || !isHex(s[x+2]) || !isHex(s[x+3]) {
				return false
			}
			if i < n-2 && s[x+4] != '.' {
				return false
			}
		}
		return true
	default:
		if len(s)%2 != 0 {
			return false
		}
		n := len(s) / 2
		if n != 6 && n != 8 && n != 20 {
			return false
		}
		for i := 0; i < len(s); i++ {
			if !isHex(s[i]) {
				return false
			}
		}
		return true
	}
}

// UUID versions accepted by IsUUID.
const (
	AnyUUID = 0 // strfmt "uuid": any 32 hex digits
	UUID3   = 3 // strfmt "uuid3": version nibble 3
	UUID4   = 4 // strfmt "uuid4": version nibble 4, variant [89ab]
	UUID5   = 5 // strfmt "uuid5": version nibble 5, variant [89ab]
)

// IsUUID mirrors strfmt.IsUUID/IsUUID3/IsUUID4/IsUUID5, whose patterns are
// (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?V[0-9a-f]{3}-?R[0-9a-f]{3}-?[0-9a-f]{12}$:
// hex digits of either case in groups of 8-4-4-4-12, each of the four dashes
// optional on its own. version is AnyUUID, UUID3, UUID4 or UUID5.
func IsUUID(s string, version int) bool {
	var groups = [5]int{8, 4, 4, 4, 12}
	i := 0
	for g, n := range groups {
		if g > 0 && i < len(s) && s[i] == '-' {
			i++
		}
		if len(s)-i < n {
			return false
		}
		for k := 0; k < n; k++ {
			c := s[i+k]
			if !isHex(c) {
				return false
			}
			if k != 0 || version == AnyUUID {
				continue
			}
			switch g {
			case 2:
				if c != byte('0'+version) {
					return false
				}
			case 3:
				if version != UUID3 && !isUUIDVariant(c) {
					return false
				}
			}
		}
		i += n
	}
	return i == len(s)
}

func isUUIDVariant(c byte) bool {
	switch c {
	case '8', '9', 'a', 'b', 'A', 'B':
		return true
	}
	return false
}

// IsISBN10 mirrors govalidator.IsISBN10: after removing every [\s-] the rest
// must be nine digits and a digit or 'X', with a valid mod-11 checksum.
func IsISBN10(s string) bool {
	var d [10]byte
	n, ok := isbnDigits(s, d[:])
	if !ok || n != 10 {
		return false
	}
	var sum int32
	for i := 0; i < 9; i++ {
		if !isDigit(d[i]) {
			return false
		}
		sum += int32(i+1) * int32(d[i]-'0')
	}
	switch {
	case d[9] == 'X':
		sum += 100
	case isDigit(d[9]):
		sum += 10 * int32(d[9]-'0')
	default:
		return false
	}
	return sum%11 == 0
}

// IsISBN13 mirrors govalidator.IsISBN13: after removing every [\s-] the rest
// must be thirteen digits with a valid EAN-13 checksum.
func IsISBN13(s string) bool {
	var d [13]byte
	n, ok := isbnDigits(s, d[:])
	if !ok || n != 13 {
		return false
	}
	var sum int32
	for i := 0; i < 13; i++ {
		if !isDigit(d[i]) {
			return false
		}
	}
	for i := 0; i < 12; i++ {
		f := int32(1)
		if i%2 == 1 {
			f = 3
		}
		sum += f * int32(d[i]-'0')
	}
	return int32(d[12]-'0')-((10-(sum%10))%10) == 0
}

// isbnDigits copies s without its [\t\n\f\r -] bytes into buf. It reports
// false when more than len(buf) bytes remain.
func isbnDigits(s string, buf []byte) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) || c == '-' {
			continue
		}
		if n == len(buf) {
			return n, false
		}
		buf[n] = c
		n++
	}
	return n, true
}

// IsCreditCard mirrors govalidator.IsCreditCard: the ASCII digits of s (every
// other character is dropped) must match one of the card-number patterns and
// pass the Luhn checksum.
func IsCreditCard(s string) bool {
	var d [16]byte
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			if n == len(d) {
				return false // no pattern is longer than 16 digits
			}
			d[n] = s[i]
			n++
		}
	}
	if !creditCardPattern(d[:n]) {
		return false
	}
	sum := 0
	double := false
	for i := n - 1; i >= 0; i-- {
		v := int(d[i] - '0')
		if double {
			v *= 2
			if v >= 10 {
				v = v%10 + 1
			}
		}
		sum += v
		double = !double
	}
	return sum%10 == 0
}

// creditCardPattern is govalidator's CreditCard regular expression on a string
// of digits:
// ^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|
// 3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$
func creditCardPattern(d []byte) bool {
	n := len(d)
	if n < 2 {
		return false
	}
	p := string(d)
	switch {
	case d[0] == '4':
		return n == 13 || n == 16
	case d[0] == '5':
		return n == 16 && d[1] >= '1' && d[1] <= '5'
	case strings.HasPrefix(p, "6011"), strings.HasPrefix(p, "65"):
		return n == 16
	case d[0] == '3' && (d[1] == '4' || d[1] == '7'):
		return n == 15
	case d[0] == '3' && d[1] == '0':
		return n == 14 && d[2] >= '0' && d[2] <= '5'
	case d[0] == '3' && (d[1] == '6' || d[1] == '8'):
		return n == 14
	case strings.HasPrefix(p, "2131"), strings.HasPrefix(p, "1800"):
		return n == 15
	case strings.HasPrefix(p, "35"):
		return n == 16
	}
	return false
}

// IsSSN mirrors govalidator.IsSSN: exactly 11 bytes matching
// ^\d{3}[- ]?\d{2}[- ]?\d{4}$, which at that length means both separators.
func IsSSN(s string) bool {
	if len(s) != 11 {
		return false
	}
	for i := 0; i < 11; i++ {
		c := s[i]
		if i == 3 || i == 6 {
			if c != '-' && c != ' ' {
				return false
			}
		} else if !isDigit(c) {
			return false
		}
	}
	return true
}

// IsHexColor mirrors govalidator.IsHexcolor: ^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$.
func IsHexColor(s string) bool {
	if len(s) > 0 && s[0] == '#' {
		s = s[1:]
	}
	if len(s) != 3 && len(s) != 6 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// IsRGBColor mirrors govalidator.IsRGBcolor:
// ^rgb\(\s*N\s*,\s*N\s*,\s*N\s*\)$ where N is 0..255 without leading zeros.
func IsRGBColor(s string) bool {
	rest, ok := strings.CutPrefix(s, "rgb(")
	if !ok {
		return false
	}
	for k := 0; k < 3; k++ {
		rest = trimSpaceLeft(rest)
		j := 0
		for j < len(rest) && isDigit(rest[j]) {
			j++
		}
		if !isByteNumber(rest[:j]) {
			return false
		}
		rest = trimSpaceLeft(rest[j:])
		want := byte(',')
		if k == 2 {
			want = ')'
		}
		if len(rest) == 0 || rest[0] != want {
			return false
		}
		rest = rest[1:]
	}
	return rest == ""
}

// isByteNumber is (0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5]) on a digit run.
func isByteNumber(d string) bool {
	switch len(d) {
	case 1:
		return true
	case 2:
		return d[0] != '0'
	case 3:
		return d[0] == '1' || (d[0] == '2' && (d[1] < '5' || (d[1] == '5' && d[2] <= '5')))
	}
	return false
}

// IsBase64 mirrors govalidator.IsBase64 (standard alphabet, padding required):
// ^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$.
// The empty string does not match.
func IsBase64(s string) bool {
	n := len(s)
	if n == 0 || n%4 != 0 {
		return false
	}
	body := n
	switch {
	case s[n-2] == '=' && s[n-1] == '=':
		body = n - 2
	case s[n-1] == '=':
		body = n - 1
	}
	for i := 0; i < body; i++ {
		if !isBase64Char(s[i]) {
			return false
		}
	}
	return true
}

func isBase64Char(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || isDigit(c) || c == '+' || c == '/'
}

// IsDate mirrors strfmt.IsDate: time.Parse("2006-01-02", s) succeeds (a real
// calendar date, four-digit year). time.Parse does not allocate on success.
func IsDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isSpace is RE2's \s: [\t\n\f\r ].
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func trimSpaceLeft(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}
