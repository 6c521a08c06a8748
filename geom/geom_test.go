package geom

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestToward(t *testing.T) {
	p, done := Pt(0, 0).Toward(Pt(3, 4), 2.5)
	if done || math.Abs(p.X-1.5) > 1e-12 || math.Abs(p.Y-2) > 1e-12 {
		t.Fatalf("half way: got %v %v", p, done)
	}
	p, done = Pt(0, 0).Toward(Pt(3, 4), 5)
	if !done || p != Pt(3, 4) {
		t.Fatalf("exact reach: got %v %v", p, done)
	}
	if p, done := Pt(1, 1).Toward(Pt(1, 1), 0); !done || p != Pt(1, 1) {
		t.Fatalf("already there: got %v %v", p, done)
	}
}

func TestPointJSON(t *testing.T) {
	b, err := json.Marshal(Pt(12.5, -3))
	if err != nil || string(b) != "[12.5,-3]" {
		t.Fatalf("marshal: %s %v", b, err)
	}
	var p Point
	if err := json.Unmarshal([]byte("[1,2]"), &p); err != nil || p != Pt(1, 2) {
		t.Fatalf("unmarshal: %v %v", p, err)
	}
	if err := json.Unmarshal([]byte("[1]"), &p); err == nil {
		t.Fatal("a point of one number was accepted")
	}
}

// TestPointForPeople: a point is written for people in tenths (a piece
// dragged to (39.99, 27.99) reads (40, 28)), never -0; the point itself
// and its JSON keep their hundredths.
func TestPointForPeople(t *testing.T) {
	for _, c := range []struct {
		p    Point
		want string
	}{
		{Pt(39.99, 27.99), "(40, 28)"}, {Pt(27.51, 35.51), "(27.5, 35.5)"}, {Pt(12, 30.5), "(12, 30.5)"},
		{Pt(-0.04, 0.04), "(0, 0)"}, {Pt(-3.26, 10.05), "(-3.3, 10.1)"}, {Pt(24.69, 48), "(24.7, 48)"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.p, got, c.want)
		}
		if got := (Table{Width: 72, Depth: 48}).Format(c.p); got != c.want {
			t.Errorf("Table.Format(%#v) = %q, want %q", c.p, got, c.want)
		}
	}
	p := Pt(39.99, 27.99)
	if b, err := json.Marshal(p); err != nil || string(b) != "[39.99,27.99]" {
		t.Errorf("the JSON of %#v is %s, %v: it must keep its hundredths", p, b, err)
	}
	if w := p.String(); w != "(40, 28)" || p.X != 39.99 || p.Y != 27.99 {
		t.Errorf("writing %q changed the point to %#v", w, p)
	}
}

// TestGridMatchesBruteForce checks every radius query against comparing all
// pairs, for random points (some outside the bounds) and radii.
func TestGridMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.Float64Range(1, 200).Draw(t, "w")
		h := rapid.Float64Range(1, 200).Draw(t, "h")
		cell := rapid.Float64Range(0.5, 40).Draw(t, "cell")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		pts := make([]Point, n)
		keep := make([]bool, n)
		for i := range pts {
			pts[i] = Pt(rapid.Float64Range(-20, w+20).Draw(t, "x"), rapid.Float64Range(-20, h+20).Draw(t, "y"))
			keep[i] = rapid.Bool().Draw(t, "keep")
		}
		g := NewGrid(Rect{Max: Pt(w, h)}, cell)
		// Points go in in any order, some twice (a move), and those not
		// kept are put in and taken out again.
		for _, i := range rapid.Permutation(seq(n)).Draw(t, "order") {
			if rapid.Bool().Draw(t, "twice") {
				g.Put(int32(i), Pt(rapid.Float64Range(-20, w+20).Draw(t, "x0"), rapid.Float64Range(-20, h+20).Draw(t, "y0")))
			}
			g.Put(int32(i), pts[i])
			if !keep[i] {
				g.Remove(int32(i))
			}
		}
		if rapid.Bool().Draw(t, "clear") {
			g.Clear()
			for i := range pts {
				if keep[i] {
					g.Put(int32(i), pts[i])
				}
			}
		}
		for range 5 {
			q := Pt(rapid.Float64Range(-30, w+30).Draw(t, "qx"), rapid.Float64Range(-30, h+30).Draw(t, "qy"))
			r := rapid.Float64Range(0, 60).Draw(t, "r")
			var want []int
			for i, p := range pts {
				if keep[i] && p.Within(q, r) {
					want = append(want, i)
				}
			}
			var within []int
			for _, i := range g.Within(q, r, nil) {
				within = append(within, int(i))
			}
			slices.Sort(within)
			if !slices.Equal(within, want) {
				t.Fatalf("within %v r=%v: got %v, want %v", q, r, within, want)
			}
		}
	})
}

// TestGridWithinAtACellEdge: a point just past r, inside the slack that
// Within allows, is found even when it lies in the next cell over.
func TestGridWithinAtACellEdge(t *testing.T) {
	g := NewGrid(Rect{Max: Pt(72, 100)}, 12)
	g.Put(0, Pt(11.99999999999, 50))
	if got := g.Within(Pt(24.00000000001, 50), 12, nil); len(got) != 1 {
		t.Fatalf("a point 12.00000000002 away, within the slack, across a cell edge: got %v", got)
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestGridMovesDoNotAllocate(t *testing.T) {
	pts := make([]Point, 1000)
	for i := range pts {
		pts[i] = Pt(float64(i%100), float64(i/10))
	}
	g := NewGrid(Rect{Max: Pt(100, 100)}, 17)
	for i, p := range pts {
		g.Put(int32(i), p)
	}
	var buf []int32
	k := 0
	if a := testing.AllocsPerRun(10, func() {
		k++
		g.Put(int32(k), pts[(k*37)%len(pts)])
		g.Remove(int32(k + 1))
		buf = g.Within(pts[7], 17, buf[:0])
	}); a != 0 {
		t.Fatalf("moves and queries allocate %v times", a)
	}
	g.Clear()
	if got := g.Within(pts[7], 200, buf[:0]); len(got) != 0 {
		t.Fatalf("a cleared grid still holds %d points", len(got))
	}
}

func BenchmarkGrid(b *testing.B) {
	const n = 10000
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = Pt(float64(i*7919%1000), float64(i*104729%400))
	}
	g := NewGrid(Rect{Max: Pt(1000, 400)}, 17)
	var buf []int32
	for b.Loop() {
		for i, p := range pts {
			g.Put(int32(i), p)
		}
		for _, p := range pts {
			buf = g.Within(p, 17, buf[:0])
		}
	}
}
