// Package table holds the dice tables and lookup tables of the rule sets as
// data: parameters and the modifiers they bring, result bands on the total,
// natural-roll overrides, dice pools and grids of values. One definition
// serves both a roll (Resolve) and its exact odds (Odds), so the two cannot
// disagree.
package table

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"orderly/dice"
	"orderly/strict"

	"go.yaml.in/yaml/v3"
)

// Table is a dice table: the dice, the parameters that modify the roll, and
// either bands that turn the total into a result or, for a pool, the count of
// dice that come through every stage.
type Table struct {
	ID    string
	Rule  string // the SPEC ID it implements, e.g. NB-5
	Title string
	Doc   string
	File  string
	Line  int
	House bool // defined or changed by a house-rules file

	Dice dice.Spec
	// ClassDice says a piece's own dice may stand in for Dice (the class
	// dice of SPEC CD-1 and CD-6): WithDice makes that table.
	ClassDice bool
	Params    []*Param
	Results   []Result
	Naturals  []Natural
	RowsBy    string // enum parameter that picks the row of bands; "" for one row
	Rows      []Row
	Derived   []Derived
	Pool      *Pool
	// Lucky says which way a roll on the table is lucky for the side that
	// rolls it (issue 36's luck report): LuckyHigh (a high natural total,
	// or for a pool more dice through), LuckyLow, or "" when the table's
	// results have no such order (it then counts in no side's luck).
	Lucky string

	ways     []int64 // compiled distribution of the natural total
	outcomes int64
	diceSpec string    // Dice as text, made once
	links    []*Lookup // the lookup of each Derived
	renames  bool      // some parameter renames results
}

// Result is one result a table can give.
type Result struct {
	Key   string
	Value *int // a number the procedures use, e.g. the turns of delay
	Doc   string
}

// Natural overrides the bands for a given natural total of the dice.
type Natural struct {
	Natural int
	Result  string
}

// Band gives Result for a score in Lo..Hi; the lowest band is open below
// and the highest open above.
type Band struct {
	Lo, Hi int
	Result string
	Line   int
}

// Row is one set of bands, chosen by the value of the RowsBy parameter; a row
// with Fixed set gives that result with no roll at all.
type Row struct {
	Key   string
	Bands []Band
	Fixed string
	Line  int
}

// Derived is a modifier read from a lookup table with some of the table's
// parameters, e.g. the command-style penalty of CD-5.
type Derived struct {
	Name   string
	Lookup string
	Args   []string
}

// HasTarget reports whether bands are read on the total less a target (the
// staff rating of BP-1) rather than on the total itself.
func (t *Table) HasTarget() bool {
	for _, p := range t.Params {
		if p.Target {
			return true
		}
	}
	return false
}

// Param returns the parameter with the given name, or nil.
func (t *Table) Param(name string) *Param {
	for _, p := range t.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Result returns the definition of a result key, or nil.
func (t *Table) Result(key string) *Result {
	for i := range t.Results {
		if t.Results[i].Key == key {
			return &t.Results[i]
		}
	}
	return nil
}

// Bind checks parameters given as text and fills in the defaults.
func (t *Table) Bind(in map[string]string) (Args, error) {
	a, err := bind(t.Params, in)
	if err != nil {
		return Args{}, fmt.Errorf("%s: %w", t.ID, err)
	}
	return a, nil
}

var tableFields = []string{"id", "rule", "title", "doc", "dice", "class-dice", "params", "results", "naturals", "bands", "rows-by", "rows", "derived", "pool", "lucky"}

// The values of a table's lucky key.
const (
	LuckyHigh = "high"
	LuckyLow  = "low"
)

// tablePatch is a decoded table with the set of fields it gave, so that a
// house rule can replace just those.
type tablePatch struct {
	t       *Table
	present map[string]bool
	params  []paramPatch
}

type paramPatch struct {
	p       *Param
	present map[string]bool
}

// printable is an id as it may stand in an error message's place: as it
// is if it is all plain characters, quoted if not (so that a bad id with a
// line break cannot break the one-line message).
func printable(id string) string {
	for _, c := range id {
		if c < ' ' || c > '~' {
			return strconv.Quote(id)
		}
	}
	return id
}

// named is how a table or lookup node is named in messages: its kind, then
// its id when the node gives one.
func named(kind string, n *yaml.Node) string {
	where := kind
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "id" {
				where = kind + " " + printable(n.Content[i+1].Value)
			}
		}
	}
	return where
}

