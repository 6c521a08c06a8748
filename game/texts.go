package game

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strings"

	"orderly/geom"
)

// texter finds the texts (JSON strings: object keys and string values) of
// event payloads, as encoding/json would write them, without writing
// them: fog of war looks up each text of every event's payload, and
// writing JSON for that was most of its cost. It walks values by a plan
// made once per type, for the types whose JSON it can tell from their
// fields alone (structs of strings, numbers, booleans, points, pointers
// and slices of them); for any other, texts says so and the payload is
// written as JSON after all.
type texter struct {
	plans map[reflect.Type]*plan
}

// plan is how to find the texts of a value of one type.
type plan struct {
	kind   planKind
	elem   *plan       // of a pointer's or slice's element
	fields []fieldPlan // of a struct's fields that JSON writes
	ok     bool        // the type can be walked
}

type planKind int

const (
	planNone   planKind = iota // writes no text: an integer or a boolean
	planFloat                  // writes no text, and cannot be written if not finite
	planPoint                  // a geom.Point: two numbers, which must be finite
	planString                 // writes itself as a text
	planPtr                    // its element, or null
	planSlice                  // its elements in order
	planStruct                 // its fields' keys and values in order
)

// fieldPlan is a struct field JSON writes: its key, and whether an empty
// value leaves it out (omitempty).
type fieldPlan struct {
	index     int
	key       string
	omitEmpty bool
	plan      *plan
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	pointType         = reflect.TypeFor[geom.Point]()
)

// texts appends to out each text of v, in the order JSON would write
// them, and reports true; or, if v's type is not one it can walk or v
// cannot be written as JSON, reports false.
func (t *texter) texts(v any, out []string) ([]string, bool) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return out, true // null
	}
	p := t.plan(rv.Type())
	if !p.ok {
		return out, false
	}
	return p.walk(rv, out)
}

// plan is the plan for typ, made the first time. A plan in the making
// cannot be walked, so a type that holds itself is not walked.
func (t *texter) plan(typ reflect.Type) *plan {
	if p, ok := t.plans[typ]; ok {
		return p
	}
	if t.plans == nil {
		t.plans = map[reflect.Type]*plan{}
	}
	p := &plan{}
	t.plans[typ] = p
	p.ok = t.make(p, typ)
	return p
}

// make fills in p for typ and reports whether typ can be walked.
func (t *texter) make(p *plan, typ reflect.Type) bool {
	switch {
	case typ == pointType:
		// Its MarshalJSON writes [x, y].
		p.kind = planPoint
		return typ.NumField() == 2 && typ.Field(0).Name == "X" && typ.Field(1).Name == "Y" &&
			typ.Field(0).Type.Kind() == reflect.Float64 && typ.Field(1).Type.Kind() == reflect.Float64
	case typ.Kind() == reflect.Pointer:
		// A pointer writes null or its element: whatever methods write
		// the element are the element type's.
		p.kind, p.elem = planPtr, t.plan(typ.Elem())
		return p.elem.ok
	case typ.Implements(marshalerType) || typ.Implements(textMarshalerType) ||
		reflect.PointerTo(typ).Implements(marshalerType) || reflect.PointerTo(typ).Implements(textMarshalerType):
		return false // writes what it likes
	}
	switch typ.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	case reflect.Float32, reflect.Float64:
		p.kind = planFloat
		return true
	case reflect.String:
		p.kind = planString
		return true
	case reflect.Slice:
		if typ.Elem().Kind() == reflect.Uint8 {
			return false // bytes are written as base64 text
		}
		p.kind, p.elem = planSlice, t.plan(typ.Elem())
		return p.elem.ok
	case reflect.Struct:
		p.kind = planStruct
		seen := map[string]bool{}
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Anonymous {
				return false // promoted fields: JSON's rules for them are not kept here
			}
			tag := f.Tag.Get("json")
			if !f.IsExported() || tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			omit := false
			for o := range strings.SplitSeq(opts, ",") {
				switch o {
				case "":
				case "omitempty":
					omit = true
				default:
					return false // string, omitzero: not kept here
				}
			}
			if !plainKey(name) || seen[name] {
				return false
			}
			seen[name] = true
			fp := fieldPlan{index: i, key: name, omitEmpty: omit, plan: t.plan(f.Type)}
			if !fp.plan.ok {
				return false
			}
			p.fields = append(p.fields, fp)
		}
		return true
	}
	return false // arrays, maps, interfaces and the rest
}

// plainKey reports whether JSON writes name as a struct field's key as it
// is: letters, digits and a few marks, nothing to escape.
func plainKey(name string) bool {
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.ContainsRune("-_.$@", c):
		default:
			return false
		}
	}
	return name != ""
}

// walk appends the texts of v, a value of the plan's type, to out, and
// reports false if JSON cannot write v (a number that is not finite).
func (p *plan) walk(v reflect.Value, out []string) ([]string, bool) {
	ok := true
	switch p.kind {
	case planFloat:
		ok = finite(v.Float())
	case planPoint:
		ok = finite(v.Field(0).Float()) && finite(v.Field(1).Float())
	case planString:
		out = append(out, v.String())
	case planPtr:
		if !v.IsNil() {
			out, ok = p.elem.walk(v.Elem(), out)
		}
	case planSlice:
		for i := 0; i < v.Len() && ok; i++ {
			out, ok = p.elem.walk(v.Index(i), out)
		}
	case planStruct:
		for _, f := range p.fields {
			fv := v.Field(f.index)
			if f.omitEmpty && empty(fv) {
				continue
			}
			out = append(out, f.key)
			if out, ok = f.plan.walk(fv, out); !ok {
				break
			}
		}
	}
	return out, ok
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// empty reports whether omitempty leaves v out.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.String, reflect.Slice:
		return v.Len() == 0
	case reflect.Pointer:
		return v.IsNil()
	}
	return false
}
