// Package archive is a game as one portable JSON document: its scenario,
// its whole log with each event's link in the game's hash chain, its dice
// seeds and the hash of where it stands. It is what `orderly export`
// writes and `orderly import` and `orderly verify` read, and what players
// send each other to play by e-mail.
package archive

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/script"
	"orderly/strict"
	"orderly/table"
)

// Format names the document's layout this orderly writes: verifiable dice
// drawn under the v2 labels (game.RollLabel), a hash in every event
// (game.Chain), and a chain whose genesis binds every field of the header
// that shapes the game (game.GenesisV2).
const Format = "orderly-game/4"

// Format3 is the layout of an older orderly's documents, and of the
// exports of games it stored: the same fields, but a chain whose genesis
// binds neither the dice nor the fog mode (game.GenesisV1). It is still
// read and verified.
const Format3 = "orderly-game/3"

// FormatOf is the format of the export of a game whose chain starts as
// genesis (game.GenesisV1, game.GenesisV2) says.
func FormatOf(genesis int) string {
	if genesis == game.GenesisV1 {
		return Format3
	}
	return Format
}

// Game is an exported game. Which fields of its header the chain binds,
// and why the others need not be bound, docs/api.md says (the hash chain).
type Game struct {
	Format   string   `json:"format"`
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Rules    string   `json:"rules"`
	Scenario Scenario `json:"scenario"`
	// Tables is the game's own tables file, when it was played on one
	// (a LOB game's numeric tables, or one game's house rules): a game
	// checks out only under them.
	Tables *Scenario `json:"tables,omitempty"`
	// Fog is the game's fog of war mode (game.FogOn, game.FogStrict), when
	// it was played with one: what each side last saw is worked out again
	// under it.
	Fog string `json:"fog,omitempty"`
	// Dice is where the game's dice were thrown (game.DiceTable,
	// game.DiceMixed), when not all by the server.
	Dice   string       `json:"dice,omitempty"`
	Seeds  []game.Seed  `json:"seeds"`
	Events []game.Event `json:"events"`
	Hash   string       `json:"hash"` // game.Game.Hash after the last event
}

// Scenario is the scenario file the game was made from.
type Scenario struct {
	File   string `json:"file"`
	Source string `json:"source"`
}

// Own lists the game's own tables file, read over the rules it is
// checked with; none when it was played on a server's tables.
func (g *Game) Own() []table.Source {
	if g.Tables == nil {
		return nil
	}
	return []table.Source{{Name: g.Tables.File, Data: []byte(g.Tables.Source)}}
}

// Basis is what the document says its chain starts from: its scenario,
// own tables file, dice and fog modes, under the genesis of its format.
func (g *Game) Basis() game.Basis {
	b := game.Basis{Genesis: game.GenesisV2, Scenario: []byte(g.Scenario.Source), Dice: g.Dice, Fog: g.Fog}
	if g.Format == Format3 {
		b.Genesis = game.GenesisV1
	}
	if g.Tables != nil {
		b.Tables = []byte(g.Tables.Source)
	}
	return b
}

// Read reads a document strictly (strict.DecodeJSON: unknown fields and
// repeated keys are refused); where names it in errors.
func Read(r io.Reader, where string) (*Game, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	// An older document is named as such, whatever else it holds.
	var head struct {
		Format any `json:"format"`
	}
	if json.Unmarshal(data, &head) == nil {
		switch head.Format {
		case "orderly-game/1":
			return nil, fmt.Errorf("%s: format orderly-game/1 was written by an older orderly, whose dice and log cannot be checked; this orderly reads %s and %s", where, Format, Format3)
		case "orderly-game/2":
			// Its events are one flat record of NB's fields, before the
			// engine and the rule set each had their own part of an event.
			return nil, fmt.Errorf("%s: format orderly-game/2 was written by an older orderly, whose events have another shape, so this one cannot replay it; this orderly reads %s and %s", where, Format, Format3)
		}
	}
	var g Game
	if err := strict.DecodeJSON(data, &g, where); err != nil {
		return nil, fmt.Errorf("not an orderly game: %w", err)
	}
	switch {
	case g.Format != Format && g.Format != Format3:
		return nil, fmt.Errorf("%s: format is %s; allowed: %s, %s", where, strict.Quote(g.Format, 40), Format, Format3)
	case g.Scenario.Source == "":
		return nil, fmt.Errorf("%s: scenario.source is empty; it must hold the scenario file", where)
	case len(g.Seeds) == 0:
		return nil, fmt.Errorf("%s: seeds is empty; a game has at least the seed of its first roll", where)
	}
	for i, s := range g.Seeds {
		if !game.IsHash(s.Commitment) {
			return nil, fmt.Errorf("%s: seeds[%d].commitment is not 64 lowercase hex digits", where, i)
		}
	}
	if g.Scenario.File == "" {
		g.Scenario.File = "scenario.yaml"
	}
	return &g, nil
}

