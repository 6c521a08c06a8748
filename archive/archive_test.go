package archive_test

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"orderly/archive"
	"orderly/archive/archivetest"
	"orderly/game"
	"orderly/rules/nb"
)

// find is the first event that pred accepts, under the first seed (so
// before the head noted after turn Split).
func find(t *testing.T, f *archivetest.Fixture, what string, pred func(e *game.Event) bool) int {
	t.Helper()
	for i := range f.Doc.Events {
		e := &f.Doc.Events[i]
		if e.Seq < f.Doc.Seeds[1].From && pred(e) {
			return i
		}
	}
	t.Fatalf("the demo has no %s under its first seed", what)
	return 0
}

func TestVerifyHonest(t *testing.T) {
	f := archivetest.Demo(t, 3)
	rep, err := f.Doc.Verify(f.Engine, f.Early, f.Final)
	if err != nil {
		t.Fatal(err)
	}
	n := len(f.Doc.Events)
	if rep.Events != n || rep.Chained != n || rep.Unchained != 0 || rep.Secret != 0 || rep.Heads != 2 || rep.Hash != f.Doc.Hash {
		t.Fatalf("report %+v for %d events", rep, n)
	}
	early, late := 0, 0
	for _, e := range f.Doc.Events {
		if e.FirstRoll() != nil && e.Seq < f.Doc.Seeds[1].From {
			early++
		} else if e.FirstRoll() != nil {
			late++
		}
	}
	if early < 2 || late < 2 || rep.Rolls != early+late {
		t.Fatalf("%d rolls checked; %d under the first seed, %d under the second: want several of each", rep.Rolls, early, late)
	}
	// A secret roll (the Prussian reserve's entry) is among them.
	if !slices.ContainsFunc(f.Doc.Events, func(e game.Event) bool { return e.FirstRoll() != nil && e.See != game.All }) {
		t.Error("the demo has no secret roll")
	}

	// Exported before the second seed is revealed: checked as far as it can be.
	doc := archivetest.Clone(t, f.Doc)
	doc.Seeds[1].Key = nil
	rep, err = doc.Verify(f.Engine, f.Early)
	if !errors.Is(err, archive.ErrSecret) || rep.Chained != doc.Seeds[1].From-1 || rep.Unchained != n-rep.Chained || rep.Secret != late || rep.Rolls != early || rep.Heads != 1 {
		t.Fatalf("with the second seed secret: %+v, %v", rep, err)
	}
}

// tamper is one forgery: what it changes, whether the forger also made
// the whole chain anew with the revealed keys, and what Verify must say.
type tamper struct {
	name    string
	find    func(e *game.Event) bool
	edit    func(t *testing.T, doc *archive.Game, i int)
	rechain bool
	want    string // the message, after "event N (type): "
}

func isRead(e *game.Event) bool {
	return e.Type == nb.OrderRead && e.FirstRoll() != nil && len(e.FirstRoll().Mods) > 0
}

