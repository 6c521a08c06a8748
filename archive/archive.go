// Package archive is a game as one portable JSON document: its scenario,
// its whole log, its dice seeds and the hash of where it stands. It is what
// `orderly export` writes and `orderly import` and `orderly verify` read,
// and what players send each other to play by e-mail.
package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"orderly/game"
	"orderly/script"
)

// Format names the document's layout.
const Format = "orderly-game/1"

// Game is an exported game.
type Game struct {
	Format   string       `json:"format"`
	ID       string       `json:"id"`
	Title    string       `json:"title"`
	Rules    string       `json:"rules"`
	Scenario Scenario     `json:"scenario"`
	Seeds    []game.Seed  `json:"seeds"`
	Events   []game.Event `json:"events"`
	Hash     string       `json:"hash"` // game.Game.Hash after the last event
}

// Scenario is the scenario file the game was made from.
type Scenario struct {
	File   string `json:"file"`
	Source string `json:"source"`
}

// Read reads a document, refusing unknown fields; where names it in errors.
func Read(r io.Reader, where string) (*Game, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	var g Game
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("%s: not an orderly game: %v", where, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: more than one JSON value", where)
	}
	switch {
	case g.Format != Format:
		return nil, fmt.Errorf("%s: format is %q; allowed: %s", where, g.Format, Format)
	case g.Scenario.Source == "":
		return nil, fmt.Errorf("%s: scenario.source is empty; it must hold the scenario file", where)
	case len(g.Seeds) == 0:
		return nil, fmt.Errorf("%s: seeds is empty; a game has at least the seed of its first roll", where)
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

// Replay rebuilds the game from the document and checks that it stands
// where the document says.
func (g *Game) Replay(engine script.Engine) (*game.Game, error) {
	sc, err := script.LoadAny(g.Scenario.File, []byte(g.Scenario.Source), engine, script.NoFiles)
	if err != nil {
		return nil, err
	}
	if sc.Rules != g.Rules {
		return nil, fmt.Errorf("the document says rules %q, its scenario %q", g.Rules, sc.Rules)
	}
	rules, err := engine(sc.Rules)
	if err != nil {
		return nil, err
	}
	gm, err := game.Replay(sc, rules, g.Events)
	if err != nil {
		return nil, err
	}
	if h := gm.Hash(); h != g.Hash {
		return nil, fmt.Errorf("the log replays to state %s, not to the %s the document records", h, g.Hash)
	}
	return gm, nil
}

// Report is what Verify found.
type Report struct {
	Events int
	Rolls  int // rolls drawn again from their revealed seed and matched
	Secret int // rolls under a seed not revealed in the document
	Hash   string
}

// ErrSecret is a document with rolls whose seed it does not reveal.
var ErrSecret = errors.New("some rolls are under a seed that is still secret")

// Verify replays the game, checks its hash, and checks every roll against
// the revealed seeds. Rolls under a seed still secret make ErrSecret, with
// the report of everything else.
func (g *Game) Verify(engine script.Engine) (Report, error) {
	gm, err := g.Replay(engine)
	if err != nil {
		return Report{}, err
	}
	rules, err := engine(g.Rules)
	if err != nil {
		return Report{}, err
	}
	v, err := game.VerifyRolls(g.Events, g.Seeds, rules.Table)
	rep := Report{Events: len(g.Events), Rolls: v.Rolls, Secret: v.Secret, Hash: gm.Hash()}
	if err != nil {
		return rep, err
	}
	if v.Secret > 0 {
		return rep, fmt.Errorf("%d of %d rolls: %w", v.Secret, v.Rolls+v.Secret, ErrSecret)
	}
	return rep, nil
}
