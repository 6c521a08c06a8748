package nb

import (
	"slices"

	"orderly/battle"
	"orderly/geom"
)

// The pieces NB plays with. The orders rules (SPEC NB) set no lists of
// their own and leave arms, formations and states to the base game, so
// these are the classic ones: foot, light and heavy horse and guns;
// column, march column, line, square and skirmish order, limbered and
// unlimbered; formed, disordered and routed.
var (
	unitTypes = []string{"infantry", "light-cavalry", "heavy-cavalry", "artillery"}
	statuses  = []string{"formed", "disordered", "routed"}
	// shapesOf is, by unit type, the formations a unit may stand in, in
	// the order of shapes.
	shapesOf = map[string][]string{
		"infantry":      {"column", "march-column", "line", "square", "skirmish"},
		"light-cavalry": {"column", "march-column", "line"},
		"heavy-cavalry": {"column", "march-column", "line"},
		"artillery":     {"limbered", "unlimbered"},
	}
	shapes = []string{"column", "march-column", "line", "square", "skirmish", "limbered", "unlimbered"}
)

// Vocab allows the nations and qualities of the order-delay table (NB-5),
// the orders of NB-1 (procedure.yaml), and NB's unit types, formations and
// unit states.
func (r *Rules) Vocab() battle.Vocab {
	v := battle.Vocab{Orders: slices.Clone(r.p.orders), UnitTypes: slices.Clone(unitTypes),
		Shapes: slices.Clone(shapes), Statuses: slices.Clone(statuses)}
	if p := r.delay.Param("nation"); p != nil {
		v.Nations = p.Names()
	}
	if p := r.delay.Param("quality"); p != nil {
		v.Qualities = p.Names()
	}
	return v
}

// Spec is NB's part of the scenario format (NB-1, NB-9, NB-10): a table in
// inches, the classic chain of command of wings, corps and divisions,
// generals with a quality and a command range, units with a speed.
func (r *Rules) Spec() battle.Spec {
	return battle.Spec{ID: r.ID(), Title: "Napoleon's Battles orders", Vocab: r.Vocab(), Spaces: []string{geom.KindTable}, Parts: battle.Classic()}
}

// Shapes gives, for each unit type, the formations a unit of it may stand
// in (game.Shaper): foot in any of NB's, horse in column, march column or
// line, guns limbered or unlimbered. A move is checked against all of
// them (and NB-7); the page offers a unit these.
func (r *Rules) Shapes() map[string][]string {
	out := make(map[string][]string, len(shapesOf))
	for ty, sh := range shapesOf {
		out[ty] = slices.Clone(sh)
	}
	return out
}
