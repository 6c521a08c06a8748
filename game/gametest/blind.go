package gametest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/geom"
	"orderly/sight"
)

// Blind is the differential property of fog of war (issue 32): every
// answer a side gets is a function of what it knows. Over random games of
// sc, seeded 1..games, played with fog of war (on and strict in turn), it
// makes pairs of games that are the same but for where some enemy pieces
// stand that the side spots in neither game (the umpire places them, each
// game its own way), and in every third pair one of them (a combat unit)
// missing from the second game altogether; in another third the pair
// parts in the middle of a random game rather than at its start. It then gives both games the same random commands, of
// every side and the umpire. After every command, while the side knows the
// same in both games (the enemy marks it spots and where, where it last
// saw the others, how often that changed), everything the side is given
// must be byte for byte the same in both: the answer to each of its own
// commands (the events it may see, or the refusal, the rule set's Unseen
// first, as the server asks), the events of the others' commands it may
// see, numbered as it numbers them and shown as it is shown them
// (game.Event.Shown), its view (and with strict fog each commander's),
// what the page is given beside it (offers, annotations, advice, reach, arrivals,
// words, the ids it lists) and the forecasts of each of its commands the
// rule set forecasts. A pair ends when the side comes to know something
// that differs (contact with a hidden piece, or a piece coming into
// sight): that is what fog lets through.
//
// The dice are keyed by what a roll is for, not by its place in the log,
// so that the hidden events of one game do not shift the side's own rolls
// (the server's dice are keyed by the log, but behind a secret seed; see
// docs/api.md). The test fails if it compared too little to mean anything.
//
// probes, if given, make commands aimed at where a hidden piece stands in
// one of the games (see Probe); they are given besides the random ones
// whenever the side acts.
func Blind(t *testing.T, rules Random, sc *battle.Scenario, games int, probes ...Probe) {
	t.Helper()
	var total blindCount
	for seed := 1; seed <= games; seed++ {
		mode := game.FogOn
		if seed%2 == 0 {
			mode = game.FogStrict
		}
		t.Run(fmt.Sprintf("blind-%d-%s", seed, mode), func(t *testing.T) {
			c := blindGame(t, rules, sc, uint64(seed), mode, probes)
			total.add(c)
		})
	}
	t.Logf("%s: %+v", rules.ID(), total)
	if total.Pairs == 0 || total.Commands < 10 || total.Refused == 0 || total.Accepted == 0 || total.Events == 0 {
		t.Fatalf("over %d games the differential test made %d pairs and compared %d commands of the blind side (%d refused, %d accepted) and %d events; it needs pairs, refusals, acceptances and events to mean anything", games, total.Pairs, total.Commands, total.Refused, total.Accepted, total.Events)
	}
}

const debugBlind = false

// Probe makes commands of side in g that would meet a piece standing at
// at, where a hidden enemy piece stands in one game of a differential pair:
// moves onto it and past it, forecasts of such moves, lines of sight
// through it, shots and charges at it, so that every refusal, path and
// forecast that could stop at (or go round) a hidden piece is asked for.
type Probe func(g *game.Game, side string, at geom.Point, rng *rand.Rand) []game.Command

// blindCount is what a differential game compared.
type blindCount struct {
	Pairs, Commands, Probes, Refused, Accepted, Events, Forecasts, Diverged, Apart int
}

func (c *blindCount) add(o blindCount) {
	c.Pairs += o.Pairs
	c.Commands += o.Commands
	c.Probes += o.Probes
	c.Refused += o.Refused
	c.Accepted += o.Accepted
	c.Events += o.Events
	c.Forecasts += o.Forecasts
	c.Diverged += o.Diverged
	c.Apart += o.Apart
}

// keyedDice draws each roll from a generator seeded by what the roll is
// for (turn, phase, table, subject and its index in its event), not by the
// event's number, which hidden events change.
type keyedDice struct{ seed uint64 }

func (d keyedDice) Roller(k game.RollKey) dice.Roller {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], d.seed)
	h.Write(b[:])
	fmt.Fprintf(h, "%d/%s/%s/%s/%d", k.Turn, k.Phase, k.Table, k.Subject, k.Index)
	return dice.NewSeeded(h.Sum64())
}

// blindPair is two games that differ in hidden pieces, and the side they
// are compared for.
type blindPair struct {
	rules Random
	sc    *battle.Scenario
	side  string
	mode  string
	g     [2]*game.Game
	seen  [2]int // how many of the side's events each game has shown it
	field *sight.Field
	tops  []string // the side's formations, for strict views
	hid   []string // the pieces placed apart
}

