// Package game is the command-and-control engine: a game is a scenario plus
// an append-only log of events. Commands are checked against the rules and
// either rejected with a reason (changing nothing) or turned into events;
// the state is the fold of the events, so replaying a log gives the same
// state, proved by Hash. Every random step is a table roll recorded in an
// event, and every event says who may see it; View is the only way state
// reaches a player.
package game

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/dice"
	"orderly/strict"
	"orderly/table"
)

// Step is one step of a turn. Actors say who acts in it: side ids, the ids
// of formations whose commanders act, or All for every side at once; a
// step without actors is automatic (the rule set runs it and the game goes
// on). Verbs are the commands it takes besides ready and end.
type Step struct {
	Phase  string
	Name   string
	Actors []string
	Verbs  []string
}

// Player reports whether the step waits for someone to act.
func (s Step) Player() bool { return len(s.Actors) > 0 }

// Rules is a rule set: its vocabulary, its own state and events, its turn,
// its commands and what happens at each step. The engine keeps the log,
// the core state (turn, step, pieces), the dice and who may see what; the
// rule set decides everything else.
//
// Every rule set also gives what the fog of war, the page, scripts and
// orderly sim ask of it, so those are part of the contract: its sight
// data (Spotter), the odds of an order (Forecaster) and the commands whose
// odds a page may ask for (Forecasts), the names a seat sees (Lister), its
// turn's steps (Sequencer), its events' fields for a script (Fielder),
// what a Monte Carlo run measures (Measurer), the commands the page offers
// (Offerer), what the page draws beside the state (Annotator), the
// formations of each unit type (Shaper) and the types of its part of the
// board (Boarded). The other interfaces of this package that a rule set
// may implement (Marker, Namer, Tracker, Reacher, Placer, Subjecter,
// Foresight, Courier, Worder) stay optional: each says why.
type Rules interface {
	Spotter
	Forecaster
	Forecasts
	Lister
	Sequencer
	Fielder
	Measurer
	Offerer
	Annotator
	Shaper
	Boarded

	// ID names the rule set, as in a scenario's rules field.
	ID() string
	// Vocab is what the rule set allows in a scenario.
	Vocab() battle.Vocab
	// Check tests a scenario against the rule set's requirements.
	Check(sc *battle.Scenario) error
	// Init makes the rule set's own state for a game of sc, beside the
	// core state s (whose pieces it may hold).
	Init(sc *battle.Scenario, s *State) (Ext, error)
	// Next is the turn machine: the step that follows the one s stands
	// in (s.Turn is 0 before the first turn), and the turn it is in. A
	// turn past the scenario's last ends the game.
	Next(s *State) (Step, int)
	// Verbs lists every command verb of the rule set.
	Verbs() []string
	// Decode reads the arguments of a command with verb from YAML (or
	// JSON), naming where in messages.
	Decode(verb string, r strict.Reader, n *yaml.Node, where string) (any, error)
	// Setup runs before turn 1.
	Setup(x *Tx) error
	// Run carries out an automatic step, or the start of a player step.
	Run(step Step, x *Tx) error
	// Command checks a player's command against the state and, if it is
	// legal, emits its events. It must check everything before its first
	// Emit: the events are applied only if it returns nil.
	Command(c *Command, x *Tx) error
	// Settle runs after every command and step: it recomputes what follows
	// from positions, such as engagement.
	Settle(x *Tx) error
	// Payload makes an empty payload for one of the rule set's event
	// types (nil if the type has none), and false for a type it does not
	// have.
	Payload(typ string) (any, bool)
	// Apply folds one of its events into its part of s (s.Ext). The
	// engine then applies the event's moves to the pieces.
	Apply(s *State, e *Event) error
	// View is s as seat (a side id, or Umpire) may see it.
	View(s *State, seat string) *State
	// Unseen refuses a command of seat that names a piece the seat cannot
	// see, exactly as it refuses one that does not exist.
	Unseen(s *State, seat string, c *Command) error
	// Describe says in one sentence what one of its events records; name
	// shows an id to people (a general's name).
	Describe(e *Event, name func(id string) string) string
	// Table returns one of the rule set's tables.
	Table(id string) (*table.Table, error)
}

// Cycle is a turn machine over a fixed list of steps, the same every turn
// (SPEC NB's turn sequence): after the last step comes the first of the
// next turn.
type Cycle []Step

// Next is the step after the one s stands in.
func (c Cycle) Next(s *State) (Step, int) {
	if s.Turn > 0 {
		for i, st := range c {
			if st.Phase == s.Phase && st.Name == s.Step && i+1 < len(c) {
				return c[i+1], s.Turn
			}
		}
	}
	return c[0], s.Turn + 1
}

// Dice hands out the roller for each roll. Rolls are recorded in events, so
// a replay never asks for them again.
type Dice interface {
	Roller(k RollKey) dice.Roller
}

