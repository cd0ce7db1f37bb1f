package defaulting

import "kdv.dev/schema"

// Defaulter is a structural schema compiled for defaulting: it keeps only
// the subtrees that hold defaults, so defaulting walks the fields of the
// object and the defaulted properties instead of every property of the
// schema. It is immutable and safe for concurrent use.
type Defaulter struct {
	root *dnode
}

// dnode is a schema node with defaults in its subtree.
type dnode struct {
	// strip are the properties marked x-kubernetes-strip-zero, removed
	// when their value is the zero value before defaults apply.
	strip []stripZero
	// defaults are the properties with a default, applied when absent or
	// null on a non-nullable schema.
	defaults []propDefault
	// from are the properties defaulted from a sibling (DefaultFromKey),
	// applied after defaults.
	from []propFrom
	// exprs are the properties defaulted by an expression over the
	// object (DefaultExpressionKey), evaluated before defaults.
	exprs []propExpression
	// props are the compiled properties; a key whose subtree has no
	// defaults maps to nil, so that it does not fall through to
	// additionalProperties.
	props map[string]*dnode
	// hasAdditional is additionalProperties != nil; additional is its
	// compiled schema (nil: none, or no defaults below and no null
	// replacement).
	hasAdditional bool
	additional    *dnode
	items         *dnode
	// def and nullable describe this node as a value: a null value on a
	// non-nullable node with a default (def != nil) gets the default when
	// it is an additionalProperties value or an array item.
	def      any
	nullable bool
}

type stripZero struct {
	key, typ string
}

type propFrom struct {
	key, from string
}

type propDefault struct {
	key      string
	def      any
	nullable bool
}

// NewDefaulter compiles s. Defaulter.Default(x) then does exactly what
// Default(x, s) does.
func NewDefaulter(s *schema.Structural) *Defaulter {
	return &Defaulter{root: compile(s)}
}

// compile returns nil when defaulting with s changes nothing.
func compile(s *schema.Structural) *dnode {
	if s == nil {
		return nil
	}
	n := &dnode{def: s.Default.Object, nullable: s.Nullable}
	useful := false
	for k, p := range s.Properties {
		if p.XStripZero {
			n.strip = append(n.strip, stripZero{k, p.Type})
			useful = true
		}
		if p.Default.Object != nil {
			n.defaults = append(n.defaults, propDefault{k, p.Default.Object, p.Nullable})
			useful = true
		}
		if from := DefaultFrom(&p); from != "" {
			n.from = append(n.from, propFrom{k, from})
			useful = true
		}
	}
	if n.exprs = expressionsOf(s); n.exprs != nil {
		useful = true
	}
	if s.AdditionalProperties != nil {
		n.hasAdditional = true
		n.additional = compile(s.AdditionalProperties.Structural)
		useful = useful || n.additional != nil
	}
	for k := range s.Properties {
		p := s.Properties[k]
		c := compile(&p)
		if c != nil || n.hasAdditional {
			if n.props == nil {
				n.props = make(map[string]*dnode)
			}
			n.props[k] = c
		}
		useful = useful || c != nil
	}
	n.items = compile(s.Items)
	useful = useful || n.items != nil
	if !useful && n.def == nil {
		return nil
	}
	return n
}

// Default applies the compiled defaults to x in place; see Default.
func (d *Defaulter) Default(x any) {
	d.root.apply(x)
}

func (n *dnode) apply(x any) {
	if n == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for _, sz := range n.strip {
			if v, found := x[sz.key]; found && isZero(v, sz.typ) {
				delete(x, sz.key)
			}
		}
		var cs []computed
		if n.exprs != nil {
			cs = computeExpressions(x, n.exprs)
		}
		for _, pd := range n.defaults {
			if v, found := x[pd.key]; !found || v == nil && !pd.nullable {
				x[pd.key] = deepCopyJSON(pd.def)
			}
		}
		for _, pf := range n.from {
			defaultFrom(x, pf.key, pf.from)
		}
		setComputed(x, cs)
		if n.props == nil && !n.hasAdditional {
			return
		}
		for k, v := range x {
			if c, found := n.props[k]; found {
				c.apply(v)
			} else if n.hasAdditional {
				if a := n.additional; a != nil {
					if v == nil && !a.nullable && a.def != nil {
						v = deepCopyJSON(a.def)
						x[k] = v
					}
					a.apply(v)
				}
			}
		}
	case []any:
		if n.items == nil {
			return
		}
		for i, v := range x {
			if v == nil && !n.items.nullable && n.items.def != nil {
				v = deepCopyJSON(n.items.def)
				x[i] = v
			}
			n.items.apply(v)
		}
	}
}
