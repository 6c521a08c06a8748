package table

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Use is what a rule set's procedures pass to one of its tables and what
// they read back: each parameter with every value it may be given, and
// whether the result (of a dice table) or the cell (of a lookup) is read
// as a number. A house rule may change a table in any way the table
// itself allows, but the rule set's code still passes what it passes;
// Set.Check tests the one against the other when the rules load, so that
// a house rule the procedures cannot play is refused then, not mid-game.
type Use struct {
	Table  string // id of a dice table or a lookup
	Rule   string // SPEC ID of the procedure that uses it, e.g. NB-10
	Params []Pass
	Number *Number // nil when the procedures read no number from it
	// Results, when given, are the only results of a dice table the
	// procedures know what to do with: a result that can come up and is
	// not one of them is refused (a table the user supplies, LOB's).
	Results []string
}

// Pass is one parameter the procedures pass: its kind and every value they
// may give it, as text (e.g. "poor", "3", "true").
type Pass struct {
	Name   string
	Kind   Kind
	Values []string
	From   string // where the values come from, for messages, e.g. "the qualities of nb/order-delay"
}

// Number says that the procedures read a number: the value of every result
// a dice table can give, or a lookup's cell as a whole number.
type Number struct {
	What     string // what the number means, e.g. "the turns of delay"
	Min, Max *int   // bounds the procedures rely on; nil for none
}

// maxCombos caps the combinations of passed values that Check tries in
// full; beyond it each parameter's values are tried with the others at
// their first value.
const maxCombos = 4096

// Check tests the set against what the procedures of a rule set (named by
// for messages, e.g. "NB") pass to its tables and read from them, and
// returns the first problem: a table or lookup missing; a parameter the
// procedures pass missing, of another kind, or not taking a value they may
// pass; a required parameter (or, for a lookup, one without a default) that
// they do not pass; a combination of values that does not bind or resolve;
// and, where a number is read, a result that can come up without a value
// or a cell that is not a whole number, or a number out of bounds. The
// error is one line, placed at the house-rules file and line that caused
// it where that is known.
func (s *Set) Check(by string, uses []Use) error {
	for i := range uses {
		if err := s.check(by, &uses[i]); err != nil {
			return err
		}
	}
	return nil
}

// used is a dice table or a lookup as Check sees it.
type used struct {
	kind   string // "table" or "lookup"
	id     string
	file   string
	line   int
	house  bool
	params []*Param
}

func (s *Set) check(by string, u *Use) error {
	procs := "the " + by + " procedures"
	var x used
	t, l := s.table(u.Table), s.Lookup(u.Table)
	switch {
	case t != nil:
		x = used{"table", t.ID, t.File, t.Line, t.House, t.Params}
	case l != nil:
		x = used{"lookup", l.ID, l.File, l.Line, l.House, l.Params}
	default:
		return s.fail(used{kind: "table", id: u.Table}, nil, fmt.Sprintf("%s use it (%s), but no rules file defines it", procs, u.Rule))
	}
	passed := make([]string, len(u.Params))
	for i, ps := range u.Params {
		passed[i] = ps.Name
	}
	for _, ps := range u.Params {
		p := x.param(ps.Name)
		if p == nil {
			return s.fail(x, nil, fmt.Sprintf("there is no parameter %s, but %s pass it %s (%s); add it back", ps.Name, procs, describe(ps), u.Rule))
		}
		if p.Kind != ps.Kind {
			return s.fail(x, p, fmt.Sprintf("parameter %s is %s, but %s pass it %s (%s); make it %s again", p.Name, article(p.Kind), procs, describe(ps), u.Rule, article(ps.Kind)))
		}
		for _, v := range ps.Values {
			if _, err := p.parse(v); err == nil {
				continue
			}
			from := ""
			if ps.From != "" {
				from = "; it may be any of " + ps.From
			}
			return s.fail(x, p, fmt.Sprintf("parameter %s does not take %s, which %s may pass (%s%s); allowed: %s; add %s", p.Name, v, procs, u.Rule, from, p.Allowed(), v))
		}
	}
	for _, p := range x.params {
		if slices.Contains(passed, p.Name) {
			continue
		}
		only := "pass no parameters to it"
		if len(passed) > 0 {
			only = "pass only " + strings.Join(passed, ", ")
		}
		switch {
		case p.Required:
			return s.fail(x, p, fmt.Sprintf("parameter %s is required, but %s %s (%s); make it optional with a default (e.g. required: false, default: %s)", p.Name, procs, only, u.Rule, suggest(p)))
		case x.kind == "lookup" && p.Default == "":
			return s.fail(x, p, fmt.Sprintf("parameter %s has no default, but %s %s (%s); give it one (e.g. default: %s)", p.Name, procs, only, u.Rule, suggest(p)))
		}
	}
	return s.combos(u, func(in map[string]string) error {
		if t != nil {
			return s.checkTable(x, t, u, procs, in)
		}
		return s.checkLookup(x, l, u, procs, in)
	})
}

