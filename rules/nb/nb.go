// Package nb holds the Napoleon's Battles optional orders rules (SPEC NB):
// its tables and turn sequence as embedded data, and the procedures that
// run them on the game engine.
package nb

import (
	_ "embed"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/sight"
	"orderly/table"
)

//go:embed sight.yaml
var sightYAML []byte

//go:embed tables.yaml
var tables []byte

// Sight is the rule set's spotting data, for fog of war (game.Spotter).
func (r *Rules) Sight() *sight.Rules { return r.sight }

// Tables returns the rule set's tables file.
func Tables() table.Source { return table.Source{Name: "rules/nb/tables.yaml", Data: tables} }

// Rules runs NB games. It implements game.Rules.
type Rules struct {
	sight  *sight.Rules // fog of war (sight.yaml)
	tables *table.Set
	p      procedure
	delay  *table.Table
	// delayArgs holds the order-delay table's parameters bound for every
	// nation and quality, read-only once made (games share a Rules).
	delayArgs map[[2]string]table.Args
}

// New makes the rule set from a loaded table set (the built-in tables with
// any house rules) and the embedded procedure. It refuses a set whose
// tables the procedures cannot use (see Uses), so that a house rule that
// breaks them fails here, when the rules load, and never mid-game.
func New(set *table.Set) (*Rules, error) {
	p, err := readProcedure("rules/nb/procedure.yaml", procedureYAML)
	if err != nil {
		return nil, err
	}
	r := &Rules{tables: set, p: p}
	if r.delay, err = set.Table("nb/order-delay"); err != nil {
		return nil, fmt.Errorf("nb: %w", err)
	}
	if err := set.Check("NB", r.Uses()); err != nil {
		return nil, err
	}
	r.delayArgs = map[[2]string]table.Args{}
	v := r.Vocab()
	for _, n := range v.Nations {
		for _, q := range v.Qualities {
			a, err := r.delay.Bind(map[string]string{"nation": n, "quality": q})
			if err != nil {
				return nil, fmt.Errorf("nb: %w", err)
			}
			r.delayArgs[[2]string{n, q}] = a
		}
	}
	sr, err := sight.Parse("rules/nb/sight.yaml", sightYAML)
	if err != nil {
		return nil, err
	}
	r.sight = sr
	return r, nil
}

// Uses says what the procedures pass to each table and read from it: the
// reading general's nation and quality to nb/order-delay, read as the turns
// of delay (NB-4, NB-5); nothing to nb/reserve-entry, read as the earliest
// entry turn (NB-10); the reserve general's quality to nb/reserve-arrival,
// read as the turns late (NB-10); and the nation to nb/orders-per-turn, read
// as a count (NB-2). The nations and qualities a scenario may use are those
// of nb/order-delay (Vocab), so a house rule that adds one there must add
// it to the other tables too.
func (r *Rules) Uses() []table.Use {
	v := r.Vocab()
	nation := table.Pass{Name: "nation", Kind: table.Enum, Values: v.Nations, From: "the nations of nb/order-delay"}
	quality := table.Pass{Name: "quality", Kind: table.Enum, Values: v.Qualities, From: "the qualities of nb/order-delay"}
	zero, one := 0, 1
	return []table.Use{
		{Table: "nb/order-delay", Rule: "NB-5", Params: []table.Pass{nation, quality},
			Number: &table.Number{What: "the turns of delay", Min: &zero}},
		{Table: "nb/reserve-entry", Rule: "NB-10",
			Number: &table.Number{What: "the earliest entry turn", Min: &one}},
		{Table: "nb/reserve-arrival", Rule: "NB-10", Params: []table.Pass{quality},
			Number: &table.Number{What: "the turns late (negative: early)"}},
		{Table: "nb/orders-per-turn", Rule: "NB-2", Params: []table.Pass{nation},
			Number: &table.Number{What: "the orders per turn", Min: &zero}},
	}
}

// ID is "nb".
func (r *Rules) ID() string { return "nb" }

// Next is NB's turn (procedure.yaml): the same steps every turn, the
// players' steps simultaneous.
func (r *Rules) Next(s *game.State) (game.Step, int) { return r.p.seq.Next(s) }

// Sequence is the steps of NB's turn, from procedure.yaml.
func (r *Rules) Sequence(*battle.Scenario) []game.Step { return slices.Clone(r.p.seq) }

// Table returns one of the rule set's tables.
func (r *Rules) Table(id string) (*table.Table, error) { return r.tables.Table(id) }

