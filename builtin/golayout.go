package builtin

import (
	"encoding/json"
	"fmt"
	"strings"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/schema"
)

// attachLayoutsLocked sets schema.Structural.Go on every node of s (the
// resolved schema of definition def) that the unresolved definitions
// publish as a $ref to a struct with a Go layout, so that hand-written
// errors print struct values as the apiserver's internal types print.
func (v *version) attachLayoutsLocked(s *schema.Structural, def string) error {
	root, err := v.defLocked(def)
	if err != nil || root == nil {
		return err
	}
	out, _, err := v.attachLocked(*s, *root, def, 0)
	*s = out
	return err
}

// attachLocked is attachLayoutsLocked below s, whose unresolved schema is
// u (of definition def, "" inline): s with its layouts, and whether it set
// one at or below s (only then is a property, a struct value in its map,
// written back). Schemas go by value: a recursive call's pointer arguments
// would escape to the heap, one allocation per property.
func (v *version) attachLocked(s schema.Structural, u schema.Props, def string, depth int) (schema.Structural, bool, error) {
	if depth > 200 {
		return s, false, nil
	}
	if r := refOf(&u); r != "" {
		d, err := v.defLocked(r)
		if err != nil || d == nil {
			return s, false, err
		}
		def, u = r, *d
	}
	changed := false
	if def != "" {
		g, err := v.layoutLocked(def)
		if err != nil {
			return s, false, err
		}
		s.Go, changed = g, g != nil
	}
	for k, child := range s.Properties {
		up, ok := u.Properties[k]
		if !ok {
			continue
		}
		child, c, err := v.attachLocked(child, up, "", depth+1)
		if err != nil {
			return s, false, err
		}
		if c {
			s.Properties[k] = child
			changed = true
		}
	}
	if s.Items != nil && u.Items != nil && u.Items.Schema != nil {
		it, c, err := v.attachLocked(*s.Items, *u.Items.Schema, "", depth+1)
		if err != nil {
			return s, false, err
		}
		if c {
			*s.Items, changed = it, true
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil && u.AdditionalProperties != nil && u.AdditionalProperties.Schema != nil {
		ap, c, err := v.attachLocked(*s.AdditionalProperties.Structural, *u.AdditionalProperties.Schema, "", depth+1)
		if err != nil {
			return s, false, err
		}
		if c {
			*s.AdditionalProperties.Structural, changed = ap, true
		}
	}
	return s, changed, nil
}

// layoutLocked returns the layout of the struct definition def (decoding
// it and the layouts it names once), nil when the data has none.
func (v *version) layoutLocked(def string) (*schema.GoStruct, error) {
	if g, ok := v.layouts[def]; ok {
		return g, nil
	}
	raw, ok := v.layoutsRaw[def]
	if !ok {
		v.layouts[def] = nil
		return nil, nil
	}
	var slots []datafile.GoSlot
	if err := json.Unmarshal(raw, &slots); err != nil {
		return nil, fmt.Errorf("Go layout of %s: %w", def, err)
	}
	g := &schema.GoStruct{Fields: make([]schema.GoStructField, len(slots))}
	v.layouts[def] = g // before the fields: layouts may refer to themselves
	for i, s := range slots {
		f := schema.GoStructField{Key: s.Name, JSON: s.JSON, Zero: s.Zero, Value: s.Value, Splice: s.Splice, OmitEmpty: s.OmitEmpty}
		if f.Key == "" && s.JSON != "" {
			f.Key = strings.ToUpper(s.JSON[:1]) + s.JSON[1:]
		}
		var err error
		if s.Struct != "" {
			if f.Struct, err = v.layoutLocked(s.Struct); err != nil {
				return nil, err
			}
		}
		if s.Elem != "" {
			if f.Elem, err = v.layoutLocked(s.Elem); err != nil {
				return nil, err
			}
		}
		if f.Value && f.Struct == nil {
			f.Value = false // no layout: print null rather than guess
		}
		g.Fields[i] = f
	}
	return g, nil
}
