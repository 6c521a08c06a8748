package table

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Lookup is a table without dice: a value read off a grid by its parameters
// (a movement rate by unit type and formation), or a progression (the
// command-style penalty of CD-5).
type Lookup struct {
	ID    string
	Rule  string
	Title string
	Doc   string
	Unit  string // unit of the numeric values, e.g. "inches"
	File  string
	Line  int
	House bool // defined or changed by a house-rules file

	Params      []*Param
	Legend      []Code
	Cells       *Node
	Progressive *Progressive

	raw *rawCells // cells not yet read
}

type rawCells struct {
	node  *yaml.Node
	r     reader
	where string
}

// readCells reads cells given in the file against the lookup's parameters.
func (l *Lookup) readCells() error {
	if l.raw == nil {
		return nil
	}
	raw := l.raw
	l.raw = nil
	if len(l.Params) == 0 {
		return raw.r.Errf(raw.node, "%s: cells need params", raw.where)
	}
	c, err := raw.r.cells(raw.node, raw.where, l.Params, l.Legend)
	if err != nil {
		return err
	}
	l.Cells = c
	return nil
}

// Code explains a code used in the cells, e.g. P for prohibited.
type Code struct {
	Code, Meaning string
}

// Node is one level of a lookup grid: one branch per value (or range of
// values) of the parameter at that depth.
type Node struct {
	Branches []Branch
}

// Branch is one key of a Node: an enum value, or a range Lo..Hi of an int
// parameter, leading to a deeper Node or to a Cell.
type Branch struct {
	Key    string
	Lo, Hi int
	Next   *Node
	Cell   *Cell
	Line   int
}

// Cell is one value of a lookup table, kept as written, with its number and
// codes read out of it where it has them.
type Cell struct {
	Text  string
	Num   *big.Rat // nil when the cell is not a number (e.g. "P" or "NA")
	Codes []string // legend codes that follow the number, or that the cell is
	Note  string   // text in parentheses after the value
}

// Progressive gives 0 for the first Free counts of each By value, then one
// less for every Every counts more: -ceil((count-free)/every).
type Progressive struct {
	By    string
	Count string
	Steps []Step
}

// Step is the progression of one value of the By parameter.
type Step struct {
	Key         string
	Free, Every int
}

// Int returns the cell as a whole number, if it is one.
func (c Cell) Int() (int, bool) {
	if c.Num == nil || !c.Num.IsInt() || !c.Num.Num().IsInt64() {
		return 0, false
	}
	return int(c.Num.Num().Int64()), true
}

var cellRE = regexp.MustCompile(`^([+-]?)(\d+)(?:-(\d+)/(\d+)|/(\d+)|\.(\d+))?(.*)$`)

// parseCell reads a cell's number, its codes and its note.
func parseCell(text string, legend []Code) Cell {
	c := Cell{Text: text}
	s := strings.TrimSpace(text)
	if i := strings.IndexByte(s, '('); i >= 0 && strings.HasSuffix(s, ")") {
		c.Note = strings.TrimSpace(s[i+1 : len(s)-1])
		s = strings.TrimSpace(s[:i])
	}
	isCode := func(x string) bool {
		return slices.ContainsFunc(legend, func(l Code) bool { return l.Code == x })
	}
	if isCode(s) {
		c.Codes = []string{s}
		return c
	}
	m := cellRE.FindStringSubmatch(s)
	if m == nil {
		return c
	}
	rest := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[7]), `"`))
	for _, ch := range rest {
		if !isCode(string(ch)) {
			return c
		}
	}
	num, ok := new(big.Rat).SetString(m[2])
	if !ok {
		return c
	}
	switch {
	case m[3] != "":
		frac, ok := new(big.Rat).SetString(m[3] + "/" + m[4])
		if !ok {
			return c
		}
		num.Add(num, frac)
	case m[5] != "":
		if num, ok = new(big.Rat).SetString(m[2] + "/" + m[5]); !ok {
			return c
		}
	case m[6] != "":
		if num, ok = new(big.Rat).SetString(m[2] + "." + m[6]); !ok {
			return c
		}
	}
	if m[1] == "-" {
		num.Neg(num)
	}
	c.Num = num
	for _, ch := range rest {
		c.Codes = append(c.Codes, string(ch))
	}
	return c
}

