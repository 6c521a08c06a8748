package terrain

import (
	"fmt"
	"math/bits"
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
	mark []mark   // by node: a cell in a layer (layer*cells + cell)
	hex  []uint32 // by cell: the search that last settled it
	done []uint64 // by cell: the layers it is settled in, for that search
	gen  uint32
	q    buckets
	at   []hex.Hex
	next []int32 // the neighbours of cell i at 6*i..6*i+5, -1 off the map
}

// mark is what a search knows of a node: seen in this search (stamp),
// at what least cost yet, from which node, and in a search that breaks
// ties by effects (Layers.Effects) the tie-break of that way (see
// tieEffect). One struct, so that a relax touches one place in memory.
type mark struct {
	stamp      uint32
	cost, prev int32
	tie        int32
}

// node is a queued node (a cell in a layer) with its cost, and in a
// search that breaks ties by effects its tie-break plus the least hexes
// left to the goal (q), which orders the nodes of one estimated total.
type node struct {
	v, g, q int32
}

// A tie-break (mark.tie) is the rises in effects rank along a way, times
// tieEffect, plus its hexes: ways of equal cost are told apart by their
// effects first, then by their hexes. Effects of at most MaxEffects along
// a way where they never fall leave room for 1<<24 hexes in an int32.
const (
	tieEffect = 1 << 24
	tieHexes  = tieEffect - 1
)

// MaxEffects bounds a layer's effects rank (Layers.Effects).
const MaxEffects = 63

// buckets is a queue of nodes by estimated total (a bucket queue: costs
// are small whole numbers, so each total has its own bucket, kept in a
// ring from the least total queued). A bucket is a stack: of nodes with
// the same total, the one queued last comes out first, which makes a
// search the same every time. In a search that breaks ties (lex) a bucket
// is a heap instead: the least q first, then the greatest cost (the node
// nearest the goal by the estimate).
type buckets struct {
	ring  [][]node
	base  int32 // the total of ring[head]
	head  int
	n     int
	empty bool // nothing queued since reset: the first push sets base
	lex   bool
}

func (q *buckets) reset(lex bool) {
	for i := range q.ring {
		q.ring[i] = q.ring[i][:0]
	}
	q.head, q.n, q.empty, q.lex = 0, 0, true, lex
}

// ahead reports whether node a comes out of a heap bucket before b.
func ahead(a, b node) bool { return a.q < b.q || a.q == b.q && a.g > b.g }

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
	b := append(q.ring[k], n)
	q.ring[k] = b
	q.n++
	if q.lex {
		for c := len(b) - 1; c > 0; {
			p := (c - 1) / 2
			if !ahead(b[c], b[p]) {
				break
			}
			b[c], b[p] = b[p], b[c]
			c = p
		}
	}
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
	last := len(b) - 1
	q.n--
	if !q.lex {
		q.ring[q.head] = b[:last]
		return b[last]
	}
	n := b[0]
	b[0] = b[last]
	b = b[:last]
	q.ring[q.head] = b
	for p := 0; ; {
		c := 2*p + 1
		if c >= len(b) {
			break
		}
		if c+1 < len(b) && ahead(b[c+1], b[c]) {
			c++
		}
		if !ahead(b[c], b[p]) {
			break
		}
		b[c], b[p] = b[p], b[c]
		p = c
	}
	return n
}

// NewSearch makes a search over m.
func NewSearch(m *Map) *Search {
	n := m.Len()
	s := &Search{m: m, mark: make([]mark, n), hex: make([]uint32, n), done: make([]uint64, n), at: make([]hex.Hex, n), next: make([]int32, 6*n)}
	for i := range n {
		s.at[i] = m.hexAt(i)
		copy(s.next[6*i:6*i+6], m.cells[i].next[:])
	}
	return s
}

