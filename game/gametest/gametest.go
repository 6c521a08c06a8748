// Package gametest is the conformance suite that every rule set must pass
// (in the spirit of OpenSpiel's): random legal play never panics, every log
// replays to the same state hash, a game round-trips through JSON, a
// rejected command changes nothing, and a side's view never holds the other
// side's secrets. It also builds large synthetic fields for benchmarks.
package gametest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
)

// Check is a rule set's own test of a game's state, run by Conformance
// after every accepted command.
type Check func(t *testing.T, g *game.Game)

// Random is a rule set that makes random commands for a game, mostly
// plausible and some not, for the conformance suite. A command that writes
// free text (an order's note) writes "secret-SIDE-N", so that a view that
// leaks the other side's text is caught.
type Random interface {
	game.Rules
	Random(g *game.Game, rng *rand.Rand) game.Command
	// EventTypes lists every event type of the rule set.
	EventTypes() []string
}

// Conformance plays games of sc under rules with random commands from the
// rule set's own generator, seeded 1..games, and checks the engine's
// promises (and the given checks) after every command.
func Conformance(t *testing.T, rules Random, sc *battle.Scenario, games int, checks ...Check) {
	t.Helper()
	for seed := 1; seed <= games; seed++ {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			play(t, rules, sc, uint64(seed), checks)
		})
	}
}

