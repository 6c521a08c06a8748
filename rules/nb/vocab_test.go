package nb_test

import (
	"slices"
	"testing"

	"orderly/battle"
	"orderly/geom"
)

// TestShapes: NB's formations by unit type (game.Shaper) are the classic
// ones: foot in column, march column, line, square or skirmish order, horse
// in column, march column or line, guns limbered or unlimbered; each in the
// order of the Vocab's formations, every one of which some type takes, and
// each call's lists are the caller's own.
func TestShapes(t *testing.T) {
	r := engine(t)
	v := r.Vocab()
	want := map[string][]string{
		"infantry":      {"column", "march-column", "line", "square", "skirmish"},
		"light-cavalry": {"column", "march-column", "line"},
		"heavy-cavalry": {"column", "march-column", "line"},
		"artillery":     {"limbered", "unlimbered"},
	}
	got := r.Shapes()
	if len(got) != len(want) {
		t.Errorf("Shapes has %d unit types, want %d: %v", len(got), len(want), got)
	}
	taken := map[string]bool{}
	for typ, w := range want {
		if !slices.Contains(v.UnitTypes, typ) {
			t.Errorf("Vocab's unit types %v lack %s", v.UnitTypes, typ)
		}
		if !slices.Equal(got[typ], w) {
			t.Errorf("%s stands in %v, want %v", typ, got[typ], w)
		}
		last := -1
		for _, sh := range got[typ] {
			i := slices.Index(v.Shapes, sh)
			if i <= last {
				t.Errorf("%s: %v is not in the order of the Vocab's formations %v", typ, got[typ], v.Shapes)
			}
			last = i
			taken[sh] = true
		}
	}
	for _, sh := range v.Shapes {
		if !taken[sh] {
			t.Errorf("no unit type stands in %s", sh)
		}
	}
	got["infantry"][0] = "changed"
	if r.Shapes()["infantry"][0] == "changed" {
		t.Errorf("Shapes shares its lists between calls")
	}
	if want := []string{"formed", "disordered", "routed"}; !slices.Equal(v.Statuses, want) {
		t.Errorf("NB's unit states are %v, want %v", v.Statuses, want)
	}
}

// TestSpec: NB's part of the scenario format is a table in inches, the
// classic parts (wings, corps and divisions; quality, range and speeds)
// and its Vocab: what it was when battle gave NB's lists.
func TestSpec(t *testing.T) {
	r := engine(t)
	s := r.Spec()
	if s.ID != "nb" || !slices.Equal(s.Spaces, []string{geom.KindTable}) || !slices.Equal(s.Parts, battle.Classic()) || len(s.Attrs) != 0 {
		t.Errorf("NB's spec: %+v", s)
	}
	if !slices.Equal(s.Orders, []string{"attack", "defend", "reserve"}) || !slices.Equal(s.Shapes, r.Vocab().Shapes) {
		t.Errorf("NB's spec vocabulary: %+v", s.Vocab)
	}
}