// begin starts a new search over layers layers: every node is unseen;
// lex: the search breaks ties by effects.
func (s *Search) begin(layers int, lex bool) {
	if n := layers * len(s.at); len(s.mark) < n {
		s.mark = make([]mark, n)
		clear(s.hex)
		s.gen = 0
	}
	s.gen++
	if s.gen == 0 {
		clear(s.mark)
		clear(s.hex)
		s.gen = 1
	}
	s.q.reset(lex)
}

// relax notes that node w is reached from node v at cost g with
// tie-break p, if that is the best yet (the least cost, then the least
// tie-break), and queues it with the estimate f and the key q.
func (s *Search) relax(v, w int, g, p, f, q int32) {
	m := &s.mark[w]
	if m.stamp == s.gen && (m.cost < g || m.cost == g && m.tie <= p) {
		return
	}
	*m = mark{s.gen, g, int32(v), p}
	s.q.push(f, node{int32(w), g, q})
}

// Path is a least-cost path from from to to: the cells after from, to
// last, and its cost; false if to cannot be reached within limit (a
// negative limit: no limit). floor is the least any step costs, which
// steers the search toward to (A*); 0 is always safe. Of paths of equal
// cost it gives the same one every time.
func (s *Search) Path(from, to int, step Step, floor, limit int) ([]int, int, bool) {
	return s.path(from, to, over{step: step}, floor, limit)
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

// Layers is the cost of every step over a map for a piece whose way of
// moving changes as it goes: a unit that changes formation or falls into
// disorder as it enters a hex pays for the rest of its way in its new
// state, and may be kept out of hexes it could enter before. Each state
// is a layer, and a search runs over the cells of every layer, from
// layer 0. Entry (l*cells+i)*6+d of Cost is the cost of the step from
// hex i in direction d in layer l, or -1 if the step is not allowed; the
// same entry of Next is the layer the step leaves the piece in. One
// layer needs no Next.
//
// Better[l] marks (bit k) the layers k that are never worse than layer l
// (see LayersOf): a search that has settled a cell in such a layer k does
// not go on from it in layer l at a cost as high.
//
// Effects (see SetEffects), if not nil, ranks each layer by what a piece
// in it has taken on the way that a player would rather it had not (a
// disorder, a forced change of formation); then of paths of equal cost
// PathLayers gives the one whose effects rise least, then the one of
// fewest hexes. Milder is Better with effects counted too: Milder[l]
// marks the layers never worse than l in cost and never of more effects.
// Reach reads neither: it gives costs only.
type Layers struct {
	Cost    Table
	Next    []uint8
	Better  []uint64
	Effects []uint8
	Milder  []uint64
}

// SetEffects ranks the layers of l by their effects (0 none, at most
// MaxEffects), one a layer, so that PathLayers breaks ties between paths
// of equal cost by them (see Layers). A piece keeps what it has taken: a
// step may not lead to a layer of lower rank.
func (l *Layers) SetEffects(effects []uint8) error {
	// LayersOf numbers the layers as steps first name them: there are as
	// many as the greatest named, plus one.
	layers := 1
	for e, c := range l.Cost {
		if c >= 0 && l.Next != nil {
			layers = max(layers, int(l.Next[e])+1)
		}
	}
	if len(effects) != layers || len(l.Cost)%layers != 0 {
		return fmt.Errorf("terrain: %d effects ranks for %d layers: give one a layer", len(effects), layers)
	}
	size := len(l.Cost) / layers
	for a, fx := range effects {
		if fx > MaxEffects {
			return fmt.Errorf("terrain: layer %d has effects rank %d; at most %d", a, fx, MaxEffects)
		}
		for e := a * size; e < (a+1)*size && l.Next != nil; e++ {
			if l.Cost[e] >= 0 && effects[l.Next[e]] < fx {
				return fmt.Errorf("terrain: a step from cell %d of layer %d leads to layer %d of fewer effects (%d, not %d); a piece keeps its effects", e%size/6, a, l.Next[e], effects[l.Next[e]], fx)
			}
		}
	}
	l.Effects = effects
	l.Milder = nil
	if len(effects) > 1 {
		l.Milder = better(l, size, effects)
	}
	return nil
}

// MaxLayers bounds the layers of a Layers.
const MaxLayers = 256

// LayersOf works out the layers of step over m. step prices the step from
// hex i in direction d in layer l and names the layer it leaves the piece
// in; layers are numbered from 0 as step first names them, and each layer
// named is worked out in turn (at most MaxLayers: a step naming a layer
// beyond them is not allowed).
func LayersOf(m *Map, step func(l, i, d int) (cost, next int, ok bool)) Layers {
	size := 6 * m.Len()
	var out Layers
	grow := func(layers int) {
		for len(out.Cost) < size*layers {
			out.Cost = append(out.Cost, make(Table, size)...)
			out.Next = append(out.Next, make([]uint8, size)...)
		}
	}
	grow(1)
	for l := 0; l*size < len(out.Cost); l++ {
		for i := range m.Len() {
			for d := range 6 {
				e := l*size + i*6 + d
				out.Cost[e] = -1
				if m.cells[i].next[d] < 0 {
					continue
				}
				c, nx, ok := step(l, i, d)
				if !ok || c < 0 || c > MaxCost || nx < 0 || nx >= MaxLayers {
					continue
				}
				out.Cost[e], out.Next[e] = int32(c), uint8(nx)
				grow(nx + 1)
			}
		}
	}
	if len(out.Cost) == size {
		out.Next = nil
		return out
	}
	out.Better = better(&out, size, nil)
	return out
}

// better works out which layers of l are never worse than which (layers
// of size entries each, the first 64 only): layer a is never worse than
// layer b if every step allowed in b is allowed in a at no more cost and
// leaves the piece in a layer that is the same as, or never worse than,
// the one b's step leaves it in. It is the greatest such relation: start
// from every pair whose steps cost no more, and drop a pair while one of
// its steps leads to a pair dropped. out[b] marks (bit a) each such a.
// With effects (by layer), a must also be of no more effects than b.
func better(l *Layers, size int, effects []uint8) []uint64 {
	n := min(len(l.Cost)/max(size, 1), 64)
	out := make([]uint64, n)
	for a := range n {
		for b := range n {
			if a != b && (effects == nil || effects[a] <= effects[b]) && cheaper(l, size, a, b) {
				out[b] |= 1 << a
			}
		}
	}
	holds := func(a, b int) bool { return a == b || a < n && b < n && out[b]&(1<<a) != 0 }
	for changed := true; changed; {
		changed = false
		for a := range n {
			for b := range n {
				if out[b]&(1<<a) == 0 {
					continue
				}
				for e := range size {
					if l.Cost[b*size+e] >= 0 && !holds(int(l.Next[a*size+e]), int(l.Next[b*size+e])) {
						out[b] &^= 1 << a
						changed = true
						break
					}
				}
			}
		}
	}
	return out
}

// cheaper reports whether every step allowed in layer b is allowed in
// layer a at no more cost.
func cheaper(l *Layers, size, a, b int) bool {
	ca, cb := l.Cost[a*size:(a+1)*size], l.Cost[b*size:(b+1)*size]
	for e, c := range cb {
		if c >= 0 && (ca[e] < 0 || ca[e] > c) {
			return false
		}
	}
	return true
}

// PathOver is Path over a table, with the hexes marked in blocked (if not
// nil) not to be entered.
func (s *Search) PathOver(from, to int, t Table, blocked []bool, floor, limit int) ([]int, int, bool) {
	return s.path(from, to, over{t: t, blocked: blocked}, floor, limit)
}

// ReachOver is Reach over a table, with the hexes marked in blocked (if
// not nil) not to be entered.
func (s *Search) ReachOver(from int, t Table, blocked []bool, budget int, out []Reached) []Reached {
	return s.reach(from, over{t: t, blocked: blocked}, budget, out)
}

// PathLayers is PathOver for a piece whose state changes on the way
// (Layers), starting in layer 0: the least-cost path to to in whatever
// layer it ends. floor must be the least a step costs in any layer.
func (s *Search) PathLayers(from, to int, l *Layers, blocked []bool, floor, limit int) ([]int, int, bool) {
	return s.path(from, to, s.layered(l, blocked), floor, limit)
}

// ReachLayers is ReachOver for a piece whose state changes on the way
// (Layers), starting in layer 0: every hex it reaches within budget in
// any layer, at the least it costs.
func (s *Search) ReachLayers(from int, l *Layers, blocked []bool, budget int, out []Reached) []Reached {
	return s.reach(from, s.layered(l, blocked), budget, out)
}

func (s *Search) layered(l *Layers, blocked []bool) over {
	o := over{t: l.Cost, next: l.Next, better: l.Better, effects: l.Effects, milder: l.Milder, blocked: blocked, layers: 1}
	if l.Next != nil {
		o.layers = max(1, len(l.Cost)/(6*max(len(s.at), 1)))
	}
	return o
}

// over is what a search runs over: a step function or a table (of one
// layer, or of several with next), and the cells not to be entered.
type over struct {
	step    Step
	t       Table
	next    []uint8
	better  []uint64
	effects []uint8  // by layer, for a path: break ties by them
	milder  []uint64 // better with effects counted
	blocked []bool
	layers  int // 0 or 1: one layer
}

// split is the layer and the cell of node v (a search has few layers:
// no division).
func (s *Search) split(v int) (l, i int) {
	for n := len(s.at); v >= n; v -= n {
		l++
	}
	return l, v
}

// cell is the cell of node v.
func (s *Search) cell(o *over, v int) int {
	if o.layers <= 1 {
		return v
	}
	_, i := s.split(v)
	return i
}

// settle notes that node v of layer l, at cell i, is settled: whether it
// is the first of its cell (which then has its least cost), and whether
// the search goes on from it: not if the cell is settled already in a
// layer never worse than l.
func (s *Search) settle(o *over, l, i int) (first, on bool) {
	if o.layers <= 1 {
		return true, true
	}
	if s.hex[i] != s.gen {
		s.hex[i], s.done[i], first = s.gen, 0, true
	}
	on = l >= len(o.better) || s.done[i]&o.better[l] == 0
	if l < 64 {
		s.done[i] |= 1 << l
	}
	return first, on
}

// settleTie is settle for a search that breaks ties by effects: node v
// of layer l, at cell i, reached at cost g with tie-break p, goes on
// unless the cell is settled already in a layer k never worse than l in
// cost and in effects (Milder), reached for less, or for as much in no
// more hexes (k was settled first, so at no more cost and tie-break; but
// fewer effects may have come with more hexes, which l could save).
func (s *Search) settleTie(o *over, l, i int, g, p int32) bool {
	if o.layers <= 1 {
		return true
	}
	if s.hex[i] != s.gen {
		s.hex[i], s.done[i] = s.gen, 0
	}
	on := true
	if l < len(o.milder) {
		for ks := s.done[i] & o.milder[l]; ks != 0; ks &= ks - 1 {
			k := s.mark[bits.TrailingZeros64(ks)*len(s.at)+i]
			if k.cost < g || k.tie&tieHexes <= p&tieHexes {
				on = false
				break
			}
		}
	}
	if l < 64 {
		s.done[i] |= 1 << l
	}
	return on
}

// edge is the step from node v in direction d, into cell j: the node it
// reaches and its cost; false if it is not allowed.
func (s *Search) edge(o *over, v, d, j int) (int, int32, bool) {
	if o.blocked != nil && o.blocked[j] {
		return 0, 0, false
	}
	if o.t == nil {
		x, ok := o.step(v, d)
		if !ok || x < 0 || x > MaxCost {
			return 0, 0, false
		}
		return j, int32(x), true
	}
	e := v*6 + d
	c := o.t[e]
	if c < 0 {
		return 0, 0, false
	}
	if o.next != nil {
		j += int(o.next[e]) * len(s.at)
	}
	return j, c, true
}

// path is the least-cost path from from to to over o. With effects
// (o.effects) it is the least by cost, then by tie-break (see tieEffect):
// an A* search by (cost, tie-break) whose estimate is (floor, 1) a hex
// left, neither ever more than what is left, so that the first path to
// the goal to come out of the queue is the least in that order.
func (s *Search) path(from, to int, o over, floor, limit int) ([]int, int, bool) {
	if from == to {
		return []int{}, 0, true
	}
	lex := o.effects != nil
	s.begin(max(o.layers, 1), lex)
	goal := s.at[to]
	hexes := func(j int) int32 {
		h := s.at[j]
		dq, dr := h.Q-goal.Q, h.R-goal.R
		return int32((abs(dq) + abs(dr) + abs(dq+dr)) / 2)
	}
	est := func(j int) int32 { return int32(floor) * hexes(j) }
	s.mark[from] = mark{s.gen, 0, -1, 0}
	s.q.push(est(from), node{int32(from), 0, 0})
	for s.q.n > 0 {
		n := s.q.pop()
		v := int(n.v)
		mv := s.mark[v]
		if n.g > mv.cost {
			continue
		}
		l, i := 0, v
		if o.layers > 1 {
			l, i = s.split(v)
		}
		if lex && n.q > mv.tie+hexes(i) {
			continue // queued before a way as cheap with a lesser tie-break
		}
		if i == to {
			var path []int
			for w := v; w != from; w = int(s.mark[w].prev) {
				path = append(path, s.cell(&o, w))
			}
			slices.Reverse(path)
			return path, int(n.g), true
		}
		if lex {
			if !s.settleTie(&o, l, i, mv.cost, mv.tie) {
				continue
			}
		} else if _, on := s.settle(&o, l, i); !on {
			continue
		}
		for d, j32 := range s.next[6*i : 6*i+6] {
			j := int(j32)
			if j < 0 {
				continue
			}
			w, x, ok := s.edge(&o, v, d, j)
			if !ok {
				continue
			}
			g := n.g + x
			if limit >= 0 && int(g) > limit {
				continue
			}
			if !lex {
				if s.mark[w].stamp == s.gen && s.mark[w].cost <= g {
					continue
				}
				s.relax(v, w, g, 0, g+est(j), 0)
				continue
			}
			p := mv.tie + 1
			if o.next != nil {
				if rise := int32(o.effects[o.next[v*6+d]]) - int32(o.effects[l]); rise > 0 {
					p += rise * tieEffect
				}
			}
			s.relax(v, w, g, p, g+est(j), p+hexes(j))
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
	return s.reach(from, over{step: step}, budget, out)
}

func (s *Search) reach(from int, o over, budget int, out []Reached) []Reached {
	s.begin(max(o.layers, 1), false)
	first := len(out)
	s.mark[from] = mark{s.gen, 0, -1, 0}
	s.q.push(0, node{int32(from), 0, 0})
	for s.q.n > 0 {
		n := s.q.pop()
		v := int(n.v)
		if n.g > s.mark[v].cost {
			continue
		}
		l, i := 0, v
		if o.layers > 1 {
			l, i = s.split(v)
		}
		// With layers, the first node of a cell to settle gives its least
		// cost.
		first, on := s.settle(&o, l, i)
		if first {
			out = append(out, Reached{i, int(n.g)})
		}
		if !on {
			continue
		}
		for d, j32 := range s.next[6*i : 6*i+6] {
			j := int(j32)
			if j < 0 {
				continue
			}
			w, x, ok := s.edge(&o, v, d, j)
			if !ok {
				continue
			}
			g := n.g + x
			if budget >= 0 && int(g) > budget {
				continue
			}
			s.relax(v, w, g, 0, g, 0)
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
