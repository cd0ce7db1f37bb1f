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
	rep := numRep(data, isInt)
	if msg, bad := rangeErr(rep, n.numType, n.numFmt, "Checked", s); bad {
		s.add(n, "type", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
	}
	f := data.Float()
	if n.multipleOf != nil {
		factor := *n.multipleOf
		if msg, bad := rangeErr(strconv.FormatFloat(factor, 'f', -1, 64), n.numType, n.numFmt, "MultipleOf", s); bad {
			s.add(n, "multipleOf", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
			s.multipleOfFloat(n, f, factor, f)
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
			s.multipleOfFloat(n, f, factor, f)
		}
	}
	if n.minimum != nil {
		min := *n.minimum
		if msg, bad := rangeErr(strconv.FormatFloat(min, 'f', -1, 64), n.numType, n.numFmt, "Minimum boundary", s); bad {
			s.add(n, "minimum", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
			s.minFloat(n, f, min, f)
		} else if isInt {
			i, m := data.Int(), int64(min)
			if (!n.exclMin && i < m) || (n.exclMin && i <= m) {
				s.minMsg(n, data.Int(), m)
			}
		} else {
			s.minFloat(n, f, min, f)
		}
	}
	if n.maximum != nil {
		max := *n.maximum
		if msg, bad := rangeErr(strconv.FormatFloat(max, 'f', -1, 64), n.numType, n.numFmt, "Maximum boundary", s); bad {
			s.add(n, "maximum", field.Invalid(s.v.opts.FieldPath, "", msg), msg)
			s.maxFloat(n, f, max, f)
		} else if isInt {
			i, m := data.Int(), int64(max)
			if (!n.exclMax && i > m) || (n.exclMax && i >= m) {
				s.maxMsg(n, data.Int(), m)
			}
		} else {
			s.maxFloat(n, f, max, f)
		}
	}
}

func numRep(data value.Value, isInt bool) string {
	if isInt {
		return strconv.FormatInt(data.Int(), 10)
	}
	return strconv.FormatFloat(data.Float(), 'f', -1, 64)
}

// rangeErr is IsValueValidAgainstRange: the decimal form of a number must
// parse as the node's integer type (int32 or int64) or, for format float, as
// a float32. Its error is a plain error, which the apiserver reports at the
// root path with an empty value.
func rangeErr(rep, typeName, format, prefix string, s *state) (string, bool) {
	if s.probe > 0 {
		return "", !rangeOK(rep, typeName, format)
	}
	if rangeOK(rep, typeName, format) {
		return "", false
	}
	if format != "" {
		return fmt.Sprintf("%s value must be of type %s with format %s in %s", prefix, typeName, format, s.name()), true
	}
	return fmt.Sprintf("%s value must be of type %s (default format) in %s", prefix, typeName, s.name()), true
}

func rangeOK(rep, typeName, format string) bool {
	var err error
	switch typeName {
	case "integer":
		if format == "int32" {
			_, err = strconv.ParseInt(rep, 10, 32)
		} else {
			_, err = strconv.ParseInt(rep, 10, 64)
		}
	default:
		if format == "float" {
			_, err = strconv.ParseFloat(rep, 32)
		}
	}
	return err == nil
}

// invalid reports a numeric failure; bad is kube-openapi's error value:
// the int64 on the integer path, the value as float64 otherwise.
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

func (s *state) multipleOfFloat(n *node, f, factor float64, bad any) {
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
			s.invalid(n, "multipleOf", bad, fmt.Sprintf("%s in body should be a multiple of %v", s.name(), factor))
		}
	}
}

func (s *state) minFloat(n *node, f, min float64, bad any) {
	if (!n.exclMin && f < min) || (n.exclMin && f <= min) {
		s.minMsg(n, bad, min)
	}
}

func (s *state) maxFloat(n *node, f, max float64, bad any) {
	if (!n.exclMax && f > max) || (n.exclMax && f >= max) {
		s.maxMsg(n, bad, max)
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
