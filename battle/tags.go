package battle

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/geom"
)

// The Go types the format gives meaning to beyond their kind.
var (
	nodeType  = reflect.TypeFor[*yaml.Node]()
	pointType = reflect.TypeFor[geom.Point]()
	attrsType = reflect.TypeFor[map[string]any]()
)

// fileType is what the tags of one struct type of the format say (see
// format.go): its schema definition and its fields in order.
type fileType struct {
	def, doc string
	short    string // the field a bare scalar stands for, or ""
	fields   []*fileField
	node     []int // the index of its *yaml.Node field, or nil
	attrs    []int // the index of its attributes field, or nil
	piece    Piece // the piece whose attributes it takes
}

// field returns the field with the given key, or nil.
func (t *fileType) field(key string) *fileField {
	for _, f := range t.fields {
		if f.key == key {
			return f
		}
	}
	return nil
}

// fileField is one key of a struct type of the format, with its rules.
type fileField struct {
	key      string
	index    []int // for reflect.Value.FieldByIndex
	typ      reflect.Type
	doc      string
	required bool
	or       string   // required only if this other key is not given either (or=)
	text     string   // word, id or square: what kind of text a string is
	enum     string   // the word list a string is one of
	values   []string // the words of an attribute's list, in place of enum
	not      string   // a word of the list that is refused
	keys     string   // the word list of a mapping's keys
	min, max *float64
	gt, lt   *float64
	def      any    // the value when left out (string, int, float64 or bool), or nil
	items    [2]int // how many items a list has: at least [0], at most [1] (-1: any)
	unit     string
	space    string // the kind of space the field gives (space:), or ""
	part     string // the optional part of the format it belongs to (part:), or ""
	note     string
	why      string
	missing  string
	count    string
	each     string
}

// yamlKey returns the key a struct field is read from, or ok false for a
// field that is not a key.
func yamlKey(sf reflect.StructField) (key string, embedded, ok bool) {
	if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
		return "", true, false
	}
	key = sf.Tag.Get("yaml")
	if key == "" || key == "-" {
		return "", false, false
	}
	return key, false, true
}

// types reads and remembers the tags of struct types.
type types map[reflect.Type]*fileType

// of returns what the tags of struct type t say. A tag it cannot read is
// a mistake in the format's definition, reported as an error.
func (ts types) of(t reflect.Type) (*fileType, error) {
	if ft := ts[t]; ft != nil {
		return ft, nil
	}
	ft := &fileType{}
	if err := ft.read(t, nil); err != nil {
		return nil, fmt.Errorf("battle: the scenario format type %s: %w", t.Name(), err)
	}
	if ft.def == "" {
		return nil, fmt.Errorf("battle: the scenario format type %s has no _ struct{} field with def and doc", t.Name())
	}
	if ft.short != "" {
		if f := ft.field(ft.short); f == nil || f.typ.Kind() != reflect.String {
			return nil, fmt.Errorf("battle: the scenario format type %s: short names %q, which is not one of its text fields", t.Name(), ft.short)
		}
	}
	ts[t] = ft
	return ft, nil
}

// read adds the fields of struct type t, whose fields are reached through
// index, embedded structs flattened in place.
func (ft *fileType) read(t reflect.Type, index []int) error {
	for i := range t.NumField() {
		sf := t.Field(i)
		at := append(append([]int(nil), index...), i)
		key, embedded, ok := yamlKey(sf)
		switch {
		case sf.Name == "_":
			ft.def, ft.doc, ft.short = sf.Tag.Get("def"), sf.Tag.Get("doc"), sf.Tag.Get("short")
			continue
		case embedded:
			if err := ft.read(sf.Type, at); err != nil {
				return err
			}
			continue
		case sf.Type == nodeType:
			ft.node = at
			continue
		case sf.Tag.Get("attrs") != "":
			if sf.Type != attrsType {
				return fmt.Errorf("field %s: attrs wants a map[string]any", sf.Name)
			}
			ft.attrs, ft.piece = at, Piece(sf.Tag.Get("attrs"))
			if pieceTypes(ft.piece) == nil {
				return fmt.Errorf("field %s: attrs names %q, which is not a piece", sf.Name, ft.piece)
			}
			continue
		case !ok:
			return fmt.Errorf("field %s has no yaml key", sf.Name)
		}
		f, err := readField(sf, key, at)
		if err != nil {
			return fmt.Errorf("field %s: %w", key, err)
		}
		if ft.field(key) != nil {
			return fmt.Errorf("key %s is used twice", key)
		}
		ft.fields = append(ft.fields, f)
	}
	return nil
}

