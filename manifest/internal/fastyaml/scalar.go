package fastyaml

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// splitKey splits a mapping entry line "key: rest" into the key's text (still quoted when it
// is quoted) and the rest of the line after the ':' and the blanks after it. ok is false
// when t is not a one-line key followed by ": " or a final ':'.
func splitKey(t []byte) (key, rest []byte, ok bool) {
	end := 0
	switch t[0] {
	case '"', '\'':
		end = quotedEnd(t)
		if end < 0 || end >= len(t) || t[end] != ':' || end+1 < len(t) && t[end+1] != ' ' {
			return nil, nil, false
		}
		key = t[:end]
	default:
		if !plainStart(t) {
			return nil, nil, false
		}
		for end = 0; end < len(t); end++ {
			c := t[end]
			if c == ':' && (end+1 == len(t) || t[end+1] == ' ') {
				break
			}
			if c == '#' && t[end-1] == ' ' {
				return nil, nil, false
			}
		}
		if end == len(t) {
			return nil, nil, false
		}
		key = t[:end]
		for key[len(key)-1] == ' ' {
			key = key[:len(key)-1]
		}
	}
	if end > maxKey {
		return nil, nil, false
	}
	return key, t[skipBlanks(t, end+1):], true
}

// keyString is the JSON object key a mapping key becomes: quoted keys are strings; plain
// keys are resolved as go-yaml v2 does, then converted as sigs.k8s.io/yaml's
// convertToJSONableObject does (ints in decimal, bools as "true"/"false", floats with %g at
// float32 precision, where 1e70 is ".inf"). Null keys, merge keys and keys that do not
// convert make it give up.
func keyString(k []byte) string {
	if k[0] == '"' || k[0] == '\'' {
		s, _ := quoted(k)
		return s
	}
	if len(k) == 2 && k[0] == '<' && k[1] == '<' {
		fail() // a merge key
	}
	switch v := resolve(k).(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		if v {
			return "true"
		}
		return "false"
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			fail()
		}
		// At float32 precision, large values print as infinities.
		switch s := strconv.FormatFloat(v, 'g', -1, 32); s {
		case "+Inf":
			return ".inf"
		case "-Inf":
			return "-.inf"
		default:
			return s
		}
	}
	fail() // null, uint64: not convertible
	return ""
}

