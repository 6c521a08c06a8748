package battle

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/strict"
)

// knownList reports whether name is a word list that enum= and keys= may
// name (see format.go).
func knownList(name string) bool {
	return slices.Contains([]string{"qualities", "nations", "orders", "rules", "unit-types", "shapes", "statuses", "edges"}, name)
}

// words returns the words a field allows: the rule set's vocabulary, its
// id, or one of the fixed lists. An empty list allows any word.
func (s Spec) words(f *fileField) []string {
	if f.values != nil {
		return f.values
	}
	return s.list(f.enum)
}

func (s Spec) list(name string) []string {
	switch name {
	case "qualities":
		return s.Qualities
	case "nations":
		return s.Nations
	case "orders":
		return s.Orders
	case "rules":
		if s.ID != "" {
			return []string{s.ID}
		}
	case "unit-types":
		return UnitTypes
	case "shapes":
		return Shapes
	case "statuses":
		return Statuses
	case "edges":
		return Edges
	}
	return nil
}

// decoder reads a parsed scenario into the format's types: every field
// known and given once, every value of its kind and within its bounds,
// every word from its list, and every problem one sentence at its line
// that names the path (sides[0].corps[2].general.quality), what was wrong
// and what is allowed, with a near match for a typo.
type decoder struct {
	strict.Reader
	spec  Spec
	types types
}

// child is the path of a field of the mapping at where.
func child(where, key string) string {
	if where == "" {
		return key
	}
	return where + "." + key
}

// object reads mapping n into the struct v.
func (d *decoder) object(n *yaml.Node, where string, v reflect.Value) error {
	ft, err := d.types.of(v.Type())
	if err != nil {
		return err
	}
	label := where
	if label == "" {
		label = ft.def
	}
	if ft.node != nil {
		v.FieldByIndex(ft.node).Set(reflect.ValueOf(n))
	}
	if ft.short != "" && n.Kind == yaml.ScalarNode {
		short := ft.field(ft.short)
		if err := d.value(n, where, short, v.FieldByIndex(short.index)); err != nil {
			return err
		}
		for _, f := range ft.fields {
			if f.required && f != short {
				return d.Errf(n, "%s: %s", label, f.missingMsg())
			}
		}
		return nil
	}
	fields := ft.fields
	var attrs []*fileField
	if ft.attrs != nil {
		for _, a := range d.spec.attrs(ft.piece) {
			attrs = append(attrs, attrField(a))
		}
		fields = append(slices.Clip(fields), attrs...)
	}
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
	}
	given, err := d.Fields(n, label, keys...)
	if err != nil {
		return err
	}
	for _, f := range fields {
		if f.required && given[f.key] == nil {
			return d.Errf(n, "%s: %s", label, f.missingMsg())
		}
	}
	for _, f := range ft.fields {
		fv := v.FieldByIndex(f.index)
		if g := given[f.key]; g != nil {
			if err := d.value(g, child(where, f.key), f, fv); err != nil {
				return err
			}
		} else if f.def != nil {
			fv.Set(reflect.ValueOf(f.def))
		}
	}
	if len(attrs) > 0 {
		m := map[string]any{}
		for _, f := range attrs {
			g := given[f.key]
			if g == nil {
				continue
			}
			av := reflect.New(f.typ).Elem()
			if err := d.value(g, child(where, f.key), f, av); err != nil {
				return err
			}
			m[f.key] = av.Interface()
		}
		if len(m) > 0 {
			v.FieldByIndex(ft.attrs).Set(reflect.ValueOf(m))
		}
	}
	return nil
}

// value reads node n, at path where, into v by the rules of field f.
func (d *decoder) value(n *yaml.Node, where string, f *fileField, v reflect.Value) error {
	switch {
	case v.Kind() == reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if err := d.value(n, where, f, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case v.Type() == pointType:
		p, err := Position(d.Reader, n, where)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(p))
		return nil
	case v.Kind() == reflect.Struct:
		return d.object(n, where, v)
	case v.Kind() == reflect.Slice:
		return d.list(n, where, f, v)
	case v.Kind() == reflect.Map:
		return d.keyed(n, where, f, v)
	case v.Kind() == reflect.String:
		s, err := d.text(n, where, f)
		if err != nil {
			return err
		}
		v.SetString(s)
		return nil
	case v.Kind() == reflect.Int:
		x, err := d.Int(n, where)
		if err != nil {
			return err
		}
		if !f.inRange(float64(x)) {
			return d.Errf(n, "%s: %d is out of range; allowed: %s", where, x, f.allowed(true))
		}
		v.SetInt(int64(x))
		return nil
	case v.Kind() == reflect.Float64:
		x, err := Number(d.Reader, n, where)
		if err != nil {
			return err
		}
		if !f.inRange(x) {
			return d.Errf(n, "%s: %v is out of range; allowed: %s", where, x, f.allowed(false))
		}
		v.SetFloat(x)
		return nil
	case v.Kind() == reflect.Bool:
		b, err := d.Bool(n, where)
		if err != nil {
			return err
		}
		v.SetBool(b)
		return nil
	}
	return fmt.Errorf("battle: the scenario format has no reader for %s, the type of %s", v.Type(), where)
}

