package terrain

import (
	"slices"

	"orderly/geom/hex"
)

// Step prices a step from hex from to its neighbour in direction d: what
// it costs (0 up to MaxCost), or false if the step is not allowed.
type Step func(from, d int) (cost int, ok bool)

// MaxCost bounds a step's cost: a dearer one counts as not allowed, so
// that no sum overflows.
const MaxCost = 1 << 20

// Search finds least-cost paths and the hexes within a budget over one
// map. It keeps its scratch space between searches, so one Search serves
// many; it is not safe for use by two goroutines at once.
type Search struct {
	m    *Map
	mark []mark
	gen  uint32
	q    buckets
	at   []hex.Hex
	next []int32 // the neighbours of cell i at 6*i..6*i+5, -1 off the map
}

// mark is what a search knows of a cell: seen in this search (stamp),
// at what least cost yet, from which cell. One struct, so that a relax
// touches one place in memory.
type mark struct {
	stamp      uint32
	cost, prev int32
}

type node struct {
	i, g int32
}

// buckets is a queue of cells by estimated total (a bucket queue: costs
// are small whole numbers, so each total has its own bucket, kept in a
// ring from the least total queued). A bucket is a stack: of cells with
// the same total, the one queued last comes out first, which makes a
// search the same every time.
type buckets struct {
	ring  [][]node
	base  int32 // the total of ring[head]
	head  int
	n     int
	empty bool // nothing queued since reset: the first push sets base
}

func (q *buckets) reset() {
	for i := range q.ring {
		q.ring[i] = q.ring[i][:0]
	}
	q.head, q.n, q.empty = 0, 0, true
}

func (q *buckets) push(f int32, n node) {
	if q.empty {
		q.base, q.empty = f, false
	}
	off := int(f - q.base)
	if off < 0 {
		off = 0 // an estimate that overshoots (a floor set too high): go on
	}
	if off >= len(q.ring) {
		q.grow(off + 1)
	}
	k := (q.head + off) & (len(q.ring) - 1)
	q.ring[k] = append(q.ring[k], n)
	q.n++
}

// grow makes the ring hold at least size totals, keeping their order.
func (q *buckets) grow(size int) {
	n := max(64, len(q.ring))
	for n < size {
		n *= 2
	}
	ring := make([][]node, n)
	for i := range q.ring {
		ring[i] = q.ring[(q.head+i)&(len(q.ring)-1)]
	}
	q.ring, q.head = ring, 0
}

func (q *buckets) pop() node {
	mask := len(q.ring) - 1
	for len(q.ring[q.head]) == 0 {
		q.head = (q.head + 1) & mask
		q.base++
	}
	b := q.ring[q.head]
	n := b[len(b)-1]
	q.ring[q.head] = b[:len(b)-1]
	q.n--
	return n
}

// NewSearch makes a search over m.
func NewSearch(m *Map) *Search {
	n := m.Len()
	s := &Search{m: m, mark: make([]mark, n), at: make([]hex.Hex, n), next: make([]int32, 6*n)}
	for i := range n {
		s.at[i] = m.hexAt(i)
		copy(s.next[6*i:6*i+6], m.cells[i].next[:])
	}
	return s
}

// begin starts a new search: every cell is unseen.
func (s *Search) begin() {
	s.gen++
	if s.gen == 0 {
		clear(s.mark)
		s.gen = 1
	}
	s.q.reset()
}

// relax notes that cell j is reached from i at cost g, if that is the
// best yet, and queues it with the estimate f.
func (s *Search) relax(i, j int, g, f int32) {
	m := &s.mark[j]
	if m.stamp == s.gen && m.cost <= g {
		return
	}
	*m = mark{s.gen, g, int32(i)}
	s.q.push(f, node{int32(j), g})
}

// Path is a least-cost path from from to to: the cells after from, to
// last, and its cost; false if to cannot be reached within limit (a
// negative limit: no limit). floor is the least any step costs, which
// steers the search toward to (A*); 0 is always safe. Of paths of equal
// cost it gives the same one every time.
func (s *Search) Path(from, to int, step Step, floor, limit int) ([]int, int, bool) {
	return s.path(from, to, step, nil, nil, floor, limit)
}

// Table is the cost of every step over a map, worked out once: entry
// i*6+d is the cost of the step from hex i in direction d, or -1 if the
// step is not allowed. A search over a table is faster than over a Step.
type Table []int32