func (x used) param(name string) *Param {
	for _, p := range x.params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// combos calls f with each combination of the values the procedures may
// pass: every one while there are at most maxCombos, else each value of
// each parameter with the others at their first.
func (s *Set) combos(u *Use, f func(map[string]string) error) error {
	n := 1
	for _, ps := range u.Params {
		if len(ps.Values) == 0 {
			return nil // the procedures never call with this parameter
		}
		n *= len(ps.Values)
		if n > maxCombos {
			break
		}
	}
	in := make(map[string]string, len(u.Params))
	for _, ps := range u.Params {
		in[ps.Name] = ps.Values[0]
	}
	if n > maxCombos {
		if err := f(in); err != nil {
			return err
		}
		for _, ps := range u.Params {
			for _, v := range ps.Values[1:] {
				in[ps.Name] = v
				if err := f(in); err != nil {
					return err
				}
			}
			in[ps.Name] = ps.Values[0]
		}
		return nil
	}
	idx := make([]int, len(u.Params))
	for {
		if err := f(in); err != nil {
			return err
		}
		i := len(idx) - 1
		for ; i >= 0; i-- {
			ps := u.Params[i]
			idx[i]++
			if idx[i] < len(ps.Values) {
				in[ps.Name] = ps.Values[idx[i]]
				break
			}
			idx[i] = 0
			in[ps.Name] = ps.Values[0]
		}
		if i < 0 {
			return nil
		}
	}
}

func (s *Set) checkTable(x used, t *Table, u *Use, procs string, in map[string]string) error {
	with := withText(u, in)
	a, err := bind(t.Params, in)
	if err == nil {
		var o Odds
		if o, err = t.Odds(a); err == nil && len(u.Results) > 0 {
			for _, c := range o.Outcomes {
				if c.Num.Sign() != 0 && !slices.Contains(u.Results, c.Result) {
					return s.fail(x, nil, fmt.Sprintf("result %s can come up%s, but %s know only %s (%s); use those results", c.Result, with, procs, strings.Join(u.Results, ", "), u.Rule))
				}
			}
		}
		if err == nil && u.Number != nil {
			for _, c := range o.Outcomes {
				if c.Num.Sign() == 0 {
					continue
				}
				r := t.Result(c.Result)
				if r == nil || r.Value == nil {
					return s.fail(x, nil, fmt.Sprintf("result %s can come up%s but has no value, and %s read it as %s (%s); give it a value", c.Result, with, procs, u.Number.What, u.Rule))
				}
				if msg := u.Number.out(*r.Value); msg != "" {
					return s.fail(x, nil, fmt.Sprintf("result %s can come up%s and has value %d, but %s read it as %s (%s); allowed: %s", c.Result, with, *r.Value, procs, u.Number.What, u.Rule, msg))
				}
			}
		}
	}
	if err != nil {
		return s.fail(x, nil, fmt.Sprintf("%s may pass %s (%s), and then %s", procs, passText(with), u.Rule, strings.TrimPrefix(err.Error(), t.ID+": ")))
	}
	return nil
}

func (s *Set) checkLookup(x used, l *Lookup, u *Use, procs string, in map[string]string) error {
	with := passText(withText(u, in))
	cell, err := l.Get(in)
	if err != nil {
		return s.fail(x, nil, fmt.Sprintf("%s may pass %s (%s), and then %s", procs, with, u.Rule, strings.TrimPrefix(err.Error(), l.ID+": ")))
	}
	if u.Number == nil {
		return nil
	}
	n, ok := cell.Int()
	if !ok {
		return s.fail(x, nil, fmt.Sprintf("%s gives %s, but %s read it as %s, a whole number (%s); give a whole number", with, strconv.Quote(cell.Text), procs, u.Number.What, u.Rule))
	}
	if msg := u.Number.out(n); msg != "" {
		return s.fail(x, nil, fmt.Sprintf("%s gives %d, but %s read it as %s (%s); allowed: %s", with, n, procs, u.Number.What, u.Rule, msg))
	}
	return nil
}

// out says what is allowed when v is outside the bounds, or "".
func (n *Number) out(v int) string {
	switch {
	case n.Min != nil && n.Max != nil && (v < *n.Min || v > *n.Max):
		return fmt.Sprintf("%d..%d", *n.Min, *n.Max)
	case n.Min != nil && v < *n.Min:
		return fmt.Sprintf("%d or more", *n.Min)
	case n.Max != nil && v > *n.Max:
		return fmt.Sprintf("%d or less", *n.Max)
	}
	return ""
}

// passText names passed values for a sentence: "quality=poor", or
// "no parameters".
func passText(with string) string {
	if with == "" {
		return "no parameters"
	}
	return strings.TrimPrefix(with, " with ")
}

// withText names the passed values, e.g. " with nation=french quality=poor",
// or "" when the procedures pass none.
func withText(u *Use, in map[string]string) string {
	if len(u.Params) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" with")
	for _, ps := range u.Params {
		fmt.Fprintf(&b, " %s=%s", ps.Name, in[ps.Name])
	}
	return b.String()
}

