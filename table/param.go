package table

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/strict"
)

// Kind is the kind of value a parameter takes.
type Kind string

// The parameter kinds.
const (
	Enum Kind = "enum"
	Int  Kind = "int"
	Bool Kind = "bool"
)

// Choice is one value of an enum parameter and the modifier it brings.
type Choice struct {
	Name string
	Mod  int
}

// Range gives a modifier to an int parameter whose value lies in Lo..Hi.
type Range struct {
	Lo, Hi int
	Mod    int
}

// Rename reads one result as another.
type Rename struct {
	From, To string
}

// Param is a named input of a table: the situation of the roll (a general's
// quality, a nationality, whether a unit is shaken). Each contributes a
// modifier to the total, or, when Target is set, to the number the total is
// read against.
type Param struct {
	Name     string
	Kind     Kind
	Doc      string
	Required bool
	Default  string // "" for none: an absent parameter then brings nothing
	Values   []Choice
	Min, Max *int
	Per      int     // int: modifier per unit of the value
	Ranges   []Range // int: modifier while the value lies in a range
	Mod      int     // bool: modifier while true
	Unless   string  // bool: Mod lapses while this other bool parameter is true
	Renames  []Rename
	Target   bool
	File     string // the rules file that gave (or last changed) it
	Line     int
}

// param reads one parameter of a table or lookup, with the fields it gave.
func (r reader) param(n *yaml.Node, where string) (*Param, map[string]bool, error) {
	f, err := r.Fields(n, where, "name", "kind", "doc", "required", "default", "values", "min", "max", "per", "ranges", "mod", "unless", "rename", "target")
	if err != nil {
		return nil, nil, err
	}
	p := &Param{File: r.File, Line: n.Line}
	present := given(f)
	if v, ok := f["name"]; ok {
		if p.Name, err = r.Word(v, where+": name"); err != nil {
			return nil, nil, err
		}
		where = fmt.Sprintf("%s %s", where, p.Name)
	}
	if err := r.paramHead(f, where, p); err != nil {
		return nil, nil, err
	}
	if err := r.paramMods(f, where, p); err != nil {
		return nil, nil, err
	}
	if v, ok := f["ranges"]; ok {
		if p.Ranges, err = r.ranges(v, where); err != nil {
			return nil, nil, err
		}
	}
	if v, ok := f["rename"]; ok {
		if p.Renames, err = r.renames(v, where); err != nil {
			return nil, nil, err
		}
	}
	return p, present, nil
}

// paramHead reads what a parameter is: its kind, doc, whether it is
// required or a target, its default and its enum values.
func (r reader) paramHead(f map[string]*yaml.Node, where string, p *Param) error {
	var err error
	if v, ok := f["kind"]; ok {
		s, err := r.Str(v, where+": kind")
		if err != nil {
			return err
		}
		p.Kind = Kind(s)
		if p.Kind != Enum && p.Kind != Int && p.Kind != Bool {
			return r.Errf(v, "%s: kind %q is not one of enum, int, bool", where, s)
		}
	}
	if v, ok := f["doc"]; ok {
		if p.Doc, err = r.Str(v, where+": doc"); err != nil {
			return err
		}
	}
	if v, ok := f["required"]; ok {
		if p.Required, err = r.Bool(v, where+": required"); err != nil {
			return err
		}
	}
	if v, ok := f["target"]; ok {
		if p.Target, err = r.Bool(v, where+": target"); err != nil {
			return err
		}
	}
	if v, ok := f["default"]; ok {
		if p.Default, err = r.Str(v, where+": default"); err != nil {
			return err
		}
	}
	if v, ok := f["values"]; ok {
		if p.Values, err = r.choices(v, where+": values"); err != nil {
			return err
		}
	}
	return nil
}

// paramMods reads a parameter's bounds and the plain modifiers it brings:
// min, max, per, mod and unless.
func (r reader) paramMods(f map[string]*yaml.Node, where string, p *Param) error {
	var err error
	for _, k := range []string{"min", "max"} {
		if v, ok := f[k]; ok {
			x, err := r.Int(v, where+": "+k)
			if err != nil {
				return err
			}
			if k == "min" {
				p.Min = &x
			} else {
				p.Max = &x
			}
		}
	}
	if v, ok := f["per"]; ok {
		if p.Per, err = r.Int(v, where+": per"); err != nil {
			return err
		}
	}
	if v, ok := f["mod"]; ok {
		if p.Mod, err = r.Int(v, where+": mod"); err != nil {
			return err
		}
	}
	if v, ok := f["unless"]; ok {
		if p.Unless, err = r.Word(v, where+": unless"); err != nil {
			return err
		}
	}
	return nil
}