// TableOf works out the table of step over m.
func TableOf(m *Map, step Step) Table {
	t := make(Table, 6*m.Len())
	for i := range m.Len() {
		for d := range 6 {
			t[i*6+d] = -1
			if m.cells[i].next[d] < 0 {
				continue
			}
			if c, ok := step(i, d); ok && c >= 0 && c <= MaxCost {
				t[i*6+d] = int32(c)
			}
		}
	}
	return t
}

// PathOver is Path over a table, with the hexes marked in blocked (if not
// nil) not to be entered.
func (s *Search) PathOver(from, to int, t Table, blocked []bool, floor, limit int) ([]int, int, bool) {
	return s.path(from, to, nil, t, blocked, floor, limit)
}

// ReachOver is Reach over a table, with the hexes marked in blocked (if
// not nil) not to be entered.
func (s *Search) ReachOver(from int, t Table, blocked []bool, budget int, out []Reached) []Reached {
	return s.reach(from, nil, t, blocked, budget, out)
}

// cost is a step's price from the table, or else from step.
func cost(step Step, t Table, blocked []bool, i, d, j int) (int32, bool) {
	if blocked != nil && blocked[j] {
		return 0, false
	}
	if t != nil {
		c := t[i*6+d]
		return c, c >= 0
	}
	x, ok := step(i, d)
	if !ok || x < 0 || x > MaxCost {
		return 0, false
	}
	return int32(x), true
}

func (s *Search) path(from, to int, step Step, t Table, blocked []bool, floor, limit int) ([]int, int, bool) {
	if from == to {
		return []int{}, 0, true
	}
	s.begin()
	goal := s.at[to]
	est := func(j int) int32 {
		h := s.at[j]
		dq, dr := h.Q-goal.Q, h.R-goal.R
		return int32(floor * (abs(dq) + abs(dr) + abs(dq+dr)) / 2)
	}
	s.mark[from] = mark{s.gen, 0, -1}
	s.q.push(est(from), node{int32(from), 0})
	for s.q.n > 0 {
		n := s.q.pop()
		i := int(n.i)
		if n.g > s.mark[i].cost {
			continue
		}
		if i == to {
			var path []int
			for j := to; j != from; j = int(s.mark[j].prev) {
				path = append(path, j)
			}
			slices.Reverse(path)
			return path, int(n.g), true
		}
		for d, j32 := range s.next[6*i : 6*i+6] {
			j := int(j32)
			if j < 0 {
				continue
			}
			x, ok := cost(step, t, blocked, i, d, j)
			if !ok {
				continue
			}
			g := n.g + x
			if limit >= 0 && int(g) > limit || s.mark[j].stamp == s.gen && s.mark[j].cost <= g {
				continue
			}
			s.relax(i, j, g, g+est(j))
		}
	}
	return nil, 0, false
}

// Reached is a hex reached by Reach, with the least it costs.
type Reached struct {
	I, Cost int
}

// Reach is every hex that can be reached from from for at most budget
// (a negative budget: no limit), with its least cost: from itself (at 0)
// first, then the others in order of cost, then index. It appends to out, which may be
// nil.
func (s *Search) Reach(from int, step Step, budget int, out []Reached) []Reached {
	return s.reach(from, step, nil, nil, budget, out)
}

func (s *Search) reach(from int, step Step, t Table, blocked []bool, budget int, out []Reached) []Reached {
	s.begin()
	first := len(out)
	s.mark[from] = mark{s.gen, 0, -1}
	s.q.push(0, node{int32(from), 0})
	for s.q.n > 0 {
		n := s.q.pop()
		i := int(n.i)
		if n.g > s.mark[i].cost {
			continue
		}
		out = append(out, Reached{i, int(n.g)})
		for d, j32 := range s.next[6*i : 6*i+6] {
			j := int(j32)
			if j < 0 {
				continue
			}
			x, ok := cost(step, t, blocked, i, d, j)
			if !ok {
				continue
			}
			g := n.g + x
			if budget >= 0 && int(g) > budget {
				continue
			}
			s.relax(i, j, g, g)
		}
	}
	// A bucket gives its cells last in, first out, and a free step can
	// find a cell of some cost after others of that cost: order them,
	// from itself first.
	slices.SortFunc(out[first+1:], func(a, b Reached) int {
		if a.Cost != b.Cost {
			return a.Cost - b.Cost
		}
		return a.I - b.I
	})
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
