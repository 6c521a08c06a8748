// Package roster reads an order of battle from a spreadsheet: CSV, or
// tab-separated text pasted from one, with one row per general or unit,
// into the sides of a scenario document for a rule set (issue 35). The
// columns are generated from the rule set's part of the scenario format
// (see Columns), so that a field added to the format is a column at once.
//
// How a row places its piece:
//   - side names the side (its id); the side's own fields (side-nation,
//     side-edge, ...) may be given on any of its rows, and rows that give
//     one agree.
//   - The formation columns (wing, corps, division, brigade: those the
//     rule set's format has) name the ids of the formations the row
//     belongs to, top down; a formation's place is set by the first row
//     that names it, and every later row naming it agrees.
//   - role says what the row is: general, or unit (an empty role is a
//     unit). A general row commands the deepest formation it names, or,
//     naming none, is the side's army commander; the command- columns of
//     a general row describe that formation (command-name, command-order,
//     the rule set's own attributes of formations).
//   - A unit row belongs to the deepest formation it names, which must be
//     one that holds units (a division or a brigade).
//   - An empty id is made from the formation's: its units are FORMATION-1,
//     FORMATION-2, ... and its general FORMATION-gen.
//   - at may be left empty: orderly scenario import then deploys the
//     piece along its side's base edge.
package roster

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"orderly/battle"
	"orderly/strict"
)

// Bounds of a roster.
const (
	MaxSize    = 1 << 20 // bytes of text
	MaxRows    = 5000    // rows after the header
	MaxColumns = 64      // columns
	MaxCell    = 200     // characters in a cell
	MaxSides   = 2       // sides: a battle has two
	// MaxProblems is the most problems reported; reading stops there.
	MaxProblems = 50
)

// Problem is one thing wrong with a roster, at a row (1 is the header;
// 0 is the whole text) and a column (its header; "" for the whole row).
type Problem struct {
	Row     int    `json:"row"`
	Column  string `json:"column"`
	Message string `json:"message"`
}

// Roster is what Read makes of a roster.
type Roster struct {
	Rules string // the rule set's id
	// Sides are the side documents, in the order the roster first names
	// them; none when there are problems.
	Sides []*Doc
	// Problems lists what is wrong, in the order of the rows, at most
	// MaxProblems.
	Problems []Problem
	file     string
}

// Err is the roster's problems as one error, or nil: each problem on a
// line of its own, as "FILE row R, column C: MESSAGE".
func (r *Roster) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	var b strings.Builder
	for i, p := range r.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(r.Where(p))
		b.WriteString(": ")
		b.WriteString(p.Message)
	}
	return errors.New(b.String())
}

// Where says where a problem is: "roster.csv row 7, column quality".
func (r *Roster) Where(p Problem) string {
	s := r.file
	if p.Row > 0 {
		s += fmt.Sprintf(" row %d", p.Row)
	}
	if p.Column != "" {
		s += ", column " + p.Column
	}
	return s
}

// Columns lists the roster columns of the rule set of spec, in the order
// of its template.
func Columns(spec battle.Spec) ([]*Column, error) {
	f, err := readFormat(spec)
	if err != nil {
		return nil, err
	}
	return f.columns(), nil
}

// errTooMany stops reading at MaxProblems.
var errTooMany = errors.New("too many problems")

// reader reads one roster.
type reader struct {
	f        *format
	cols     []*Column
	out      *Roster
	header   []string
	sides    []*side
	forms    map[string]*formation // by id
	ids      map[string]int        // every id given or made, and the row that has it
	given    map[string]bool       // ids given in the id column
	counters map[string]int
}

// side is a side being read.
type side struct {
	id    string
	row   int
	doc   *Doc
	set   map[string]int // side columns given, and the first row giving each
	army  *formation
	forms []*formation // top-level formations, in order
}