// readField reads the tags of struct field sf, the format's key key at
// index: its doc and notes, the space or part it belongs to, and the rules
// of its is tag.
func readField(sf reflect.StructField, key string, index []int) (*fileField, error) {
	f := &fileField{key: key, index: index, typ: sf.Type, doc: sf.Tag.Get("doc"), items: [2]int{0, -1},
		unit: sf.Tag.Get("unit"), note: sf.Tag.Get("note"), why: sf.Tag.Get("why"),
		missing: sf.Tag.Get("missing"), count: sf.Tag.Get("count"), each: sf.Tag.Get("each")}
	if f.doc == "" {
		return nil, fmt.Errorf("no doc")
	}
	if err := f.readPlace(sf); err != nil {
		return nil, err
	}
	rules := sf.Tag.Get("is")
	if rules == "" {
		return f, nil
	}
	for _, r := range strings.Split(rules, ",") {
		if err := f.readRule(r); err != nil {
			return nil, err
		}
	}
	if f.not != "" && (f.enum == "" || f.why == "") {
		return nil, fmt.Errorf("not= needs enum= and a why tag")
	}
	if f.space != "" && f.required {
		return nil, fmt.Errorf("a space field cannot be required: the scenario gives one of them")
	}
	return f, nil
}

// readPlace reads the space tag (the kind of space a field gives, on a
// pointer whose type makes it) and the part tag (the optional part of the
// format a field belongs to).
func (f *fileField) readPlace(sf reflect.StructField) error {
	if k, ok := sf.Tag.Lookup("space"); ok {
		if !slices.Contains(geom.Kinds(), k) {
			return fmt.Errorf("space:%q is not a kind of space; allowed: %s", k, strings.Join(geom.Kinds(), ", "))
		}
		if f.typ.Kind() != reflect.Pointer {
			return fmt.Errorf("a space field is a pointer, as a scenario gives only one")
		}
		if !f.typ.Implements(reflect.TypeFor[spacer]()) {
			return fmt.Errorf("a space field's type has no space method to make the space")
		}
		f.space = k
	}
	if p, ok := sf.Tag.Lookup("part"); ok {
		if !slices.Contains(Parts(), p) {
			return fmt.Errorf("part:%q is not a part of the format; allowed: %s", p, strings.Join(Parts(), ", "))
		}
		f.part = p
	}
	return nil
}

// readRule reads one rule of an is tag, name=value or a bare name.
func (f *fileField) readRule(r string) error {
	name, val, _ := strings.Cut(r, "=")
	var err error
	switch name {
	case "required":
		f.required = true
	case "or":
		f.or = val
	case "word", "id", "square":
		f.text = name
	case "enum":
		if !knownList(val) {
			return fmt.Errorf("enum=%s names no word list", val)
		}
		f.enum = val
	case "not":
		f.not = val
	case "keys":
		if !knownList(val) {
			return fmt.Errorf("keys=%s names no word list", val)
		}
		f.keys = val
	case "min":
		f.min, err = tagBound(val)
	case "max":
		f.max, err = tagBound(val)
	case "gt":
		f.gt, err = tagBound(val)
	case "lt":
		f.lt, err = tagBound(val)
	case "default":
		f.def, err = parseDefault(f.base(), val)
	case "items":
		lo, hi, _ := strings.Cut(val, "..")
		if f.items[0], err = strconv.Atoi(lo); err == nil && hi != "" {
			f.items[1], err = strconv.Atoi(hi)
		}
	default:
		return fmt.Errorf("unknown rule %q in is", r)
	}
	return err
}

