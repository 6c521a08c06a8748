package archive_test

import (
	"os"
	"slices"
	"testing"

	"orderly/archive"
	"orderly/archive/archivetest"
	"orderly/dice"
	"orderly/game"
)

// startBroken is what Verify says when the first event's hash does not
// follow from the header, and no other format, dice or fog mode, or
// having no own tables file, would make it follow.
const startBroken = "event 1 (step-begun): its hash does not follow from the chain's start, which binds the scenario, the game's own tables file (or none), its dice and fog modes and its first dice seed: one of those, or this event, is not the one the game was played with"

// houseRules is a house-rules file's text, for a game on its own tables.
func houseRules(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../examples/rules/bp-command-variant.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ownTables is the demo's export as it would be had the game been played
// on its own tables file: its chain starts from it.
func ownTables(t *testing.T, f *archivetest.Fixture) *archive.Game {
	t.Helper()
	doc := archivetest.Clone(t, f.Doc)
	doc.Tables = &archive.Scenario{File: "house.yaml", Source: houseRules(t)}
	archivetest.Rechain(t, doc)
	return doc
}

// TestVerifyHeaderBound: every field of the header that the chain's start
// binds fails Verify when it alone is edited, in a sentence that names it
// where it can be worked out (the format, the dice and fog modes, an own
// tables file the game did not have) and otherwise says what the start
// binds.
func TestVerifyHeaderBound(t *testing.T) {
	plain := archivetest.Demo(t, 3)
	fog := archivetest.Fog(t, 3, game.FogOn)
	own := ownTables(t, plain)
	const (
		dice  = "the document's dice mode is not the one its chain was made with (the chain's start binds it)"
		fogs  = "the document's fog mode is not the one its chain was made with (the chain's start binds it)"
		both  = "the document's dice mode and fog mode are not those its chain was made with (the chain's start binds them)"
		table = "the document's own tables file is not the one its chain was made with (the chain's start binds it)"
	)
	for _, c := range []struct {
		name string
		doc  *archive.Game
		edit func(d *archive.Game)
		want string
	}{
		{"scenario", plain.Doc, func(d *archive.Game) { d.Scenario.Source += "\n# a comment\n" }, startBroken},
		{"rules (bound through the scenario)", plain.Doc, func(d *archive.Game) { d.Rules = "bp" }, `the document says rules "bp", its scenario "nb"`},
		{"tables added", plain.Doc, func(d *archive.Game) { d.Tables = &archive.Scenario{File: "house.yaml", Source: houseRules(t)} }, table},
		{"tables changed", own, func(d *archive.Game) { d.Tables.Source += "# one more line\n" }, startBroken},
		{"tables removed", own, func(d *archive.Game) { d.Tables = nil }, startBroken},
		{"dice server to table", plain.Doc, func(d *archive.Game) { d.Dice = game.DiceTable }, dice},
		{"dice server to mixed", plain.Doc, func(d *archive.Game) { d.Dice = game.DiceMixed }, dice},
		{"fog off to on", plain.Doc, func(d *archive.Game) { d.Fog = game.FogOn }, fogs},
		{"fog off to strict", plain.Doc, func(d *archive.Game) { d.Fog = game.FogStrict }, fogs},
		{"fog on to off", fog.Doc, func(d *archive.Game) { d.Fog = "" }, fogs},
		{"fog on to strict", fog.Doc, func(d *archive.Game) { d.Fog = game.FogStrict }, fogs},
		{"dice and fog", plain.Doc, func(d *archive.Game) { d.Dice, d.Fog = game.DiceMixed, game.FogOn }, both},
		{"format", plain.Doc, func(d *archive.Game) { d.Format = archive.Format3 }, "the document's format is not the one its chain was made with (the chain's start binds it)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.doc.Verify(plain.Engine); err != nil {
				t.Fatalf("the honest document: %v", err)
			}
			doc := archivetest.Clone(t, c.doc)
			c.edit(doc)
			_, err := doc.Verify(plain.Engine)
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v, want %s", err, c.want)
			}
			noAnswer(t, err, c.doc, doc)
		})
	}
}