// given is the set of fields a node gave.
func given(f map[string]*yaml.Node) map[string]bool {
	present := map[string]bool{}
	for k := range f {
		present[k] = true
	}
	return present
}

// id reads the id field, which a table or lookup must give.
func (r reader) id(n *yaml.Node, f map[string]*yaml.Node, where string) (string, error) {
	idNode, ok := f["id"]
	if !ok {
		return "", r.Errf(n, "%s: field id is missing", where)
	}
	return r.Word(idNode, where+": id")
}

// texts reads the optional text fields named by the keys of dst into their
// places.
func (r reader) texts(f map[string]*yaml.Node, where string, dst map[string]*string) error {
	for k, d := range dst {
		if v, ok := f[k]; ok {
			s, err := r.Str(v, where+": "+k)
			if err != nil {
				return err
			}
			*d = s
		}
	}
	return nil
}

// table reads one table of a rules file, with the fields it gave.
func (r reader) table(n *yaml.Node) (*tablePatch, error) {
	where := named("table", n)
	f, err := r.Fields(n, where, tableFields...)
	if err != nil {
		return nil, err
	}
	t := &Table{File: r.File, Line: n.Line}
	tp := &tablePatch{t: t, present: given(f)}
	if t.ID, err = r.id(n, f, where); err != nil {
		return nil, err
	}
	if err := r.texts(f, where, map[string]*string{"rule": &t.Rule, "title": &t.Title, "doc": &t.Doc}); err != nil {
		return nil, err
	}
	if err := r.tableDice(f, where, t); err != nil {
		return nil, err
	}
	if v, ok := f["params"]; ok {
		if tp.params, err = r.params(v, where); err != nil {
			return nil, err
		}
		for _, pp := range tp.params {
			t.Params = append(t.Params, pp.p)
		}
	}
	if v, ok := f["results"]; ok {
		if t.Results, err = r.results(v, where+": results"); err != nil {
			return nil, err
		}
	}
	if v, ok := f["naturals"]; ok {
		if t.Naturals, err = r.naturals(v, where); err != nil {
			return nil, err
		}
	}
	if err := r.tableRows(f, where, t); err != nil {
		return nil, err
	}
	if v, ok := f["derived"]; ok {
		if t.Derived, err = r.derived(v, where); err != nil {
			return nil, err
		}
	}
	if v, ok := f["pool"]; ok {
		if t.Pool, err = r.pool(v, where+": pool"); err != nil {
			return nil, err
		}
	}
	if v, ok := f["lucky"]; ok {
		if t.Lucky, err = r.Word(v, where+": lucky"); err != nil {
			return nil, err
		}
		if t.Lucky != LuckyHigh && t.Lucky != LuckyLow {
			return nil, r.Errf(v, "%s: lucky %s is not a direction; allowed: %s (a high roll is lucky for the side that rolls it), %s", where, strict.Quote(t.Lucky, 40), LuckyHigh, LuckyLow)
		}
	}
	return tp, nil
}

// tableDice reads a table's dice and class-dice fields.
func (r reader) tableDice(f map[string]*yaml.Node, where string, t *Table) error {
	if v, ok := f["dice"]; ok {
		s, err := r.Str(v, where+": dice")
		if err != nil {
			return err
		}
		if t.Dice, err = dice.Parse(s); err != nil {
			return r.Errf(v, "%s: %v", where, err)
		}
	}
	if v, ok := f["class-dice"]; ok {
		var err error
		if t.ClassDice, err = r.Bool(v, where+": class-dice"); err != nil {
			return err
		}
	}
	return nil
}

// params reads a table's list of parameters, each with the fields it gave.
func (r reader) params(v *yaml.Node, where string) ([]paramPatch, error) {
	items, err := r.List(v, where+": params")
	if err != nil {
		return nil, err
	}
	var out []paramPatch
	for _, it := range items {
		p, present, err := r.param(it, where+": parameter")
		if err != nil {
			return nil, err
		}
		out = append(out, paramPatch{p, present})
	}
	return out, nil
}

