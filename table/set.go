package table

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"orderly/strict"
)

// Source is the text of one rules file and the name to report it by.
type Source struct {
	Name string
	Data []byte
}

// Set is every table of the loaded rule sets and house rules.
type Set struct {
	tables  []*Table
	lookups []*Lookup
	house   []string // names of the house-rules files, in order
}

// Load reads the built-in rules files, then applies house-rule files in
// order: a house table or lookup with a new id is added; one with a known id
// replaces just the fields it gives (parameters are merged by name, enum
// values by value, rows by key and results by key). Every table is then
// checked: parameters, bands without gaps or overlaps, results, links.
func Load(builtin []Source, house ...Source) (*Set, error) {
	s := &Set{}
	for _, src := range builtin {
		if err := s.read(src, false); err != nil {
			return nil, err
		}
	}
	for _, src := range house {
		if err := s.read(src, true); err != nil {
			return nil, err
		}
		s.house = append(s.house, src.Name)
	}
	for _, l := range s.lookups {
		if err := l.readCells(); err != nil {
			return nil, err
		}
		if err := l.check(); err != nil {
			return nil, place(l.File, l.Line, "lookup "+l.ID, err)
		}
	}
	for _, t := range s.tables {
		if err := t.check(); err != nil {
			return nil, place(t.File, t.Line, "table "+t.ID, err)
		}
		if err := s.link(t); err != nil {
			return nil, place(t.File, t.Line, "table "+t.ID, err)
		}
	}
	return s, nil
}

func place(file string, line int, what string, err error) error {
	var le *lineError
	if errors.As(err, &le) {
		line = le.line
	}
	return &Error{File: file, Line: line, Msg: what + ": " + err.Error()}
}

func (s *Set) read(src Source, house bool) error {
	r := reader{strict.Reader{File: src.Name, Want: "a mapping with tables: and/or lookups:"}}
	root, err := r.Parse(src.Data)
	if err != nil {
		return err
	}
	f, err := r.Fields(root, "file", "rules", "title", "doc", "tables", "lookups")
	if err != nil {
		return err
	}
	if v, ok := f["lookups"]; ok {
		items, err := r.List(v, "lookups")
		if err != nil {
			return err
		}
		for _, it := range items {
			l, present, err := r.lookup(it)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(s.lookups, func(x *Lookup) bool { return x.ID == l.ID })
			switch {
			case i >= 0 && !house:
				return r.Errf(it, "lookup %s is defined twice", l.ID)
			case i >= 0:
				s.lookups[i] = s.lookups[i].merge(l, present)
				s.lookups[i].House = true
			default:
				l.House = house
				if s.table(l.ID) != nil {
					return r.Errf(it, "lookup %s has the id of a dice table", l.ID)
				}
				s.lookups = append(s.lookups, l)
			}
		}
	}
	if v, ok := f["tables"]; ok {
		items, err := r.List(v, "tables")
		if err != nil {
			return err
		}
		for _, it := range items {
			tp, err := r.table(it)
			if err != nil {
				return err
			}
			id := tp.t.ID
			i := slices.IndexFunc(s.tables, func(x *Table) bool { return x.ID == id })
			switch {
			case i >= 0 && !house:
				return r.Errf(it, "table %s is defined twice", id)
			case i >= 0:
				s.tables[i] = s.tables[i].merge(tp)
				s.tables[i].House = true
			default:
				tp.t.House = house
				if s.Lookup(id) != nil {
					return r.Errf(it, "table %s has the id of a lookup table", id)
				}
				s.tables = append(s.tables, tp.t)
			}
		}
	}
	return nil
}

// merge applies a house-rule patch: each field given replaces the old one.
func (l *Lookup) merge(q *Lookup, present map[string]bool) *Lookup {
	c := *l
	c.File, c.Line = q.File, q.Line
	if present["rule"] {
		c.Rule = q.Rule
	}
	if present["title"] {
		c.Title = q.Title
	}
	if present["doc"] {
		c.Doc = q.Doc
	}
	if present["unit"] {
		c.Unit = q.Unit
	}
	if present["params"] {
		c.Params = q.Params
	}
	if present["legend"] {
		c.Legend = q.Legend
	}
	if present["cells"] {
		c.raw, c.Cells, c.Progressive = q.raw, nil, nil
	}
	if present["progressive"] {
		c.Progressive, c.Cells = q.Progressive, nil
	}
	return &c
}

// link resolves the lookups that a table's derived modifiers read.
func (s *Set) link(t *Table) error {
	t.links = make([]*Lookup, len(t.Derived))
	for i, d := range t.Derived {
		l := s.Lookup(d.Lookup)
		if l == nil {
			return fmt.Errorf("derived %s reads lookup %q, which does not exist", d.Name, d.Lookup)
		}
		for _, a := range d.Args {
			if t.Param(a) == nil {
				return fmt.Errorf("derived %s: %q is not a parameter of this table", d.Name, a)
			}
			if l.param(a) == nil {
				return fmt.Errorf("derived %s: %q is not a parameter of lookup %s", d.Name, a, l.ID)
			}
		}
		if len(d.Args) != len(l.Params) {
			return fmt.Errorf("derived %s: lookup %s takes %d parameters, %d given", d.Name, l.ID, len(l.Params), len(d.Args))
		}
		t.links[i] = l
	}
	return nil
}

// Tables lists the dice tables in load order.
func (s *Set) Tables() []*Table { return slices.Clone(s.tables) }

// Lookups lists the lookup tables in load order.
func (s *Set) Lookups() []*Lookup { return slices.Clone(s.lookups) }

func (s *Set) table(id string) *Table {
	for _, t := range s.tables {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// Lookup returns the lookup table with the given id, or nil.
func (s *Set) Lookup(id string) *Lookup {
	for _, l := range s.lookups {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// IDs lists every table id, dice and lookup, sorted.
func (s *Set) IDs() []string {
	var ids []string
	for _, t := range s.tables {
		ids = append(ids, t.ID)
	}
	for _, l := range s.lookups {
		ids = append(ids, l.ID)
	}
	sort.Strings(ids)
	return ids
}

// Table returns the dice table with the given id, or an error that names
// near matches.
func (s *Set) Table(id string) (*Table, error) {
	if t := s.table(id); t != nil {
		return t, nil
	}
	if s.Lookup(id) != nil {
		return nil, fmt.Errorf("%s is a lookup table without dice; use orderly lookup %s", id, id)
	}
	return nil, s.unknown(id)
}

// FindLookup returns the lookup table with the given id, or an error that
// names near matches.
func (s *Set) FindLookup(id string) (*Lookup, error) {
	if l := s.Lookup(id); l != nil {
		return l, nil
	}
	if s.table(id) != nil {
		return nil, fmt.Errorf("%s is a dice table; use orderly roll or orderly odds", id)
	}
	return nil, s.unknown(id)
}

func (s *Set) unknown(id string) error {
	near := strict.Near(id, s.IDs())
	if len(near) > 0 {
		return fmt.Errorf("unknown table %q; did you mean %s? (orderly tables lists them all)", id, strings.Join(near, ", "))
	}
	return fmt.Errorf("unknown table %q; orderly tables lists them all", id)
}