func blindGame(t *testing.T, rules Random, sc *battle.Scenario, seed uint64, mode string, probes []Probe) blindCount {
	t.Helper()
	var n blindCount
	rng := rand.New(rand.NewPCG(seed, 0xb11d))
	p := makePair(t, rules, sc, seed, mode, rng)
	if p == nil {
		return n
	}
	n.Pairs++
	p.compare(t, "after the pieces were placed")
	undo := rand.New(rand.NewPCG(seed, 0x7b))
	for k := 0; k < 600 && !p.g[0].State().Over; k++ {
		cs := []game.Command{rules.Random(p.g[0], rng)}
		if c := cs[0]; c.Side != game.Umpire && c.Verb != game.Ready && c.Verb != game.End && undo.IntN(4) == 0 {
			// Take it back at once (issue 36): accepted or refused alike
			// in both games, the side told the same.
			cs = append(cs, game.Command{Side: c.Side, Verb: game.TakeBack})
		}
		if len(probes) > 0 && slices.Contains(p.g[0].Acting(), p.side) && rng.IntN(3) == 0 {
			id := p.hid[rng.IntN(len(p.hid))]
			pc := p.g[rng.IntN(2)].State().Piece(id)
			if pc == nil {
				pc = p.g[0].State().Piece(id) // missing from the second game
			}
			for _, probe := range probes {
				for _, c := range probe(p.g[0], p.side, pc.At, rng) {
					c.Side = p.side
					cs = append(cs, c)
					n.Probes++
				}
			}
		}
		for _, c := range cs {
			if !p.step(t, c, &n) {
				return n
			}
		}
	}
	return n
}

// step gives command c to both games and compares what the side is given;
// it reports false once the side knows something that differs between
// them.
func (p *blindPair) step(t *testing.T, c game.Command, n *blindCount) bool {
	t.Helper()
	mine := c.Side == p.side
	what := fmt.Sprintf("%s's %s %s", c.Side, c.Verb, argsOf(c))
	if mine && p.forecastable(c.Verb) {
		p.compareForecast(t, c)
		n.Forecasts++
	}
	errs := [2]string{}
	evs := [2][]game.Event{}
	for i, g := range p.g {
		before := g.Len()
		cc := c
		var err error
		if mine {
			// As the server asks: what the side names must be in its view.
			err = p.rules.Unseen(g.State(), p.side, &cc)
		}
		if err == nil {
			_, err = doSafely(g, cc)
		}
		if err != nil {
			errs[i] = err.Error()
			if strings.HasPrefix(errs[i], "panic") {
				t.Fatalf("%s panicked in game %d: %s", what, i, errs[i])
			}
		}
		evs[i] = g.Since(before)
	}
	if mine && (errs[0] == "") != (errs[1] == "") {
		// Whatever the side comes to know by it, a command is not refused
		// for what the side does not spot: it is carried out up to a
		// contact.
		t.Fatalf("turn %d: %s is answered %q in one game and %q in the other, which differ only in enemy pieces it does not spot", p.g[0].State().Turn, what, errs[0], errs[1])
	}
	if !mine && (errs[0] == "") != (errs[1] == "") {
		// The enemy acted on what he knows, which differs: what the side
		// then sees of it is his doing, not a leak (and what he knows is
		// checked from his own seat).
		n.Apart++
		return false
	}
	if !p.same(t) {
		n.Diverged++
		return false
	}
	if mine {
		n.Commands++
		if errs[0] != errs[1] {
			t.Fatalf("turn %d: %s is answered %q in one game and %q in the other, which differ only in enemy pieces it does not spot", p.g[0].State().Turn, what, errs[0], errs[1])
		}
		if errs[0] != "" {
			n.Refused++
		} else {
			n.Accepted++
		}
	}
	n.Events += p.compareEvents(t, what, evs)
	p.compare(t, "after "+what)
	return true
}

