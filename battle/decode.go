package battle

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/geom"
	"orderly/geom/hex"
	"orderly/strict"
)

// knownList reports whether name is a word list that enum= and keys= may
// name (see format.go).
func knownList(name string) bool {
	return slices.Contains([]string{"qualities", "nations", "orders", "rules", "unit-types", "shapes", "statuses", "edges", "layouts", "hexsides", "roads", "features", "disruptive"}, name)
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
		return s.UnitTypes
	case "shapes":
		return s.Shapes
	case "statuses":
		return s.Statuses
	case "edges":
		return Edges
	case "layouts":
		return hex.Offsets()
	case "features":
		return FeatureTypes
	case "disruptive":
		return []string{"d1", "d2", "d3"}
	case "hexsides":
		if s.Terrain != nil {
			return s.Terrain.Sides
		}
	case "roads":
		if s.Terrain != nil {
			return s.Terrain.Roads
		}
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
	// space is the scenario's space, once its field or map is read:
	// positions after it are read as its positions, and messages name
	// its unit.
	space geom.Space
	// found collects the problems met, reading on past each to the next
	// field or item; nil stops at the first.
	found *problems
}

// say fills in the placeholders of a text of the format: with the
// scenario's unit once its space is read, else with the rule set's.
func (d *decoder) say(s string) string {
	if d.space != nil {
		return wordingOf(d.space).say(s)
	}
	return d.spec.wording().say(s)
}

// spacer is a file type that gives a scenario's space: its field or map.
type spacer interface {
	space() (geom.Space, error)
}

// space is the table of a field.
func (f fieldFile) space() (geom.Space, error) {
	return geom.Table{Width: f.Width, Depth: f.Depth}, nil
}

// space is the hex map of a map, checked: every column and row number
// must fit the digits of its labels.
func (f mapFile) space() (geom.Space, error) { return f.hexMap() }

func (f mapFile) hexMap() (hex.Map, error) {
	o, err := hex.ParseOffset(f.Layout)
	if err != nil {
		return hex.Map{}, err
	}
	return hex.NewMap(f.Columns, f.Rows, hex.Layout{Offset: o, First: f.First, Digits: f.Digits})
}

// spaceName names a kind of space and the field that gives it, for
// messages: "a table (field)".
func spaceName(kind, key string) string {
	return fmt.Sprintf("a %s (%s)", surface(kind), key)
}

// spaceFields checks the fields of mapping n that give the scenario's
// space (space: tags): a field for a space the rule set does not play on
// is refused where it is written. It returns the fields of ft less those
// (oneSpace then checks that exactly one of the rest is given).
func (d *decoder) spaceFields(n *yaml.Node, where string, ft *fileType) ([]*fileField, error) {
	var kept, spaces, refused []*fileField
	for _, f := range ft.fields {
		switch {
		case !d.spec.uses(f.part):
			// A part the rule set does not use: an unknown key.
		case f.space == "":
			kept = append(kept, f)
		case d.spec.plays(f.space):
			kept = append(kept, f)
			spaces = append(spaces, f)
		default:
			refused = append(refused, f)
		}
	}
	if len(spaces)+len(refused) == 0 {
		return kept, nil
	}
	var allowed []string
	for _, f := range spaces {
		allowed = append(allowed, spaceName(f.space, f.key))
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			for _, f := range refused {
				if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == f.key {
					who := "the rule set"
					if d.spec.ID != "" {
						who = "rule set " + d.spec.ID
					}
					return nil, d.Errf(k, "%s: %s plays on %s, not on %s", child(where, f.key), who, strings.Join(allowed, " or "), spaceName(f.space, f.key))
				}
			}
		}
	}
	return kept, nil
}

// oneSpace checks that mapping n, read into given, gives exactly one of
// the space fields among fields.
func (d *decoder) oneSpace(n *yaml.Node, where, label string, fields []*fileField, given map[string]*yaml.Node) error {
	var spaces, have []*fileField
	for _, f := range fields {
		if f.space != "" {
			spaces = append(spaces, f)
			if given[f.key] != nil {
				have = append(have, f)
			}
		}
	}
	switch {
	case len(spaces) == 0 || len(have) == 1:
		return nil
	case len(have) > 1:
		second := have[1].key
		return d.Errf(keyNode(n, second), "%s: a scenario is played on %s or on %s, not both; give one of them", child(where, second), spaceName(have[0].space, have[0].key), spaceName(have[1].space, second))
	case len(spaces) == 1:
		return d.Errf(n, "%s: %s is missing", label, spaces[0].key)
	}
	var keys, names []string
	for _, f := range spaces {
		keys = append(keys, f.key)
		names = append(names, spaceName(f.space, f.key))
	}
	return d.Errf(n, "%s: %s is missing: a scenario is played on %s", label, strings.Join(keys, " or "), strings.Join(names, " or "))
}