// formation is a formation being read (the army too, with level "").
type formation struct {
	id, level string
	row       int          // the first row naming it
	parent    *formation   // nil: directly under the army
	side      *side        // its side
	doc       *Doc         // its own fields (unused for the army, whose are the side's)
	general   *Doc         // its commander, once read
	genRow    int          // the row of its commander
	children  []*formation // in order
	units     []*Doc
}

// Read reads a roster for the rule set of spec from text: CSV, or
// tab-separated when its header line has a tab, or semicolon-separated
// when its header line has more semicolons than commas (as spreadsheets
// write CSV where the comma is the decimal point). file names it in
// messages. Bad text is reported as problems, never as an error; an
// error means the rule set's format could not be read.
func Read(file string, text []byte, spec battle.Spec) (*Roster, error) {
	f, err := readFormat(spec)
	if err != nil {
		return nil, err
	}
	out := &Roster{Rules: spec.ID, file: file}
	r := &reader{f: f, cols: f.columns(), out: out, forms: map[string]*formation{}, ids: map[string]int{}, given: map[string]bool{}, counters: map[string]int{}}
	if err := r.read(text); err != nil && !errors.Is(err, errTooMany) {
		return nil, err
	}
	if len(out.Problems) == 0 {
		r.finish()
	}
	if len(out.Problems) == 0 {
		for _, s := range r.sides {
			out.Sides = append(out.Sides, r.sideDoc(s))
		}
	}
	return out, nil
}

// problem records a problem; it returns errTooMany once there are
// MaxProblems.
func (r *reader) problem(row int, col, format string, args ...any) error {
	if len(r.out.Problems) >= MaxProblems {
		return errTooMany
	}
	r.out.Problems = append(r.out.Problems, Problem{Row: row, Column: col, Message: strict.Line(fmt.Sprintf(format, args...), 400)})
	if len(r.out.Problems) >= MaxProblems {
		return errTooMany
	}
	return nil
}

// read reads the header and every row.
func (r *reader) read(text []byte) error {
	switch {
	case len(text) > MaxSize:
		return r.problem(0, "", "the roster is %d bytes; allowed: at most %d", len(text), MaxSize)
	case !utf8.Valid(text):
		return r.problem(0, "", "the roster is not UTF-8 text; save the spreadsheet as CSV UTF-8")
	}
	text = bytes.TrimPrefix(text, []byte("\ufeff"))
	first, _, _ := bytes.Cut(text, []byte("\n"))
	cr := csv.NewReader(bytes.NewReader(text))
	cr.FieldsPerRecord = -1
	if bytes.Contains(first, []byte("\t")) {
		cr.Comma = '\t'
		cr.LazyQuotes = true
	} else if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		cr.Comma = ';' // as spreadsheets write CSV where the comma is a decimal point
	}
	row := 0
	var idx map[string]int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		row++
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return r.problem(pe.Line, "", "the text does not read as CSV: %v", pe.Err)
			}
			return r.problem(row, "", "the text does not read as CSV: %v", err)
		}
		if row == 1 {
			if idx, err = r.readHeader(rec); err != nil || idx == nil {
				return err
			}
			continue
		}
		if row-1 > MaxRows {
			return r.problem(row, "", "the roster has more than %d rows; allowed: at most %d", MaxRows, MaxRows)
		}
		if blank(rec) {
			continue
		}
		if err := r.readRow(row, rec, idx); err != nil {
			return err
		}
	}
	if row == 0 {
		return r.problem(0, "", "the roster is empty; it needs a header line naming its columns (%s) and a row for each general and unit", r.names())
	}
	if row == 1 {
		return r.problem(0, "", "the roster has a header but no rows; give a row for each general and unit")
	}
	return nil
}

// names lists the column names.
func (r *reader) names() string {
	var out []string
	for _, c := range r.cols {
		out = append(out, c.Name)
	}
	return strings.Join(out, ", ")
}