// makePair starts two games of sc and has the umpire place, in each, some
// of the enemy pieces that the side does not spot at places where it
// still does not spot them, each game its own way. It returns nil if no
// enemy piece is hidden from the side at the start.
func makePair(t *testing.T, rules Random, sc *battle.Scenario, seed uint64, mode string, rng *rand.Rand) *blindPair {
	t.Helper()
	if rules.Sight() == nil {
		t.Fatalf("rule set %s has no sight data (game.Spotter)", rules.ID())
	}
	side := sc.Sides[int(seed)%len(sc.Sides)].ID
	for try := 0; try < 20; try++ {
		p := &blindPair{rules: rules, sc: sc, side: side, mode: mode, field: sight.On(rules.Sight(), sc)}
		for _, f := range sc.Side(side).Formations[1:] {
			if len(p.tops) < 4 {
				p.tops = append(p.tops, f.ID)
			}
		}
		p.g[0] = p.first(t, seed, rng)
		hidden := p.hidden(rng)
		if len(hidden) == 0 {
			return nil
		}
		gone := p.second(t, seed, hidden)
		if p.place(t, hidden, gone, rng) && p.same(t) {
			p.hid = hidden
			for i := range p.g {
				p.seen[i] = visible(p.g[i], side)
			}
			return p
		}
	}
	return nil
}

// first is the first game of a pair: new, or, in every third pair (the
// second of three), the log of a game played some random commands
// replayed, so that the games part in the middle of a game.
func (p *blindPair) first(t *testing.T, seed uint64, rng *rand.Rand) *game.Game {
	t.Helper()
	first, err := game.New(p.sc, p.rules, keyedDice{seed}, game.WithFog(p.mode))
	if err != nil {
		t.Fatalf("new game: %v", err)
	}
	if seed%3 != 1 {
		return first
	}
	log := first.Log()
	for range 10 + rng.IntN(150) {
		_, _ = doSafely(first, p.rules.Random(first, rng))
		if first.State().Over {
			break // the log before it, which waits for a command
		}
		log = first.Log()
	}
	return replayed(t, p.sc, p.rules, log, seed, p.mode)
}

// hidden picks one to three of the enemy pieces on the table that the
// side does not spot in the first game; none if there are none.
func (p *blindPair) hidden(rng *rand.Rand) []string {
	var hidden []string
	s := p.g[0].State()
	for _, pc := range s.Pieces {
		if pc.Side != p.side && pc.OnTable && s.Hidden(p.side, pc.ID) {
			hidden = append(hidden, pc.ID)
		}
	}
	if len(hidden) == 0 {
		return nil
	}
	rng.Shuffle(len(hidden), func(i, j int) { hidden[i], hidden[j] = hidden[j], hidden[i] })
	return hidden[:1+rng.IntN(min(3, len(hidden)))]
}

// second starts the second game of the pair: the first's log replayed
// when the pair parts midway, else a new game, in every third pair
// without one of the hidden pieces, a combat unit, if the scenario and
// the rules stand without it. It returns the piece left out, or "".
func (p *blindPair) second(t *testing.T, seed uint64, hidden []string) string {
	t.Helper()
	gone := ""
	second := p.sc
	if seed%3 == 0 {
		for _, id := range hidden {
			if less, ok := without(p.sc, id); ok {
				if _, err := game.New(less, p.rules, keyedDice{seed}, game.WithFog(p.mode)); err == nil {
					gone, second = id, less
					break
				}
			}
		}
	}
	var err error
	if seed%3 == 1 {
		p.g[1] = replayed(t, p.sc, p.rules, p.g[0].Log(), seed, p.mode)
	} else if p.g[1], err = game.New(second, p.rules, keyedDice{seed}, game.WithFog(p.mode)); err != nil {
		t.Fatalf("new game: %v", err)
	}
	return gone
}

// place has the umpire of each game place the hidden pieces (but gone in
// the second) where the side does not spot them; it reports whether
// every one was placed and is still hidden from the side.
func (p *blindPair) place(t *testing.T, hidden []string, gone string, rng *rand.Rand) bool {
	t.Helper()
	placed := true
	for _, id := range hidden {
		for i, g := range p.g {
			if i == 1 && id == gone {
				continue
			}
			at, ok := p.hideAt(g, id, rng)
			if !ok {
				placed = false
				break
			}
			c := game.Command{Side: game.Umpire, Verb: game.Place, Args: Place(p.sc.Space(), id, at)}
			if _, err := doSafely(g, c); err != nil {
				t.Fatalf("the umpire's place of %s at %s in game %d: %v", id, p.sc.Space().Format(at), i, err)
			}
		}
	}
	for i, g := range p.g {
		for _, id := range hidden {
			placed = placed && (i == 1 && id == gone || g.State().Hidden(p.side, id))
		}
	}
	return placed
}