// ranges reads an int parameter's ranges, each with the modifier it brings.
func (r reader) ranges(v *yaml.Node, where string) ([]Range, error) {
	items, err := r.List(v, where+": ranges")
	if err != nil {
		return nil, err
	}
	var out []Range
	for _, it := range items {
		rf, err := r.Fields(it, where+": range", "min", "max", "mod")
		if err != nil {
			return nil, err
		}
		var rg Range
		for k, dst := range map[string]*int{"min": &rg.Lo, "max": &rg.Hi, "mod": &rg.Mod} {
			x, ok := rf[k]
			if !ok {
				return nil, r.Errf(it, "%s: a range needs min, max and mod", where)
			}
			if *dst, err = r.Int(x, where+": range "+k); err != nil {
				return nil, err
			}
		}
		if rg.Lo > rg.Hi {
			return nil, r.Errf(it, "%s: range min %d is above max %d", where, rg.Lo, rg.Hi)
		}
		out = append(out, rg)
	}
	return out, nil
}

// renames reads the results a parameter reads as others, in file order.
func (r reader) renames(v *yaml.Node, where string) ([]Rename, error) {
	pairs, err := r.Pairs(v, where+": rename")
	if err != nil {
		return nil, err
	}
	var out []Rename
	for _, kv := range pairs {
		from, err := r.Word(kv[0], where+": rename")
		if err != nil {
			return nil, err
		}
		to, err := r.Word(kv[1], where+": rename "+from)
		if err != nil {
			return nil, err
		}
		out = append(out, Rename{from, to})
	}
	return out, nil
}

// choices reads enum values: a list of names, or a mapping of name to modifier.
func (r reader) choices(n *yaml.Node, where string) ([]Choice, error) {
	var out []Choice
	if n.Kind == yaml.SequenceNode {
		for _, it := range n.Content {
			w, err := r.Word(it, where)
			if err != nil {
				return nil, err
			}
			out = append(out, Choice{Name: w})
		}
	} else {
		pairs, err := r.Pairs(n, where)
		if err != nil {
			return nil, err
		}
		for _, kv := range pairs {
			w, err := r.Word(kv[0], where)
			if err != nil {
				return nil, err
			}
			m, err := r.Int(kv[1], where+" "+w)
			if err != nil {
				return nil, err
			}
			out = append(out, Choice{Name: w, Mod: m})
		}
	}
	seen := map[string]bool{}
	for _, c := range out {
		if seen[c.Name] {
			return nil, r.Errf(n, "%s: value %q is given twice", where, c.Name)
		}
		seen[c.Name] = true
	}
	return out, nil
}

// merge applies the fields of a house-rule patch to p.
func (p *Param) merge(q *Param, present map[string]bool) {
	p.File, p.Line = q.File, q.Line
	if present["kind"] {
		p.Kind = q.Kind
	}
	if present["doc"] {
		p.Doc = q.Doc
	}
	if present["required"] {
		p.Required = q.Required
	}
	if present["default"] {
		p.Default = q.Default
	}
	if present["values"] {
		vals := slices.Clone(p.Values)
		for _, c := range q.Values {
			if i := slices.IndexFunc(vals, func(x Choice) bool { return x.Name == c.Name }); i >= 0 {
				vals[i] = c
			} else {
				vals = append(vals, c)
			}
		}
		p.Values = vals
	}
	if present["min"] {
		p.Min = q.Min
	}
	if present["max"] {
		p.Max = q.Max
	}
	if present["per"] {
		p.Per = q.Per
	}
	if present["ranges"] {
		p.Ranges = q.Ranges
	}
	if present["mod"] {
		p.Mod = q.Mod
	}
	if present["unless"] {
		p.Unless = q.Unless
	}
	if present["rename"] {
		p.Renames = q.Renames
	}
	if present["target"] {
		p.Target = q.Target
	}
}

