package lob_test

import (
	"slices"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/lob"
)

// TestBoardRadiusHexes: the hexes the board lists within a Command's
// radius are those the rules count as within it (LOB-2), for each seat;
// an army commander's likewise, by the map's count of hexes.
func TestBoardRadiusHexes(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	st := lob.StateOf(g.State())
	var all []geom.Point
	for c := range sc.Map.Columns {
		for w := range sc.Map.Rows {
			all = append(all, geom.Pt(float64(c+sc.Map.Layout.First), float64(w+sc.Map.Layout.First)))
		}
	}
	checked := 0
	for _, seat := range []string{game.Umpire, sc.Sides[0].ID, sc.Sides[1].ID} {
		b := r.Annotate(g.Sees(seat), g.Step(), seat).(lob.Board)
		for id, box := range b.Formations {
			if box.Centre == nil {
				if len(box.Within) > 0 {
					t.Errorf("%s: %s has hexes within no radius", seat, id)
				}
				continue
			}
			f := st.Formation(id)
			for _, p := range all {
				in, _ := st.InRadius(f, p)
				if slices.Contains(box.Within, p) != in {
					t.Errorf("%s: %s's radius %d from %v: hex %v listed %v, within %v", seat, id, box.Radius, *box.Centre, p, !in, in)
				}
				checked++
			}
		}
		for id, hexes := range b.Armies {
			l := st.Leader(id)
			for _, p := range all {
				if in := sc.Map.Dist(l.At, p) <= float64(l.Radius); slices.Contains(hexes, p) != in {
					t.Errorf("%s: army commander %s: hex %v listed %v", seat, id, p, !in)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no radius checked")
	}
}
