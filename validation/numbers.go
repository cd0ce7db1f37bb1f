package validation

import (
	"fmt"
	"math"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/value"
)

// numberCheck is kube-openapi's numberValidator: a range check of the value
// against the node's single numeric type and format, then multipleOf,
// minimum and maximum, each first checking that the bound itself fits the
// type (and falling back to float arithmetic when it does not).
func (s *state) numberCheck(n *node, data value.Value, kind value.Kind) {
	if n.multipleOf == nil && n.maximum == nil && n.minimum == nil && n.numType != "integer" && n.numFmt != "float" {
		return
	}
	isInt := kind == value.KindInt
	var inRange bool
	if isInt {
		inRange = intInRange(data.Int(), n.numType, n.numFmt)
	} else {
		inRange = floatInRange(data.Float(), n.numType, n.numFmt)
	}
	if !inRange {
		s.rangeErr(n, "type", "Checked")
	}
	f := data.Float()
	if n.multipleOf != nil {
		factor := *n.multipleOf
		if !n.multipleOfInRange {
			s.rangeErr(n, "multipleOf", "MultipleOf")
			s.multipleOfFloat(n, f, factor)
		} else if isInt {
			i, fi := data.Int(), int64(factor)
			if fi <= 0 {
				s.mustBePositive(n, fi)
			} else if (i/fi)*fi != i {
				if !s.probing() {
					s.invalid(n, "multipleOf", data.Int(), fmt.Sprintf("%s in body should be a multiple of %v", s.name(), fi))
				}
			}
		} else {
			s.multipleOfFloat(n, f, factor)
		}
	}
	if n.minimum != nil {
		min := *n.minimum
		if !n.minimumInRange {
			s.rangeErr(n, "minimum", "Minimum boundary")
			s.minFloat(n, f, min)
		} else if isInt {
			i, m := data.Int(), int64(min)
			if (!n.exclMin && i < m) || (n.exclMin && i <= m) {
				s.minMsg(n, data.Int(), m)
			}
		} else {
			s.minFloat(n, f, min)
		}
	}
	if n.maximum != nil {
		max := *n.maximum
		if !n.maximumInRange {
			s.rangeErr(n, "maximum", "Maximum boundary")
			s.maxFloat(n, f, max)
		} else if isInt {
			i, m := data.Int(), int64(max)
			if (!n.exclMax && i > m) || (n.exclMax && i >= m) {
				s.maxMsg(n, data.Int(), m)
			}
		} else {
			s.maxFloat(n, f, max)
		}
	}
}

// intInRange and floatInRange are IsValueValidAgainstRange without its
// string round trip: the decimal form of a number ('f' format for floats)
// must parse as the node's integer type (int32 or int64) or, for format
// float, as a float32.
func intInRange(i int64, typeName, format string) bool {
	if typeName == "integer" && format == "int32" {
		return i >= math.MinInt32 && i <= math.MaxInt32
	}
	return true // an int64 always parses as int64 and as float32
}

func floatInRange(f float64, typeName, format string) bool {
	switch typeName {
	case "integer":
		if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
			return false
		}
		if format == "int32" {
			return f >= math.MinInt32 && f <= math.MaxInt32
		}
		if math.Abs(f) < 1<<53 {
			return true
		}
		// Beyond 2^53 the shortest decimal form is zero-padded
		// ("-9223372036854776000" for -2^63): parse it as kube-openapi does.
		_, err := strconv.ParseInt(strconv.FormatFloat(f, 'f', -1, 64), 10, 64)
		return err == nil
	default:
		if format == "float" && math.Abs(f) > math.MaxFloat32 {
			_, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', -1, 64), 32)
			return err == nil
		}
		return true
	}
}

// rangeErr reports IsValueValidAgainstRange's error, a plain error which
// the apiserver reports at the root path with an empty value.
func (s *state) rangeErr(n *node, keyword, prefix string) {
	if s.probing() {
		return
	}
	var msg string
	if n.numFmt != "" {
		msg = fmt.Sprintf("%s value must be of type %s with format %s in %s", prefix, n.numType, n.numFmt, s.name())
	} else {
		msg = fmt.Sprintf("%s value must be of type %s (default format) in %s", prefix, n.numType, s.name())
	}
	s.add(n, keyword, field.Invalid(s.v.opts.FieldPath, "", msg), msg)
}

func (s *state) invalid(n *node, keyword string, bad any, msg string) {
	s.add(n, keyword, field.Invalid(s.errPath(s.name()), bad, msg), msg)
}

func (s *state) mustBePositive(n *node, factor any) {
	if !s.probing() {
		name := s.name()
		msg := fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", name, factor)
		s.add(n, "multipleOf", field.Invalid(s.errPath(name), factor, msg), msg)
	}
}

func (s *state) multipleOfFloat(n *node, f, factor float64) {
	if factor <= 0 {
		s.mustBePositive(n, factor)
		return
	}
	var mult float64
	if factor < 1 {
		mult = 1 / factor * f
	} else {
		mult = f / factor
	}
	if !isFloat64AJSONInteger(mult) {
		if !s.probing() {
			s.invalid(n, "multipleOf", f, fmt.Sprintf("%s in body should be a multiple of %v", s.name(), factor))
		}
	}
}

func (s *state) minFloat(n *node, f, min float64) {
	if (!n.exclMin && f < min) || (n.exclMin && f <= min) {
		s.minMsg(n, f, min)
	}
}

func (s *state) maxFloat(n *node, f, max float64) {
	if (!n.exclMax && f > max) || (n.exclMax && f >= max) {
		s.maxMsg(n, f, max)
	}
}

func (s *state) minMsg(n *node, bad, bound any) {
	if s.probing() {
		return
	}
	format := "%s in body should be greater than or equal to %v"
	if n.exclMin {
		format = "%s in body should be greater than %v"
	}
	s.invalid(n, "minimum", bad, fmt.Sprintf(format, s.name(), bound))
}

func (s *state) maxMsg(n *node, bad, bound any) {
	if s.probing() {
		return
	}
	format := "%s in body should be less than or equal to %v"
	if n.exclMax {
		format = "%s in body should be less than %v"
	}
	s.invalid(n, "maximum", bad, fmt.Sprintf(format, s.name(), bound))
}

// isFloat64AJSONInteger is go-openapi/swag's check that a float is an
// integer within the range JSON numbers represent exactly.
func isFloat64AJSONInteger(f float64) bool {
	const maxJSONFloat = float64(1<<53 - 1)
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSONFloat || f > maxJSONFloat {
		return false
	}
	rounded := math.Round(f)
	if f == rounded {
		return true
	}
	if rounded == 0 {
		return false
	}
	diff := math.Abs(f - rounded)
	if diff == 0 {
		return true
	}
	return diff < 1e-9*math.Abs(rounded)
}