// list reads a list, each item by the rules of its type.
func (d *decoder) list(n *yaml.Node, where string, f *fileField, v reflect.Value) error {
	items, err := d.List(n, where)
	if err != nil {
		return err
	}
	if len(items) < f.items[0] || f.items[1] >= 0 && len(items) > f.items[1] {
		msg := f.count
		if msg == "" {
			msg = "want " + itemRange(f.items) + " items"
		}
		return d.Errf(n, "%s: %s, got %d", where, msg, len(items))
	}
	out := reflect.MakeSlice(v.Type(), len(items), len(items))
	for i, it := range items {
		if err := d.value(it, fmt.Sprintf("%s[%d]", where, i), f, out.Index(i)); err != nil {
			return err
		}
	}
	v.Set(out)
	return nil
}

// itemRange says how many items a list may have: 2, 1..3, 1 or more.
func itemRange(r [2]int) string {
	switch {
	case r[1] < 0:
		return fmt.Sprintf("%d or more", r[0])
	case r[0] == r[1]:
		return fmt.Sprint(r[0])
	}
	return fmt.Sprintf("%d..%d", r[0], r[1])
}

// keyed reads a mapping whose keys come from the field's word list, each
// value by the field's rules.
func (d *decoder) keyed(n *yaml.Node, where string, f *fileField, v reflect.Value) error {
	pairs, err := d.Pairs(n, where)
	if err != nil {
		return err
	}
	keys := d.spec.list(f.keys)
	out := reflect.MakeMapWithSize(v.Type(), len(pairs))
	for _, kv := range pairs {
		k := kv[0].Value
		if err := d.word(kv[0], where, k, keys, f); err != nil {
			return err
		}
		x := reflect.New(v.Type().Elem()).Elem()
		if err := d.value(kv[1], child(where, k), f, x); err != nil {
			return err
		}
		out.SetMapIndex(reflect.ValueOf(k), x)
	}
	v.Set(out)
	return nil
}

// text reads a text value: free text, a key word, an id, or a word from a
// list.
func (d *decoder) text(n *yaml.Node, where string, f *fileField) (string, error) {
	if f.enum != "" || f.values != nil {
		s, err := d.Str(n, where)
		if err != nil {
			return "", err
		}
		return s, d.word(n, where, s, d.spec.words(f), f)
	}
	switch f.text {
	case "word":
		return d.Word(n, where)
	case "id":
		return d.ID(n, where)
	}
	return d.Str(n, where)
}

// word checks that s is one of allowed, less the field's refused word; an
// empty list allows any key word.
func (d *decoder) word(n *yaml.Node, where, s string, allowed []string, f *fileField) error {
	if len(allowed) == 0 {
		if err := strict.CheckWord(s); err != nil {
			return d.Errf(n, "%s: %v", where, err)
		}
		return nil
	}
	if f.not != "" {
		allowed = without(allowed, f.not)
		if s == f.not {
			return d.Errf(n, "%s: %s; allowed: %s", where, f.why, strings.Join(allowed, ", "))
		}
	}
	if !slices.Contains(allowed, s) {
		return d.Errf(n, "%s: %s", where, notOneOf(s, allowed))
	}
	return nil
}

func without(xs []string, x string) []string {
	var out []string
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

func notOneOf(s string, allowed []string) string {
	hint := ""
	if m := strict.Near(s, allowed); len(m) > 0 && m[0] != s {
		hint = fmt.Sprintf(" (did you mean %s?)", m[0])
	}
	return fmt.Sprintf("%q is not one of %s%s", s, strings.Join(allowed, ", "), hint)
}