// readHeader reads the header line into the index of each column; nil
// (with problems recorded) when it does not read.
func (r *reader) readHeader(rec []string) (map[string]int, error) {
	if len(rec) > MaxColumns {
		return nil, r.problem(1, "", "the header has %d columns; allowed: at most %d", len(rec), MaxColumns)
	}
	r.header = rec
	idx := map[string]int{}
	ok := true
	for i, h := range rec {
		name := strings.ToLower(strings.TrimSpace(h))
		name = strings.ReplaceAll(name, " ", "-")
		if name == "" {
			continue
		}
		if !slices.ContainsFunc(r.cols, func(c *Column) bool { return c.Name == name }) {
			ok = false
			near := strict.Near(name, strings.Split(r.names(), ", "))
			hint := ""
			if len(near) > 0 {
				hint = fmt.Sprintf(" (did you mean %s?)", near[0])
			}
			if err := r.problem(1, strict.Clip(h, 40), "%s is not a column of a %s roster%s; allowed: %s", strict.Quote(h, 40), r.f.rules, hint, r.names()); err != nil {
				return nil, err
			}
			continue
		}
		if _, dup := idx[name]; dup {
			ok = false
			if err := r.problem(1, name, "the column %s is given twice; give it once", name); err != nil {
				return nil, err
			}
			continue
		}
		idx[name] = i
	}
	if _, has := idx["side"]; !has {
		ok = false
		if err := r.problem(1, "side", "the header has no column side; every row names its side"); err != nil {
			return nil, err
		}
	}
	if !ok {
		return nil, nil
	}
	return idx, nil
}

// blank reports whether a record has no text.
func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// cells are one row's values by column, trimmed; empty cells left out.
type cells map[string]string

// readRow reads one row.
func (r *reader) readRow(row int, rec []string, idx map[string]int) error {
	if len(rec) > len(r.header) {
		for _, extra := range rec[len(r.header):] {
			if strings.TrimSpace(extra) != "" {
				return r.problem(row, "", "the row has %d cells, more than the header's %d columns; give each value under its column", len(rec), len(r.header))
			}
		}
	}
	c := cells{}
	for name, i := range idx {
		if i >= len(rec) {
			continue
		}
		v := strings.TrimSpace(rec[i])
		if utf8.RuneCountInString(v) > MaxCell {
			return r.problem(row, name, "the cell has %d characters; allowed: at most %d", utf8.RuneCountInString(v), MaxCell)
		}
		if v != "" {
			c[name] = v
		}
	}
	role := strings.ToLower(c["role"])
	switch role {
	case "", "unit", "general":
	default:
		return r.problem(row, "role", "%s is not a role; allowed: general, unit (empty is unit)", strict.Quote(c["role"], 40))
	}
	if role == "" {
		role = "unit"
	}
	s, err := r.side(row, c)
	if s == nil || err != nil {
		return err
	}
	chain, err := r.chain(row, c, s)
	if chain == nil || err != nil {
		return err
	}
	if role == "general" {
		return r.general(row, c, chain[len(chain)-1])
	}
	return r.unit(row, c, chain[len(chain)-1])
}

// side finds or starts the row's side and reads its side columns.
func (r *reader) side(row int, c cells) (*side, error) {
	id, ok := c["side"]
	if !ok {
		return nil, r.problem(row, "side", "the row names no side; every row names the id of its side")
	}
	if err := strict.CheckID(id); err != nil {
		return nil, r.problem(row, "side", "%v", err)
	}
	i := slices.IndexFunc(r.sides, func(s *side) bool { return s.id == id })
	var s *side
	if i >= 0 {
		s = r.sides[i]
	} else {
		if len(r.sides) == MaxSides {
			return nil, r.problem(row, "side", "%s would be a third side (there are %s and %s); a battle has two sides", strict.Quote(id, 40), r.sides[0].id, r.sides[1].id)
		}
		if prev, used := r.ids[id]; used {
			return nil, r.problem(row, "side", "the id %s is used in row %d already; every id is used once", id, prev)
		}
		r.ids[id] = row
		s = &side{id: id, row: row, doc: NewDoc(), set: map[string]int{}}
		s.doc.Set("id", id)
		s.army = &formation{id: id, side: s, row: row}
		r.sides = append(r.sides, s)
	}
	for _, col := range r.cols {
		v, given := c[col.Name]
		if col.to != onSide || col.key == "id" || !given {
			continue
		}
		val, msg := r.value(col.props["side"], v)
		if msg != "" {
			if err := r.problem(row, col.Name, "%s", msg); err != nil {
				return nil, err
			}
			continue
		}
		if first, had := s.set[col.key]; had {
			if fmt.Sprint(s.doc.Get(col.key)) != fmt.Sprint(val) {
				if err := r.problem(row, col.Name, "side %s has %s %s in row %d; rows that give it agree", s.id, col.key, strict.Quote(fmt.Sprint(s.doc.Get(col.key)), 40), first); err != nil {
					return nil, err
				}
			}
			continue
		}
		s.set[col.key] = row
		s.doc.Set(col.key, val)
	}
	return s, nil
}