func TestVerifyCatchesTampering(t *testing.T) {
	f := archivetest.Demo(t, 3)
	const brokenChain = "its hash does not follow from the log before it; the log was changed at or before this event"
	roll := func(edit func(r *game.Roll)) func(t *testing.T, doc *archive.Game, i int) {
		return func(t *testing.T, doc *archive.Game, i int) { edit(doc.Events[i].FirstRoll()) }
	}
	total := roll(func(r *game.Roll) { r.Total++ })
	result := roll(func(r *game.Roll) {
		if r.Result == "delay-1" {
			r.Result = "immediate"
		} else {
			r.Result = "delay-1"
		}
	})
	modifier := roll(func(r *game.Roll) { r.Mods[0].Amount++ })
	faces := roll(func(r *game.Roll) {
		r.Faces[0] = r.Faces[0]%10 + 1
		r.Natural = r.Faces[0]
	})
	params := roll(func(r *game.Roll) {
		if r.Params["quality"] == "good" {
			r.Params["quality"] = "poor"
		} else {
			r.Params["quality"] = "good"
		}
	})
	moved := func(e *game.Event) bool { return e.Type == nb.Moved && len(e.Moves) > 0 }
	move := func(t *testing.T, doc *archive.Game, i int) { doc.Events[i].Moves[0].To.X += 3 }
	for _, c := range []tamper{
		{name: "total", find: isRead, edit: total, want: brokenChain},
		{name: "total, chain remade", find: isRead, edit: total, rechain: true,
			want: "the roll's total does not follow from its faces and modifiers under table nb/order-delay"},
		{name: "result", find: isRead, edit: result, want: brokenChain},
		{name: "result, chain remade", find: isRead, edit: result, rechain: true,
			want: "the roll's result does not follow from its total under table nb/order-delay"},
		{name: "modifier", find: isRead, edit: modifier, want: brokenChain},
		{name: "modifier, chain remade", find: isRead, edit: modifier, rechain: true,
			want: "the roll's modifiers do not follow from its params under table nb/order-delay"},
		{name: "faces", find: isRead, edit: faces, want: brokenChain},
		{name: "faces, chain remade", find: isRead, edit: faces, rechain: true,
			want: "its roll's faces are not the ones its dice seed gives for it (table nb/order-delay)"},
		{name: "params", find: isRead, edit: params, want: brokenChain},
		{name: "params, chain remade", find: isRead, edit: params, rechain: true,
			want: "the roll's modifiers do not follow from its params under table nb/order-delay"},
		{name: "index, chain remade", find: isRead, edit: roll(func(r *game.Roll) { r.Index = 1 }), rechain: true,
			want: "a roll is recorded out of the order drawn for it (index 1, not 0)"},
		{name: "subject, chain remade", find: isRead, edit: roll(func(r *game.Roll) { r.Subject += "x" }), rechain: true,
			want: "its roll's faces are not the ones its dice seed gives for it (table nb/order-delay)"},
		{name: "see", find: func(e *game.Event) bool { return e.See != game.All && e.Type == nb.OrderWritten },
			edit: func(t *testing.T, doc *archive.Game, i int) { doc.Events[i].See = game.All }, want: brokenChain},
		{name: "move", find: moved, edit: move, want: brokenChain},
		{name: "removed", find: moved, edit: func(t *testing.T, doc *archive.Game, i int) {
			doc.Events = slices.Delete(doc.Events, i, i+1)
		}, want: "it is numbered %d: an event was removed, added or moved at or before it"},
		{name: "removed, renumbered", find: moved, edit: func(t *testing.T, doc *archive.Game, i int) {
			doc.Events = slices.Delete(doc.Events, i, i+1)
			for j := i; j < len(doc.Events); j++ {
				doc.Events[j].Seq--
			}
		}, want: brokenChain},
		{name: "swapped", find: moved, edit: func(t *testing.T, doc *archive.Game, i int) {
			doc.Events[i], doc.Events[i+1] = doc.Events[i+1], doc.Events[i]
		}, want: "it is numbered %d: an event was removed, added or moved at or before it"},
		{name: "swapped, renumbered", find: moved, edit: func(t *testing.T, doc *archive.Game, i int) {
			doc.Events[i], doc.Events[i+1] = doc.Events[i+1], doc.Events[i]
			doc.Events[i].Seq, doc.Events[i+1].Seq = doc.Events[i+1].Seq, doc.Events[i].Seq
		}, want: brokenChain},
	} {
		t.Run(c.name, func(t *testing.T) {
			i := find(t, f, c.name, c.find)
			doc := archivetest.Clone(t, f.Doc)
			seq := doc.Events[i].Seq
			c.edit(t, doc, i)
			if c.rechain {
				archivetest.Rechain(t, doc)
			}
			// The forger also writes the state the forged log leads to.
			if _, err := doc.Replay(f.Engine); err != nil && errors.Is(err, archive.ErrState) {
				archivetest.Restate(t, doc, f.Engine)
			}
			_, err := doc.Verify(f.Engine)
			if err == nil {
				t.Fatal("the forgery passed")
			}
			want := c.want
			if strings.Contains(want, "%d") {
				want = fmt.Sprintf(want, seq+1)
			}
			var m *game.Mismatch
			if !errors.As(err, &m) || m.Seq != seq || m.What != want {
				t.Fatalf("got %q, want event %d: %q", err, seq, want)
			}
			noAnswer(t, err, f.Doc, doc)
		})
	}
}