// replayed is a game of sc made by replaying log under fog mode, with the
// dice of a differential pair.
func replayed(t *testing.T, sc *battle.Scenario, rules Random, log []game.Event, seed uint64, mode string) *game.Game {
	t.Helper()
	c, err := game.Replay(sc, rules, log, game.WithFog(mode))
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	c.SetDice(keyedDice{seed})
	return c
}

// without is sc without its combat unit id (a copy: sc is unchanged), and
// whether it could be made (a unit that is the last of its formation is
// kept).
func without(sc *battle.Scenario, id string) (*battle.Scenario, bool) {
	u := sc.Unit(id)
	if u == nil {
		return nil, false
	}
	out := *sc
	out.Sides = nil
	for _, sd := range sc.Sides {
		c := *sd
		if sd.ID == u.Side {
			c.Units = slices.DeleteFunc(slices.Clone(sd.Units), func(x *battle.Unit) bool { return x.ID == id })
			c.Formations = slices.Clone(sd.Formations)
			for i, f := range c.Formations {
				if f.ID != u.Division {
					continue
				}
				if len(f.Units) < 2 {
					return nil, false
				}
				fc := *f
				fc.Units = slices.DeleteFunc(slices.Clone(f.Units), func(x string) bool { return x == id })
				c.Formations[i] = &fc
			}
		}
		out.Sides = append(out.Sides, &c)
	}
	if err := out.Finish(); err != nil {
		return nil, false
	}
	return &out, true
}

// hideAt picks a place for the enemy piece id where none of the side's
// marks would spot it (HideAt).
func (p *blindPair) hideAt(g *game.Game, id string, rng *rand.Rand) (geom.Point, bool) {
	return HideAt(g, p.side, id, rng)
}

// HideAt picks a place in g for the enemy piece id where none of side's
// marks would spot it, by the rule set's sight data: half the time the
// nearest to the side's pieces of those tried (just out of sight, in
// cover, where it is most in the way of their moves and paths), else
// anywhere. It reports false if it found none.
func HideAt(g *game.Game, side, id string, rng *rand.Rand) (geom.Point, bool) {
	field, marks, ix, ok := sightOf(g, id)
	if !ok {
		return geom.Point{}, false
	}
	i := ix[0]
	sp := g.Scenario().Space()
	b := sp.Bounds()
	var own []geom.Point
	for _, m := range marks {
		if m.Side == side {
			own = append(own, m.At)
		}
	}
	reach := field.Rules().Farthest()
	// Half the time the hidden place nearest the side's pieces of those
	// tried: just out of sight, in cover, where it is most in the way.
	closest := rng.IntN(2) == 0
	best, found := geom.Point{}, false
	bestD := math.Inf(1)
	for range 200 {
		var at geom.Point
		if len(own) > 0 && rng.IntN(2) == 0 {
			o := own[rng.IntN(len(own))]
			at = geom.Pt(o.X+(rng.Float64()*2-1)*reach, o.Y+(rng.Float64()*2-1)*reach)
		} else {
			at = geom.Pt(b.Min.X+rng.Float64()*(b.Max.X-b.Min.X), b.Min.Y+rng.Float64()*(b.Max.Y-b.Min.Y))
		}
		if sp.Kind() == geom.KindHex {
			at = geom.Pt(math.Round(at.X), math.Round(at.Y))
		}
		if !sp.Contains(at) {
			continue
		}
		moved := slices.Clone(marks)
		moved[i].At = at
		if Spots(field, moved, side, id) {
			continue
		}
		if !closest {
			return at, true
		}
		for _, o := range own {
			if d := sp.Dist(o, at); d < bestD {
				best, bestD, found = at, d, true
			}
		}
	}
	return best, found
}

// Watched picks a place in g for side's piece own where the enemy piece by
// spots it and none of the side's marks spots by: a hidden enemy watching
// the side's piece (a table's or map's cover lets a piece see farther out
// of it than it is seen). It reports false if it found none.
func Watched(g *game.Game, side, own, by string, rng *rand.Rand) (geom.Point, bool) {
	field, marks, ix, ok := sightOf(g, own, by)
	if !ok {
		return geom.Point{}, false
	}
	i, j := ix[0], ix[1]
	sp := g.Scenario().Space()
	reach := field.Rules().Sees(marks[j].Kind)
	for range 400 {
		a := rng.Float64() * 2 * math.Pi
		d := rng.Float64() * reach
		at := geom.Pt(marks[j].At.X+d*math.Cos(a), marks[j].At.Y+d*math.Sin(a))
		if sp.Kind() == geom.KindHex {
			at = geom.Pt(math.Round(at.X), math.Round(at.Y))
		}
		if !sp.Contains(at) {
			continue
		}
		moved := slices.Clone(marks)
		moved[i].At = at
		if field.Spotted(moved[j], moved[i]) && !Spots(field, moved, side, by) {
			return at, true
		}
	}
	return geom.Point{}, false
}