// chain finds or makes the formations the row names, top down, starting
// with the side's army; nil when the row's formations do not fit.
func (r *reader) chain(row int, c cells, s *side) ([]*formation, error) {
	chain := []*formation{s.army}
	parentDef := r.f.defs["side"]
	for _, level := range r.f.levelsUsed() {
		id, ok := c[level]
		if !ok {
			continue
		}
		if err := strict.CheckID(id); err != nil {
			return nil, r.problem(row, level, "%v", err)
		}
		parent := chain[len(chain)-1]
		if _, fits := parentDef.holds(level); !fits {
			return nil, r.problem(row, level, "in %s a %s is not under %s; %s", r.f.rules, level, r.what(parent), r.under(level))
		}
		fm := r.forms[id]
		switch {
		case fm == nil:
			if prev, used := r.ids[id]; used {
				return nil, r.problem(row, level, "the id %s is used in row %d already; every id is used once", id, prev)
			}
			r.ids[id] = row
			fm = &formation{id: id, level: level, row: row, side: s, doc: NewDoc()}
			fm.doc.Set("id", id)
			if parent != s.army {
				fm.parent = parent
				parent.children = append(parent.children, fm)
			} else {
				s.forms = append(s.forms, fm)
			}
			r.forms[id] = fm
		case fm.level != level:
			return nil, r.problem(row, level, "%s is a %s (row %d), not a %s", id, fm.level, fm.row, level)
		case fm.side != s:
			return nil, r.problem(row, level, "%s %s is of side %s (row %d), not %s", level, id, fm.side.id, fm.row, s.id)
		case (fm.parent == nil) != (parent == s.army) || fm.parent != nil && fm.parent != parent:
			return nil, r.problem(row, level, "%s %s is under %s in row %d, not under %s; a formation has one place", level, id, r.what(fm.up()), fm.row, r.what(parent))
		}
		chain = append(chain, fm)
		parentDef = r.f.defs[level]
	}
	return chain, nil
}

// up is the formation above, or the army.
func (fm *formation) up() *formation {
	if fm.parent == nil {
		return fm.side.army
	}
	return fm.parent
}

// what names a formation for a message.
func (r *reader) what(fm *formation) string {
	if fm.level == "" {
		return "the army of side " + fm.side.id
	}
	return fm.level + " " + fm.id
}

// under says where a formation of level may stand.
func (r *reader) under(level string) string {
	var where []string
	if _, ok := r.f.defs["side"].holds(level); ok {
		where = append(where, "the army")
	}
	for _, l := range r.f.levelsUsed() {
		if _, ok := r.f.defs[l].holds(level); ok {
			where = append(where, "a "+l)
		}
	}
	if len(where) == 0 {
		return "it has no place"
	}
	return "it stands under " + strings.Join(where, " or ") + "; name that in its column"
}

