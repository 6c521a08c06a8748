// Package archivetest builds exported games for tests: the README's demo
// battle played under the built-in NB rules with verifiable dice and a
// hash chain, its dice seed revealed midway, and the means to forge it as
// someone holding the revealed keys could.
package archivetest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"orderly/archive"
	"orderly/dice"
	"orderly/game"
	"orderly/rules"
	"orderly/script"
)

// Fixture is an exported game and what a test needs to check it.
type Fixture struct {
	Doc    *archive.Game // every key revealed
	Engine script.Engine
	Early  string // the head (last event's hash) after turn Split, before the reveal
	Final  string // the head at the end
	Split  int    // the last turn played under the first seed
}

// Demo plays the demo battle: turns 1..split under a first seed, then a
// reveal, then the rest of its plan under a second seed.
func Demo(t testing.TB, split int) *Fixture {
	t.Helper()
	return Fog(t, split, "")
}

// Fog plays the demo battle as Demo does, under a fog of war mode
// (game.FogOn, game.FogStrict; "" for none), which its export's header
// gives and its chain's start binds.
func Fog(t testing.TB, split int, fog string) *Fixture {
	t.Helper()
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	eng := script.Engine(func(id string) (game.Rules, error) { return rules.Engine(id, set) })
	r, err := eng("nb")
	if err != nil {
		t.Fatal(err)
	}
	dir := examples(t)
	src, err := os.ReadFile(filepath.Join(dir, "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadAny("demo.yaml", src, eng, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "demo-plan.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := script.LoadPlan("demo-plan.yaml", data, sc, r)
	if err != nil {
		t.Fatal(err)
	}
	cut := slices.IndexFunc(plan.Steps, func(c script.Commands) bool { return c.Turn > split })
	if cut < 0 {
		cut = len(plan.Steps)
	}
	seeds := []game.Seed{Seed(1, Key(1))}
	g, err := game.New(sc, r, game.Committed(seeds), game.WithFog(fog))
	if err != nil {
		t.Fatal(err)
	}
	chain, err := game.NewChain(game.Basis{Genesis: game.GenesisV2, Scenario: src, Fog: fog}, seeds)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetChain(chain); err != nil {
		t.Fatal(err)
	}
	early := &script.Plan{Steps: plan.Steps[:cut], Until: split, File: plan.File}
	if err := early.Play(g, nil); err != nil {
		t.Fatal(err)
	}
	f := &Fixture{Engine: eng, Early: g.Head(), Split: split}
	// The umpire reveals the first seed; play goes on under a new one.
	seeds = append(seeds, Seed(g.Len()+1, Key(2)))
	g.SetDice(game.Committed(seeds))
	if err := chain.SetSeeds(seeds); err != nil {
		t.Fatal(err)
	}
	rest := &script.Plan{Steps: plan.Steps[cut:], Until: plan.Until, File: plan.File}
	if err := rest.Play(g, nil); err != nil {
		t.Fatal(err)
	}
	f.Final = g.Head()
	f.Doc = &archive.Game{Format: archive.Format, ID: "0123456789ab", Title: sc.Title, Rules: sc.Rules,
		Scenario: archive.Scenario{File: "demo.yaml", Source: string(src)},
		Fog:      fog, Seeds: seeds, Events: g.Log(), Hash: g.Hash()}
	// As exported and read back.
	f.Doc = Clone(t, f.Doc)
	return f
}

// examples finds the examples/nb folder from the module's root.
func examples(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "examples", "nb")
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
}

// Key is a test's dice key n.
func Key(n int) []byte {
	k := sha256.Sum256(fmt.Appendf(nil, "test key %d", n))
	return k[:]
}

// Seed is a seed from event from with key k, and its commitment.
func Seed(from int, k []byte) game.Seed {
	return game.Seed{From: from, Commitment: dice.Commitment(k), Key: k}
}

// Clone copies a document deeply, through its JSON and archive.Read.
func Clone(t testing.TB, doc *archive.Game) *archive.Game {
	t.Helper()
	var b bytes.Buffer
	if err := doc.Write(&b); err != nil {
		t.Fatal(err)
	}
	out, err := archive.Read(&b, "doc.json")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Rechain recomputes every event's hash with the document's keys, from
// the genesis its header gives, as a forger holding them could.
func Rechain(t testing.TB, doc *archive.Game) {
	t.Helper()
	c, err := game.NewChain(doc.Basis(), doc.Seeds)
	if err != nil {
		t.Fatal(err)
	}
	prev := ""
	for i := range doc.Events {
		h, err := c.Next(prev, &doc.Events[i])
		if err != nil {
			t.Fatal(err)
		}
		doc.Events[i].Hash, prev = h, h
	}
}

// Restate sets the document's state hash to where its log now leads.
func Restate(t testing.TB, doc *archive.Game, eng script.Engine) {
	t.Helper()
	r, err := eng(doc.Rules)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadAny(doc.Scenario.File, []byte(doc.Scenario.Source), eng, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Replay(sc, r, doc.Events, game.WithFog(doc.Fog), game.WithDice(doc.Dice))
	if err != nil {
		t.Fatalf("the forged log does not replay: %v", err)
	}
	doc.Hash = g.Hash()
}

// JSON is the document as written.
func JSON(t testing.TB, doc *archive.Game) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := doc.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