// sightOf is g's field as its rule set's sight data has it, the marks on
// it, and the index among them of each of ids; false if the rule set has
// no sight data or one of ids is not on the field.
func sightOf(g *game.Game, ids ...string) (*sight.Field, []sight.Mark, []int, bool) {
	spot := g.Rules().Sight()
	if spot == nil {
		return nil, nil, nil, false
	}
	sc := g.Scenario()
	marks := allMarks(g.Rules(), sc, g.State())
	ix := make([]int, len(ids))
	for n, id := range ids {
		if ix[n] = slices.IndexFunc(marks, func(m sight.Mark) bool { return m.ID == id }); ix[n] < 0 {
			return nil, nil, nil, false
		}
	}
	return sight.On(spot, sc), marks, ix, true
}

// Place is the umpire's placement of piece id at at, in space sp.
func Place(sp geom.Space, id string, at geom.Point) *game.Placement {
	pl := &game.Placement{Piece: id, Why: "a differential test"}
	if _, ok := sp.(geom.Labeled); ok {
		pl.Hex = sp.Format(at)
	} else {
		pl.To = at
	}
	return pl
}

// visible counts the events of g that side may see.
func visible(g *game.Game, side string) int {
	n := 0
	g.Scan(0, func(e *game.Event) {
		if e.Visible(side) {
			n++
		}
	})
	return n
}

// knows is what a side knows of the enemy, as the engine's fog has it: the
// marks it spots and where they stand, where it last saw the others, and
// how often what it spots has changed.
type knows struct {
	Spots   map[string]geom.Point
	Lost    []game.Ghost
	Sighted int
}

// Knows is what side knows of the enemy in g, as the engine's fog has it
// (the enemy marks it spots and where, where it last saw the others, how
// often that changed), as JSON: two games in which a side knows the same
// must give it the same answers (Blind).
func Knows(g *game.Game, side string) []byte {
	s := g.State()
	k := knows{Spots: map[string]geom.Point{}, Lost: g.Sees(side).Lost, Sighted: g.Sighted(side)}
	for _, m := range allMarks(g.Rules(), g.Scenario(), s) {
		if m.Side != side && !s.Hidden(side, m.ID) {
			k.Spots[m.ID] = m.At
		}
	}
	b, err := json.Marshal(k)
	if err != nil {
		panic(err) // plain data
	}
	return b
}

// same reports whether the side knows the same in both games.
func (p *blindPair) same(t *testing.T) bool {
	t.Helper()
	return bytes.Equal(Knows(p.g[0], p.side), Knows(p.g[1], p.side))
}

// compareEvents checks that the events of a command the side may see
// are the same in both games, as it is shown them, and returns how many.
func (p *blindPair) compareEvents(t *testing.T, what string, evs [2][]game.Event) int {
	t.Helper()
	var shown [2][]game.Event
	for i := range p.g {
		for _, e := range evs[i] {
			if !e.Visible(p.side) {
				continue
			}
			p.seen[i]++
			e.Seq = p.seen[i]
			e.Hash = ""
			shown[i] = append(shown[i], e.Shown(p.side, true))
		}
	}
	a, b := mustJSON(t, shown[0]), mustJSON(t, shown[1])
	if !bytes.Equal(a, b) && debugBlind {
		for i := range p.g {
			for _, e := range evs[i] {
				t.Logf("game %d: %s", i, mustJSON(t, e))
			}
		}
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("turn %d, %s: the side %s is shown these events in one game:\n%s\nand these in the other, which differs only in enemy pieces it does not spot:\n%s\n(it knows %s)", p.g[0].State().Turn, what, p.side, a, b, Knows(p.g[0], p.side))
	}
	for i := range shown[0] {
		d0, d1 := p.g[0].Describe(&shown[0][i], nil), p.g[1].Describe(&shown[1][i], nil)
		if d0 != d1 {
			t.Fatalf("turn %d, %s: event %d is described to %s as %q in one game and %q in the other", p.g[0].State().Turn, what, shown[0][i].Seq, p.side, d0, d1)
		}
	}
	return len(shown[0])
}