// describe says what the procedures pass for a parameter, e.g. "an enum,
// one of excellent, good, average, poor".
func describe(ps Pass) string {
	vals := strings.Join(ps.Values, ", ")
	switch ps.Kind {
	case Enum:
		return "as an enum, one of " + vals
	case Int:
		return "as an int, one of " + vals
	case Bool:
		return "as a bool"
	}
	return string(ps.Kind)
}

func article(k Kind) string {
	switch k {
	case Enum:
		return "an enum"
	case Int:
		return "an int"
	}
	return "a " + string(k)
}

// suggest gives a value to offer as a parameter's default.
func suggest(p *Param) string {
	switch p.Kind {
	case Enum:
		if len(p.Values) > 0 {
			return p.Values[0].Name
		}
	case Int:
		v := 0
		if p.Min != nil && v < *p.Min {
			v = *p.Min
		}
		if p.Max != nil && v > *p.Max {
			v = *p.Max
		}
		return strconv.Itoa(v)
	}
	return "false"
}

// fail places a problem: at the house-rules file and line of the parameter
// or table that a house rule gave, else, when house rules are loaded (and so
// changed what the procedures pass, e.g. by adding a quality to another
// table), it names them; else at the parameter or table in the built-in
// file.
func (s *Set) fail(x used, p *Param, msg string) error {
	what := x.kind + " " + printable(x.id) + ": " + msg
	switch {
	case p != nil && slices.Contains(s.house, p.File):
		return &Error{File: p.File, Line: p.Line, Msg: what}
	case x.house:
		return &Error{File: x.file, Line: x.line, Msg: what}
	case len(s.house) > 0:
		return &Error{Msg: "house rules " + strings.Join(s.house, ", ") + ": " + what}
	case p != nil:
		return &Error{File: p.File, Line: p.Line, Msg: what}
	}
	return &Error{File: x.file, Line: x.line, Msg: what}
}

// Ints lists the whole numbers lo..hi as words, for the Values of a Pass.
func Ints(lo, hi int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}
