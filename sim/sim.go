// Package sim runs a scenario's command layer many times with a fixed plan
// of orders and moves (Monte Carlo), and reports for each formation the
// distribution of the turn on which it first acts on each order written
// during the game. Runs are spread over the machine's cores; the result
// does not depend on how many.
package sim

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"orderly/battle"
	"orderly/game"
	"orderly/script"
)

// Never is the key of the runs in which a formation did not act on the
// order before the game ended.
const Never = "never"

// Result is what the runs showed: for each subject the rule set measures
// (NB: a formation), the share of runs by the first turn on which the
// measured thing happened to it (NB: it acted on an order written during
// the game), overall and per label (NB: per order). Its JSON names these
// with the rule set's keys: {"runs": N, "seed": S, "formations": {ID:
// {"first-active-turn": {...}, "orders": {...}}}} for NB.
type Result struct {
	Runs     int
	Seed     uint64
	Measure  game.Measure
	Subjects map[string]*Subject
}

// Subject is one subject's results.
type Subject struct {
	First  map[string]float64            // share of runs by first turn, Never included
	Labels map[string]map[string]float64 // the same per label
}

// MarshalJSON writes the result under the keys its rule set names.
func (r *Result) MarshalJSON() ([]byte, error) {
	m := r.Measure
	subs := make(map[string]map[string]any, len(r.Subjects))
	for id, s := range r.Subjects {
		o := map[string]any{m.First: s.First}
		if len(s.Labels) > 0 {
			o[m.Labels] = s.Labels
		}
		subs[id] = o
	}
	return json.Marshal(map[string]any{"runs": r.Runs, "seed": r.Seed, m.Subjects: subs})
}

// Options set a simulation.
type Options struct {
	Runs     int
	Seed     uint64
	Workers  int            // 0 for one per core
	Progress func(done int) // called now and then with the runs finished; may be nil
}

// tally counts runs: formation -> order ("" for any) -> turn.
type tally map[string]map[string]map[int]int

// counts are one worker's tallies and its scratch space.
type counts struct {
	by map[noted]int
	// What one run has noted: mostly few, so a list, and a set once the
	// list is long.
	seen    [][2]string
	seenSet map[[2]string]bool
}

// noted is one thing a run noted: a subject, a label ("" for any), a turn.
type noted struct {
	subject, label string
	turn           int
}