func play(t *testing.T, rules Random, sc *battle.Scenario, seed uint64, checks []Check) {
	g, err := game.New(sc, rules, game.Seeded(seed))
	if err != nil {
		t.Fatalf("new game: %v", err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	undo := takeBacks{rng: rand.New(rand.NewPCG(seed, 0x7b))}
	accepted, rejected := 0, 0
	types := map[string]bool{game.StepBegun: true, game.SideReady: true, game.GameOver: true, game.Placed: true, game.Contacted: true,
		game.SideUnready: true, game.TakenBack: true, game.StepEnded: true}
	for _, typ := range rules.EventTypes() {
		types[typ] = true
	}
	for steps := 0; !g.State().Over && steps < 5000; steps++ {
		c := rules.Random(g, rng)
		try := undo.want(g, c)
		before, n := g.Hash(), g.Len()
		evs, err := doSafely(g, c)
		if err != nil {
			var ge *game.Error
			if !errors.As(err, &ge) {
				t.Fatalf("command %+v failed without a rejection: %v", c, err)
			}
			if g.Hash() != before || g.Len() != n {
				t.Fatalf("rejected command %+v changed the game: %v", c, err)
			}
			if ge.Msg == "" || strings.Contains(ge.Msg, "\n") {
				t.Fatalf("rejection of %+v is not one line: %q", c, ge.Msg)
			}
			rejected++
			continue
		}
		accepted++
		if accepted == 1 {
			Keys(t, g)
		}
		for _, check := range checks {
			check(t, g)
		}
		for _, e := range evs {
			if e.See == "" || e.Type == "" {
				t.Fatalf("event %d (%s) has no audience or type", e.Seq, e.Type)
			}
			if !types[e.Type] {
				t.Fatalf("event %d has type %s, which the rule set does not list", e.Seq, e.Type)
			}
			d := g.Describe(&e, nil)
			if d == "" || d == e.Type || strings.Contains(d, "\n") {
				t.Fatalf("event %d (%s) is described as %q; want one sentence", e.Seq, e.Type, d)
			}
		}
		if accepted%25 == 0 {
			checkReplay(t, g)
			checkViews(t, g)
		}
		if try != nil {
			undo.check(t, g, c, evs, before, try)
		}
	}
	if !g.State().Over {
		t.Fatalf("the game did not end in 5000 commands (turn %d)", g.State().Turn)
	}
	checkReplay(t, g)
	checkViews(t, g)
	if accepted < 20 || rejected == 0 {
		t.Fatalf("random play accepted %d and rejected %d commands; the generator is too narrow", accepted, rejected)
	}
	t.Logf("take-backs: %d tried, %d accepted", undo.tried, undo.taken)
}

func doSafely(g *game.Game, c game.Command) (evs []game.Event, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return g.Do(c)
}

// checkReplay folds the log again, directly and through JSON, and compares
// the state hashes.
func checkReplay(t *testing.T, g *game.Game) { checkReplayWith(t, g) }

func checkReplayWith(t *testing.T, g *game.Game, opts ...game.Option) {
	t.Helper()
	r, err := game.Replay(g.Scenario(), g.Rules(), g.Log(), opts...)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if r.Hash() != g.Hash() {
		t.Fatalf("replay of %d events gives hash %s, the game has %s", g.Len(), r.Hash(), g.Hash())
	}
	for _, sd := range g.Scenario().Sides {
		a, _ := json.Marshal(g.Sees(sd.ID))
		b, _ := json.Marshal(r.Sees(sd.ID))
		if !bytes.Equal(a, b) {
			t.Fatalf("the replay's view of %s differs from the game's", sd.ID)
		}
	}
	b, err := json.Marshal(g.Log())
	if err != nil {
		t.Fatalf("marshal log: %v", err)
	}
	var back []game.Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("unmarshal log: %v", err)
	}
	r2, err := game.Replay(g.Scenario(), g.Rules(), back, opts...)
	if err != nil {
		t.Fatalf("replay from JSON: %v", err)
	}
	if r2.Hash() != g.Hash() {
		t.Fatal("replay from JSON gives another state")
	}
	b2, _ := json.Marshal(back)
	if string(b) != string(b2) {
		t.Fatal("the log does not round-trip through JSON unchanged")
	}
	// A game replayed part way and extended by the rest (a server catching
	// up with what another wrote) ends as the whole replay does.
	half := len(back) / 2
	var tail []game.Event
	if err := json.Unmarshal(b, &tail); err != nil {
		t.Fatalf("unmarshal log: %v", err)
	}
	// Split where a command ended: a replay must end in a step that waits.
	var r3 *game.Game
	for ; r3 == nil; half-- {
		if r3, err = game.Replay(g.Scenario(), g.Rules(), back[:half], opts...); err == nil {
			break
		}
		if half == 0 {
			t.Fatalf("replay of no events: %v", err)
		}
	}
	for from := half; from < len(tail); from += 7 {
		if err := r3.Extend(tail[from:min(from+7, len(tail))]); err != nil {
			t.Fatalf("extend from event %d: %v", from+1, err)
		}
	}
	if r3.Hash() != g.Hash() || r3.Head() != g.Head() || r3.Len() != g.Len() {
		t.Fatalf("a replay extended from event %d gives another state or head", half+1)
	}
	for _, sd := range g.Scenario().Sides {
		a, _ := json.Marshal(g.Sees(sd.ID))
		c, _ := json.Marshal(r3.Sees(sd.ID))
		if !bytes.Equal(a, c) {
			t.Fatalf("the extended replay's view of %s differs from the game's", sd.ID)
		}
	}
	if len(tail) > 0 {
		if err := r3.Extend(tail[len(tail)-1:]); err == nil {
			t.Fatal("extending by an event already in the log was accepted")
		}
	}
}

// checkViews checks that a side's view holds nothing the side may not
// see: only events meant for it, and none of the other side's free text.
func checkViews(t *testing.T, g *game.Game) {
	t.Helper()
	logged := map[int]game.Event{}
	for _, e := range g.Log() {
		logged[e.Seq] = e
	}
	fogged := g.Fog() != game.FogOff
	for _, side := range g.Scenario().Sides {
		v := g.View(side.ID)
		for _, e := range v.Events {
			l := logged[e.Seq]
			if !l.Visible(side.ID) {
				t.Fatalf("view of %s has event %d (%s) meant for %s", side.ID, e.Seq, e.Type, l.See)
			}
			if fogged && e.See != "" {
				t.Fatalf("view of %s under fog has event %d (%s) with its audience %s; a side is not told who else sees an event", side.ID, e.Seq, e.Type, e.See)
			}
			if e.Side != side.ID && e.See != game.All && !fogged {
				t.Fatalf("view of %s has the other side's event %d (%s)", side.ID, e.Seq, e.Type)
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("view of %s: %v", side.ID, err)
		}
		other := g.Scenario().Enemy(side.ID)
		if strings.Contains(string(b), "secret-"+other) {
			t.Fatalf("view of %s holds a secret note of %s", side.ID, other)
		}
	}
	all := g.View(game.Umpire)
	if len(all.Events) != g.Len() {
		t.Fatalf("the umpire sees %d of %d events", len(all.Events), g.Len())
	}
}

// Keys checks that the rule set's part of a state uses no key of the
// engine's own (its fields are written beside the engine's in the state's
// JSON).
func Keys(t *testing.T, g *game.Game) {
	t.Helper()
	core := *g.State()
	core.Ext = nil
	var a, b map[string]json.RawMessage
	ca, err := json.Marshal(&core)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := json.Marshal(g.State().Ext)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(ca, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(cb, &b); err != nil {
		t.Fatalf("the rule set's part of the state is not a JSON object: %v", err)
	}
	for k := range b {
		if _, ok := a[k]; ok {
			t.Fatalf("the rule set's part of the state uses the engine's key %s", k)
		}
	}
}

// takeBacks has random play also take commands back (issue 36): after
// one side's command in four, that side takes back its last command. An
// accepted take-back must leave the state, and what every side sees, as
// they were before the command; a refused one changes nothing.
type takeBacks struct {
	rng          *rand.Rand
	tried, taken int
}

// want decides whether to try taking c back once it is given, and if so
// returns what every side sees before it.
func (u *takeBacks) want(g *game.Game, c game.Command) map[string][]byte {
	if c.Side == game.Umpire || c.Verb == game.Ready || c.Verb == game.End || c.Verb == game.Place ||
		c.Verb == game.TakeBack || c.Verb == game.Unready || u.rng.IntN(4) != 0 {
		return nil
	}
	out := map[string][]byte{}
	for _, sd := range g.Scenario().Sides {
		b, _ := json.Marshal(g.Sees(sd.ID))
		out[sd.ID] = b
	}
	return out
}

// check takes back c, given with events evs from the state hashed before.
func (u *takeBacks) check(t *testing.T, g *game.Game, c game.Command, evs []game.Event, before string, sees map[string][]byte) {
	t.Helper()
	u.tried++
	h, n := g.Hash(), g.Len()
	offered := g.Undo(c.Side)
	back, err := doSafely(g, game.Command{Side: c.Side, Verb: game.TakeBack})
	if err != nil {
		var ge *game.Error
		if !errors.As(err, &ge) {
			t.Fatalf("the take-back of %s's %s failed without a rejection: %v", c.Side, c.Verb, err)
		}
		if g.Hash() != h || g.Len() != n {
			t.Fatalf("the refused take-back of %s's %s changed the game: %v", c.Side, c.Verb, err)
		}
		if offered != "" {
			t.Fatalf("Undo offered %q to %s, whose take-back is refused: %v", offered, c.Side, err)
		}
		return
	}
	u.taken++
	if offered == "" {
		t.Fatalf("the take-back of %s's %s was accepted, but Undo offered none", c.Side, c.Verb)
	}
	if len(back) != 1 || back[0].Type != game.TakenBack {
		t.Fatalf("a take-back appended %d events; want one %s", len(back), game.TakenBack)
	}
	tk, ok := back[0].Data.(*game.Taken)
	if !ok || len(tk.Of) == 0 {
		t.Fatalf("the taken-back event withdraws nothing: %+v", back[0].Data)
	}
	if len(evs) > 0 && tk.Of[0] == evs[0].Seq {
		// The command just given was taken back: as if never given.
		if len(tk.Of) != len(evs) {
			t.Fatalf("the take-back of %s's %s withdraws %d events; the command added %d", c.Side, c.Verb, len(tk.Of), len(evs))
		}
		if g.Hash() != before {
			t.Fatalf("after the take-back of %s's %s the state is not as before it", c.Side, c.Verb)
		}
		for side, b := range sees {
			if a, _ := json.Marshal(g.Sees(side)); !bytes.Equal(a, b) {
				t.Fatalf("after the take-back of %s's %s the %s see otherwise than before it:\n%s", c.Side, c.Verb, side, diffAt(a, b))
			}
		}
	}
	if u.taken <= 10 || u.taken%10 == 0 {
		checkReplay(t, g)
	}
}
