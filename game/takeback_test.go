package game_test

import (
	"encoding/json"
	"strings"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/rules"
	"orderly/rules/nb"
	"orderly/rules/nes"
	"orderly/table"
)

// undoScenario: one French and one British division, far apart.
const undoScenario = `
name: undo
rules: nb
turns: 4
field: {width: 72, depth: 48}
speeds: {infantry: 6, light-cavalry: 12, heavy-cavalry: 10, artillery: 6}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: napoleon, quality: excellent, range: 12, at: [36, 46]}
    corps:
      - id: I
        general: {id: derlon, quality: average, range: 48, at: [20, 40]}
        order: defend
        divisions:
          - id: I-1
            general: {id: quiot, quality: average, range: 30, at: [15, 30]}
            units:
              - {id: I-1-a, type: infantry, at: [20, 40]}
              - {id: I-1-b, type: infantry, at: [10, 26.8]}
  - id: british
    nation: british
    edge: north
    army: {id: wellington, quality: excellent, range: 16, at: [60, 2]}
    corps:
      - id: B
        general: {id: hill, quality: good, range: 8, at: [60, 4]}
        order: defend
        divisions:
          - id: B-1
            general: {id: clinton, quality: good, range: 4, at: [60, 5]}
            units:
              - {id: B-1-a, type: infantry, formation: line, at: [60, 6]}
`