// Check tests a scenario against NB: every corps and independent division
// has an initial order (NB-1), wings take none, every order's objective is
// on the table, an on-board reserve stands
// within reach of its base edge (NB-9), and the orders inside a reserve are
// the reserve's.
func (r *Rules) Check(sc *battle.Scenario) error {
	for _, s := range sc.Sides {
		for _, f := range s.Formations[1:] {
			if err := r.checkFormation(sc, s, f); err != nil {
				return &battle.PathError{Path: f.Path, Line: f.Line, Msg: err.Error()}
			}
		}
	}
	return nil
}

func (r *Rules) checkFormation(sc *battle.Scenario, s *battle.Side, f *battle.Formation) error {
	parent := sc.Formation(f.Parent)
	switch {
	case f.Kind == battle.Wing && f.Order != nil:
		return fmt.Errorf("a wing takes no order of its own at the start; give each corps its order (NB-1)")
	case f.Kind == battle.Corps && f.Order == nil:
		return fmt.Errorf("order is missing: every corps starts with attack, defend or reserve (NB-1)")
	case f.Kind == battle.Division && f.Independent(sc) && f.Order == nil:
		return fmt.Errorf("order is missing: an independent division starts with attack, defend or reserve (NB-1)")
	}
	if f.Order == nil {
		return nil
	}
	for _, o := range []*battle.Order{f.Order, entryOrder(f)} {
		if fd := sc.Field; o != nil && o.Objective != nil && !fd.Contains(*o.Objective) {
			return fmt.Errorf("the objective %v of the %s order is off the table (0..%s by 0..%s inches); give a point on it (NB-16)", *o.Objective, o.Kind, inch(fd.Width), inch(fd.Depth))
		}
	}
	for a := parent; a != nil && a.Kind != battle.Army; a = sc.Formation(a.Parent) {
		if a.Order != nil && a.Order.Kind == "reserve" {
			return fmt.Errorf("%s %s is in reserve, so its divisions follow it; leave out this order", a.Kind, a.ID)
		}
	}
	if f.Order.Kind != "reserve" || f.Entry != nil {
		return nil
	}
	// NB-9: an on-board reserve is deployed near its own base edge.
	for _, d := range sc.Formations() {
		if !inside(sc, d, f) {
			continue
		}
		g := sc.General(d.General)
		if far := sc.Field.FromEdge(g.At, s.Edge); far > r.p.reserveDepth+1e-9 {
			return fmt.Errorf("general %s of the on-board reserve stands %s\" from the %s base edge; a reserve deploys within %s\" (NB-9)", g.ID, inch(far), s.Edge, inch(r.p.reserveDepth))
		}
		for _, uid := range d.Units {
			u := sc.Unit(uid)
			if far := sc.Field.FromEdge(u.At, s.Edge); far > r.p.reserveDepth+1e-9 {
				return fmt.Errorf("unit %s of the on-board reserve stands %s\" from the %s base edge; a reserve deploys within %s\" (NB-9)", u.ID, inch(far), s.Edge, inch(r.p.reserveDepth))
			}
		}
	}
	return nil
}

// entryOrder is the order an off-board reserve follows once it enters, or
// nil.
func entryOrder(f *battle.Formation) *battle.Order {
	if f.Entry == nil {
		return nil
	}
	return &f.Entry.Then
}

// inside reports whether formation d is f or under it.
func inside(sc *battle.Scenario, d, f *battle.Formation) bool {
	for a := d; a != nil; a = sc.Formation(a.Parent) {
		if a.ID == f.ID {
			return true
		}
		if a.Kind == battle.Army {
			return false
		}
	}
	return false
}

