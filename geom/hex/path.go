package hex

import (
	"container/heap"
	"fmt"
	"slices"
)

// Costs prices a step from a cell to a neighbour: what it costs, or false
// if the step is not allowed (prohibited terrain, off the map). Costs are
// whole numbers in the rule set's own unit: one with fractions of a
// movement point (roads at 1/2 and 2/3 of a point a hex) counts in sixths.
// A step never costs less than 0.
type Costs interface {
	Step(from, to Hex) (cost int, ok bool)
}

// Terrain builds Costs from a price per cell entered and a price per
// hexside crossed (which may depend on the way it is crossed: up or down a
// slope). The step costs both. A nil Cross crosses every hexside free.
type Terrain struct {
	Enter func(h Hex) (int, bool)
	Cross func(s Side, from, to Hex) (int, bool)
}

// Step is the cost of entering to from from across their hexside.
func (t Terrain) Step(from, to Hex) (int, bool) {
	c, ok := t.Enter(to)
	if !ok {
		return 0, false
	}
	if t.Cross != nil {
		s, adjacent := SideOf(from, to)
		if !adjacent {
			return 0, false
		}
		x, ok := t.Cross(s, from, to)
		if !ok {
			return 0, false
		}
		c += x
	}
	return c, true
}

// MaxCells bounds every search, far above any printed map (a few thousand
// cells): a map with free steps everywhere cannot make one run away.
const MaxCells = 1 << 17

// Path is a least-cost path from from to to: the cells after from, to
// last, and its cost. It tries every way (it is Dijkstra's search), so a
// hexside that is dear to cross is walked around when that is cheaper; of
// paths of equal cost it always gives the same one. It is false if to
// cannot be reached within limit (a negative limit: no limit but
// MaxCells).
func Path(from, to Hex, costs Costs, limit int) ([]Hex, int, bool, error) {
	if from == to {
		return []Hex{}, 0, true, nil
	}
	var found bool
	prev := map[Hex]Hex{}
	best, err := search(from, costs, limit, prev, func(h Hex) bool {
		found = h == to
		return found
	})
	if err != nil || !found {
		return nil, 0, false, err
	}
	var path []Hex
	for h := to; h != from; h = prev[h] {
		path = append(path, h)
	}
	slices.Reverse(path)
	return path, best[to], true, nil
}

// Reach is every cell that can be reached from from for at most budget
// (a negative budget: no limit but MaxCells), with the least it costs
// (from itself at 0).
func Reach(from Hex, costs Costs, budget int) (map[Hex]int, error) {
	return search(from, costs, budget, nil, nil)
}

// search runs Dijkstra's search from from over cells costing at most
// limit (no limit if negative), noting each cell's predecessor in prev if
// given, until stop says a settled cell is the one wanted. It returns the
// least cost of every settled cell.
func search(from Hex, costs Costs, limit int, prev map[Hex]Hex, stop func(Hex) bool) (map[Hex]int, error) {
	best := map[Hex]int{from: 0}
	done := map[Hex]bool{}
	q := &queue{{from, 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		if done[it.h] || it.cost > best[it.h] {
			continue
		}
		done[it.h] = true
		if stop != nil && stop(it.h) {
			break
		}
		if len(done) > MaxCells {
			return nil, fmt.Errorf("the search from %s gave up after %d cells: the map gives no bound", from, MaxCells)
		}
		for _, n := range it.h.Neighbours() {
			if done[n] {
				continue
			}
			c, ok := costs.Step(it.h, n)
			if !ok {
				continue
			}
			if c < 0 {
				return nil, fmt.Errorf("a step from %s to %s costs %d; steps cost 0 or more", it.h, n, c)
			}
			total := it.cost + c
			if limit >= 0 && total > limit {
				continue
			}
			if old, seen := best[n]; seen && old <= total {
				continue
			}
			best[n] = total
			if prev != nil {
				prev[n] = it.h
			}
			heap.Push(q, item{n, total})
		}
	}
	for h := range best {
		if !done[h] {
			delete(best, h) // found, not settled: its cost may not be the least
		}
	}
	return best, nil
}

type item struct {
	h    Hex
	cost int
}

// queue is a heap of cells by cost, then by position, so that the search
// settles cells in one order whatever the map's iteration order.
type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.h.Q != b.h.Q {
		return a.h.Q < b.h.Q
	}
	return a.h.R < b.h.R
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