// check validates a parameter on its own.
func (p *Param) check() error {
	if p.Name == "" {
		return fmt.Errorf("a parameter needs a name")
	}
	switch p.Kind {
	case Enum:
		if len(p.Values) == 0 {
			return fmt.Errorf("parameter %s: an enum needs values", p.Name)
		}
	case Int:
		if p.Min != nil && p.Max != nil && *p.Min > *p.Max {
			return fmt.Errorf("parameter %s: min %d is above max %d", p.Name, *p.Min, *p.Max)
		}
	case Bool:
	case "":
		return fmt.Errorf("parameter %s: kind is missing; allowed: enum, int, bool", p.Name)
	}
	if p.Kind != Enum && len(p.Values) > 0 {
		return fmt.Errorf("parameter %s: values belong to enum parameters only", p.Name)
	}
	if p.Kind != Int && (p.Min != nil || p.Max != nil || p.Per != 0 || len(p.Ranges) > 0) {
		return fmt.Errorf("parameter %s: min, max, per and ranges belong to int parameters only", p.Name)
	}
	if p.Kind != Bool && (p.Mod != 0 || p.Unless != "" || len(p.Renames) > 0) {
		return fmt.Errorf("parameter %s: mod, unless and rename belong to bool parameters only", p.Name)
	}
	if p.Required && p.Default != "" {
		return fmt.Errorf("parameter %s: a required parameter has no default", p.Name)
	}
	if p.Default != "" {
		if _, err := p.parse(p.Default); err != nil {
			return fmt.Errorf("default: %w", err)
		}
	}
	return nil
}

// parse reads a value given as text: the index of an enum value, the number
// of an int, 0 or 1 for a bool.
func (p *Param) parse(s string) (int, error) {
	switch p.Kind {
	case Enum:
		for i, c := range p.Values {
			if c.Name == s {
				return i, nil
			}
		}
		hint := ""
		if m := strict.Near(s, p.Names()); len(m) > 0 {
			hint = fmt.Sprintf(" (did you mean %s?)", m[0])
		}
		return 0, fmt.Errorf("%s=%s is not allowed%s; allowed: %s", p.Name, s, hint, strings.Join(p.Names(), ", "))
	case Int:
		v, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
		if err != nil {
			return 0, fmt.Errorf("%s=%s is not a whole number; allowed: %s", p.Name, s, p.Allowed())
		}
		if (p.Min != nil && v < *p.Min) || (p.Max != nil && v > *p.Max) {
			return 0, fmt.Errorf("%s=%d is out of range; allowed: %s", p.Name, v, p.Allowed())
		}
		return v, nil
	default:
		switch s {
		case "true":
			return 1, nil
		case "false":
			return 0, nil
		}
		return 0, fmt.Errorf("%s=%s is not allowed; allowed: true, false", p.Name, s)
	}
}

// Names lists the values of an enum parameter in order.
func (p *Param) Names() []string {
	out := make([]string, len(p.Values))
	for i, c := range p.Values {
		out[i] = c.Name
	}
	return out
}

// Allowed describes the values a parameter takes, e.g. "2..7" or "a, b, c".
func (p *Param) Allowed() string {
	switch p.Kind {
	case Enum:
		return strings.Join(p.Names(), ", ")
	case Bool:
		return "true, false"
	}
	switch {
	case p.Min != nil && p.Max != nil:
		return fmt.Sprintf("whole numbers %d..%d", *p.Min, *p.Max)
	case p.Min != nil:
		return fmt.Sprintf("whole numbers >= %d", *p.Min)
	case p.Max != nil:
		return fmt.Sprintf("whole numbers <= %d", *p.Max)
	}
	return "any whole number"
}

// Text gives the textual form of a bound value.
func (p *Param) Text(v int) string {
	switch p.Kind {
	case Enum:
		return p.Values[v].Name
	case Bool:
		return strconv.FormatBool(v != 0)
	}
	return strconv.Itoa(v)
}

// Args are a table's parameters bound to values.
type Args struct {
	params []*Param
	vals   []int
	set    []bool
}