// noAnswer checks that a failure's message holds nothing a forger could
// use for the next try: no hash (the honest one, or the one the chain
// gives for the forged event) and, past the event's name, no number but
// the index or sequence number it names.
func noAnswer(t *testing.T, err error, honest, forged *archive.Game) {
	t.Helper()
	msg := err.Error()
	var hashes []string
	for _, d := range []*archive.Game{honest, forged} {
		hashes = append(hashes, d.Hash)
		for _, e := range d.Events {
			hashes = append(hashes, e.Hash)
		}
	}
	c, cerr := game.NewChain(forged.Basis(), forged.Seeds)
	if cerr != nil {
		t.Fatal(cerr)
	}
	prev := ""
	for i := range forged.Events {
		if h, err := c.Next(prev, &forged.Events[i]); err == nil {
			hashes = append(hashes, h)
			prev = h
		}
	}
	for _, h := range hashes {
		if h != "" && strings.Contains(msg, h[:12]) {
			t.Fatalf("the message holds a hash: %s", msg)
		}
	}
	_, what, _ := strings.Cut(msg, "): ")
	what = regexp.MustCompile(`numbered \d+|index \d+, not \d+`).ReplaceAllString(what, "")
	if strings.ContainsAny(what, "0123456789") {
		t.Fatalf("the message holds a number: %s", msg)
	}
}

// TestVerifyFinalHashRecomputed: a forger who edits a move and writes the
// state hash it leads to is still caught by the chain, at the move.
func TestVerifyFinalHashRecomputed(t *testing.T) {
	f := archivetest.Demo(t, 3)
	// The last move of the game: nothing moves the piece after it.
	doc := archivetest.Clone(t, f.Doc)
	i := len(doc.Events) - 1
	for doc.Events[i].Type != nb.Moved {
		i--
	}
	doc.Events[i].Moves[0].To.Y -= 2
	if _, err := doc.Replay(f.Engine); !errors.Is(err, archive.ErrState) {
		t.Fatalf("the edit did not change the state: %v", err)
	}
	archivetest.Restate(t, doc, f.Engine)
	if _, err := doc.Replay(f.Engine); err != nil {
		t.Fatal(err)
	}
	_, err := doc.Verify(f.Engine)
	var m *game.Mismatch
	if !errors.As(err, &m) || m.Seq != doc.Events[i].Seq || !strings.Contains(err.Error(), "its hash does not follow") {
		t.Fatalf("got %v", err)
	}
	noAnswer(t, err, f.Doc, doc)

	// Only the state hash changed: the replay says so, without hashes.
	doc = archivetest.Clone(t, f.Doc)
	doc.Hash = strings.Repeat("0", 64)
	_, err = doc.Verify(f.Engine)
	if !errors.Is(err, archive.ErrState) || err.Error() != "the log does not replay to the state the document records" {
		t.Fatalf("got %v", err)
	}
	noAnswer(t, err, f.Doc, doc)
}

// TestVerifyHeads: a forger holding every revealed key can make a whole
// new chain that passes every check inside the document; a head a seat
// noted during play, before the edit, catches it.
func TestVerifyHeads(t *testing.T) {
	f := archivetest.Demo(t, 3)
	i := find(t, f, "move", func(e *game.Event) bool { return e.Type == nb.Moved })
	doc := archivetest.Clone(t, f.Doc)
	doc.Events[i].Moves[0].To.X += 1
	archivetest.Rechain(t, doc)
	archivetest.Restate(t, doc, f.Engine)
	if _, err := doc.Verify(f.Engine); err != nil {
		t.Fatalf("a whole new chain fails inside the document: %v", err)
	}
	_, err := doc.Verify(f.Engine, f.Early)
	want := "head " + f.Early[:12] + "… is not in this game's chain: the log differs from the one that seat saw"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	// A head after the edit is not in the new chain either; a head that is
	// not a hash is refused.
	if _, err := doc.Verify(f.Engine, f.Final); err == nil || !strings.Contains(err.Error(), "is not in this game's chain") {
		t.Fatalf("final head: %v", err)
	}
	if _, err := f.Doc.Verify(f.Engine, "3f2a"); err == nil || !strings.Contains(err.Error(), `head "3f2a" is not 64 lowercase hex digits`) {
		t.Fatalf("short head: %v", err)
	}
}

