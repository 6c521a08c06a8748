package battle

import (
	"fmt"

	"orderly/geom"
)

// Result is how a scenario's battle is won (its result: section): the
// objectives that score for the side holding them at the end, and the
// lead a win needs. game.Result works it out from a game's state.
type Result struct {
	Objectives []Objective
	// Margin is how many points more than the other a side needs to
	// win; within it, the battle is a draw.
	Margin int
}

// Objective is a place that scores Points for the side that holds it at
// the end: a combat unit of the side within Radius (in the space's unit)
// of At, and none of the enemy's.
type Objective struct {
	Name   string
	At     geom.Point
	Points int
	Radius float64
	Line   int
}

// result builds a scenario's result section, checking what its types do
// not: each objective on the surface and named once, a radius above 0 on
// a table (where a unit never stands exactly on a point).
func (b *builder) result(f *resultFile, sp geom.Space) (*Result, error) {
	out := &Result{Margin: f.Margin}
	seen := map[string]int{}
	for i := range f.Objectives {
		o := &f.Objectives[i]
		where := fmt.Sprintf("result.objectives[%d]", i)
		ob := Objective{Name: o.Name, Points: o.Points, Radius: o.Radius, Line: o.Node.Line}
		if o.At != nil {
			ob.At = *o.At
		}
		if j, ok := seen[o.Name]; ok {
			if err := b.note(b.Errf(o.Node, "%s: name %q is already the name of result.objectives[%d]; give each objective its own name", where, o.Name, j)); err != nil {
				return nil, err
			}
			continue
		}
		seen[o.Name] = i
		if sp != nil && !sp.Contains(ob.At) {
			if err := b.note(b.Errf(o.Node, "%s.at: %s is off %s; an objective is a place on it", where, sp.Format(ob.At), sp.Extent())); err != nil {
				return nil, err
			}
			continue
		}
		if sp != nil && sp.Kind() == geom.KindTable && ob.Radius <= 0 {
			if err := b.note(b.Errf(o.Node, "%s.radius: on a table an objective needs a radius above 0 inches (how near a unit must stand to hold it)", where)); err != nil {
				return nil, err
			}
			continue
		}
		out.Objectives = append(out.Objectives, ob)
	}
	return out, nil
}