// plainStart reports whether a plain scalar may start at t[0] in block context (go-yaml's
// yaml_parser_fetch_next_token): not an indicator, except '-', '?' and ':' before a non-blank.
func plainStart(t []byte) bool {
	switch t[0] {
	case '-', '?', ':':
		return len(t) > 1 && t[1] != ' '
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// plainEnd returns the length of the plain scalar text at the start of t, a line or the
// rest of one, without a trailing comment and blanks; comment reports a comment, after which
// the scalar cannot go on on the next line. ": " makes it give up ("a: b: c" is an error).
func plainEnd(t []byte) (end int, comment bool) {
	end = len(t)
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == ':' && (i+1 == len(t) || t[i+1] == ' ') {
			fail()
		}
		if c == '#' && (i == 0 || t[i-1] == ' ') {
			end, comment = i, true
			break
		}
	}
	for end > 0 && t[end-1] == ' ' {
		end--
	}
	return end, comment
}

// quotedEnd returns the offset just past the one-line quoted scalar at the start of t, or -1
// when it does not end on this line.
func quotedEnd(t []byte) int {
	q := t[0]
	for i := 1; i < len(t); i++ {
		switch {
		case t[i] == q:
			if q == '\'' && i+1 < len(t) && t[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		case t[i] == '\\' && q == '"':
			i++
		}
	}
	return -1
}

// quoted decodes the one-line quoted scalar at the start of t and returns it with the
// offset just past it.
func quoted(t []byte) (string, int) {
	b, end, _ := quotedSegment(t, 1, t[0], nil)
	if end < 0 { // a key on several lines
		fail()
	}
	return string(b), end
}

// escapedBreak is quotedSegment's end when the line ends with an escaped line break.
const escapedBreak = -2

// escapes are the one-character escapes of double-quoted scalars that stand for one byte
// other than themselves (go-yaml's yaml_parser_scan_flow_scalar).
var escapes = [256]byte{'a': 0x07, 'b': 0x08, 't': '\t', '\t': '\t', 'n': '\n', 'v': 0x0B, 'f': 0x0C, 'r': '\r', 'e': 0x1B}

// quotedSegment decodes the text of a scalar quoted with q from t[i:] up to the closing quote
// or the end of the line, appending it to b. It returns the offset just past the closing
// quote (-1 when the line ends first, escapedBreak when it ends with an escaped line break)
// and the length of b without the blanks before the line end, which folding drops. Escapes
// are go-yaml v2's (which has no \/).
func quotedSegment(t []byte, i int, q byte, b []byte) ([]byte, int, int) {
	// Most scalars have no escapes: copy them at once.
	if j := bytes.IndexByte(t[i:], q); j >= 0 && (q == '"' && bytes.IndexByte(t[i:i+j], '\\') < 0 ||
		q == '\'' && (i+j+1 == len(t) || t[i+j+1] != '\'')) {
		b = append(b, t[i:i+j]...)
		return b, i + j + 1, len(b)
	}
	keep := len(b)
	for ; i < len(t); i++ {
		c := t[i]
		switch {
		case c == q:
			if q == '\'' && i+1 < len(t) && t[i+1] == '\'' {
				b = append(b, '\'')
				keep = len(b)
				i++
				continue
			}
			return b, i + 1, len(b)
		case c == '\\' && q == '"':
			if i+1 == len(t) {
				return b, escapedBreak, len(b)
			}
			i++
			if e := escapes[t[i]]; e != 0 {
				b = append(b, e)
				keep = len(b)
				continue
			}
			size := 0
			switch t[i] {
			case '"', '\\', '\'', '/', ' ':
				if t[i] == '/' {
					fail() // go-yaml v2 has no \/
				}
				b = append(b, t[i])
			case '0':
				b = append(b, 0)
			case 'N':
				b = utf8.AppendRune(b, 0x85)
			case '_':
				b = utf8.AppendRune(b, 0xA0)
			case 'L':
				b = utf8.AppendRune(b, 0x2028)
			case 'P':
				b = utf8.AppendRune(b, 0x2029)
			case 'x':
				size = 2
			case 'u':
				size = 4
			case 'U':
				size = 8
			default:
				fail()
			}
			if size > 0 {
				if i+size >= len(t) {
					fail()
				}
				r, err := strconv.ParseUint(string(t[i+1:i+1+size]), 16, 32)
				if err != nil || r >= 0xD800 && r <= 0xDFFF || r > 0x10FFFF {
					fail()
				}
				b = utf8.AppendRune(b, rune(r))
				i += size
			}
			keep = len(b)
		default:
			b = append(b, c)
			if c != ' ' {
				keep = len(b)
			}
		}
	}
	return b, -1, keep
}

// flow decodes the one-line flow collection or scalar at t[i:] (flow sequences and
// mappings of scalars, nested as deep as maxDepth) and returns it with the offset just
// past it. Anything spanning lines, empty entries, trailing commas, single-pair mappings in
// sequences, keys without ": ", and ':' or '?' inside plain scalars make it give up.
func flow(t []byte, i, depth int) (any, int) {
	if i == len(t) || depth > maxDepth {
		fail()
	}
	switch t[i] {
	case '[':
		s := []any{}
		i = skipBlanks(t, i+1)
		if i < len(t) && t[i] == ']' {
			return s, i + 1
		}
		for {
			var v any
			v, i = flow(t, i, depth+1)
			s = append(s, v)
			if i = flowNext(t, i, ']'); i < 0 {
				return s, -i
			}
		}
	case '{':
		m := map[string]any{}
		i = skipBlanks(t, i+1)
		if i < len(t) && t[i] == '}' {
			return m, i + 1
		}
		for {
			if i == len(t) {
				fail()
			}
			var key string
			if t[i] == '"' || t[i] == '\'' {
				var n int
				key, n = quoted(t[i:])
				i += n
			} else {
				end := flowPlainEnd(t, i)
				key = keyString(t[i:end])
				i = end
			}
			if i+1 >= len(t) || t[i] != ':' || t[i+1] != ' ' {
				fail()
			}
			if _, dup := m[key]; dup {
				fail()
			}
			m[key], i = flow(t, skipBlanks(t, i+1), depth+1)
			if i = flowNext(t, i, '}'); i < 0 {
				return m, -i
			}
		}
	case '"', '\'':
		v, n := quoted(t[i:])
		return v, i + n
	}
	end := flowPlainEnd(t, i)
	return jsonValue(resolve(t[i:end])), end
}

// flowNext skips the blanks and the ',' after an entry of a flow collection that ends with
// closer, returning the offset of the next entry, or minus the offset past the closer.
func flowNext(t []byte, i int, closer byte) int {
	i = skipBlanks(t, i)
	if i == len(t) {
		fail()
	}
	switch t[i] {
	case closer:
		return -(i + 1)
	case ',':
		i = skipBlanks(t, i+1)
		if i == len(t) || t[i] == closer || t[i] == ',' {
			fail() // a trailing comma or an empty entry
		}
		return i
	}
	fail()
	return 0
}

// flowPlainEnd returns the end of the plain scalar at t[i:] in a flow collection, without
// trailing blanks: it ends before ',', ']', '}' or ": ".
func flowPlainEnd(t []byte, i int) int {
	switch c := t[i]; c {
	case '-':
		if i+1 == len(t) || strings.IndexByte(" ,[]{}", t[i+1]) >= 0 {
			fail()
		}
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		fail()
	}
	start := i
	for ; i < len(t) && t[i] != ',' && t[i] != ']' && t[i] != '}'; i++ {
		switch t[i] {
		case '[', '{', '?':
			fail()
		case ':':
			if i+1 < len(t) && t[i+1] == ' ' {
				return trimEnd(t, start, i)
			}
			fail()
		case '#':
			if t[i-1] == ' ' {
				fail()
			}
		}
	}
	return trimEnd(t, start, i)
}

// trimEnd returns end moved back over blanks, failing when nothing is left after start.
func trimEnd(t []byte, start, end int) int {
	for end > start && t[end-1] == ' ' {
		end--
	}
	if end == start {
		fail()
	}
	return end
}

func skipBlanks(t []byte, i int) int {
	for i < len(t) && t[i] == ' ' {
		i++
	}
	return i
}

// resolve resolves a plain scalar as go-yaml v2's resolve() does for an untagged scalar and
// returns what go-yaml would decode into interface{}: string, int64 (go-yaml's int), uint64,
// float64, bool or nil. Timestamps, which go-yaml may turn into time.Time, make it give up.
func resolve(in []byte) any {
	switch c := in[0]; {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
	case c == '.':
		s := string(in)
		if v, ok := special(s); ok {
			return v
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		return s
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		s := string(in)
		if v, ok := special(s); ok {
			return v
		}
		return s
	default:
		return string(in)
	}
	s := string(in)
	if v, ok := special(s); ok {
		return v
	}
	if len(s) > 4 && s[4] == '-' && isDigits(s[:4]) {
		fail() // maybe a timestamp
	}
	plain := strings.ReplaceAll(s, "_", "")
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return i
	}
	if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return u
	}
	if yamlStyleFloat(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return f
		}
	}
	if strings.HasPrefix(plain, "0b") {
		if i, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return u
		}
	} else if strings.HasPrefix(plain, "-0b") {
		if i, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return i
		}
	}
	return s
}

// special looks s up in go-yaml v2's resolve table (booleans, nulls, infinities, NaN).
func special(s string) (any, bool) {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true, true
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return false, true
	case "~", "null", "Null", "NULL":
		return nil, true
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), true
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), true
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), true
	}
	return nil, false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// yamlStyleFloat matches go-yaml v2's ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func yamlStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// jsonValue is what a value go-yaml decoded becomes after sigs.k8s.io/yaml's JSON encoding
// and sigs.k8s.io/json's int-preserving decoding: uint64 becomes float64, a float64 is
// printed as encoding/json prints it and read back as int64 when that text is an integer.
// NaN and infinities, which encoding/json rejects, make it give up.
func jsonValue(v any) any {
	switch x := v.(type) {
	case uint64:
		return float64(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			fail()
		}
		b, err := json.Marshal(x)
		if err != nil {
			fail()
		}
		s := string(b)
		if !strings.Contains(s, ".") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return i
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			fail()
		}
		return f
	}
	return v
}