func TestVerifySeeds(t *testing.T) {
	f := archivetest.Demo(t, 3)
	// A key that is not the committed one.
	doc := archivetest.Clone(t, f.Doc)
	doc.Seeds[1].Key = archivetest.Key(1)
	if _, err := doc.Verify(f.Engine); err == nil || err.Error() != "seed 2: its key does not match its commitment" {
		t.Fatalf("a wrong key: %v", err)
	}
	// A first seed that does not start at event 1.
	doc = archivetest.Clone(t, f.Doc)
	doc.Seeds[0].From = 0
	if _, err := doc.Verify(f.Engine); err == nil || !strings.Contains(err.Error(), "seed 1 starts at event 0, not at event 1") {
		t.Fatalf("seed from 0: %v", err)
	}
	// Under another scenario text, the chain breaks at event 1.
	doc = archivetest.Clone(t, f.Doc)
	doc.Scenario.Source += "\n# a comment\n"
	if _, err := doc.Verify(f.Engine); err == nil || !strings.HasPrefix(err.Error(), "event 1 (step-begun): its hash does not follow") {
		t.Fatalf("another scenario text: %v", err)
	}
}

func TestRead(t *testing.T) {
	f := archivetest.Demo(t, 2)
	good := archivetest.JSON(t, f.Doc)
	for _, c := range []struct {
		name string
		edit func(doc *archive.Game)
		raw  func(b []byte) []byte
		want string
	}{
		{name: "commitment short", edit: func(d *archive.Game) { d.Seeds[1].Commitment = d.Seeds[1].Commitment[:63] },
			want: "doc.json: seeds[1].commitment is not 64 lowercase hex digits"},
		{name: "commitment not hex", edit: func(d *archive.Game) { d.Seeds[0].Commitment = strings.Repeat("g", 64) },
			want: "doc.json: seeds[0].commitment is not 64 lowercase hex digits"},
		{name: "commitment upper case", edit: func(d *archive.Game) { d.Seeds[0].Commitment = strings.ToUpper(d.Seeds[0].Commitment) },
			want: "doc.json: seeds[0].commitment is not 64 lowercase hex digits"},
		{name: "format 1", edit: func(d *archive.Game) { d.Format = "orderly-game/1" },
			want: "doc.json: format orderly-game/1 was written by an older orderly, whose dice and log cannot be checked; this orderly reads orderly-game/4 and orderly-game/3"},
		{name: "format 2", edit: func(d *archive.Game) { d.Format = "orderly-game/2" },
			want: "doc.json: format orderly-game/2 was written by an older orderly, whose events have another shape, so this one cannot replay it; this orderly reads orderly-game/4 and orderly-game/3"},
		{name: "format 5", edit: func(d *archive.Game) { d.Format = "orderly-game/5" },
			want: `doc.json: format is "orderly-game/5"; allowed: orderly-game/4, orderly-game/3`},
		{name: "duplicate key", raw: func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"title": `), []byte(`"title": "forged", "title": `), 1)
		}, want: `not an orderly game: doc.json: the key "title" is given twice in one object`},
		{name: "duplicate key in an event", raw: func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"see": "all"`), []byte(`"see": "french", "see": "all"`), 1)
		}, want: `not an orderly game: doc.json: the key "see" is given twice in one object`},
		{name: "unknown field", raw: func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"see": "all"`), []byte(`"see": "all", "seen": "french"`), 1)
		}, want: `not an orderly game: doc.json: unknown field "seen"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := good
			if c.edit != nil {
				doc := archivetest.Clone(t, f.Doc)
				c.edit(doc)
				b = archivetest.JSON(t, doc)
			}
			if c.raw != nil {
				b = c.raw(slices.Clone(good))
			}
			_, err := archive.Read(bytes.NewReader(b), "doc.json")
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v, want %s", err, c.want)
			}
		})
	}
}
