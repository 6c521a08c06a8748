package terrain

import (
	"math"
	"slices"
	"testing"

	"orderly/geom/hex"
)

// TestSearchGenerationWraps: when the count of searches wraps round, the
// marks of old searches are cleared, so no cell is taken as seen at a
// stale cost.
func TestSearchGenerationWraps(t *testing.T) {
	g := hex.Map{Columns: 5, Rows: 4, Layout: hex.Layout{Offset: hex.EvenQ, First: 1, Digits: 2}}
	m, err := New(g, Kinds{Hexes: []Kind{{"clear", '.'}}})
	if err != nil {
		t.Fatal(err)
	}
	cheap := func(i, d int) (int, bool) { return 1, true }
	dear := func(i, d int) (int, bool) { return 7, true }
	fresh := NewSearch(m)
	want := fresh.Reach(0, dear, 100, nil)
	wantPath, wantCost, _ := fresh.Path(0, m.Len()-1, dear, 0, -1)

	s := NewSearch(m)
	s.gen = math.MaxUint32 - 2
	// Searches at generations MaxUint32-1 and MaxUint32 mark cells cheaply;
	// the next wraps to 0 and must start clean, and so must the one after.
	s.Reach(0, cheap, 100, nil)
	s.Path(0, m.Len()-1, cheap, 0, -1)
	for i := range s.mark { // as if marked at no cost by generation 1 long ago
		s.mark[i].stamp, s.mark[i].cost = 1, 0
	}
	for k := range 3 {
		if got := s.Reach(0, dear, 100, nil); !slices.Equal(got, want) {
			t.Fatalf("Reach %d after the wrap: %v, want %v", k, got, want)
		}
		if p, c, ok := s.Path(0, m.Len()-1, dear, 0, -1); !ok || c != wantCost || !slices.Equal(p, wantPath) {
			t.Fatalf("Path %d after the wrap: %v %d %v, want %v %d", k, p, c, ok, wantPath, wantCost)
		}
	}
	if s.gen == 0 || s.gen > 10 {
		t.Errorf("generation %d after the wrap", s.gen)
	}
}