// TestVerifyHeaderUnbound: the fields of the header that change neither
// the replay nor what the log means are not bound, and may be edited
// alone: the id (the server's name for the game, which import changes),
// the title, and the names of the scenario and tables files (for
// messages only; import cleans them).
func TestVerifyHeaderUnbound(t *testing.T) {
	f := archivetest.Demo(t, 3)
	own := ownTables(t, f)
	for _, c := range []struct {
		name string
		doc  *archive.Game
		edit func(d *archive.Game)
	}{
		{"id", f.Doc, func(d *archive.Game) { d.ID = "fedcba987654" }},
		{"title", f.Doc, func(d *archive.Game) { d.Title = "Another battle" }},
		{"scenario file", f.Doc, func(d *archive.Game) { d.Scenario.File = "other.yaml" }},
		{"tables file", own, func(d *archive.Game) { d.Tables.File = "other.yaml" }},
		// Not edits: the default modes by their names.
		{"dice named", f.Doc, func(d *archive.Game) { d.Dice = game.DiceServer }},
		{"fog named", f.Doc, func(d *archive.Game) { d.Fog = game.FogOff }},
	} {
		doc := archivetest.Clone(t, c.doc)
		c.edit(doc)
		// The heads of the chain as played still are in it.
		first, last := c.doc.Events[0].Hash, c.doc.Events[len(c.doc.Events)-1].Hash
		if _, err := doc.Verify(f.Engine, first, last); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestVerifyOlderFormat: a document of format orderly-game/3 (an older
// orderly's, whose chain binds neither dice nor fog) verifies as before:
// its dice and fog are taken on its word, and Basis says so; one
// relabelled as the newer format is named.
func TestVerifyOlderFormat(t *testing.T) {
	f := archivetest.Demo(t, 3)
	old := archivetest.Clone(t, f.Doc)
	old.Format = archive.Format3
	archivetest.Rechain(t, old)
	if _, err := old.Verify(f.Engine); err != nil {
		t.Fatal(err)
	}
	if b := old.Basis(); b.Genesis != game.GenesisV1 || !slices.Equal(b.Unbound(), []string{"dice", "fog"}) {
		t.Fatalf("basis %d, unbound %v", b.Genesis, b.Unbound())
	}
	if b := f.Doc.Basis(); b.Genesis != game.GenesisV2 || len(b.Unbound()) != 0 {
		t.Fatalf("the newer format's basis %d, unbound %v", b.Genesis, b.Unbound())
	}
	// As before, the older format's dice mode is not bound.
	doc := archivetest.Clone(t, old)
	doc.Dice = game.DiceTable
	if _, err := doc.Verify(f.Engine); err != nil {
		t.Fatalf("an older document's dice edited: %v", err)
	}
	// Its tables file is, and a relabelled format is named.
	doc = archivetest.Clone(t, old)
	doc.Tables = &archive.Scenario{File: "house.yaml", Source: houseRules(t)}
	want := "the document's own tables file is not the one its chain was made with (the chain's start binds it)"
	if _, err := doc.Verify(f.Engine); err == nil || err.Error() != want {
		t.Fatalf("an older document's tables added: %v", err)
	}
	doc = archivetest.Clone(t, old)
	doc.Format = archive.Format
	want = "the document's format is not the one its chain was made with (the chain's start binds it)"
	if _, err := doc.Verify(f.Engine); err == nil || err.Error() != want {
		t.Fatalf("an older document relabelled: %v", err)
	}
}

// TestVerifyDiceRelabelled is the attack: a game played with the server's
// dice is relabelled as played with table dice, a roll after the head a
// seat noted is given other faces (thrown at the table, so no seed draws
// them, with the total and result its table gives for them) and the state
// written anew. A forger who keeps the chain up to the roll and remakes
// it from there fails at the start, which binds the dice mode; one who
// makes the whole chain anew from the forged header passes every check
// inside the document, and is caught by the head, which is no longer in
// the chain.
func TestVerifyDiceRelabelled(t *testing.T) {
	f := archivetest.Demo(t, 3)
	doc := archivetest.Clone(t, f.Doc)
	i := slices.IndexFunc(doc.Events, func(e game.Event) bool { return e.Seq >= doc.Seeds[1].From && isRead(&e) })
	if i < 0 {
		t.Fatal("the demo has no order read under its second seed")
	}
	doc.Dice = game.DiceTable
	throw(t, f, &doc.Events[i])

	// The chain kept up to the roll, remade from it on.
	kept := archivetest.Clone(t, doc)
	honest := archivetest.Clone(t, f.Doc)
	honest.Events = kept.Events
	archivetest.Rechain(t, honest)
	kept.Events = honest.Events
	archivetest.Restate(t, kept, f.Engine)
	if kept.Events[i-1].Hash != f.Doc.Events[i-1].Hash || kept.Events[i].Hash == f.Doc.Events[i].Hash {
		t.Fatal("the forged chain does not keep the honest one up to the roll")
	}
	want := "the document's dice mode is not the one its chain was made with (the chain's start binds it)"
	if _, err := kept.Verify(f.Engine, f.Early); err == nil || err.Error() != want {
		t.Fatalf("the chain kept up to the roll: got %v, want %s", err, want)
	}

	// The whole chain made anew from the forged header.
	archivetest.Rechain(t, doc)
	archivetest.Restate(t, doc, f.Engine)
	rep, err := doc.Verify(f.Engine)
	if err != nil || rep.Table != 1 {
		t.Fatalf("a whole new chain, without a head: %+v, %v", rep, err)
	}
	want = "head " + f.Early[:12] + "… is not in this game's chain: the log differs from the one that seat saw"
	if _, err := doc.Verify(f.Engine, f.Early); err == nil || err.Error() != want {
		t.Fatalf("a whole new chain, with the head noted before the roll: got %v, want %s", err, want)
	}
}

// throw makes e's first roll one thrown at the table, with other faces,
// and the total and result its table gives for them.
func throw(t *testing.T, f *archivetest.Fixture, e *game.Event) {
	t.Helper()
	r, err := f.Engine("nb")
	if err != nil {
		t.Fatal(err)
	}
	roll := e.FirstRoll()
	tab, err := r.Table(roll.Table)
	if err != nil {
		t.Fatal(err)
	}
	args, err := tab.Bind(roll.Params)
	if err != nil {
		t.Fatal(err)
	}
	faces := slices.Clone(roll.Faces)
	faces[0] = faces[0]%10 + 1
	got, err := tab.Resolve(args, dice.NewScripted(faces...))
	if err != nil {
		t.Fatal(err)
	}
	roll.From, roll.Faces, roll.Natural, roll.Total, roll.Result = game.FromTable, got.Faces, got.Natural, got.Total, got.Result
}
