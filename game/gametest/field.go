package gametest

import (
	"fmt"
	"math"

	"orderly/battle"
	"orderly/geom"
)

// Army is the shape of a synthetic battle: two armies facing each other
// across a field whose area grows with the number of units, so that the
// density of pieces (and so the work per piece) stays the same at any size.
type Army struct {
	Rules     string
	Nations   [2]string
	Quality   string
	Units     int // combat units in all
	Divisions int // divisions in all
	Corps     int // corps in all
	Range     float64
}

// Build makes the scenario. Each division stands in its own block with its
// general in the middle; the two armies' front lines are within engagement
// reach of each other, the rest far behind.
func (a Army) Build() (*battle.Scenario, error) {
	if a.Units < 2 || a.Divisions < 2 || a.Corps < 2 || a.Divisions < a.Corps || a.Units < a.Divisions {
		return nil, fmt.Errorf("an army needs at least 2 corps, as many divisions and as many units")
	}
	perSide := a.Divisions / 2
	g := grid{cols: int(math.Ceil(math.Sqrt(float64(perSide) * 2.5)))}
	g.rows = int(math.Ceil(float64(perSide) / float64(g.cols)))
	w := float64(g.cols) * block
	depth := 2*float64(g.rows)*block + gap
	sc := &battle.Scenario{
		Name: "synthetic", Rules: a.Rules, Turns: 1000,
		Field:  battle.Field{Width: w, Depth: depth},
		Speeds: map[string]float64{"infantry": 6, "light-cavalry": 12, "heavy-cavalry": 10, "artillery": 6},
	}
	for si := range 2 {
		// Blue has the lesser half of an odd count, red the greater.
		divs, units := a.Divisions/2, a.Units/2
		if si == 1 {
			divs, units = a.Divisions-divs, a.Units-units
		}
		sc.Sides = append(sc.Sides, a.side(si, divs, units, g))
	}
	if err := sc.Finish(); err != nil {
		return nil, err
	}
	return sc, nil
}

// The blocks of a synthetic battle: each division's square, and the gap
// between the two armies' front lines.
const (
	block = 12.0
	gap   = 14.0
)

// grid is how a side's division blocks are laid out: cols across the
// field, rows deep.
type grid struct{ cols, rows int }

// side makes side si (blue to the north, red to the south) with divs
// divisions and units combat units: its commander, its corps, its
// divisions in their blocks, and its corps commanders.
func (a Army) side(si, divs, units int, g grid) *battle.Side {
	id := []string{"blue", "red"}[si]
	edge := []string{"north", "south"}[si]
	s := &battle.Side{ID: id, Name: id, Nation: a.Nations[si], Edge: edge}
	y0 := 0.0
	if si == 1 {
		y0 = float64(g.rows)*block + gap
	}
	w := float64(g.cols) * block
	army := &battle.Formation{ID: id, Side: id, Kind: battle.Army, General: id + "-c"}
	s.Formations = append(s.Formations, army)
	s.Generals = append(s.Generals, &battle.General{ID: id + "-c", Side: id, Commands: id, Quality: a.Quality, Range: 16, At: geom.Pt(w/2, y0+1)})
	corpsPer := a.Corps / 2
	var corps []*battle.Formation
	for c := range corpsPer {
		f := &battle.Formation{ID: fmt.Sprintf("%s-k%d", id, c), Side: id, Kind: battle.Corps, Parent: id,
			General: fmt.Sprintf("%s-k%d-g", id, c), Order: &battle.Order{Kind: "defend"}}
		army.Children = append(army.Children, f.ID)
		corps = append(corps, f)
		s.Formations = append(s.Formations, f)
	}
	for d := range divs {
		row, col := d/g.cols, d%g.cols
		if si == 0 {
			row = g.rows - 1 - row // blue's first divisions face red across the gap
		}
		centre := geom.Pt((float64(col)+0.5)*block, y0+(float64(row)+0.5)*block)
		n := units / divs
		if d < units%divs {
			n++
		}
		a.division(s, corps[d*corpsPer/divs], d, n, centre)
	}
	for _, k := range corps {
		// The corps commander stands by his first division.
		first := s.Generals[0].At
		if len(k.Children) > 0 {
			for _, gen := range s.Generals {
				if gen.Commands == k.Children[0] {
					first = gen.At
				}
			}
		}
		s.Generals = append(s.Generals, &battle.General{ID: k.General, Side: id, Commands: k.ID, Quality: a.Quality, Range: 24, At: geom.Pt(first.X, first.Y)})
	}
	return s
}

// division adds division d of corps k to side s: its general at centre and
// n units in a ring about him, every seventh light cavalry.
func (a Army) division(s *battle.Side, k *battle.Formation, d, n int, centre geom.Point) {
	id := s.ID
	f := &battle.Formation{ID: fmt.Sprintf("%s-d%d", id, d), Side: id, Kind: battle.Division, Parent: k.ID, General: fmt.Sprintf("%s-d%d-g", id, d)}
	k.Children = append(k.Children, f.ID)
	s.Formations = append(s.Formations, f)
	s.Generals = append(s.Generals, &battle.General{ID: f.General, Side: id, Commands: f.ID, Quality: a.Quality, Range: a.Range, At: centre})
	for u := range n {
		ang := 2 * math.Pi * float64(u) / float64(n)
		at := geom.Pt(centre.X+4*math.Cos(ang), centre.Y+4*math.Sin(ang)).Round()
		typ := "infantry"
		if u%7 == 6 {
			typ = "light-cavalry"
		}
		un := &battle.Unit{ID: fmt.Sprintf("%s-u%d", f.ID, u), Side: id, Division: f.ID, Type: typ, Shape: "column", Status: "formed", At: at}
		f.Units = append(f.Units, un.ID)
		s.Units = append(s.Units, un)
	}
}