func builtin(t *testing.T) *table.Set {
	t.Helper()
	set, err := table.Load(rules.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// cmd reads a command as a script writes it.
func cmd(t *testing.T, r game.Rules, text string) game.Command {
	t.Helper()
	c, err := game.DecodeCommand(r, []byte(text), "test")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// accept gives c, failing t on a refusal.
func accept(t *testing.T, g *game.Game, r game.Rules, text string) []game.Event {
	t.Helper()
	evs, err := g.Do(cmd(t, r, text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return evs
}

// refuse gives c and wants it refused with words containing want,
// changing nothing.
func refuse(t *testing.T, g *game.Game, r game.Rules, text, want string) {
	t.Helper()
	h, n := g.Hash(), g.Len()
	_, err := g.Do(cmd(t, r, text))
	if err == nil {
		t.Fatalf("%s: accepted, want refused with %q", text, want)
	}
	if _, ok := err.(*game.Error); !ok || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("%s: refused with %q, want one sentence with %q", text, err, want)
	}
	if g.Hash() != h || g.Len() != n {
		t.Fatalf("%s: a refused take-back changed the game", text)
	}
}

// replays checks that the log replays, directly and through JSON, to the
// game's state.
func replays(t *testing.T, g *game.Game, opts ...game.Option) {
	t.Helper()
	r, err := game.Replay(g.Scenario(), g.Rules(), g.Log(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if r.Hash() != g.Hash() {
		t.Fatal("the replay of the log differs from the game")
	}
	b, err := json.Marshal(g.Log())
	if err != nil {
		t.Fatal(err)
	}
	var back []game.Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	j, err := game.Replay(g.Scenario(), g.Rules(), back, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if j.Hash() != g.Hash() {
		t.Fatal("the replay of the log read back from JSON differs from the game")
	}
}

// TestTakeBack: a side takes back its last move (issue 36): the log keeps
// the move and its withdrawal, the state is as if it had never been
// given, and replay agrees; a take-back is refused after another side
// has acted, after Ready (until Ready is withdrawn), from an earlier step,
// and with nothing to take back.
func TestTakeBack(t *testing.T) {
	r, err := nb.New(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	sc := gametest.Read(t, r, "undo.yaml", []byte(undoScenario))
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	accept(t, g, r, "{side: french, ready: true}")
	accept(t, g, r, "{side: british, ready: true}")
	if g.State().Step != "move" {
		t.Fatalf("the game is in step %s, want move", g.State().Step)
	}
	refuse(t, g, r, "{side: french, take-back: true}", "no command in step move")
	before := g.Hash()
	at, _ := g.State().Pos("I-1-a")
	moved := accept(t, g, r, "{side: french, move: [{unit: I-1-a, to: [20, 35]}]}")
	if moved[0].Cmd.Side != "french" || moved[0].Cmd.Verb != "move" || moved[0].Cmd.Seq != moved[0].Seq {
		t.Fatalf("the move's event carries origin %+v", moved[0].Cmd)
	}
	if u := g.Undo("french"); !strings.Contains(u, "I-1-a") {
		t.Fatalf("Undo says %q, want the move of I-1-a", u)
	}
	if u := g.Undo("british"); u != "" {
		t.Fatalf("Undo for the british says %q, who gave nothing", u)
	}
	back := accept(t, g, r, "{side: french, take-back: true}")
	if len(back) != 1 || back[0].Type != game.TakenBack {
		t.Fatalf("a take-back appends %v, want one taken-back event", back)
	}
	if tk := back[0].Data.(*game.Taken); len(tk.Of) != len(moved) || tk.Of[0] != moved[0].Seq || tk.Verb != "move" {
		t.Fatalf("the taken-back event withdraws %+v, want the move's %d events", tk, len(moved))
	}
	if g.Hash() != before {
		t.Fatal("after the take-back the state is not as before the move")
	}
	if p, _ := g.State().Pos("I-1-a"); p != at {
		t.Fatalf("I-1-a stands at %v after the take-back, want %v", p, at)
	}
	if !game.Withdrawn(g.Log())[moved[0].Seq] {
		t.Fatal("Withdrawn does not name the move taken back")
	}
	if d := g.Describe(&back[0], nil); !strings.Contains(d, "took back its move") {
		t.Fatalf("the take-back is described as %q", d)
	}
	replays(t, g)
	refuse(t, g, r, "{side: french, take-back: true}", "no command in step move")

	// Someone acting since: the french may not take back; the british
	// take back theirs, then the french may.
	accept(t, g, r, "{side: french, move: [{unit: I-1-a, to: [20, 35]}]}")
	accept(t, g, r, "{side: british, move: [{unit: B-1-a, to: [60, 9]}]}")
	refuse(t, g, r, "{side: french, take-back: true}", "british has acted since")
	accept(t, g, r, "{side: british, take-back: true}")
	accept(t, g, r, "{side: french, take-back: true}")
	if g.Hash() != before {
		t.Fatal("after both take-backs the state is not as before the moves")
	}
	replays(t, g)

	// Two moves: taken back one at a time, the last first.
	accept(t, g, r, "{side: french, move: [{unit: I-1-a, to: [20, 37]}]}")
	one := g.Hash()
	accept(t, g, r, "{side: french, move: [{unit: I-1-b, to: [10, 22]}]}")
	accept(t, g, r, "{side: french, take-back: true}")
	if g.Hash() != one {
		t.Fatal("taking back the second move does not leave the first")
	}
	// Ready: no take-back until it is withdrawn.
	accept(t, g, r, "{side: french, ready: true}")
	refuse(t, g, r, "{side: french, take-back: true}", "withdraw Ready first")
	if g.Undo("french") != "" {
		t.Fatal("Undo offers a take-back to a side that is ready")
	}
	un := accept(t, g, r, "{side: french, unready: true}")
	if len(un) != 1 || un[0].Type != game.SideUnready || un[0].See != game.All {
		t.Fatalf("unready appends %v, want one side-unready event seen by all", un)
	}
	if len(g.State().Ready) != 0 {
		t.Fatalf("after unready the ready sides are %v", g.State().Ready)
	}
	refuse(t, g, r, "{side: french, unready: true}", "not ready")
	accept(t, g, r, "{side: french, take-back: true}")
	if g.Hash() != before {
		t.Fatal("after unready and the take-back the state is not as before the moves")
	}
	replays(t, g)

	// From an earlier step: never.
	accept(t, g, r, "{side: french, move: [{unit: I-1-a, to: [20, 37]}]}")
	accept(t, g, r, "{side: french, ready: true}")
	accept(t, g, r, "{side: british, ready: true}")
	refuse(t, g, r, "{side: french, take-back: true}", "no command in step")
	refuse(t, g, r, "{side: umpire, take-back: true}", "as that side")
	replays(t, g)
}

// TestStepEnded: the umpire's end tells every seat, before the steps that
// follow, that he ended the step and who was not ready.
func TestStepEnded(t *testing.T) {
	r, err := nb.New(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	sc := gametest.Read(t, r, "undo.yaml", []byte(undoScenario))
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	accept(t, g, r, "{side: french, ready: true}")
	evs := accept(t, g, r, "{side: umpire, end: true}")
	if len(evs) == 0 || evs[0].Type != game.StepEnded || evs[0].See != game.All {
		t.Fatalf("the umpire's end begins with %v, want a step-ended event seen by all", evs)
	}
	d := evs[0].Data.(*game.Ended)
	if d.By != game.Umpire || len(d.Waited) != 1 || d.Waited[0] != "british" {
		t.Fatalf("step-ended says %+v, want by the umpire with the british not ready", d)
	}
	if s := g.Describe(&evs[0], nil); s != "the umpire ended the write step; british was not ready" {
		t.Fatalf("step-ended is described as %q", s)
	}
	refuse(t, g, r, "{side: french, unready: true}", "not ready")
	replays(t, g)
}

// TestTakeBackRefused: a command that drew dice, or made contact with a
// piece its side did not spot, or changed what a side spots is not taken
// back; a move in sight of nothing new is, and the fog is as if it had
// never been given.
func TestTakeBackRefused(t *testing.T) {
	r, err := nes.New(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	sc := gametest.Read(t, r, "contacts.yaml", []byte(contacts))
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if g.State().Step == nes.StepMove && g.Acting()[0] == "french" {
			break
		}
		accept(t, g, r, "{side: "+g.Acting()[0]+", ready: true}")
	}
	if g.State().Step != nes.StepMove {
		t.Fatalf("the game never came to the french move step (at %s)", g.State().Step)
	}
	fog := game.WithFog(game.FogOn)
	// A command that came upon a hidden enemy piece (its contact event, as
	// the log keeps it) is not taken back, after a restart too.
	log := g.Log()
	last := log[len(log)-1]
	log = append(log, game.Event{Seq: len(log) + 1, Turn: last.Turn, Phase: last.Phase, Step: last.Step,
		Type: game.Contacted, Side: "french", See: game.All, Data: &game.Contact{Piece: "f1", Met: "r", At: "0603"},
		Cmd: game.Origin{Seq: len(log) + 1, Side: "french", Verb: "move"}})
	met, err := game.Replay(sc, r, log, fog)
	if err != nil {
		t.Fatal(err)
	}
	refuse(t, met, r, "{side: french, take-back: true}", "came upon an enemy piece")
	// f2, far from r, moves one hex east: nothing new is spotted.
	before := g.Hash()
	sees := map[string]string{}
	for _, sd := range sc.Sides {
		b, _ := json.Marshal(g.Sees(sd.ID))
		sees[sd.ID] = string(b)
	}
	accept(t, g, r, `{side: french, move: {unit: f2, to: "1003"}}`)
	accept(t, g, r, "{side: french, take-back: true}")
	if g.Hash() != before {
		t.Fatal("the take-back of f2's move does not give the state before it")
	}
	for _, sd := range sc.Sides {
		if b, _ := json.Marshal(g.Sees(sd.ID)); string(b) != sees[sd.ID] {
			t.Fatalf("after the take-back the %s see otherwise than before the move", sd.ID)
		}
	}
	replays(t, g, fog)
	// f1 comes within two hexes of r in the woods: the french spot it.
	accept(t, g, r, `{side: french, move: {unit: f1, to: "0403"}}`)
	if g.State().Hidden("french", "r") {
		t.Fatal("f1 two hexes from r does not spot it")
	}
	refuse(t, g, r, "{side: french, take-back: true}", "changed what french spots")
	if g.Undo("french") != "" {
		t.Fatal("Undo offers the take-back of a move that spotted an enemy")
	}
	replays(t, g, fog)
}

// TestTakeBackDice: a command that drew dice is never taken back.
func TestTakeBackDice(t *testing.T) {
	g, _, _ := newDrillGame(t, 4)
	do(t, g, "blue", "order", "B-1")
	if _, err := g.Do(game.Command{Side: "blue", Verb: game.TakeBack}); err == nil || !strings.Contains(err.Error(), "drew dice (drill/order)") {
		t.Fatalf("the take-back of an order roll: %v", err)
	}
}