// answers is everything the side is given beside its events, as the
// server's board and odds give it.
type answers struct {
	Step     game.Step           `json:"step"`
	Acting   []string            `json:"acting"`
	View     *game.State         `json:"view"`
	Strict   map[string]any      `json:"strict,omitempty"`
	Offers   map[string][]string `json:"offers,omitempty"`
	Extra    any                 `json:"extra,omitempty"`
	Reaching []string            `json:"reaching,omitempty"`
	Etas     map[string]int      `json:"etas,omitempty"`
	Words    any                 `json:"words,omitempty"`
	Seen     []string            `json:"seen,omitempty"`
	Advice   *game.Advice        `json:"advice,omitempty"`
	Undo     string              `json:"undo,omitempty"`
}

func (p *blindPair) answers(g *game.Game) answers {
	step := g.Step()
	view := g.Sees(p.side)
	out := answers{Step: step, Acting: g.Acting(), View: view}
	if p.mode == game.FogStrict {
		out.Strict = map[string]any{}
		for _, top := range p.tops {
			out.Strict[top] = g.SeesFrom(p.side, top)
		}
	}
	if slices.Contains(g.Acting(), p.side) {
		out.Offers = p.rules.Offers(view, step, p.side)
	}
	out.Extra = p.rules.Annotate(view, step, p.side)
	if r, ok := p.rules.(game.Reacher); ok {
		out.Reaching = r.Reaching(view)
	}
	if c, ok := p.rules.(game.Courier); ok {
		out.Etas = c.Arrivals(view, p.side)
	}
	if w, ok := p.rules.(game.Worder); ok {
		out.Words = w.Words(view)
	}
	out.Seen = p.rules.Seen(view)
	if a, ok := p.rules.(game.Adviser); ok {
		out.Advice = a.Advise(view, step, p.side, nil)
	}
	out.Undo = g.Undo(p.side)
	return out
}

// compare checks that the side is given the same in both games.
func (p *blindPair) compare(t *testing.T, when string) {
	t.Helper()
	a, b := mustJSON(t, p.answers(p.g[0])), mustJSON(t, p.answers(p.g[1]))
	if !bytes.Equal(a, b) {
		t.Fatalf("turn %d, %s: %s is given in one game\n%s\nand in the other, which differs only in enemy pieces it does not spot,\n%s\n(first difference at byte %d: %s)", p.g[0].State().Turn, when, p.side, clip(a), clip(b), firstDiff(a, b), diffAt(a, b))
	}
}

// forecastable reports whether the rule set forecasts verb.
func (p *blindPair) forecastable(verb string) bool {
	return slices.Contains(p.rules.Forecasts(), verb)
}

// compareForecast checks that the forecast of c, worked out on the side's
// view as the server does, is the same in both games.
func (p *blindPair) compareForecast(t *testing.T, c game.Command) {
	t.Helper()
	var out [2][]byte
	for i, g := range p.g {
		fc, err := forecastSafely(p.rules, g.Scenario(), g.Sees(p.side), p.side, c.Args)
		if err != nil {
			out[i] = []byte("refused: " + err.Error())
			continue
		}
		out[i] = mustJSON(t, fc)
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Fatalf("turn %d: the forecast of %s's %s %s is\n%s\nin one game and\n%s\nin the other, which differs only in enemy pieces it does not spot", p.g[0].State().Turn, p.side, c.Verb, argsOf(c), out[0], out[1])
	}
}

func forecastSafely(f game.Forecaster, sc *battle.Scenario, s *game.State, side string, args any) (fc []game.Forecast, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f.Forecast(sc, s, side, args)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

func argsOf(c game.Command) string {
	b, err := json.Marshal(c.Args)
	if err != nil {
		return "?"
	}
	return string(b)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// diffAt shows both texts around their first difference.
func diffAt(a, b []byte) string {
	i := firstDiff(a, b)
	lo := max(0, i-160)
	return fmt.Sprintf("\n  one:   …%s…\n  other: …%s…", a[lo:min(len(a), i+160)], b[lo:min(len(b), i+160)])
}

func clip(b []byte) []byte {
	if len(b) > 600 {
		return append(b[:600:600], "…"...)
	}
	return b
}