// general reads a general row: the commander of fm.
func (r *reader) general(row int, c cells, fm *formation) error {
	if fm.general != nil {
		return r.problem(row, "role", "%s has a general already, in row %d; a general row commands the deepest formation it names", r.what(fm), fm.genRow)
	}
	d, err := r.piece(row, c, "general", fm.id+"-gen")
	if d == nil || err != nil {
		return err
	}
	fm.general, fm.genRow = d, row
	if fm.level == "" {
		for _, col := range r.cols {
			if _, given := c[col.Name]; given && col.to == onFormation {
				if err := r.problem(row, col.Name, "the army commander's row gives no %s; the army's are the side- columns", col.Name); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var objective any
	for _, col := range r.cols {
		v, given := c[col.Name]
		if col.to != onFormation || !given {
			continue
		}
		p := col.props[fm.level]
		if p == nil {
			if err := r.problem(row, col.Name, "a %s has no %s; leave the cell empty", fm.level, col.key); err != nil {
				return err
			}
			continue
		}
		val, msg := r.value(p, v)
		if msg != "" {
			if err := r.problem(row, col.Name, "%s", msg); err != nil {
				return err
			}
			continue
		}
		if col.key == "objective" {
			objective = val
			continue
		}
		fm.doc.Set(col.key, val)
	}
	if objective != nil {
		kind := fm.doc.Get("order")
		if kind == nil {
			return r.problem(row, "command-objective", "an objective is of an order; give the kind of order in command-order")
		}
		o := NewDoc()
		o.Set("kind", kind)
		o.Set("objective", objective)
		fm.doc.Set("order", o)
	}
	return nil
}

// unit reads a unit row, of formation fm.
func (r *reader) unit(row int, c cells, fm *formation) error {
	if fm.level == "" || !r.holdsUnits(fm.level) {
		col := "side"
		if fm.level != "" {
			col = fm.level
		}
		return r.problem(row, col, "a unit belongs to a %s; name it in its column (this row's deepest formation is %s)", strings.Join(r.unitLevels(), " or "), r.what(fm))
	}
	for _, col := range r.cols {
		if _, given := c[col.Name]; given && col.to == onFormation {
			if err := r.problem(row, col.Name, "a unit row gives no %s; it is for the row of the formation's general", col.Name); err != nil {
				return err
			}
		}
	}
	r.counters[fm.id]++
	d, err := r.piece(row, c, "unit", fmt.Sprintf("%s-%d", fm.id, r.counters[fm.id]))
	if d == nil || err != nil {
		return err
	}
	fm.units = append(fm.units, d)
	return nil
}

// holdsUnits reports whether a formation of level holds combat units.
func (r *reader) holdsUnits(level string) bool {
	_, ok := r.f.defs[level].holds("unit")
	return ok
}

// unitLevels lists the levels that hold units.
func (r *reader) unitLevels() []string {
	var out []string
	for _, l := range r.f.levelsUsed() {
		if r.holdsUnits(l) {
			out = append(out, l)
		}
	}
	return out
}

// piece reads the piece columns of a row into a general's or unit's
// document; made is the id it takes when its id is empty.
func (r *reader) piece(row int, c cells, kind, made string) (*Doc, error) {
	d := NewDoc()
	bad := false
	for _, p := range r.f.defs[kind].props {
		v, given := c[p.name]
		if p.name == "id" && !given {
			id := made
			for n := 2; r.ids[id] != 0 || r.given[id]; n++ {
				id = fmt.Sprintf("%s-%d", made, n)
			}
			r.ids[id] = row
			d.Set("id", id)
			continue
		}
		if !given {
			if p.required {
				bad = true
				if err := r.problem(row, p.name, "a %s needs %s; %s", kind, p.name, orFree(r.f.allowed(&p))); err != nil {
					return nil, err
				}
			}
			continue
		}
		val, msg := r.value(&p, v)
		if msg != "" {
			bad = true
			if err := r.problem(row, p.name, "%s", msg); err != nil {
				return nil, err
			}
			continue
		}
		if p.name == "id" {
			id := val.(string)
			if prev, used := r.ids[id]; used {
				bad = true
				if err := r.problem(row, "id", "the id %s is used in row %d already; every id is used once", id, prev); err != nil {
					return nil, err
				}
				continue
			}
			r.ids[id], r.given[id] = row, true
		}
		d.Set(p.name, val)
	}
	for _, col := range r.cols {
		if _, given := c[col.Name]; given && col.to == onPiece && col.props[kind] == nil {
			bad = true
			other := "unit"
			if kind == "unit" {
				other = "general"
			}
			if err := r.problem(row, col.Name, "a %s has no %s (a %s has); leave the cell empty", kind, col.Name, other); err != nil {
				return nil, err
			}
		}
	}
	if bad {
		return nil, nil
	}
	return d, nil
}

// orFree says what is allowed, or that any text is.
func orFree(allowed string) string {
	if allowed == "" {
		return "any text"
	}
	return "allowed: " + allowed
}

// value reads a cell for property p: the value, or a message saying
// what is wrong and what is allowed.
func (r *reader) value(p *prop, v string) (any, string) {
	switch p.kind {
	case kindText:
		return v, ""
	case kindID:
		if err := strict.CheckID(v); err != nil {
			return nil, err.Error()
		}
		return v, ""
	case kindWord, kindOrder:
		w := strings.ReplaceAll(strings.ToLower(v), " ", "-")
		if len(p.enum) > 0 {
			if !slices.Contains(p.enum, w) {
				what := p.name
				if p.kind == kindOrder {
					what = "kind of order"
				}
				return nil, fmt.Sprintf("%s is not a %s of %s; allowed: %s", strict.Quote(v, 40), what, r.f.rules, strings.Join(p.enum, ", "))
			}
			return w, ""
		}
		if err := strict.CheckWord(w); err != nil {
			return nil, err.Error()
		}
		return w, ""
	case kindBool:
		switch strings.ToLower(v) {
		case "true", "yes", "y", "1", "x":
			return true, ""
		case "false", "no", "n", "0":
			return false, ""
		}
		return nil, fmt.Sprintf("%s is not true or false; allowed: true, false, yes, no", strict.Quote(v, 40))
	case kindNumber, kindInteger:
		x, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", "."), 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Sprintf("%s is not a number; allowed: %s", strict.Quote(v, 40), bounds(p))
		}
		if p.kind == kindInteger && x != math.Trunc(x) {
			return nil, fmt.Sprintf("%s is not a whole number; allowed: %s", strict.Quote(v, 40), bounds(p))
		}
		if p.min != nil && x < *p.min || p.max != nil && x > *p.max || p.gt != nil && x <= *p.gt || p.lt != nil && x >= *p.lt {
			return nil, fmt.Sprintf("%s is out of range; allowed: %s", v, bounds(p))
		}
		if p.kind == kindInteger {
			return int(x), ""
		}
		return x, ""
	case kindPosition:
		return r.position(v)
	}
	return nil, fmt.Sprintf("the column %s cannot be read", p.name)
}

// position reads a position: x y on a table, a label on a hex map.
func (r *reader) position(v string) (any, string) {
	t := strings.Trim(v, "[]() ")
	parts := strings.FieldsFunc(t, func(c rune) bool { return c == ',' || c == ' ' || c == ';' || c == '\t' })
	if r.f.table && len(parts) == 2 {
		var p Point
		ok := true
		for i, s := range parts {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) || math.Abs(x) > 1_000_000 {
				ok = false
				break
			}
			p[i] = x
		}
		if ok {
			return p, ""
		}
	}
	if r.f.hex && len(parts) == 1 && hexLabel(parts[0]) {
		return Label(parts[0]), ""
	}
	return nil, fmt.Sprintf("%s is not a position; allowed: %s", strict.Quote(v, 40), r.f.positionAllowed())
}

// hexLabel reports whether s is written as a hex label: 2, 4 or 6 digits,
// or two numbers with a hyphen between.
func hexLabel(s string) bool {
	digits := func(s string) bool {
		return s != "" && len(s) <= 3 && strings.Trim(s, "0123456789") == ""
	}
	if a, b, ok := strings.Cut(s, "-"); ok {
		return digits(a) && digits(b)
	}
	return len(s)%2 == 0 && len(s) <= 6 && digits(s[:len(s)/2]) && digits(s[len(s)/2:])
}

// finish checks what needs the whole roster: every formation has its
// general, every side its army commander and its fields, and each
// formation that holds units has some.
func (r *reader) finish() {
	var each func(fms []*formation) error
	each = func(fms []*formation) error {
		for _, fm := range fms {
			if fm.general == nil {
				if err := r.problem(fm.row, fm.level, "%s has no general; add a row with role general whose deepest formation is %s %s", r.what(fm), fm.level, fm.id); err != nil {
					return err
				}
			}
			if r.holdsUnits(fm.level) && len(fm.units) == 0 && len(fm.children) == 0 {
				if err := r.problem(fm.row, fm.level, "%s has no units; add unit rows that name it", r.what(fm)); err != nil {
					return err
				}
			}
			if err := each(fm.children); err != nil {
				return err
			}
		}
		return nil
	}
	for i, s := range r.sides {
		if s.army.general == nil {
			if err := r.problem(s.row, "side", "side %s has no army commander; add a row with role general that names side %s and no formation", s.id, s.id); err != nil {
				return
			}
		}
		if !s.doc.Has("edge") {
			s.doc.Set("edge", []string{"south", "north"}[i])
		}
		for _, p := range r.f.defs["side"].props {
			if p.required && !s.doc.Has(p.name) && p.name != "army" {
				if err := r.problem(s.row, "side-"+p.name, "side %s has no %s; give it in column side-%s on one of its rows; %s", s.id, p.name, p.name, orFree(r.f.allowed(&p))); err != nil {
					return
				}
			}
		}
		if len(s.forms) == 0 {
			if err := r.problem(s.row, "side", "side %s has no formations; name its %s in their columns", s.id, strings.Join(r.topLevels(), " or ")); err != nil {
				return
			}
		}
		if err := each(s.forms); err != nil {
			return
		}
	}
}

// topLevels lists the levels that stand under the army.
func (r *reader) topLevels() []string {
	var out []string
	for _, l := range r.f.levelsUsed() {
		if _, ok := r.f.defs["side"].holds(l); ok {
			out = append(out, l)
		}
	}
	return out
}

// sideDoc is a side's document, its keys in the format's order.
func (r *reader) sideDoc(s *side) *Doc {
	d := NewDoc()
	sd := r.f.defs["side"]
	s.doc.Set("army", s.army.general)
	lists := r.lists(sd, s.forms)
	for _, p := range r.keysOf("side") {
		if v := s.doc.Get(p); v != nil {
			d.Set(p, v)
		} else if l, ok := lists[p]; ok {
			d.Set(p, l)
		}
	}
	return d
}

// lists groups formations by the key of def that lists them.
func (r *reader) lists(d *def, fms []*formation) map[string][]*Doc {
	out := map[string][]*Doc{}
	for _, fm := range fms {
		key, _ := d.holds(fm.level)
		out[key] = append(out[key], r.formationDoc(fm))
	}
	return out
}

// formationDoc is a formation's document, its keys in the format's
// order.
func (r *reader) formationDoc(fm *formation) *Doc {
	d := NewDoc()
	fd := r.f.defs[fm.level]
	fm.doc.Set("general", fm.general)
	lists := r.lists(fd, fm.children)
	if key, ok := fd.holds("unit"); ok && len(fm.units) > 0 {
		lists[key] = fm.units
	}
	for _, k := range r.keysOf(fm.level) {
		if v := fm.doc.Get(k); v != nil {
			d.Set(k, v)
		} else if l, ok := lists[k]; ok {
			d.Set(k, l)
		}
	}
	return d
}

// keysOf lists every key of a definition in the schema's order: its
// properties and its lists, with general and army in their places.
func (r *reader) keysOf(name string) []string {
	return r.f.order[name]
}