// Meaning explains the codes of a cell by the legend.
func (l *Lookup) Meaning(c Cell) string {
	var parts []string
	for _, code := range c.Codes {
		for _, e := range l.Legend {
			if e.Code == code {
				parts = append(parts, e.Meaning)
			}
		}
	}
	return strings.Join(parts, "; ")
}

var lookupFields = []string{"id", "rule", "title", "doc", "unit", "params", "legend", "cells", "progressive"}

// lookup reads one lookup of a rules file, with the fields it gave.
func (r reader) lookup(n *yaml.Node) (*Lookup, map[string]bool, error) {
	where := named("lookup", n)
	f, err := r.Fields(n, where, lookupFields...)
	if err != nil {
		return nil, nil, err
	}
	l := &Lookup{File: r.File, Line: n.Line}
	present := given(f)
	if l.ID, err = r.id(n, f, where); err != nil {
		return nil, nil, err
	}
	if err := r.texts(f, where, map[string]*string{"rule": &l.Rule, "title": &l.Title, "doc": &l.Doc, "unit": &l.Unit}); err != nil {
		return nil, nil, err
	}
	if v, ok := f["params"]; ok {
		pps, err := r.params(v, where)
		if err != nil {
			return nil, nil, err
		}
		for _, pp := range pps {
			l.Params = append(l.Params, pp.p)
		}
	}
	if v, ok := f["legend"]; ok {
		if l.Legend, err = r.legend(v, where); err != nil {
			return nil, nil, err
		}
	}
	if v, ok := f["cells"]; ok {
		// Read once the parameters are known: a house rule may give cells
		// for the parameters of the built-in lookup.
		l.raw = &rawCells{node: v, r: r, where: where + ": cells"}
	}
	if v, ok := f["progressive"]; ok {
		if l.Progressive, err = r.progressive(v, where); err != nil {
			return nil, nil, err
		}
	}
	return l, present, nil
}

// legend reads what the codes in a lookup's cells mean, in file order.
func (r reader) legend(v *yaml.Node, where string) ([]Code, error) {
	pairs, err := r.Pairs(v, where+": legend")
	if err != nil {
		return nil, err
	}
	var out []Code
	for _, kv := range pairs {
		m, err := r.Str(kv[1], where+": legend "+kv[0].Value)
		if err != nil {
			return nil, err
		}
		out = append(out, Code{kv[0].Value, m})
	}
	return out, nil
}

// progressive reads a progression (SPEC CD-5): the parameter that picks the
// step, the one that counts, and the steps.
func (r reader) progressive(v *yaml.Node, where string) (*Progressive, error) {
	pf, err := r.Fields(v, where+": progressive", "by", "count", "steps")
	if err != nil {
		return nil, err
	}
	pr := &Progressive{}
	for _, k := range []string{"by", "count", "steps"} {
		if _, ok := pf[k]; !ok {
			return nil, r.Errf(v, "%s: progressive needs by, count and steps", where)
		}
	}
	if pr.By, err = r.Word(pf["by"], where+": progressive by"); err != nil {
		return nil, err
	}
	if pr.Count, err = r.Word(pf["count"], where+": progressive count"); err != nil {
		return nil, err
	}
	pairs, err := r.Pairs(pf["steps"], where+": progressive steps")
	if err != nil {
		return nil, err
	}
	for _, kv := range pairs {
		st, err := r.step(kv, where)
		if err != nil {
			return nil, err
		}
		pr.Steps = append(pr.Steps, st)
	}
	return pr, nil
}

