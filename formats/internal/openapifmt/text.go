package openapifmt

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// IsHostname mirrors strfmt.IsHostname. Its pattern is
//
//	^([A]((-?[A]{0,62})?)|([A](([A-]{0,61}[A])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$
//
// with A = [a-zA-Z0-9\p{S}\p{L}], counted in runes; then at most 255 bytes and
// every dot-separated part at most 63 bytes. Consequences kept here: a name
// without dots may hold a single dash, only right after its first rune ("x-y"
// and "a-" match, "my-host" does not); symbols such as '$', '=', '<' and
// invalid UTF-8 bytes (decoded as U+FFFD, a symbol) count as letters; the last
// label of a dotted name is 2 to 63 letters.
func IsHostname(s string) bool {
	if len(s) > 255 {
		return false
	}
	if strings.IndexByte(s, '.') < 0 {
		return isSingleLabelHostname(s)
	}
	rest := s
	for {
		dot := strings.IndexByte(rest, '.')
		if dot < 0 {
			break
		}
		if dot > 63 || !isHostnameLabel(rest[:dot]) {
			return false
		}
		rest = rest[dot+1:]
	}
	if len(rest) > 63 {
		return false
	}
	n := 0
	for _, r := range rest {
		if !isHostLetter(r) {
			return false
		}
		n++
	}
	return n >= 2 && n <= 63
}

// isSingleLabelHostname is the first alternative: [A](-?[A]{0,62})?.
func isSingleLabelHostname(s string) bool {
	if len(s) > 63 {
		return false
	}
	r, w := utf8.DecodeRuneInString(s)
	if w == 0 || !isHostChar(r) {
		return false
	}
	s = s[w:]
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	n := 0
	for _, r := range s {
		if !isHostChar(r) {
			return false
		}
		n++
	}
	return n <= 62
}

// isHostnameLabel is [A](([A-]{0,61}[A])?): 1 to 63 runes, first and last in
// A, dashes allowed in between.
func isHostnameLabel(s string) bool {
	n := 0
	var last rune
	for i, r := range s {
		if i == 0 && !isHostChar(r) {
			return false
		}
		if r != '-' && !isHostChar(r) {
			return false
		}
		last = r
		n++
	}
	return n >= 1 && n <= 63 && last != '-'
}

// isHostChar is [a-zA-Z0-9\p{S}\p{L}]; utf8.RuneError stands for an invalid
// byte, as in regexp, and is a symbol.
func isHostChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || unicode.IsSymbol(r)
	}
	return unicode.IsLetter(r) || unicode.IsSymbol(r)
}

// isHostLetter is [a-zA-Z\p{L}].
func isHostLetter(r rune) bool {
	return unicode.IsLetter(r)
}

// IsDateTime mirrors strfmt.IsDateTime, which lower-cases the value, splits it
// at every 't', requires at least two parts, a valid date (IsDate) as the
// first and a time matching
// ^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$
// with hour <= 23, minute <= 59, second <= 59 as the second. Parts after the
// second 't' are ignored, and the fraction separator is any rune but '\n'.
func IsDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	t := indexT(s)
	if t < 0 || !IsDate(s[:t]) {
		return false
	}
	rest := s[t+1:]
	if u := indexT(rest); u >= 0 {
		rest = rest[:u]
	}
	return isTimeOfDay(rest)
}

// indexT is the index of the first 't' or 'T'. No other rune lower-cases to
// 't', so this is where strings.Split(strings.ToLower(s), "t") cuts.
func indexT(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == 't' || s[i] == 'T' {
			return i
		}
	}
	return -1
}

func isTimeOfDay(s string) bool {
	if len(s) < 9 {
		return false
	}
	if !isDigit(s[0]) || !isDigit(s[1]) || s[2] != ':' || !isDigit(s[3]) || !isDigit(s[4]) ||
		s[5] != ':' || !isDigit(s[6]) || !isDigit(s[7]) {
		return false
	}
	if s[:2] > "23" || s[3:5] > "59" || s[6:8] > "59" {
		return false
	}
	rest := s[8:]
	if isZone(rest) {
		return true
	}
	// (.[0-9]+) then the zone: any one rune but '\n', then a digit run; the
	// zone cannot start with a digit, so the run is maximal.
	r, w := utf8.DecodeRuneInString(rest)
	if w == 0 || r == '\n' {
		return false
	}
	rest = rest[w:]
	j := 0
	for j < len(rest) && isDigit(rest[j]) {
		j++
	}
	return j > 0 && isZone(rest[j:])
}

// isZone is (z|([+-][0-9]{2}:[0-9]{2})) after lower-casing.
func isZone(s string) bool {
	if len(s) == 1 {
		return s[0] == 'z' || s[0] == 'Z'
	}
	return len(s) == 6 && (s[0] == '+' || s[0] == '-') && isDigit(s[1]) && isDigit(s[2]) &&
		s[3] == ':' && isDigit(s[4]) && isDigit(s[5])
}

// IsDuration mirrors strfmt.IsDuration (strfmt.ParseDuration succeeding):
// either time.ParseDuration accepts it, or scanning it for the matches of
// ((\d+)\s*([A-Za-zµ]+)) finds no number that overflows strconv.Atoi and at
// least one unit from strfmt's table (an exact short name or a prefix-matched
// long one such as "minutes"). Text around the matches is ignored.
func IsDuration(s string) bool {
	if _, err := time.ParseDuration(s); err == nil {
		return true
	}
	ok := false
	i := 0
	for i < len(s) {
		if !isDigit(s[i]) {
			i++
			continue
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		digits := s[start:i]
		j := i
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		k := j
		for k < len(s) {
			if isASCIILetter(s[k]) {
				k++
			} else if strings.HasPrefix(s[k:], "µ") {
				k += len("µ")
			} else {
				break
			}
		}
		if k == j {
			continue // no unit: no match starts in this digit run
		}
		if atoiOverflows(digits) {
			return false
		}
		if isDurationUnit(strings.ToLower(s[j:k])) {
			ok = true
		}
		i = k
	}
	return ok
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// durationUnits is strfmt's timeUnits: every name matches exactly, the last of
// each group also as a prefix.
var durationUnits = [][]string{
	{"ns", "nano"},
	{"us", "µs", "micro"},
	{"ms", "milli"},
	{"s", "sec"},
	{"m", "min"},
	{"h", "hr", "hour"},
	{"d", "day"},
	{"w", "wk", "week"},
}

func isDurationUnit(unit string) bool {
	for _, group := range durationUnits {
		last := len(group) - 1
		for i, v := range group {
			if unit == v || (i == last && strings.HasPrefix(unit, v)) {
				return true
			}
		}
	}
	return false
}

// atoiOverflows reports whether strconv.Atoi, which strfmt calls on each
// number, fails on a run of ASCII digits (its value exceeds the int range).
// The error, and its allocation, only happen for invalid values.
func atoiOverflows(d string) bool {
	_, err := strconv.Atoi(d)
	return err != nil
}