// Write writes the document, indented.
func (g *Game) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(g)
}

// load reads the document's own scenario (it names no file: nothing else
// is read) and finds its rule set.
func (g *Game) load(engine script.Engine) (*battle.Scenario, game.Rules, error) {
	sc, err := script.LoadAny(g.Scenario.File, []byte(g.Scenario.Source), engine, script.NoFiles)
	if err != nil {
		return nil, nil, err
	}
	if sc.Rules != g.Rules {
		return nil, nil, fmt.Errorf("the document says rules %s, its scenario %s", strict.Quote(g.Rules, 40), strict.Quote(sc.Rules, 40))
	}
	rules, err := engine(sc.Rules)
	if err != nil {
		return nil, nil, err
	}
	// Each event's payload gets its rule set's type: the chain hashes the
	// payload as the rule set writes it, whatever the order of its keys
	// in the document.
	if err := game.Decode(rules, g.Events); err != nil {
		return nil, nil, err
	}
	return sc, rules, nil
}

// ErrState is a log that does not replay to the state the document
// records.
var ErrState = errors.New("the log does not replay to the state the document records")

// Replay rebuilds the game from the document and checks that it stands
// where the document says.
func (g *Game) Replay(engine script.Engine) (*game.Game, error) {
	sc, rules, err := g.load(engine)
	if err != nil {
		return nil, err
	}
	gm, err := game.Replay(sc, rules, g.Events, game.WithFog(g.Fog), game.WithDice(g.Dice))
	if err != nil {
		return nil, err
	}
	if gm.Hash() != g.Hash {
		return nil, ErrState
	}
	return gm, nil
}

// Report is what Verify found.
type Report struct {
	Events    int
	Rolls     int // rolls drawn again from their revealed seed and matched
	Secret    int // rolls under a seed not revealed in the document
	Table     int // rolls thrown at the table: their faces read again, no seed drawn
	Chained   int // events whose hash follows from the log before them
	Unchained int // events the chain cannot be followed to: from the first under a secret seed on
	Heads     int // heads given and found in the chain
	Hash      string
}

// ErrSecret is a document with events whose seed it does not reveal.
var ErrSecret = errors.New("some events are under a dice seed that is still secret")

// Verify checks the document: in event order, each event's link in the
// hash chain and then its roll (the first disagreement is a
// *game.Mismatch), then the replay of the log and the state it reaches,
// and then that each head given (the hash of an event that a seat was
// shown during play) is the hash of an event of the chain. No message
// holds a value that would have agreed. Events under a seed still secret
// make ErrSecret, with the report of everything else.
func (g *Game) Verify(engine script.Engine, heads ...string) (Report, error) {
	rep := Report{Events: len(g.Events)}
	sc, rules, err := g.load(engine)
	if err != nil {
		return rep, err
	}
	events := g.Events
	cv, cerr := game.VerifyChain(events, g.Seeds, g.Basis())
	if mismatchAt(cerr) == 1 && events[0].Seq == 1 && events[0].Hash != "" {
		// The first event's link failed: an edited header (whose genesis
		// differs) is named as such.
		if err := g.header(); err != nil {
			cerr = err
		}
	}
	if at := mismatchAt(cerr); at > 0 {
		events = events[:at-1] // the rolls are checked up to the event whose link fails
	}
	rv, rerr := game.VerifyRolls(events, g.Seeds, rules.Table)
	rep.Rolls, rep.Secret, rep.Table, rep.Chained, rep.Unchained = rv.Rolls, rv.Secret, rv.Table, cv.Checked, cv.Unchecked
	if rerr == nil {
		rerr = g.thrownWhere(events)
	}
	switch {
	case cerr != nil && (rerr == nil || mismatchAt(cerr) <= mismatchAt(rerr)):
		return rep, cerr
	case rerr != nil:
		return rep, rerr
	}
	gm, err := game.Replay(sc, rules, g.Events, game.WithFog(g.Fog), game.WithDice(g.Dice))
	if err != nil {
		return rep, fmt.Errorf("the log does not replay: %w", err)
	}
	rep.Hash = gm.Hash()
	if rep.Hash != g.Hash {
		rep.Hash = ""
		return rep, ErrState
	}
	for _, h := range heads {
		if !game.IsHash(h) {
			return rep, fmt.Errorf("head %s is not 64 lowercase hex digits (the hash of an event, as a seat was shown it)", strict.Quote(h, 70))
		}
		found := false
		for i := range g.Events {
			if g.Events[i].Hash == h {
				found = true
				break
			}
		}
		if !found {
			return rep, fmt.Errorf("head %s… is not in this game's chain: the log differs from the one that seat saw", h[:12])
		}
		rep.Heads++
	}
	if rep.Secret > 0 || rep.Unchained > 0 {
		return rep, fmt.Errorf("%d of %d events and %d of %d rolls cannot be checked; the chain cannot be followed past event %d: %w",
			rep.Unchained, rep.Events, rep.Secret, rep.Rolls+rep.Secret, rep.Chained, ErrSecret)
	}
	return rep, nil
}