// tagBound reads the number of a bound rule (min=, max=, gt=, lt=).
func tagBound(v string) (*float64, error) {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return nil, fmt.Errorf("bound %q is not a number", v)
	}
	return &x, nil
}

// parseDefault reads the default of a field of type t.
func parseDefault(t reflect.Type, val string) (any, error) {
	var v any
	var err error
	switch t.Kind() {
	case reflect.String:
		v = val
	case reflect.Int:
		v, err = strconv.Atoi(val)
	case reflect.Float64:
		v, err = strconv.ParseFloat(val, 64)
	case reflect.Bool:
		v, err = strconv.ParseBool(val)
	default:
		err = fmt.Errorf("a %s cannot have a default", t)
	}
	if err != nil {
		return nil, fmt.Errorf("default %q: %w", val, err)
	}
	return v, nil
}

// base is the type a field's value is read into: pointers mean only that
// the field may be left out.
func (f *fileField) base() reflect.Type {
	t := f.typ
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// missingMsg is what is said when a required field is left out.
func (f *fileField) missingMsg() string {
	switch {
	case f.missing != "":
		return f.missing
	case f.unit != "":
		return fmt.Sprintf("%s is missing (%s)", f.key, f.unit)
	}
	return f.key + " is missing"
}

// allowed describes the range of a number for a message, e.g. "more than
// 0 up to 1000 inches" or "1..26 (lettered A..Z)".
func (f *fileField) allowed(integer bool) string {
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	var s string
	switch {
	case integer && f.min != nil && f.max != nil:
		s = num(*f.min) + ".." + num(*f.max)
	default:
		var lo, hi string
		switch {
		case f.gt != nil:
			lo = "more than " + num(*f.gt)
		case f.min != nil:
			lo = num(*f.min)
		}
		switch {
		case f.lt != nil:
			hi = "up to " + num(*f.lt)
		case f.max != nil:
			hi = "up to " + num(*f.max)
		}
		switch {
		case lo != "" && hi != "":
			s = lo + " " + hi
		case lo != "":
			s = lo + " or more"
			if f.gt != nil {
				s = lo
			}
		default:
			s = hi
		}
	}
	if f.unit != "" {
		s += " " + f.unit
	}
	if f.note != "" {
		s += " (" + f.note + ")"
	}
	return s
}

// limits says, for a description, what range of numbers the field allows
// and what it defaults to, e.g. " Allowed: 1..1000. Defaults to 20."
func (f *fileField) limits(integer bool) string {
	var s string
	if f.bounded() {
		s += " Allowed: " + f.allowed(integer) + "."
	}
	if f.def != nil {
		s += fmt.Sprintf(" Defaults to %v.", f.def)
	}
	return s
}

// inRange reports whether x is within the field's bounds.
func (f *fileField) inRange(x float64) bool {
	return (f.min == nil || x >= *f.min) && (f.max == nil || x <= *f.max) &&
		(f.gt == nil || x > *f.gt) && (f.lt == nil || x < *f.lt)
}

// bounded reports whether the field has a bound.
func (f *fileField) bounded() bool { return f.min != nil || f.max != nil || f.gt != nil || f.lt != nil }

// attrField is the field an attribute of a rule set adds to a piece,
// read and described like the format's own.
func attrField(a Attr) *fileField {
	f := &fileField{key: a.Name, doc: a.Doc, required: a.Required, min: a.Min, max: a.Max, unit: a.Unit, items: [2]int{0, -1}}
	switch a.Type {
	case AttrInteger:
		f.typ = reflect.TypeFor[int]()
	case AttrNumber:
		f.typ = reflect.TypeFor[float64]()
	case AttrBool:
		f.typ = reflect.TypeFor[bool]()
	case AttrWord:
		f.typ = reflect.TypeFor[string]()
		f.text, f.values = "word", a.Values
	default:
		f.typ = reflect.TypeFor[string]()
	}
	return f
}
