package nes_test

import (
	"slices"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nes"
)

// TestBoardRadiusHexes: the hexes the board lists within a command
// unit's radius are those at most his radius from him by the map's count
// of hexes (NES-2, NES-3), for each seat; none for one off the map.
func TestBoardRadiusHexes(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	var all []geom.Point
	for c := range sc.Map.Columns {
		for w := range sc.Map.Rows {
			all = append(all, geom.Pt(float64(c+sc.Map.Layout.First), float64(w+sc.Map.Layout.First)))
		}
	}
	checked := 0
	for _, seat := range []string{game.Umpire, sc.Sides[0].ID, sc.Sides[1].ID} {
		b := r.Annotate(g.Sees(seat), g.Step(), seat).(nes.Board)
		for _, l := range nes.StateOf(g.State()).Leaders {
			box := b.Leaders[l.ID]
			if !l.OnTable {
				if len(box.Within) > 0 {
					t.Errorf("%s: %s is off the map but has hexes within his radius", seat, l.ID)
				}
				continue
			}
			for _, p := range all {
				if in := sc.Map.Dist(l.At, p) <= float64(l.Radius); slices.Contains(box.Within, p) != in {
					t.Errorf("%s: %s's radius %d from %v: hex %v listed %v", seat, l.ID, l.Radius, l.At, p, !in)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no radius checked")
	}
}