// naturals reads the results that natural totals give, in file order.
func (r reader) naturals(v *yaml.Node, where string) ([]Natural, error) {
	pairs, err := r.Pairs(v, where+": naturals")
	if err != nil {
		return nil, err
	}
	var out []Natural
	for _, kv := range pairs {
		nat, err := r.Int(kv[0], where+": naturals")
		if err != nil {
			return nil, err
		}
		res, err := r.Word(kv[1], where+": natural "+kv[0].Value)
		if err != nil {
			return nil, err
		}
		out = append(out, Natural{nat, res})
	}
	return out, nil
}

// tableRows reads a table's rows-by and its bands: one row given as bands,
// or rows keyed by the rows-by parameter's values.
func (r reader) tableRows(f map[string]*yaml.Node, where string, t *Table) error {
	var err error
	if v, ok := f["rows-by"]; ok {
		if t.RowsBy, err = r.Word(v, where+": rows-by"); err != nil {
			return err
		}
	}
	if v, ok := f["bands"]; ok {
		if _, both := f["rows"]; both {
			return r.Errf(v, "%s: give bands or rows, not both", where)
		}
		bands, err := r.bands(v, where+": bands")
		if err != nil {
			return err
		}
		t.Rows = []Row{{Bands: bands, Line: v.Line}}
	}
	if v, ok := f["rows"]; ok {
		if t.Rows, err = r.rows(v, where); err != nil {
			return err
		}
	}
	return nil
}