// keyNode returns the node of key k in mapping n, or n if it has none.
func keyNode(n *yaml.Node, k string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return n.Content[i]
		}
	}
	return n
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
		return d.shortForm(n, where, label, ft, v)
	}
	fields, err := d.spaceFields(n, where, ft)
	if err != nil {
		return err
	}
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
	if err := d.checkRequired(n, label, fields, keys, given); err != nil {
		return err
	}
	if err := d.oneSpace(n, where, label, fields, given); err != nil {
		return err
	}
	if err := d.fieldValues(where, ft, v, given); err != nil {
		return err
	}
	return d.attrValues(where, ft, v, attrs, given)
}

// shortForm reads the bare scalar n as the field of ft it stands for, when
// every other required field of the parts in use may be left out.
func (d *decoder) shortForm(n *yaml.Node, where, label string, ft *fileType, v reflect.Value) error {
	short := ft.field(ft.short)
	if err := d.value(n, where, short, v.FieldByIndex(short.index)); err != nil {
		return err
	}
	for _, f := range ft.fields {
		if f.required && f != short && d.spec.uses(f.part) {
			return d.Errf(n, "%s: %s", label, f.missingMsg())
		}
	}
	return nil
}

// checkRequired says which required field of a mapping is missing, if one is:
// one with or= is missing only when the other key is missing too.
func (d *decoder) checkRequired(n *yaml.Node, label string, fields []*fileField, keys []string, given map[string]*yaml.Node) error {
	for _, f := range fields {
		if f.required && given[f.key] == nil {
			if f.or != "" && given[f.or] != nil {
				continue
			}
			if f.or != "" && slices.Contains(keys, f.or) {
				return d.Errf(n, "%s: give %s, %s or both (%s)", label, f.key, f.or, d.say(f.missingMsg()))
			}
			return d.Errf(n, "%s: %s", label, d.say(f.missingMsg()))
		}
	}
	return nil
}

// fieldValues reads the given fields of ft into v, in the type's order, and
// sets the defaults of those left out; a field that gives the space makes
// it the space the rest are read in.
func (d *decoder) fieldValues(where string, ft *fileType, v reflect.Value, given map[string]*yaml.Node) error {
	for _, f := range ft.fields {
		fv := v.FieldByIndex(f.index)
		if g := given[f.key]; g != nil {
			if err := d.value(g, child(where, f.key), f, fv); err != nil {
				// A space read wrongly would make every position after
				// it a problem: stop there.
				if f.space != "" || !d.found.note(err) {
					return err
				}
				continue
			}
			if f.space != "" {
				sp, err := fv.Interface().(spacer).space()
				if err != nil {
					return d.Errf(g, "%s: %v", child(where, f.key), err)
				}
				d.space = sp
			}
		} else if f.def != nil {
			fv.Set(reflect.ValueOf(f.def))
		}
	}
	return nil
}

// attrValues reads the given attributes of the rule set's piece into the
// attributes field of v, left nil if none is given.
func (d *decoder) attrValues(where string, ft *fileType, v reflect.Value, attrs []*fileField, given map[string]*yaml.Node) error {
	if len(attrs) == 0 {
		return nil
	}
	m := map[string]any{}
	for _, f := range attrs {
		g := given[f.key]
		if g == nil {
			continue
		}
		av := reflect.New(f.typ).Elem()
		if err := d.value(g, child(where, f.key), f, av); err != nil {
			if !d.found.note(err) {
				return err
			}
			continue
		}
		m[f.key] = av.Interface()
	}
	if len(m) > 0 {
		v.FieldByIndex(ft.attrs).Set(reflect.ValueOf(m))
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
		p, err := PositionIn(d.Reader, n, where, d.space)
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
			return d.Errf(n, "%s: %d is out of range; allowed: %s", where, x, d.say(f.allowed(true)))
		}
		v.SetInt(int64(x))
		return nil
	case v.Kind() == reflect.Float64:
		x, err := Number(d.Reader, n, where)
		if err != nil {
			return err
		}
		if !f.inRange(x) {
			return d.Errf(n, "%s: %v is out of range; allowed: %s", where, x, d.say(f.allowed(false)))
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
		if err := d.value(it, fmt.Sprintf("%s[%d]", where, i), f, out.Index(i)); err != nil && !d.found.note(err) {
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