// step reads one step of a progression: how many come free, and how many
// more cost one each.
func (r reader) step(kv [2]*yaml.Node, where string) (Step, error) {
	st := Step{Key: kv[0].Value}
	sf, err := r.Fields(kv[1], where+": step "+kv[0].Value, "free", "every")
	if err != nil {
		return st, err
	}
	if _, ok := sf["free"]; !ok {
		return st, r.Errf(kv[1], "%s: step %s needs free and every", where, st.Key)
	}
	if _, ok := sf["every"]; !ok {
		return st, r.Errf(kv[1], "%s: step %s needs free and every", where, st.Key)
	}
	if st.Free, err = r.Int(sf["free"], where+": step free"); err != nil {
		return st, err
	}
	if st.Every, err = r.Int(sf["every"], where+": step every"); err != nil {
		return st, err
	}
	if st.Free < 0 || st.Every < 1 {
		return st, r.Errf(kv[1], "%s: step %s needs free >= 0 and every >= 1", where, st.Key)
	}
	return st, nil
}

// cells reads one level of a grid: a mapping from keys to deeper levels, or
// at the last parameter a list in the order of its values.
func (r reader) cells(n *yaml.Node, where string, params []*Param, legend []Code) (*Node, error) {
	p := params[0]
	node := &Node{}
	if n.Kind == yaml.SequenceNode {
		if len(params) != 1 || p.Kind != Enum {
			return nil, r.Errf(n, "%s: a list of cells belongs to the last parameter only, and it must be an enum", where)
		}
		if len(n.Content) != len(p.Values) {
			return nil, r.Errf(n, "%s: %d cells for the %d values of %s (%s)", where, len(n.Content), len(p.Values), p.Name, p.Allowed())
		}
		for i, it := range n.Content {
			s, err := r.Str(it, where)
			if err != nil {
				return nil, err
			}
			c := parseCell(s, legend)
			node.Branches = append(node.Branches, Branch{Key: p.Values[i].Name, Cell: &c, Line: it.Line})
		}
		return node, nil
	}
	pairs, err := r.Pairs(n, where)
	if err != nil {
		return nil, err
	}
	for _, kv := range pairs {
		b := Branch{Key: kv[0].Value, Line: kv[0].Line}
		if p.Kind == Int {
			if b.Lo, b.Hi, err = parseRange(b.Key); err != nil {
				return nil, r.Errf(kv[0], "%s: %v", where, err)
			}
		}
		if len(params) == 1 {
			s, err := r.Str(kv[1], where+" "+b.Key)
			if err != nil {
				return nil, err
			}
			c := parseCell(s, legend)
			b.Cell = &c
		} else if b.Next, err = r.cells(kv[1], where+" "+b.Key, params[1:], legend); err != nil {
			return nil, err
		}
		node.Branches = append(node.Branches, b)
	}
	if p.Kind == Int {
		slices.SortStableFunc(node.Branches, func(a, b Branch) int { return a.Lo - b.Lo })
	}
	return node, nil
}

// check validates a lookup: its parameters, and a grid that has a cell for
// every combination of values.
func (l *Lookup) check() error {
	if l.Title == "" {
		return fmt.Errorf("field title is missing")
	}
	if l.Rule == "" {
		return fmt.Errorf("field rule is missing (the SPEC ID, e.g. CD-2)")
	}
	if len(l.Params) == 0 {
		return fmt.Errorf("field params is missing")
	}
	for i, p := range l.Params {
		if err := p.check(); err != nil {
			return err
		}
		if slices.ContainsFunc(l.Params[:i], func(q *Param) bool { return q.Name == p.Name }) {
			return fmt.Errorf("parameter %s is given twice", p.Name)
		}
		if p.Kind == Bool {
			return fmt.Errorf("parameter %s: a lookup takes enum and int parameters", p.Name)
		}
		if p.Modifies() {
			return fmt.Errorf("parameter %s: a lookup's parameters bring no modifiers", p.Name)
		}
	}
	if (l.Cells == nil) == (l.Progressive == nil) {
		return fmt.Errorf("give cells or progressive, one of them")
	}
	if l.Progressive != nil {
		pr := l.Progressive
		by := l.param(pr.By)
		if by == nil || by.Kind != Enum {
			return fmt.Errorf("progressive by names %q, which is not an enum parameter", pr.By)
		}
		if c := l.param(pr.Count); c == nil || c.Kind != Int {
			return fmt.Errorf("progressive count names %q, which is not an int parameter", pr.Count)
		}
		for _, v := range by.Values {
			if !slices.ContainsFunc(pr.Steps, func(s Step) bool { return s.Key == v.Name }) {
				return fmt.Errorf("progressive steps: %s=%s has no step", pr.By, v.Name)
			}
		}
		for _, s := range pr.Steps {
			if !slices.Contains(by.Names(), s.Key) {
				return fmt.Errorf("progressive steps: %q is not a value of %s; allowed: %s", s.Key, pr.By, by.Allowed())
			}
		}
		return nil
	}
	return checkNode(l.Cells, l.Params)
}

