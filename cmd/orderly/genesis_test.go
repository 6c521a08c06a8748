package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orderly/archive"
	"orderly/game"
	"orderly/rules"
	"orderly/server"
	"orderly/store/pgtest"
	"orderly/table"
)

// age makes a game of the SQLite file db as an orderly before genesis v2
// stored it: every event hashed along a chain from genesis v1 (which
// binds neither dice nor fog), and the game's genesis column 1, as the
// migration that added it sets it for the games already there.
func age(t *testing.T, db, id string) {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, db, false)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := st.Seeds(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := st.Events(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	evs, err := decodeEvents(raw, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	mk, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	var own []table.Source
	if len(rec.Tables) > 0 {
		own = []table.Source{{Name: rec.TablesFile, Data: rec.Tables}}
	}
	r, err := mk(rec.Rules, own...)
	if err != nil {
		t.Fatal(err)
	}
	if err := game.Decode(r, evs); err != nil {
		t.Fatal(err)
	}
	keys := make([]game.Seed, len(seeds))
	for i, s := range seeds {
		keys[i] = s.Seed
	}
	c, err := game.NewChain(game.Basis{Genesis: game.GenesisV1, Scenario: rec.Scenario, Tables: rec.Tables}, keys)
	if err != nil {
		t.Fatal(err)
	}
	w, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	prev := ""
	for i := range evs {
		h, err := c.Next(prev, &evs[i])
		if err != nil {
			t.Fatal(err)
		}
		evs[i].Hash, prev = h, h
		b, err := json.Marshal(&evs[i])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Exec("UPDATE events SET data = ? WHERE game = ? AND seq = ?", b, id, evs[i].Seq); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Exec("UPDATE games SET genesis = 1 WHERE id = ?", id); err != nil {
		t.Fatal(err)
	}
}

// written writes a document where the CLI can read it.
func written(t *testing.T, doc *archive.Game) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), doc.ID+".json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := doc.Write(f); err != nil {
		t.Fatal(err)
	}
	return path
}

// verified runs orderly verify on a document, which must pass, with the
// note of an older format's unbound fields if and only if older.
func verified(t *testing.T, doc *archive.Game, older bool) {
	t.Helper()
	path := written(t, doc)
	o, e, st := cli(t, "verify", path)
	note := path + ": note: format orderly-game/3, an older orderly's, does not bind dice and fog to the chain: they are taken on the document's word\n"
	if st != 0 || e != "" || !strings.HasPrefix(o, path+": ok: ") || strings.HasSuffix(o, note) != older {
		t.Fatalf("verify %s: %d %q %q", path, st, o, e)
	}
}

// TestOlderGames: games stored before the chain's start bound the dice
// and fog (the demo with a revealed seed and a secret one, and the LOB
// demo on its own tables under fog of war) keep loading and playing on
// the server, export as format orderly-game/3 and verify, with the note;
// import keeps their start, so the imported games play on and verify too;
// migrate copies them, and the imported ones, to PostgreSQL and back
// unchanged, and they play on there. A game made now (the BP demo, and
// the LOB demo under fog on its own tables) starts from genesis v2 and
// exports as the newer format, which import keeps.
func TestOlderGames(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "club.db")
	games := playGames(t, file)
	older, fresh := games[:2], games[2]
	for _, g := range older {
		age(t, file, g.id)
	}
	// One server on each store (making one takes a while): games are
	// imported into the store they were exported from, as new games.
	st := open(t, file)
	srv, web, _ := testServer(t, st)
	// A new game under fog on its own tables, whose chain's start binds
	// both.
	made, err := srv.Create(ctx, server.Setup{Scenario: "lob-demo", Fog: game.FogOn})
	if err != nil {
		t.Fatal(err)
	}
	if made.Game.Fog != game.FogOn {
		t.Fatalf("the new game's fog is %q", made.Game.Fog)
	}
	fog := played{id: made.Game.ID, tokens: []string{made.Seats[0].Token}}
	for _, g := range append(games, fog) {
		old, want := g.id != fresh.id && g.id != fog.id, archive.Format
		if old {
			want = archive.Format3
		}
		if code := call(t, web.URL, "POST", g.id, "commands", g.tokens[0], `{"end":true}`); code != 200 {
			t.Fatalf("game %s: a step ended: %d", g.id, code)
		}
		doc, err := srv.Export(ctx, g.id, true)
		if err != nil {
			t.Fatal(err)
		}
		if doc.Format != want {
			t.Fatalf("game %s is exported as %s, want %s", g.id, doc.Format, want)
		}
		verified(t, doc, old)

		made, err := srv.Import(ctx, doc, false)
		if err != nil {
			t.Fatalf("game %s: import: %v", g.id, err)
		}
		id := made.Game.ID
		rec, err := st.Game(ctx, id)
		if err != nil || rec.Genesis != doc.Basis().Genesis {
			t.Fatalf("game %s imported as %s: %+v, %v", g.id, id, rec, err)
		}
		if code := call(t, web.URL, "POST", id, "commands", made.Seats[0].Token, `{"end":true}`); code != 200 {
			t.Fatalf("game %s imported as %s: a step ended: %d", g.id, id, code)
		}
		again, err := srv.Export(ctx, id, true)
		if err != nil {
			t.Fatal(err)
		}
		if again.Format != doc.Format || len(again.Events) <= len(doc.Events) {
			t.Fatalf("game %s imported as %s is exported as %s with %d events, from %d", g.id, id, again.Format, len(again.Events), len(doc.Events))
		}
		verified(t, again, old)
	}
	// To PostgreSQL and back: every record, genesis included, and every
	// event as it was; a server on PostgreSQL plays the older games on.
	url := pgtest.DB(t)
	if o, e, st := paged(t, "migrate", "--from", file, "--to", url); st != 0 {
		t.Fatalf("migrate: %d %s %s", st, o, e)
	}
	sameGames(t, file, url)
	back := filepath.Join(dir, "back.db")
	if o, e, st := paged(t, "migrate", "--from", url, "--to", back); st != 0 {
		t.Fatalf("migrate back: %d %s %s", st, o, e)
	}
	sameGames(t, url, back)
	pg, pgWeb, _ := testServer(t, open(t, url))
	for _, g := range older {
		if code := call(t, pgWeb.URL, "POST", g.id, "commands", g.tokens[0], `{"end":true}`); code != 200 {
			t.Fatalf("game %s on PostgreSQL: a step ended: %d", g.id, code)
		}
		doc, err := pg.Export(ctx, g.id, true)
		if err != nil {
			t.Fatal(err)
		}
		if doc.Format != archive.Format3 {
			t.Fatalf("game %s is exported from PostgreSQL as %s", g.id, doc.Format)
		}
		verified(t, doc, true)
	}
}
