package game

import (
	"testing"

	"pgregory.net/rapid"
)

// TestSlabSlicesDoNotOverlap takes slices of random sizes, fills each with
// its own number, and checks that none was overwritten, that each comes
// zeroed with its capacity its length, before and after a Reset.
func TestSlabSlicesDoNotOverlap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s Slab[int]
		for round := range 2 {
			var taken [][]int
			for k, n := range rapid.SliceOfN(rapid.IntRange(0, 100), 0, 60).Draw(t, "sizes") {
				xs := s.Take(n)
				if len(xs) != n || cap(xs) != n {
					t.Fatalf("round %d: Take(%d) gave len %d cap %d", round, n, len(xs), cap(xs))
				}
				for i := range xs {
					if xs[i] != 0 {
						t.Fatalf("round %d: Take(%d) is not zeroed", round, n)
					}
					xs[i] = k + 1
				}
				taken = append(taken, xs)
			}
			for k, xs := range taken {
				for _, v := range xs {
					if v != k+1 {
						t.Fatalf("round %d: slice %d was overwritten by slice %d", round, k, v-1)
					}
				}
			}
			s.Reset()
		}
	})
}

func TestSlabReuseDoesNotAllocate(t *testing.T) {
	var s Slab[int]
	fill := func() {
		for n := range 40 {
			s.Take(n % 9)
		}
		s.One(7)
	}
	fill()
	if a := testing.AllocsPerRun(20, func() { s.Reset(); fill() }); a != 0 {
		t.Fatalf("a reset slab allocates %v times for the same takes", a)
	}
}