// bind checks named text values against params and fills in defaults.
func bind(params []*Param, in map[string]string) (Args, error) {
	a := Args{params: params, vals: make([]int, len(params)), set: make([]bool, len(params))}
	// The common case, every name known and every value good, binds in the
	// parameters' order; anything else goes the careful way below, which
	// reports the first problem in the order of the names.
	known := 0
	for i, p := range params {
		if slices.ContainsFunc(params[:i], func(q *Param) bool { return q.Name == p.Name }) {
			known = -1 // a name given twice (a lookup may): the careful way
			break
		}
		if t, ok := in[p.Name]; ok {
			v, err := p.parse(t)
			if err != nil {
				known = -1
				break
			}
			a.vals[i], a.set[i] = v, true
			known++
		}
	}
	if known == len(in) {
		return a.defaults()
	}
	clear(a.vals)
	clear(a.set)
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		i := slices.IndexFunc(params, func(p *Param) bool { return p.Name == k })
		if i < 0 {
			all := make([]string, len(params))
			for j, p := range params {
				all[j] = p.Name
			}
			if len(all) == 0 {
				return Args{}, fmt.Errorf("unknown parameter %q; this table takes no parameters", k)
			}
			hint := ""
			if m := strict.Near(k, all); len(m) > 0 {
				hint = fmt.Sprintf(" (did you mean %s?)", m[0])
			}
			return Args{}, fmt.Errorf("unknown parameter %q%s; allowed: %s", k, hint, strings.Join(all, ", "))
		}
		v, err := params[i].parse(in[k])
		if err != nil {
			return Args{}, err
		}
		a.vals[i], a.set[i] = v, true
	}
	return a.defaults()
}

// defaults fills in the defaults of the parameters not given, and checks
// that every required one is.
func (a Args) defaults() (Args, error) {
	for i, p := range a.params {
		if a.set[i] {
			continue
		}
		if p.Required {
			return Args{}, fmt.Errorf("parameter %s is required; allowed: %s", p.Name, p.Allowed())
		}
		if p.Default != "" {
			v, err := p.parse(p.Default)
			if err != nil {
				return Args{}, err
			}
			a.vals[i], a.set[i] = v, true
		}
	}
	return a, nil
}

// Value returns the text of a bound parameter, and whether it has a value.
func (a Args) Value(name string) (string, bool) {
	for i, p := range a.params {
		if p.Name == name && a.set[i] {
			return p.Text(a.vals[i]), true
		}
	}
	return "", false
}

func (a Args) index(name string) int {
	for i, p := range a.params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// Map returns every bound parameter as text.
func (a Args) Map() map[string]string {
	out := map[string]string{}
	for i, p := range a.params {
		if a.set[i] {
			out[p.Name] = p.Text(a.vals[i])
		}
	}
	return out
}

// Mod is one modifier applied to a roll.
type Mod struct {
	Name   string // the parameter, or the derived modifier's name
	Value  string // the parameter's value as text
	Amount int
	Target bool // shifts the number the total is read against
}

// mods lists the modifiers the bound parameters bring, in parameter order;
// parameters that bring nothing (and no default) are left out.
// They are appended to out.
func (a Args) mods(out []Mod) []Mod {
	for i, p := range a.params {
		if !a.set[i] || !p.Modifies() {
			continue
		}
		v := a.vals[i]
		m := Mod{Name: p.Name, Value: p.Text(v), Target: p.Target}
		switch p.Kind {
		case Enum:
			m.Amount = p.Values[v].Mod
		case Int:
			m.Amount = p.Per * v
			for _, r := range p.Ranges {
				if v >= r.Lo && v <= r.Hi {
					m.Amount += r.Mod
					break
				}
			}
		case Bool:
			if v == 1 && !a.isTrue(p.Unless) {
				m.Amount = p.Mod
			}
		}
		out = append(out, m)
	}
	return out
}

func (a Args) isTrue(name string) bool {
	if name == "" {
		return false
	}
	i := a.index(name)
	return i >= 0 && a.set[i] && a.vals[i] == 1
}

// Modifies reports whether the parameter can bring a modifier at all (some
// only select a row of the table or count dice).
func (p *Param) Modifies() bool {
	if p.Target || p.Per != 0 || p.Mod != 0 || len(p.Ranges) > 0 {
		return true
	}
	for _, c := range p.Values {
		if c.Mod != 0 {
			return true
		}
	}
	return false
}