// RollKey identifies a roll: the event it will be part of, how many rolls
// were drawn for that event before it, the table, and what it is for (a
// formation or general id).
type RollKey struct {
	Seq     int
	Index   int
	Turn    int
	Phase   string
	Table   string
	Subject string
}

type seeded struct{ r *dice.Seeded }

func (s seeded) Roller(RollKey) dice.Roller { return s.r }

// Seeded is a Dice that draws every roll from one seeded generator.
func Seeded(seed uint64) Dice { return seeded{dice.NewSeeded(seed)} }

// Game is a scenario and the log of what has happened in it.
type Game struct {
	sc    *battle.Scenario
	rules Rules
	dice  Dice
	log   []*Event // pointers, so that a long log grows without copying every event
	base  int      // events before log[0], forgotten (Forget)
	st    *State
	cur   Step // the step the game stands in

	arena  []Event   // events are stored in blocks, so a game makes few allocations
	blocks [][]Event // every block, for Start.Reuse
	block  int       // blocks in use
	// Memory for what the log's events hold, kept for Start.Reuse.
	begun Slab[Begun]
	moves Slab[Move]
	rolls Slab[Roll]
	mods  Slab[Mod]
	// modBuf is the table's list of modifiers of the last roll, reused.
	modBuf []table.Mod
	txs    [2]Tx   // reused: one that applies at once, one that buffers a command
	cmd    Command // the command being carried out (exec)

	watch func(*State, *Event) // WithWatch
	hand  hand                 // the dice given with the command being carried out (WithDice)
	torn  bool                 // a refused command left the game changed (Torn)
	names func(string) string  // the scenario's names (Names), made by the first Describe

	chain *Chain // hashes each new event, when set
	head  string // the last event's Hash

	// Take-backs (issue 36): origin is the state before the first event,
	// which the log is folded from again without the events withdrawn
	// (skip); marking is the Origin of the command being carried out;
	// revealed holds the commands (by their first event) whose events
	// changed what a side spots.
	origin   *State
	skip     map[int]bool
	marking  Origin
	revealed map[int]bool

	// The rolls drawn so far for the event numbered drawSeq, the next one
	// to be appended: a roll's Index.
	drawSeq, drawn int
	bound          []boundArgs // the latest rolls' params (Roll.Params)
}

// Error is a command rejected by the rules: nothing changed. Rule names the
// SPEC ID behind the rejection, when there is one. Piece, when set, names
// the piece of a move the umpire may make all the same by giving the move
// again with a reason (an override), which the event records.
type Error struct {
	Rule  string
	Msg   string
	Piece string
}

func (e *Error) Error() string {
	if e.Rule != "" {
		return e.Msg + " (" + e.Rule + ")"
	}
	return e.Msg
}

// Overridable makes a rejection of the move of piece that the umpire may
// override with a reason.
func Overridable(piece, rule, format string, args ...any) error {
	return &Error{Rule: rule, Msg: fmt.Sprintf(format, args...), Piece: piece}
}

