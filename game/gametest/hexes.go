package gametest

import (
	"math/rand/v2"

	"orderly/geom"
	"orderly/terrain"
)

// Aim is where a probe of a differential pair (Probe) sends a piece on a
// hex map: the hex where a hidden piece stands in one game, the hexes
// beyond it, and a way through it.
type Aim struct {
	t   *terrain.Map
	sp  geom.Space
	at  int // the hex aimed at
	rng *rand.Rand
}

// AimAt is an aim at the hex of p on the map of t (false if p is off it).
func AimAt(t *terrain.Map, sp geom.Space, p geom.Point, rng *rand.Rand) (Aim, bool) {
	i, ok := t.At(p)
	return Aim{t: t, sp: sp, at: i, rng: rng}, ok
}

// Hex is the label of the hex aimed at.
func (a Aim) Hex() string { return a.t.Label(a.at) }

// beyond is the hex one or two steps beyond the one aimed at, away from
// from, or (a third of the time) some more: a way too dear to take,
// which must be refused alike in both games.
func (a Aim) beyond(from geom.Point) int {
	j := a.at
	steps := 1 + a.rng.IntN(2)
	if a.rng.IntN(3) == 0 {
		steps += 4 + a.rng.IntN(6)
	}
	for range steps {
		best, far := j, a.sp.Dist(from, a.t.Point(j))
		for d := range 6 {
			if n := a.t.Next(j, d); n >= 0 && a.sp.Dist(from, a.t.Point(n)) > far {
				best, far = n, a.sp.Dist(from, a.t.Point(n))
			}
		}
		j = best
	}
	return j
}

// Past is the label of a hex beyond the one aimed at, seen from from.
func (a Aim) Past(from geom.Point) string { return a.t.Label(a.beyond(from)) }

// Through is a way given hex by hex from from, through the hex aimed at
// and on to a hex past it, each step to the neighbour nearest the next
// goal (nil if from is off the map).
func (a Aim) Through(from geom.Point) []string {
	j, ok := a.t.At(from)
	if !ok {
		return nil
	}
	var out []string
	for _, to := range []int{a.at, a.beyond(from)} {
		for n := 0; j != to && n < 20; n++ {
			best, near := -1, a.sp.Dist(a.t.Point(j), a.t.Point(to))
			for d := range 6 {
				if k := a.t.Next(j, d); k >= 0 && a.sp.Dist(a.t.Point(k), a.t.Point(to)) < near {
					best, near = k, a.sp.Dist(a.t.Point(k), a.t.Point(to))
				}
			}
			if best < 0 {
				break
			}
			j = best
			out = append(out, a.t.Label(j))
		}
	}
	return out
}