// rows reads rows keyed by value: each a fixed result or a list of bands.
func (r reader) rows(v *yaml.Node, where string) ([]Row, error) {
	pairs, err := r.Pairs(v, where+": rows")
	if err != nil {
		return nil, err
	}
	var out []Row
	for _, kv := range pairs {
		key, err := r.Word(kv[0], where+": rows")
		if err != nil {
			return nil, err
		}
		row := Row{Key: key, Line: kv[0].Line}
		if kv[1].Kind == yaml.ScalarNode {
			if row.Fixed, err = r.Word(kv[1], where+": row "+key); err != nil {
				return nil, err
			}
		} else if row.Bands, err = r.bands(kv[1], where+": row "+key); err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

// derived reads a table's modifiers taken from lookups (SPEC CD-5).
func (r reader) derived(v *yaml.Node, where string) ([]Derived, error) {
	items, err := r.List(v, where+": derived")
	if err != nil {
		return nil, err
	}
	var out []Derived
	for _, it := range items {
		d, err := r.derivedOne(it, where)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// derivedOne reads one derived modifier: its name, lookup and arguments.
func (r reader) derivedOne(it *yaml.Node, where string) (Derived, error) {
	var d Derived
	df, err := r.Fields(it, where+": derived", "name", "lookup", "args")
	if err != nil {
		return d, err
	}
	for _, k := range []string{"name", "lookup", "args"} {
		if _, ok := df[k]; !ok {
			return d, r.Errf(it, "%s: derived needs name, lookup and args", where)
		}
	}
	if d.Name, err = r.Str(df["name"], where+": derived name"); err != nil {
		return d, err
	}
	if d.Lookup, err = r.Word(df["lookup"], where+": derived lookup"); err != nil {
		return d, err
	}
	args, err := r.List(df["args"], where+": derived args")
	if err != nil {
		return d, err
	}
	for _, a := range args {
		w, err := r.Word(a, where+": derived args")
		if err != nil {
			return d, err
		}
		d.Args = append(d.Args, w)
	}
	return d, nil
}

func (r reader) results(n *yaml.Node, where string) ([]Result, error) {
	items, err := r.List(n, where)
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, it := range items {
		f, err := r.Fields(it, where, "key", "value", "doc")
		if err != nil {
			return nil, err
		}
		k, ok := f["key"]
		if !ok {
			return nil, r.Errf(it, "%s: a result needs a key", where)
		}
		var res Result
		if res.Key, err = r.Word(k, where+": key"); err != nil {
			return nil, err
		}
		if v, ok := f["value"]; ok {
			x, err := r.Int(v, where+" "+res.Key+": value")
			if err != nil {
				return nil, err
			}
			res.Value = &x
		}
		if v, ok := f["doc"]; ok {
			if res.Doc, err = r.Str(v, where+" "+res.Key+": doc"); err != nil {
				return nil, err
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// bands reads a mapping of score ranges ("<=1", "2..5", "6", ">=10") to
// results.
func (r reader) bands(n *yaml.Node, where string) ([]Band, error) {
	pairs, err := r.Pairs(n, where)
	if err != nil {
		return nil, err
	}
	var out []Band
	for _, kv := range pairs {
		lo, hi, err := parseRange(kv[0].Value)
		if err != nil {
			return nil, r.Errf(kv[0], "%s: %v", where, err)
		}
		res, err := r.Word(kv[1], where+" "+kv[0].Value)
		if err != nil {
			return nil, err
		}
		out = append(out, Band{Lo: lo, Hi: hi, Result: res, Line: kv[0].Line})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Lo < out[j].Lo })
	return out, nil
}

// Open ends of a band or range.
const (
	minScore = -1 << 30
	maxScore = 1 << 30
)

// Open returns the bounds of an open band: the lowest band's Lo and the
// highest band's Hi.
func Open() (lo, hi int) { return minScore, maxScore }

// parseRange reads "<=N", ">=N", "N", "A..B" or "A.." into bounds.
func parseRange(s string) (lo, hi int, err error) {
	s = strings.TrimSpace(s)
	num := func(x string) (int, error) {
		v, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(x), "+"))
		if err != nil || v <= minScore || v >= maxScore {
			return 0, fmt.Errorf("%q is not a range; write <=N, >=N, N, A..B or A.. (open above)", s)
		}
		return v, nil
	}
	switch {
	case strings.HasPrefix(s, "<="):
		hi, err = num(s[2:])
		return minScore, hi, err
	case strings.HasPrefix(s, ">="):
		lo, err = num(s[2:])
		return lo, maxScore, err
	case strings.HasSuffix(s, "..") && len(s) > 2:
		lo, err = num(s[:len(s)-2])
		return lo, maxScore, err
	case strings.Contains(s[min(1, len(s)):], ".."):
		i := strings.Index(s[1:], "..") + 1
		if lo, err = num(s[:i]); err != nil {
			return 0, 0, err
		}
		if hi, err = num(s[i+2:]); err != nil {
			return 0, 0, err
		}
		if lo > hi {
			return 0, 0, fmt.Errorf("range %q runs backwards", s)
		}
		return lo, hi, nil
	}
	lo, err = num(s)
	return lo, lo, err
}

// BandText describes a band for people: "2..5", "1 or less", "10 or more".
func BandText(lo, hi int) string {
	switch {
	case lo == minScore:
		return fmt.Sprintf("%d or less", hi)
	case hi == maxScore:
		return fmt.Sprintf("%d or more", lo)
	case lo == hi:
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d..%d", lo, hi)
}

// merge applies a house-rule patch to a copy of t.
func (t *Table) merge(p *tablePatch) *Table {
	c := *t
	c.Params = make([]*Param, len(t.Params))
	for i, q := range t.Params {
		qq := *q
		c.Params[i] = &qq
	}
	c.Results = slices.Clone(t.Results)
	c.Rows = slices.Clone(t.Rows)
	q := p.t
	c.File, c.Line = q.File, q.Line
	if p.present["rule"] {
		c.Rule = q.Rule
	}
	if p.present["title"] {
		c.Title = q.Title
	}
	if p.present["doc"] {
		c.Doc = q.Doc
	}
	if p.present["dice"] {
		c.Dice = q.Dice
	}
	if p.present["class-dice"] {
		c.ClassDice = q.ClassDice
	}
	if p.present["naturals"] {
		c.Naturals = q.Naturals
	}
	if p.present["rows-by"] {
		c.RowsBy = q.RowsBy
	}
	if p.present["bands"] {
		c.Rows = q.Rows
	}
	if p.present["rows"] {
		for _, row := range q.Rows {
			if i := slices.IndexFunc(c.Rows, func(x Row) bool { return x.Key == row.Key }); i >= 0 {
				c.Rows[i] = row
			} else {
				c.Rows = append(c.Rows, row)
			}
		}
	}
	if p.present["results"] {
		for _, res := range q.Results {
			if i := slices.IndexFunc(c.Results, func(x Result) bool { return x.Key == res.Key }); i >= 0 {
				c.Results[i] = res
			} else {
				c.Results = append(c.Results, res)
			}
		}
	}
	if p.present["derived"] {
		c.Derived = q.Derived
	}
	if p.present["pool"] {
		c.Pool = q.Pool
	}
	if p.present["lucky"] {
		c.Lucky = q.Lucky
	}
	for _, pp := range p.params {
		if old := c.Param(pp.p.Name); old != nil {
			old.merge(pp.p, pp.present)
		} else {
			c.Params = append(c.Params, pp.p)
		}
	}
	return &c
}

// WithDice is the table rolled with dice d in place of its own: a piece's
// class dice (SPEC CD-1, CD-6). Only a table marked class-dice allows it,
// and not a pool.
func (t *Table) WithDice(d dice.Spec) (*Table, error) {
	if d == t.Dice {
		return t, nil
	}
	if !t.ClassDice || t.Pool != nil {
		return nil, fmt.Errorf("%s is rolled with %s only; it takes no class dice", t.ID, t.Dice)
	}
	c := *t
	c.Dice = d
	if err := c.compile(); err != nil {
		return nil, fmt.Errorf("%s with class dice %s: %w", t.ID, d, err)
	}
	return &c, nil
}

// compile makes the distribution of the natural total of the dice.
func (t *Table) compile() error {
	if bits := float64(t.Dice.Count) * math.Log2(float64(t.Dice.Sides)); bits > 62 {
		return fmt.Errorf("dice %s have too many outcomes for a table; allowed at most 2^62", t.Dice)
	}
	dist, err := t.Dice.Dist()
	if err != nil {
		return fmt.Errorf("dice: %w", err)
	}
	ways, outcomes, err := dist.Small()
	if err != nil {
		return fmt.Errorf("dice %s: %w", t.Dice, err)
	}
	t.ways, t.outcomes = ways, outcomes
	t.diceSpec = t.Dice.String()
	return nil
}

// check validates a table on its own and compiles its distribution; links to
// lookups are made by the Set.
func (t *Table) check() error {
	if err := t.checkHead(); err != nil {
		return err
	}
	if t.Pool != nil {
		return t.checkPool()
	}
	if err := t.compile(); err != nil {
		return err
	}
	known, err := t.resultKeys()
	if err != nil {
		return err
	}
	if err := t.checkNaturals(known); err != nil {
		return err
	}
	if err := t.checkRenames(known); err != nil {
		return err
	}
	if err := t.checkRowsBy(); err != nil {
		return err
	}
	return t.checkRows(known)
}

// checkHead requires a table's title, rule and dice, and parameters that
// are each sound, named once, and whose unless names a bool parameter.
func (t *Table) checkHead() error {
	if t.Title == "" {
		return fmt.Errorf("field title is missing")
	}
	if t.Rule == "" {
		return fmt.Errorf("field rule is missing (the SPEC ID, e.g. NB-5)")
	}
	if t.Dice.Count == 0 {
		return fmt.Errorf("field dice is missing (e.g. 1d10, 2d6, 1d10z)")
	}
	seen := map[string]bool{}
	for _, p := range t.Params {
		if err := p.check(); err != nil {
			return err
		}
		if seen[p.Name] {
			return fmt.Errorf("parameter %s is given twice", p.Name)
		}
		seen[p.Name] = true
	}
	for _, p := range t.Params {
		if p.Unless != "" {
			if q := t.Param(p.Unless); q == nil || q.Kind != Bool {
				return fmt.Errorf("parameter %s: unless names %q, which is not a bool parameter of this table", p.Name, p.Unless)
			}
		}
	}
	return nil
}

// resultKeys requires a table's results, each listed once, and returns a
// check that what gives result k names one of them.
func (t *Table) resultKeys() (func(what, k string) error, error) {
	if len(t.Results) == 0 {
		return nil, fmt.Errorf("field results is missing: list the results the table can give")
	}
	keys := map[string]bool{}
	for _, r := range t.Results {
		if keys[r.Key] {
			return nil, fmt.Errorf("result %s is listed twice", r.Key)
		}
		keys[r.Key] = true
	}
	known := func(what, k string) error {
		if keys[k] {
			return nil
		}
		hint := ""
		all := make([]string, 0, len(t.Results))
		for _, r := range t.Results {
			all = append(all, r.Key)
		}
		if m := strict.Near(k, all); len(m) > 0 {
			hint = fmt.Sprintf(" (did you mean %s?)", m[0])
		}
		return fmt.Errorf("%s gives result %q, which is not in results%s; allowed: %s", what, k, hint, strings.Join(all, ", "))
	}
	return known, nil
}

// checkNaturals requires naturals the dice can roll that give known results.
func (t *Table) checkNaturals(known func(what, k string) error) error {
	for _, n := range t.Naturals {
		if n.Natural < t.Dice.Min() || n.Natural > t.Dice.Max() {
			return fmt.Errorf("natural %d cannot be rolled on %s (naturals %d..%d)", n.Natural, t.Dice, t.Dice.Min(), t.Dice.Max())
		}
		if err := known(fmt.Sprintf("natural %d", n.Natural), n.Result); err != nil {
			return err
		}
	}
	return nil
}

// checkRenames requires renames between known results, and notes whether
// the table has any.
func (t *Table) checkRenames(known func(what, k string) error) error {
	t.renames = false
	for _, p := range t.Params {
		t.renames = t.renames || len(p.Renames) > 0
		for _, rn := range p.Renames {
			if err := known("parameter "+p.Name+" rename", rn.To); err != nil {
				return err
			}
			if err := known("parameter "+p.Name+" rename", rn.From); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkRowsBy requires bands, and rows that match the values of the enum
// parameter rows-by names, one row for each (or one unkeyed row without it).
func (t *Table) checkRowsBy() error {
	if len(t.Rows) == 0 {
		return fmt.Errorf("field bands (or rows) is missing")
	}
	if t.RowsBy == "" {
		if len(t.Rows) != 1 || t.Rows[0].Key != "" {
			return fmt.Errorf("rows need rows-by, the enum parameter that picks the row")
		}
		return nil
	}
	p := t.Param(t.RowsBy)
	if p == nil || p.Kind != Enum {
		return fmt.Errorf("rows-by names %q, which is not an enum parameter of this table", t.RowsBy)
	}
	for _, v := range p.Values {
		if !slices.ContainsFunc(t.Rows, func(r Row) bool { return r.Key == v.Name }) {
			return fmt.Errorf("rows: %s=%s has no row", t.RowsBy, v.Name)
		}
	}
	for _, r := range t.Rows {
		if !slices.Contains(p.Names(), r.Key) {
			return fmt.Errorf("rows: row %q is not a value of %s; allowed: %s", r.Key, t.RowsBy, p.Allowed())
		}
	}
	return nil
}

// checkRows requires each row to give a known fixed result or bands that
// cover every score once with known results.
func (t *Table) checkRows(known func(what, k string) error) error {
	for _, row := range t.Rows {
		what := "bands"
		if row.Key != "" {
			what = "row " + row.Key
		}
		if row.Fixed != "" {
			if err := known(what, row.Fixed); err != nil {
				return err
			}
			continue
		}
		if err := checkBands(row.Bands); err != nil {
			if row.Key != "" {
				return fmt.Errorf("%s: %w", what, err)
			}
			return err
		}
		for _, b := range row.Bands {
			if err := known(what+" "+BandText(b.Lo, b.Hi), b.Result); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkBands requires bands that cover every score exactly once: sorted,
// open at both ends, with no gap and no overlap.
func checkBands(bs []Band) error {
	if len(bs) == 0 {
		return fmt.Errorf("no bands")
	}
	if bs[0].Lo != minScore {
		return &lineError{bs[0].Line, fmt.Errorf("the lowest band %s must be open below (write <=%d)", BandText(bs[0].Lo, bs[0].Hi), bs[0].Hi)}
	}
	last := bs[len(bs)-1]
	if last.Hi != maxScore {
		return &lineError{last.Line, fmt.Errorf("the highest band %s must be open above (write >=%d)", BandText(last.Lo, last.Hi), last.Lo)}
	}
	for i := 1; i < len(bs); i++ {
		prev, b := bs[i-1], bs[i]
		switch {
		case b.Lo <= prev.Hi:
			return &lineError{b.Line, fmt.Errorf("bands %s and %s overlap; each score must fall in one band", BandText(prev.Lo, prev.Hi), BandText(b.Lo, b.Hi))}
		case b.Lo > prev.Hi+1:
			return &lineError{b.Line, fmt.Errorf("bands %s and %s leave a gap at %s; each score must fall in one band", BandText(prev.Lo, prev.Hi), BandText(b.Lo, b.Hi), BandText(prev.Hi+1, b.Lo-1))}
		}
	}
	return nil
}

// Error is a problem in a rules file, placed at its file and line.
type Error = strict.Error

// reader walks a rules file strictly.
type reader struct{ strict.Reader }

// diceText is the table's dice as text.
func (t *Table) diceText() string {
	if t.diceSpec != "" {
		return t.diceSpec
	}
	return t.Dice.String()
}
