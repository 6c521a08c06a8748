package geom

import (
	"math"
	"testing"
)

// TestTable: a table measures in inches, holds its edges, and words its
// points and its extent as the loader's messages always have.
func TestTable(t *testing.T) {
	var s Space = Table{Width: 72, Depth: 48}
	if s.Kind() != KindTable || s.Unit() != Inches {
		t.Errorf("kind %s, unit %s", s.Kind(), s.Unit())
	}
	if d := s.Dist(Pt(0, 0), Pt(3, 4)); d != 5 {
		t.Errorf("Dist = %v, want 5", d)
	}
	for _, c := range []struct {
		p  Point
		on bool
	}{{Pt(0, 0), true}, {Pt(72, 48), true}, {Pt(36.5, 0.25), true}, {Pt(-0.01, 3), false}, {Pt(3, 48.01), false}, {Pt(math.NaN(), 1), false}} {
		if got := s.Contains(c.p); got != c.on {
			t.Errorf("Contains(%v) = %v, want %v", c.p, got, c.on)
		}
	}
	if b := s.Bounds(); b != (Rect{Max: Pt(72, 48)}) {
		t.Errorf("Bounds = %v", b)
	}
	if f := s.Format(Pt(12, 30.5)); f != "(12, 30.5)" {
		t.Errorf("Format = %q", f)
	}
	if e := s.Extent(); e != "the table (0..72 by 0..48 inches)" {
		t.Errorf("Extent = %q", e)
	}
	if _, ok := s.(Labeled); ok {
		t.Error("a table's positions are [x, y], not labels")
	}
}

func TestUnit(t *testing.T) {
	for _, c := range []struct {
		u    Unit
		d    float64
		want string
	}{
		{Inches, 1, "1 inch"}, {Inches, 2.5, "2.5 inches"}, {Inches, 0, "0 inches"},
		{Hexes, 1, "1 hex"}, {Hexes, 3, "3 hexes"}, {Unit("paces"), 1, "1 paces"},
	} {
		if got := c.u.Of(c.d); got != c.want {
			t.Errorf("%s.Of(%v) = %q, want %q", c.u, c.d, got, c.want)
		}
	}
	if len(Kinds()) != 2 || Kinds()[0] != KindTable || Kinds()[1] != KindHex {
		t.Errorf("Kinds = %v", Kinds())
	}
}

func TestWhole(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want bool
	}{{0, true}, {-3, true}, {4.5, false}, {1e9, true}, {1e10, false}, {math.Inf(1), false}, {math.NaN(), false}} {
		if got := Whole(c.f); got != c.want {
			t.Errorf("Whole(%v) = %v", c.f, got)
		}
	}
}
