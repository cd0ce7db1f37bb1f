package schema

// Direct decoding of the extensions that hold many small objects
// (x-kubernetes-validations, x-kubernetes-api-lifecycle) from the generic
// JSON value, for the common well-formed case. viaJSON, which re-encodes
// and decodes them with reflection, was a good part of the start-up of
// validating one built-in object (its schemas carry hundreds of rules).
// Anything unusual (another type, null, an unknown key) goes to viaJSON,
// whose errors are the apiserver decoder's: the fast path only ever
// decides inputs on which both agree.

// fastValidations converts a list of rule objects whose members are all
// known and of their type; false otherwise.
func fastValidations(x any, out *[]ValidationRule) bool {
	l, ok := x.([]any)
	if !ok {
		return false
	}
	rules := make([]ValidationRule, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		r := &rules[i]
		for k, v := range m {
			switch k {
			case "rule":
				ok = fastString(v, &r.Rule)
			case "message":
				ok = fastString(v, &r.Message)
			case "messageExpression":
				ok = fastString(v, &r.MessageExpression)
			case "fieldPath":
				ok = fastString(v, &r.FieldPath)
			case "reason":
				var s string
				if ok = fastString(v, &s); ok {
					r.Reason = &s
				}
			case "optionalOldSelf":
				var b bool
				b, ok = v.(bool)
				if ok {
					r.OptionalOldSelf = &b
				}
			case "x-kubernetes-diff":
				r.Diff, ok = fastDiff(v)
			default:
				ok = false
			}
			if !ok {
				return false
			}
		}
	}
	*out = rules
	return true
}

// fastDiff converts an x-kubernetes-diff object whose members are all
// known and of their type.
func fastDiff(x any) (*RuleDiff, bool) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, false
	}
	d := &RuleDiff{}
	for k, v := range m {
		switch k {
		case "path":
			ok = fastString(v, &d.Path)
		case "keep":
			ok = fastStrings(v, &d.Keep)
		case "fill":
			ok = fastStrings(v, &d.Fill)
		case "only":
			ok = fastStrings(v, &d.Only)
		case "since":
			ok = fastString(v, &d.Since)
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	return d, true
}

func fastStrings(v any, out *[]string) bool {
	l, ok := v.([]any)
	if !ok {
		return false
	}
	res := make([]string, len(l))
	for i, e := range l {
		if !fastString(e, &res[i]) {
			return false
		}
	}
	*out = res
	return true
}

// fastLifecycle converts a map of lifecycle objects whose members are all
// known strings; false otherwise.
func fastLifecycle(x any, out *map[string]Lifecycle) bool {
	m, ok := x.(map[string]any)
	if !ok {
		return false
	}
	res := make(map[string]Lifecycle, len(m))
	for component, v := range m {
		o, ok := v.(map[string]any)
		if !ok {
			return false
		}
		var l Lifecycle
		for k, f := range o {
			switch k {
			case "minVersion":
				ok = fastString(f, &l.MinVersion)
			case "status":
				ok = fastString(f, &l.Status)
			case "featureGate":
				ok = fastString(f, &l.FeatureGate)
			default:
				ok = false
			}
			if !ok {
				return false
			}
		}
		res[component] = l
	}
	*out = res
	return true
}

func fastString(v any, out *string) bool {
	s, ok := v.(string)
	if ok {
		*out = s
	}
	return ok
}