// Param returns the parameter with the given name, or nil.
func (l *Lookup) Param(name string) *Param { return l.param(name) }

func (l *Lookup) param(name string) *Param {
	for _, p := range l.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func checkNode(n *Node, params []*Param) error {
	p := params[0]
	if p.Kind == Enum {
		for _, v := range p.Values {
			if !slices.ContainsFunc(n.Branches, func(b Branch) bool { return b.Key == v.Name }) {
				return fmt.Errorf("cells: %s=%s has no entry", p.Name, v.Name)
			}
		}
		for _, b := range n.Branches {
			if !slices.Contains(p.Names(), b.Key) {
				return &lineError{b.Line, fmt.Errorf("cells: %q is not a value of %s; allowed: %s", b.Key, p.Name, p.Allowed())}
			}
		}
	} else {
		bands := make([]Band, len(n.Branches))
		for i, b := range n.Branches {
			bands[i] = Band{Lo: b.Lo, Hi: b.Hi, Line: b.Line}
		}
		if len(bands) > 0 && p.Min != nil && bands[0].Lo == *p.Min {
			bands[0].Lo = minScore
		}
		if k := len(bands) - 1; k >= 0 && p.Max != nil && bands[k].Hi == *p.Max {
			bands[k].Hi = maxScore
		}
		if err := checkBands(bands); err != nil {
			return fmt.Errorf("cells for %s: %w (ranges may start at the parameter's min)", p.Name, err)
		}
	}
	for _, b := range n.Branches {
		if len(params) > 1 {
			if b.Next == nil {
				return &lineError{b.Line, fmt.Errorf("cells: %s=%s needs a level for %s", p.Name, b.Key, params[1].Name)}
			}
			if err := checkNode(b.Next, params[1:]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Get reads the cell for parameters given as text.
func (l *Lookup) Get(in map[string]string) (Cell, error) {
	a, err := bind(l.Params, in)
	if err != nil {
		return Cell{}, fmt.Errorf("%s: %w", l.ID, err)
	}
	for i, p := range l.Params {
		if !a.set[i] {
			return Cell{}, fmt.Errorf("%s: parameter %s is required; allowed: %s", l.ID, p.Name, p.Allowed())
		}
	}
	if pr := l.Progressive; pr != nil {
		by, _ := a.Value(pr.By)
		k := a.vals[a.index(pr.Count)]
		for _, s := range pr.Steps {
			if s.Key == by {
				v := 0
				if k > s.Free {
					v = -((k - s.Free + s.Every - 1) / s.Every)
				}
				return Cell{Text: fmt.Sprint(v), Num: new(big.Rat).SetInt64(int64(v))}, nil
			}
		}
	}
	n := l.Cells
	for i, p := range l.Params {
		var next *Branch
		for j := range n.Branches {
			b := &n.Branches[j]
			if p.Kind == Enum && b.Key == p.Text(a.vals[i]) ||
				p.Kind == Int && a.vals[i] >= b.Lo && a.vals[i] <= b.Hi {
				next = b
				break
			}
		}
		if next == nil {
			return Cell{}, fmt.Errorf("%s: no entry for %s=%s", l.ID, p.Name, p.Text(a.vals[i]))
		}
		if next.Cell != nil {
			return *next.Cell, nil
		}
		n = next.Next
	}
	return Cell{}, fmt.Errorf("%s: the grid is shallower than its parameters", l.ID)
}

// lineError places an error at a line of its file.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return e.err.Error() }
func (e *lineError) Unwrap() error { return e.err }