// header names the fields of the header that are not the ones the chain
// was made with, when its first event's hash does not follow from the
// genesis the header gives: the chain is tried from the genesis of each
// other header that differs in the format, the dice and fog modes and,
// for a document with its own tables file, in having none. It is nil
// when none makes the first event follow: the scenario's or tables file's
// text, or the event itself, was changed, which VerifyChain's message
// says.
func (g *Game) header() *game.Mismatch {
	b := g.Basis()
	tables := [][]byte{b.Tables}
	if len(b.Tables) > 0 {
		tables = append(tables, nil)
	}
	for _, gen := range []int{game.GenesisV2, game.GenesisV1} {
		dice, fog := game.DiceModes(), game.FogModes()
		if gen == game.GenesisV1 {
			dice, fog = []string{b.Dice}, []string{b.Fog} // not bound
		}
		for _, d := range dice {
			for _, f := range fog {
				for _, t := range tables {
					alt := game.Basis{Genesis: gen, Scenario: b.Scenario, Tables: t, Dice: d, Fog: f}
					var names []string
					if gen != b.Genesis {
						names = append(names, "format")
					}
					if gen == game.GenesisV2 && mode(d, game.DiceServer) != mode(b.Dice, game.DiceServer) {
						names = append(names, "dice mode")
					}
					if gen == game.GenesisV2 && mode(f, game.FogOff) != mode(b.Fog, game.FogOff) {
						names = append(names, "fog mode")
					}
					if len(t) != len(b.Tables) {
						names = append(names, "own tables file")
					}
					if len(names) == 0 {
						continue // the header's own
					}
					if _, err := game.VerifyChain(g.Events[:1], g.Seeds, alt); err != nil {
						continue
					}
					verb, pron := "is not the one", "it"
					if len(names) > 1 {
						verb, pron = "are not those", "them"
						names[len(names)-2] += " and " + names[len(names)-1]
						names = names[:len(names)-1]
					}
					return &game.Mismatch{What: fmt.Sprintf("the document's %s %s its chain was made with (the chain's start binds %s)",
						strings.Join(names, ", "), verb, pron)}
				}
			}
		}
	}
	return nil
}

// mode is a dice or fog mode with "" written as the default def.
func mode(m, def string) string {
	if m == "" {
		return def
	}
	return m
}

// thrownWhere checks that every roll thrown at the table was one the
// game's dice mode lets the table throw: none when the server drew them
// all, only those of events everyone sees in mixed mode.
func (g *Game) thrownWhere(events []game.Event) error {
	if err := game.CheckDice(g.Dice); err != nil {
		return err
	}
	for i := range events {
		e := &events[i]
		for _, r := range e.Rolls {
			if r.From != game.FromTable {
				continue
			}
			switch {
			case !game.TableDice(g.Dice):
				return &game.Mismatch{Seq: e.Seq, Type: e.Type, What: fmt.Sprintf("its %s roll says it was thrown at the table, but the server drew this game's dice", r.Table)}
			case g.Dice == game.DiceMixed && e.See != game.All:
				return &game.Mismatch{Seq: e.Seq, Type: e.Type, What: fmt.Sprintf("its %s roll is secret, yet says it was thrown at the table; in mixed dice the server draws the secret rolls", r.Table)}
			}
		}
	}
	return nil
}

// mismatchAt is the event a check failed at: 0 for an error that is not
// an event's (the seeds), so that it comes first.
func mismatchAt(err error) int {
	var m *game.Mismatch
	if errors.As(err, &m) {
		return m.Seq
	}
	return 0
}