// Reject makes a rejection.
func Reject(rule, format string, args ...any) error {
	return &Error{Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// New starts a game of sc under rules: it checks the scenario, runs the
// setup (initial orders, secret rolls) and goes on to the first step of
// turn 1 that waits for the players.
func New(sc *battle.Scenario, rules Rules, d Dice, opts ...Option) (*Game, error) {
	p, err := Prepare(sc, rules, opts...)
	if err != nil {
		return nil, err
	}
	return p.New(d)
}

// Start is a scenario checked against a rule set, ready to start many
// games quickly (as a Monte Carlo run does).
type Start struct {
	sc    *battle.Scenario
	rules Rules
	st    *State
	watch func(*State, *Event)
	dice  string // the dice mode
}

// Prepare checks sc against rules once, for Start.New.
func Prepare(sc *battle.Scenario, rules Rules, opts ...Option) (*Start, error) {
	g, err := start(sc, rules, opts)
	if err != nil {
		return nil, err
	}
	return &Start{sc: sc, rules: rules, st: g.st, watch: g.watch, dice: g.hand.mode}, nil
}

// New starts a game with the given dice: the setup, then on to the first
// step of turn 1 that waits for the players.
func (p *Start) New(d Dice) (*Game, error) {
	g := &Game{sc: p.sc, rules: p.rules, st: p.st.clone(), dice: d, watch: p.watch, origin: p.st}
	g.hand.mode = p.dice
	return g, p.begin(g)
}

// Reuse starts a new game in the memory of g, an earlier game from the
// same Start, which must no longer be used (nor events taken from its Log
// without copying). A Monte Carlo run then allocates little.
func (p *Start) Reuse(g *Game, d Dice) (*Game, error) {
	if g == nil || g.sc != p.sc || g.rules != p.rules {
		return p.New(d)
	}
	g.st.reset(p.st)
	g.dice, g.cur = d, Step{}
	g.origin, g.skip, g.marking, g.revealed = p.st, nil, Origin{}, nil
	g.chain, g.head, g.drawSeq, g.drawn = nil, "", 0, 0
	clear(g.log)
	g.log, g.base = g.log[:0], 0
	g.arena, g.block = nil, 0
	g.begun.Reset()
	g.moves.Reset()
	g.rolls.Reset()
	g.mods.Reset()
	return g, p.begin(g)
}

func (p *Start) begin(g *Game) error {
	x := g.tx(false)
	if err := x.Emit(Event{Type: StepBegun, See: All, Phase: "setup", Step: "setup", Data: &Begun{}}); err != nil {
		return err
	}
	if err := g.rules.Setup(x); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	if err := g.rules.Settle(x); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	return g.advance()
}

func start(sc *battle.Scenario, rules Rules, opts []Option) (*Game, error) {
	if sc.Rules != rules.ID() {
		return nil, fmt.Errorf("the scenario is for rules %q, not %q", sc.Rules, rules.ID())
	}
	if err := rules.Check(sc); err != nil {
		return nil, err
	}
	g := &Game{sc: sc, rules: rules, st: NewState(sc)}
	ext, err := rules.Init(sc, g.st)
	if err != nil {
		return nil, err
	}
	g.st.Ext = ext
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	g.watch = o.watch
	if err := CheckDice(o.dice); err != nil {
		return nil, err
	}
	if TableDice(o.dice) && o.fog != "" && o.fog != FogOff {
		return nil, fmt.Errorf("dice %s and fog %s do not go together: dice thrown at the table are seen by everyone at it, so table dice need fog off", o.dice, o.fog)
	}
	g.hand.mode = o.dice
	if g.st.fog, err = newFog(o.fog, sc, rules); err != nil {
		return nil, err
	}
	if g.st.fog != nil {
		g.st.fog.update(g.st)
	}
	return g, nil
}

// Replay rebuilds a game from its log, without rolling any dice. Events
// read from JSON get their payload's type first (Decode).
func Replay(sc *battle.Scenario, rules Rules, events []Event, opts ...Option) (*Game, error) {
	g, err := start(sc, rules, opts)
	if err != nil {
		return nil, err
	}
	g.dice = noDice{}
	// The start stays as it is, for a take-back's fold (Game.refold); the
	// game plays on a copy.
	g.origin, g.st = g.st, g.st.clone()
	if w := Withdrawn(events); len(w) > 0 {
		g.skip = w
	}
	if err := g.replay(events); err != nil {
		return nil, err
	}
	if !g.st.Over && g.st.Turn > 0 && (g.cur.Phase != g.st.Phase || g.cur.Name != g.st.Step || !g.cur.Player()) {
		return nil, fmt.Errorf("the log ends in step %s/%s, which waits for nobody", g.st.Phase, g.st.Step)
	}
	return g, nil
}

// Extend adds to the game events already recorded elsewhere (the next
// ones of its log, read back from a store another process wrote to),
// without rolling any dice: the game ends as Replay of its whole log
// would. Events read from JSON get their payload's type first (Decode).
// On an error the game is left part way and must be rebuilt (Replay).
func (g *Game) Extend(events []Event) error {
	if g.torn {
		return fmt.Errorf("the game was left part way through a refused command; rebuild it from its log")
	}
	if err := g.replay(events); err != nil {
		g.torn = true
		return err
	}
	return nil
}

// replay applies recorded events after the log's last.
func (g *Game) replay(events []Event) error {
	for i := range events {
		e := events[i]
		if e.Seq != g.Len()+1 {
			return fmt.Errorf("event %d has sequence number %d", g.Len()+1, e.Seq)
		}
		if err := decodeData(g.rules, &e); err != nil {
			return err
		}
		if g.skip[e.Seq] {
			// Withdrawn by a take-back further on: kept in the log, never
			// folded.
			g.log = append(g.log, &e)
			g.head = e.Hash
			continue
		}
		if t, ok := e.Data.(*Taken); ok && e.Type == TakenBack {
			if err := g.withdraw(t.Of); err != nil {
				return fmt.Errorf("event %d (%s): %w", e.Seq, e.Type, err)
			}
		}
		looks := g.st.fog.spotChanges(e.Cmd.Side)
		if err := g.st.apply(g.rules, &e); err != nil {
			return fmt.Errorf("event %d (%s): %w", e.Seq, e.Type, err)
		}
		if f := g.st.fog; f != nil {
			f.after(g.st, &e)
			g.reveals(&e, looks)
			// An event the log shows everyone must name only pieces every
			// side spots after it: the fog would have narrowed it.
			if e.See == All {
				c := e
				if f.narrowed(&c, false); c.See != All {
					return fmt.Errorf("event %d (%s) is shown to every side, yet under fog %s it names a piece not every side spots", e.Seq, e.Type, f.mode)
				}
			}
		}
		if b, ok := e.Data.(*Begun); ok && e.Type == StepBegun {
			g.cur = Step{Phase: e.Phase, Name: e.Step, Actors: b.Actors, Verbs: b.Verbs}
		}
		g.log = append(g.log, &e)
		g.head = e.Hash
	}
	return nil
}

type noDice struct{}

func (noDice) Roller(RollKey) dice.Roller { return dice.NewScripted() }

// SetDice changes where the game's future rolls come from (after a Replay,
// to go on playing).
func (g *Game) SetDice(d Dice) { g.dice = d }

// SetChain has c hash every event appended from now on (Event.Hash); nil
// stops it. Events still in memory that have no hash yet (the setup's,
// when SetChain follows New) are hashed first, in order. It fails, setting
// nothing, if one of them cannot be hashed: the hash of the event before
// it is unknown, or its seed's key is not given.
func (g *Game) SetChain(c *Chain) error {
	if c == nil {
		g.chain = nil
		return nil
	}
	i := slices.IndexFunc(g.log, func(e *Event) bool { return e.Hash == "" })
	if i < 0 {
		g.chain = c
		return nil
	}
	prev := g.head
	if i > 0 {
		prev = g.log[i-1].Hash
	} else if g.base == 0 {
		prev = ""
	}
	hashes := make([]string, 0, len(g.log)-i)
	for _, e := range g.log[i:] {
		if e.Hash != "" {
			return fmt.Errorf("event %d has a hash but event %d before it has none", e.Seq, g.log[i].Seq)
		}
		h, err := c.Next(prev, e)
		if err != nil {
			return err
		}
		hashes = append(hashes, h)
		prev = h
	}
	for j, h := range hashes {
		g.log[i+j].Hash = h
	}
	g.chain, g.head = c, prev
	return nil
}

// Head is the hash of the last event (Event.Hash): empty if the game has
// no chain. It is kept when older events are forgotten.
func (g *Game) Head() string { return g.head }

// Scenario is the game's scenario.
func (g *Game) Scenario() *battle.Scenario { return g.sc }

// Rules is the game's rule set.
func (g *Game) Rules() Rules { return g.rules }

// State is the current state. Callers must not change it.
func (g *Game) State() *State { return g.st }

// Log returns a copy of every event so far (after Forget, of every event
// still in memory).
func (g *Game) Log() []Event { return g.Since(0) }

// Since returns a copy of the events after the first n (and after the
// forgotten ones).
func (g *Game) Since(n int) []Event {
	n = min(max(n-g.base, 0), len(g.log))
	out := make([]Event, len(g.log)-n)
	for i, e := range g.log[n:] {
		out[i] = *e
	}
	return out
}

// Scan calls fn with each event after the first n (and after the
// forgotten ones), in order, without copying them. fn must not change or
// keep the event.
func (g *Game) Scan(n int, fn func(e *Event)) {
	for _, e := range g.log[min(max(n-g.base, 0), len(g.log)):] {
		fn(e)
	}
}

// Len is the number of events so far: the game's version.
func (g *Game) Len() int { return g.base + len(g.log) }

// Forget drops all but the last keep events from memory, for a server
// that keeps many games and has their logs on disk. The state, Len and
// the numbering of new events are unchanged; Since and Scan start at Base.
func (g *Game) Forget(keep int) {
	keep = min(max(keep, 0), len(g.log))
	kept := make([]Event, keep)
	for i, e := range g.log[len(g.log)-keep:] {
		kept[i] = *e
	}
	g.base += len(g.log) - keep
	g.log = make([]*Event, keep, max(2*keep, 8))
	for i := range kept {
		g.log[i] = &kept[i]
	}
	// The arena's blocks would keep the forgotten events alive.
	g.arena, g.blocks, g.block = nil, nil, 0
}

// Base is the number of events forgotten: Since and Scan start after them.
func (g *Game) Base() int { return g.base }

// Step is the current step.
func (g *Game) Step() Step {
	if g.cur.Phase != g.st.Phase || g.cur.Name != g.st.Step {
		return Step{Phase: g.st.Phase, Name: g.st.Step}
	}
	return g.cur
}

// Acting lists the sides that act in the current step, in scenario order:
// every side for a step of All, the sides of the actors named otherwise
// (a formation's side for a commander); none for an automatic step.
func (g *Game) Acting() []string {
	var out []string
	for _, a := range g.Step().Actors {
		if a == All {
			return g.sideIDs()
		}
		side := g.sideOf(a)
		if !slices.Contains(out, side) {
			out = append(out, side)
		}
	}
	return out
}

// Describe says in one sentence what e records: the engine's own events
// here, the rule set's by the rule set. name shows an id to people; nil
// shows each piece, general and formation by the name the scenario gives
// it (Names), or by its id where it has none.
func (g *Game) Describe(e *Event, name func(string) string) string {
	if name == nil {
		if g.names == nil {
			g.names = Names(g.sc)
		}
		name = g.names
	}
	return Describe(g.rules, e, name)
}

// Hash is the SHA-256 of the state, in hex: two games with the same hash
// stand in the same place.
func (g *Game) Hash() string {
	b, err := json.Marshal(g.st)
	if err != nil {
		panic(err) // the state is plain data; marshalling cannot fail
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Do carries out a command. A rejected command returns an *Error and
// changes nothing; an accepted one returns the events it added. In a game
// whose dice are thrown at the table (WithDice) a command may also be
// refused with *NeedDice, for dice it did not give; if it had ended a
// step (ready, end), the game may by then have begun to advance, and must
// be rebuilt from its log (Replay) before it is used again.
func (g *Game) Do(c Command) ([]Event, error) {
	before := g.Len()
	if err := g.exec(c); err != nil {
		return nil, err
	}
	return g.Since(before), nil
}

// Exec carries out a command like Do, without copying out its events.
func (g *Game) Exec(c Command) error { return g.exec(c) }

// exec carries out c from the game's own copy, which the rule set is
// handed for the length of the command: a command then costs no
// allocation of its own (a Monte Carlo run gives thousands).
func (g *Game) exec(c Command) error {
	if g.torn {
		return fmt.Errorf("the game was left part way through a refused command; rebuild it from its log")
	}
	g.cmd = c
	if err := g.hand.start(&g.cmd); err != nil {
		g.cmd = Command{}
		return err
	}
	n, turn, step := g.Len(), g.st.Turn, g.cur
	err := g.do(&g.cmd)
	if err == nil {
		err = g.hand.done()
	}
	if err != nil && (g.Len() != n || g.st.Turn != turn || g.cur.Phase != step.Phase || g.cur.Name != step.Name) {
		g.torn = true
	}
	g.hand.stop()
	g.cmd = Command{}
	return err
}

// Torn reports that a command was refused after it had begun to change
// the game (dice thrown at the table were missing when a step it ended
// had begun to advance): the game must be rebuilt from its log (Replay)
// and is refused every command until then.
func (g *Game) Torn() bool { return g.torn }

func (g *Game) do(c *Command) error {
	if g.st.Over {
		return Reject("", "the game is over")
	}
	if c.Side != Umpire && g.sc.Side(c.Side) == nil {
		return Reject("", "side %q is not in this game; allowed: %s, umpire", c.Side, strings.Join(g.sideIDs(), ", "))
	}
	step := g.Step()
	if c.Verb == End {
		if c.Side != Umpire {
			return Reject("", "only the umpire ends a step, for every side at once; %s finishes it with ready", c.Side)
		}
		if c.Step != "" && c.Step != step.Name && c.Step != step.Phase {
			return Reject("", "the game is in step %s of the %s phase, not %s", step.Name, step.Phase, c.Step)
		}
		if step.Player() && !c.Quiet {
			// Every seat is told that the umpire ended the step, and who
			// was not ready (issue 36).
			var waited []string
			for _, sd := range g.Acting() {
				if !slices.Contains(g.st.Ready, sd) {
					waited = append(waited, sd)
				}
			}
			if err := g.tx(false).Emit(Event{Type: StepEnded, Side: Umpire, See: All, Data: &Ended{By: Umpire, Waited: waited}}); err != nil {
				return err
			}
		}
		return g.advance()
	}
	if c.Verb == Ready {
		return g.ready(c.Side)
	}
	if c.Verb == Unready {
		return g.unready(c.Side)
	}
	if c.Verb == TakeBack {
		return g.takeBack(c)
	}
	if c.Verb == Place {
		return g.place(c)
	}
	if !slices.Contains(step.Verbs, c.Verb) {
		return Reject("", "%s is not taken in step %s of the %s phase; allowed now: %s",
			c.Verb, step.Name, step.Phase, strings.Join(append(slices.Clone(step.Verbs), End), ", "))
	}
	if c.Side != Umpire && !g.acts(c.Side) {
		return Reject("", "%s does not act in step %s of the %s phase; %s does", c.Side, step.Name, step.Phase, strings.Join(g.Acting(), ", "))
	}
	// A refused command keeps none of the rolls it drew: the next command
	// draws the same ones again, so refusals cannot fish for better rolls.
	drawSeq, drawn := g.drawSeq, g.drawn
	x := g.tx(true)
	if err := g.rules.Command(c, x); err != nil {
		g.drawSeq, g.drawn = drawSeq, drawn
		return err
	}
	for i := range x.out {
		if err := g.checkRolls(&x.out[i], g.Len()+i+1, true); err != nil {
			g.drawSeq, g.drawn = drawSeq, drawn
			return err
		}
		if err := g.hand.audit(&x.out[i]); err != nil {
			g.drawSeq, g.drawn = drawSeq, drawn
			return err
		}
	}
	if !x.ends {
		// Dice given and not used refuse the command before it is kept,
		// unless a step it ends may still use them (Settle rolls none).
		if err := g.hand.unused(); err != nil {
			g.drawSeq, g.drawn = drawSeq, drawn
			return err
		}
	}
	if c.Side != Umpire {
		// A side's command: its events (and those of the Settle that
		// follows) carry its Origin, so that it may be taken back.
		g.marking = Origin{Seq: g.Len() + 1, Side: c.Side, Verb: c.Verb}
		defer func() { g.marking = Origin{} }()
	}
	for i := range x.out {
		if err := g.append(x.out[i]); err != nil {
			return fmt.Errorf("applying %s: %w", x.out[i].Type, err)
		}
	}
	ends := x.ends
	if err := g.rules.Settle(g.tx(false)); err != nil {
		return err
	}
	g.marking = Origin{}
	if ends {
		return g.advance()
	}
	return nil
}

// ready records that side has finished the current step, and ends the step
// once every side that acts in it has.
func (g *Game) ready(side string) error {
	if side == Umpire {
		return Reject("", "the umpire ends a step with end, not ready")
	}
	if !g.Step().Player() {
		return Reject("", "the game is not waiting for the players")
	}
	if !g.acts(side) {
		return Reject("", "%s does not act in step %s of the %s phase; %s does", side, g.st.Step, g.st.Phase, strings.Join(g.Acting(), ", "))
	}
	if slices.Contains(g.st.Ready, side) {
		return Reject("", "%s is already ready to end step %s of the %s phase", side, g.st.Step, g.st.Phase)
	}
	if err := g.tx(false).Emit(Event{Type: SideReady, Side: side, See: All}); err != nil {
		return err
	}
	for _, a := range g.Step().Actors {
		if a == All {
			for _, sd := range g.sc.Sides {
				if !slices.Contains(g.st.Ready, sd.ID) {
					return nil
				}
			}
		} else if !slices.Contains(g.st.Ready, g.sideOf(a)) {
			return nil
		}
	}
	return g.advance()
}

// acts reports whether side acts in the current step (Acting, without
// making the list).
func (g *Game) acts(side string) bool {
	for _, a := range g.Step().Actors {
		if a == All {
			return slices.ContainsFunc(g.sc.Sides, func(s *battle.Side) bool { return s.ID == side })
		}
		if g.sideOf(a) == side {
			return true
		}
	}
	return false
}

// sideOf is the side of an actor: a side, or a commander's formation.
func (g *Game) sideOf(actor string) string {
	if f := g.sc.Formation(actor); f != nil {
		return f.Side
	}
	return actor
}

func (g *Game) sideIDs() []string {
	var out []string
	for _, s := range g.sc.Sides {
		out = append(out, s.ID)
	}
	return out
}

// maxAutomatic is the most automatic steps in a row: a turn machine that
// never comes to a step that waits for someone has a bug.
const maxAutomatic = 10000

// advance ends the current step and runs the automatic steps that follow,
// stopping at the next step that waits for someone.
func (g *Game) advance() error {
	for range maxAutomatic {
		s, turn := g.rules.Next(g.st)
		if turn > g.sc.Turns {
			x := g.tx(false)
			return x.Emit(Event{Type: GameOver, See: All, Data: &Over{Why: fmt.Sprintf("the scenario ends after turn %d", g.sc.Turns)}})
		}
		if turn < g.st.Turn || turn < 1 {
			return fmt.Errorf("rule set %s: the turn machine goes from turn %d to turn %d", g.rules.ID(), g.st.Turn, turn)
		}
		x := g.tx(false)
		// An automatic step is recorded only by the events it makes; the
		// steps that wait for someone are always in the log.
		g.st.enter(turn, s.Phase, s.Name)
		g.cur = s
		if s.Player() {
			if err := x.Emit(Event{Type: StepBegun, See: All, Turn: turn, Phase: s.Phase, Step: s.Name,
				Data: g.begun.One(Begun{Actors: s.Actors, Verbs: s.Verbs})}); err != nil {
				return err
			}
		}
		if err := g.rules.Run(s, x); err != nil {
			return fmt.Errorf("turn %d %s %s: %w", turn, s.Phase, s.Name, err)
		}
		if err := g.rules.Settle(x); err != nil {
			return fmt.Errorf("turn %d %s %s: %w", turn, s.Phase, s.Name, err)
		}
		if s.Player() {
			return nil
		}
	}
	return fmt.Errorf("rule set %s: %d automatic steps in a row; the turn machine never waits for anyone", g.rules.ID(), maxAutomatic)
}

// checkRolls checks that the rolls e records, numbered seq, are exactly
// those drawn for it, in the order drawn: a rule set that rolls again and
// keeps the roll it likes, or records a roll in another event than the one
// it was drawn for, has a bug. all also checks that no roll drawn for e is
// left out (when e is appended, every roll for it has been drawn).
func (g *Game) checkRolls(e *Event, seq int, all bool) error {
	for i := range e.Rolls {
		r := &e.Rolls[i]
		switch {
		case r.drawn == 0:
			return fmt.Errorf("rule set %s: event %d (%s) records a %s roll that was not drawn through the engine for it (Tx.Roll)", g.rules.ID(), seq, e.Type, r.Table)
		case r.drawn != seq:
			return fmt.Errorf("rule set %s: event %d (%s) records a %s roll drawn for event %d; a roll must be drawn right before the event that records it", g.rules.ID(), seq, e.Type, r.Table, r.drawn)
		case r.Index != i:
			return fmt.Errorf("rule set %s: event %d (%s) records as its roll %d the %s roll drawn after %s for it; an event records its rolls in the order drawn", g.rules.ID(), seq, e.Type, i+1, r.Table, Count(r.Index, "other roll", "other rolls"))
		}
	}
	if all && g.drawSeq == seq && g.drawn != len(e.Rolls) {
		return fmt.Errorf("rule set %s: event %d (%s) records %d of the %d rolls drawn for it; an event records every roll drawn for it", g.rules.ID(), seq, e.Type, len(e.Rolls), g.drawn)
	}
	return nil
}

func (g *Game) append(e Event) error {
	e.Seq = g.Len() + 1
	if e.Type != StepBegun {
		e.Turn, e.Phase, e.Step = g.st.Turn, g.st.Phase, g.st.Step
	}
	if err := g.checkRolls(&e, e.Seq, true); err != nil {
		return err
	}
	if err := g.hand.audit(&e); err != nil {
		return err
	}
	e.Hash = ""
	if g.marking.Seq != 0 {
		e.Cmd = g.marking
	}
	if len(g.arena) == cap(g.arena) {
		if g.block < len(g.blocks) {
			g.arena = g.blocks[g.block][:0] // a block kept from an earlier game
		} else {
			// Blocks grow with the log, from 32 events up to 256.
			g.arena = make([]Event, 0, min(256, max(32, len(g.log))))
			g.blocks = append(g.blocks, g.arena)
		}
		g.block++
	}
	g.arena = append(g.arena, e)
	p := &g.arena[len(g.arena)-1]
	if g.chain != nil {
		h, err := g.chain.Next(g.head, p)
		if err != nil {
			g.arena = g.arena[:len(g.arena)-1]
			return err
		}
		p.Hash = h
	}
	looks := g.st.fog.spotChanges(p.Cmd.Side)
	if err := g.st.apply(g.rules, p); err != nil {
		g.arena = g.arena[:len(g.arena)-1]
		return err
	}
	if f := g.st.fog; f != nil {
		// Fog of war: who may see the event is known once it has happened
		// (who spots the pieces it names where they stand after it), and
		// the chain binds that audience.
		f.after(g.st, p)
		g.reveals(p, looks)
		if f.narrow(p); g.chain != nil {
			h, err := g.chain.Next(g.head, p)
			if err != nil {
				return err
			}
			p.Hash = h
		}
	}
	for i := range p.Rolls {
		p.Rolls[i].drawn = 0 // recorded: it cannot be recorded again
	}
	if g.drawSeq == p.Seq {
		g.drawSeq, g.drawn = 0, 0
	}
	g.log = append(g.log, p)
	g.head = p.Hash
	if g.watch != nil {
		g.watch(g.st, p)
	}
	return nil
}

func (g *Game) tx(buffer bool) *Tx {
	x := &g.txs[0]
	if buffer {
		x = &g.txs[1]
	}
	*x = Tx{g: g, S: g.st, Sc: g.sc, buffer: buffer, out: x.out[:0]}
	return x
}

// Recorded is the rolls of an event that records roll r alone, held in
// memory the game keeps for its log's rolls (see Slab).
func (x *Tx) Recorded(r *Roll) []Roll {
	out := x.g.rolls.Take(1)
	out[0] = *r
	return out
}

// Moves returns n zero moves for an event the rule set is making, from
// memory the game keeps for its log's moves (see Slab).
func (x *Tx) Moves(n int) []Move { return x.g.moves.Take(n) }

// Step is the step the game stands in, with who acts in it: a rule set's
// Command checks that the command is for the step's actor.
func (x *Tx) Step() Step { return x.g.cur }

// Tx is what the rules see while they act: the state, the scenario, and the
// means to roll and to record events.
type Tx struct {
	g      *Game
	S      *State
	Sc     *battle.Scenario
	buffer bool
	out    []Event
	ends   bool // the command ends the step (EndStep)
}

// KeepStep takes back an EndStep of the command being carried out.
func (x *Tx) KeepStep() { x.ends = false }

// EndStep says that the command being carried out ends the step once it
// is accepted, as a charge hands the game to the charged side's reply:
// the turn machine (Rules.Next) then says what follows. It has no effect
// outside a command.
func (x *Tx) EndStep() {
	if x.buffer {
		x.ends = true
	}
}

// Emit records an event. During a step it is applied at once; during a
// command it is applied when the command is accepted.
func (x *Tx) Emit(e Event) error {
	if x.buffer {
		x.out = append(x.out, e)
		return nil
	}
	return x.g.append(e)
}

// Roll rolls one of the rule set's tables for subject (a formation or
// general id) with the given parameters.
func (x *Tx) Roll(tableID, subject string, params map[string]string) (*Roll, *table.Table, error) {
	t, err := x.g.rules.Table(tableID)
	if err != nil {
		return nil, nil, err
	}
	a, err := t.Bind(params)
	if err != nil {
		return nil, nil, fmt.Errorf("%s for %s: %w", tableID, subject, err)
	}
	r, err := x.RollBound(t, a, subject)
	return r, t, err
}

// RollBound rolls table t with parameters already bound (which a rule set
// may keep, to save binding them at every roll). The roll is for the next
// event to be emitted, which must record it: an event records only the
// first roll drawn for it (RollKey.Index 0), so a rule set cannot roll
// again and keep the roll it likes.
func (x *Tx) RollBound(t *table.Table, a table.Args, subject string) (*Roll, error) {
	g := x.g
	seq := g.Len() + len(x.out) + 1
	if g.drawSeq != seq {
		g.drawSeq, g.drawn = seq, 0
	}
	k := RollKey{Seq: seq, Index: g.drawn, Turn: x.S.Turn, Phase: x.S.Phase, Table: t.ID, Subject: subject}
	g.drawn++
	var rl dice.Roller
	th := g.hand.roller(t, subject)
	if th != nil {
		rl = th
	} else {
		rl = g.dice.Roller(k)
	}
	r, err := t.Draw(a, rl, g.modBuf)
	if err != nil {
		if th != nil {
			return nil, th.refusal(t, subject, err)
		}
		return nil, fmt.Errorf("%s for %s: %w", t.ID, subject, err)
	}
	out := g.rolls.One(Roll{Table: r.Table, Subject: subject, Index: k.Index, Params: g.params(t, a), Dice: r.Dice, Faces: r.Faces,
		Natural: r.Natural, Total: r.Total, Result: r.Result, drawn: seq})
	if th != nil && th.used > 0 {
		if err := th.check(t, subject); err != nil {
			return nil, err
		}
		out.From = FromTable
		if len(r.Stages) > 0 {
			out.Faces = th.faces[:th.used:th.used] // a pool's dice, in the order thrown
		}
	}
	out.Mods = g.mods.Take(len(r.Mods))
	for i, m := range r.Mods {
		out.Mods[i] = Mod{Name: m.Name, Value: m.Value, Amount: m.Amount}
	}
	g.modBuf = r.Mods[:0]
	if len(r.Stages) > 0 {
		out.Stages = make([]Stage, len(r.Stages))
		for i, st := range r.Stages {
			out.Stages[i] = Stage{Name: st.Name, Need: st.Need, Faces: st.Faces, Rerolls: st.Rerolls, Kept: st.Kept, Certain: st.Certain}
		}
		out.Marks = r.Marks
	}
	return out, nil
}

// params is a roll's Params: a.Map(), or nil for none. Rolls that bind a
// table alike share one map (a recorded roll is never changed), so that a
// roll does not cost a map.
func (g *Game) params(t *table.Table, a table.Args) map[string]string {
	for _, c := range g.bound {
		if c.t == t && sameArgs(t, a, c.m) {
			return c.m
		}
	}
	m := a.Map()
	if len(m) == 0 {
		m = nil
	}
	if len(g.bound) == cap(g.bound) && len(g.bound) > 0 {
		copy(g.bound, g.bound[1:])
		g.bound = g.bound[:len(g.bound)-1]
	}
	if g.bound == nil {
		g.bound = make([]boundArgs, 0, 16)
	}
	g.bound = append(g.bound, boundArgs{t, m})
	return m
}

type boundArgs struct {
	t *table.Table
	m map[string]string
}

// sameArgs reports whether a binds t's parameters as m records them.
func sameArgs(t *table.Table, a table.Args, m map[string]string) bool {
	n := 0
	for _, p := range t.Params {
		v, ok := a.Value(p.Name)
		if !ok {
			continue
		}
		if w, ok := m[p.Name]; !ok || w != v {
			return false
		}
		n++
	}
	return n == len(m)
}

// Value is the number a table gives its result (e.g. the turns of delay).
func Value(t *table.Table, result string) int {
	if r := t.Result(result); r != nil && r.Value != nil {
		return *r.Value
	}
	return 0
}