// Run plays the plan opts.Runs times on sc under rules, run i with dice
// seeded from opts.Seed and i.
func Run(sc *battle.Scenario, rules game.Rules, plan *script.Plan, opts Options) (*Result, error) {
	if opts.Runs < 1 {
		return nil, fmt.Errorf("runs must be at least 1, got %d", opts.Runs)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, opts.Runs)
	m := rules
	if m.Measures().Subjects == "" {
		return nil, fmt.Errorf("rule set %s does not say what a run measures, so it cannot be simulated", rules.ID())
	}
	start, err := game.Prepare(sc, rules)
	if err != nil {
		return nil, err
	}
	var next, done atomic.Int64
	tallies := make([]*counts, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &counts{by: map[noted]int{}}
			tallies[w] = c
			var g *game.Game
			for {
				i := next.Add(1) - 1
				if i >= int64(opts.Runs) {
					return
				}
				var err error
				if g, err = once(start, g, m, plan, SeedOf(opts.Seed, uint64(i)), c); err != nil {
					errs[w] = fmt.Errorf("run %d: %w", i+1, err)
					next.Store(int64(opts.Runs))
					return
				}
				if d := done.Add(1); opts.Progress != nil && (d%256 == 0 || d == int64(opts.Runs)) {
					opts.Progress(int(d))
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	total := tally{}
	// Every subject the plan names is reported, even if nothing ever
	// happens to it.
	for _, cs := range plan.Steps {
		for i := range cs.Commands {
			for _, f := range m.Planned(sc, &cs.Commands[i]) {
				if total[f] == nil {
					total[f] = map[string]map[int]int{"": {}}
				}
			}
		}
	}
	for _, c := range tallies {
		for k, n := range c.by {
			if total[k.subject] == nil {
				total[k.subject] = map[string]map[int]int{}
			}
			if total[k.subject][k.label] == nil {
				total[k.subject][k.label] = map[int]int{}
			}
			total[k.subject][k.label][k.turn] += n
		}
	}
	res := summarise(total, opts)
	res.Measure = m.Measures()
	return res, nil
}

// SeedOf is the dice seed of run i (from 0) of a simulation seeded with
// seed: game.Seeded(SeedOf(seed, i)) plays that run again alone, to see
// why it went as it did.
func SeedOf(seed, i uint64) uint64 { return seed*0x9E3779B97F4A7C15 + i*0xBF58476D1CE4E5B9 + 1 }

// once plays one run and adds what it measured to c.
func once(start *game.Start, g *game.Game, m game.Measurer, plan *script.Plan, seed uint64, c *counts) (*game.Game, error) {
	g, err := start.Reuse(g, game.Seeded(seed))
	if err != nil {
		return nil, err
	}
	if err := plan.Play(g, nil); err != nil {
		return nil, err
	}
	c.seen = c.seen[:0]
	clear(c.seenSet)
	const short = 32
	note := func(f, o string, turn int) {
		k := [2]string{f, o}
		if len(c.seen) < short {
			if slices.Contains(c.seen, k) {
				return
			}
			c.seen = append(c.seen, k)
		} else {
			if c.seenSet == nil {
				c.seenSet = map[[2]string]bool{}
			}
			if len(c.seenSet) == 0 {
				for _, s := range c.seen {
					c.seenSet[s] = true
				}
			}
			if c.seenSet[k] {
				return
			}
			c.seenSet[k] = true
		}
		c.by[noted{f, o, turn}]++
	}
	both := func(f, label string, turn int) {
		note(f, label, turn)
		note(f, "", turn)
	}
	g.Scan(0, func(e *game.Event) {
		if e.Turn <= plan.Until {
			m.Measure(e, both)
		}
	})
	return g, nil
}

// summarise turns counts into shares of the runs, with the runs in which a
// formation never acted under Never.
func summarise(total tally, opts Options) *Result {
	r := &Result{Runs: opts.Runs, Seed: opts.Seed, Subjects: map[string]*Subject{}}
	share := func(byTurn map[int]int) map[string]float64 {
		out := map[string]float64{}
		n := 0
		for t, k := range byTurn {
			out[strconv.Itoa(t)] = float64(k) / float64(opts.Runs)
			n += k
		}
		if n < opts.Runs {
			out[Never] = float64(opts.Runs-n) / float64(opts.Runs)
		}
		return out
	}
	for f, byOrder := range total {
		fm := &Subject{First: share(byOrder[""]), Labels: map[string]map[string]float64{}}
		for o, byTurn := range byOrder {
			if o != "" {
				fm.Labels[o] = share(byTurn)
			}
		}
		r.Subjects[f] = fm
	}
	return r
}

// Turns lists the keys of a distribution in order: turns ascending, then
// never; other keys (order labels) in the order of the turn they name.
func Turns(d map[string]float64) []string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	return keys
}

func less(a, b string) bool {
	if x, y := labelTurn(a), labelTurn(b); x != y {
		return x < y
	}
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	switch {
	case errA == nil && errB == nil:
		return x < y
	case errA == nil:
		return true
	case errB == nil:
		return false
	}
	return a < b
}

// IDs lists the subjects of a result in the scenario's order: its
// formations, then its generals and units, then any other subject by id.
func (r *Result) IDs(sc *battle.Scenario) []string {
	var out []string
	add := func(id string) {
		if _, ok := r.Subjects[id]; ok && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, f := range sc.Formations() {
		add(f.ID)
	}
	for _, g := range sc.Generals() {
		add(g.ID)
	}
	for _, u := range sc.Units() {
		add(u.ID)
	}
	var rest []string
	for id := range r.Subjects {
		if !slices.Contains(out, id) {
			rest = append(rest, id)
		}
	}
	slices.Sort(rest)
	return slices.Clip(append(out, rest...))
}

// labelTurn orders order labels: "turn 3 attack" by its turn, "on entry"
// last.
func labelTurn(s string) int {
	var t int
	var kind string
	if _, err := fmt.Sscanf(s, "turn %d %s", &t, &kind); err == nil {
		return t
	}
	if strings.HasPrefix(s, "on entry") {
		return 1 << 20
	}
	return 0
}