func inch(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

// Placed has engagement (NB-6) look again at a unit the umpire placed
// (game.Placer): the place moves the piece without an event of NB's.
func (r *Rules) Placed(gs *game.State, id string) {
	s := of(gs)
	if i, ok := s.unit[id]; ok {
		s.touched = append(s.touched, int32(i))
	}
}

// Settle recomputes engagement after anything that may have moved a piece
// (NB-6).
func (r *Rules) Settle(x *game.Tx) error {
	return engagement(x, r.p.engagement, r.sight, "NB-6")
}

// Run carries out one step of the turn.
func (r *Rules) Run(step game.Step, x *game.Tx) error {
	switch step.Name {
	case "arrival":
		return r.arrival(x)
	case "read":
		return r.read(x)
	case "command":
		return r.command(x)
	case "activate":
		return r.activate(x)
	case "messengers":
		return r.messengers(x)
	case "enter":
		return r.enter(x)
	case "end-of-movement":
		return r.endOfMovement(x)
	case "write", "move":
		return nil
	}
	return fmt.Errorf("nb has no step %q", step.Name)
}

// Setup gives every formation its initial order, active at once (NB-1), and
// rolls in secret when each off-board reserve may first enter (NB-10).
func (r *Rules) Setup(x *game.Tx) error {
	for f := range formations(x.Sc) {
		if f.Order == nil {
			continue
		}
		o := st(x).orders.One(Order{ID: r.orderID(x, f.Side), For: st(x).keep([]string{f.ID}), Kind: f.Order.Kind, Objective: f.Order.Objective, Note: f.Order.Note, Direct: true})
		if err := emit(x, game.Event{Type: OrderWritten, Side: f.Side, See: f.Side, Rule: "NB-1"}, &Data{Order: o, How: "initial"}); err != nil {
			return err
		}
		divs := r.followers(x, f.ID, o, false)
		if err := emit(x, game.Event{Type: OrderActive, Side: f.Side, See: f.Side, Rule: "NB-1"}, &Data{Formation: f.ID, Order: o, Divisions: divs, How: "initial"}); err != nil {
			return err
		}
	}
	for f := range formations(x.Sc) {
		if f.Entry == nil {
			continue
		}
		roll, t, err := x.Roll("nb/reserve-entry", f.ID, nil)
		if err != nil {
			return err
		}
		if err := emit(x, game.Event{Type: ReserveScheduled, Side: f.Side, See: f.Side, Rolls: x.Recorded(roll), Rule: "NB-10"}, &Data{Formation: f.ID, Square: f.Entry.Square, Edge: f.Entry.Edge, Entry: game.Value(t, roll.Result)}); err != nil {
			return err
		}
	}
	return nil
}

// formations yields every formation of sc in scenario order, without
// making the list (battle.Scenario.Formations).
func formations(sc *battle.Scenario) iter.Seq[*battle.Formation] {
	return func(yield func(*battle.Formation) bool) {
		for _, s := range sc.Sides {
			for _, f := range s.Formations {
				if !yield(f) {
					return
				}
			}
		}
	}
}

func (r *Rules) orderID(x *game.Tx, side string) string {
	return st(x).serial("", side, st(x).Side(side).Orders+1)
}

// followers lists the divisions under formation id that take up order o
// when it becomes active: with a range check (NB-12) each division general
// must be within the range of the corps commander, and a division keeps an
// order of its own that is newer. It also returns nothing for a division.
func (r *Rules) followers(x *game.Tx, id string, o *Order, check bool) []string {
	divs, _ := r.split(x, id, o, check)
	return divs
}

// split divides the divisions under formation id into those that take up
// order o and those that keep their order: out of their corps commander's
// range (NB-12), or without a general (NB-15).
func (r *Rules) split(x *game.Tx, id string, o *Order, check bool) (follow, out []string) {
	f := st(x).Formation(id)
	if f == nil || f.Kind == battle.Division {
		return nil, nil
	}
	s := st(x)
	follow, out = s.follow[:0], s.out[:0]
	var walk func(p *Formation, boss *General)
	walk = func(p *Formation, boss *General) {
		for _, cid := range x.Sc.Formation(p.ID).Children {
			c := st(x).Formation(cid)
			if c.Kind != battle.Division {
				walk(c, st(x).commander(c))
				continue
			}
			if c.Order != nil && c.Order.ID != o.ID && newer(c.Order, o, cid) {
				continue
			}
			if g := st(x).commander(c); g == nil || g.Fate != "" {
				// Without its general it takes no new orders (NB-15).
				out = append(out, cid)
				continue
			}
			if check && boss != nil {
				g := st(x).commander(c)
				if g == nil || !g.OnTable || !boss.OnTable || g.At.Dist(boss.At) > boss.Range+1e-9 {
					out = append(out, cid)
					continue
				}
			}
			follow = append(follow, cid)
		}
	}
	walk(f, st(x).commander(f))
	// The lists go into events: copied to the game's memory, exactly long,
	// while the scratch lists are kept for the next time.
	s.follow, s.out = follow[:0], out[:0]
	return s.keep(follow), s.keep(out)
}

// newer reports whether a division's own order a outranks order b given to
// its corps: it was written later, or in the same turn for the division.
func newer(a, b *Order, div string) bool {
	if a.Written != b.Written {
		return a.Written > b.Written
	}
	return slices.Contains(a.For, div) && !slices.Contains(b.For, div)
}

// army returns the army commander of a side now.
func (r *Rules) army(x *game.Tx, side string) *General {
	return st(x).commander(st(x).Formation(side))
}

// generalOf returns the general who commands formation id now.
func generalOf(x *game.Tx, id string) *General {
	f := st(x).Formation(id)
	if f == nil {
		return nil
	}
	return st(x).commander(f)
}

func names(fs []string) string { return strings.Join(fs, ", ") }
