package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"orderly/archive"
	"orderly/archive/archivetest"
	"orderly/rules"
	"orderly/rules/nb"
	"orderly/server"
	"orderly/store/sqlite"
)

// TestVerify checks orderly verify on an exported game, honest and forged:
// a forgery exits 2 with one line naming the event, and no hash in it.
func TestVerify(t *testing.T) {
	f := archivetest.Demo(t, 3)
	dir := t.TempDir()
	write := func(name string, doc *archive.Game) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, archivetest.JSON(t, doc), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.json", f.Doc)
	o, e, st := cli(t, "verify", good, "--head", f.Early, "--head", f.Final)
	if st != 0 || !strings.Contains(o, "ok: ") || !strings.Contains(o, "2 heads found in the chain") || strings.Contains(o, "note:") || e != "" {
		t.Fatalf("verify: %d %q %q", st, o, e)
	}

	// A move edited before the reveal, the state hash written anew: the
	// chain names the move.
	doc := archivetest.Clone(t, f.Doc)
	i := doc.Seeds[1].From - 2
	for doc.Events[i].Type != nb.Moved {
		i--
	}
	doc.Events[i].Moves[0].To.X += 2
	archivetest.Restate(t, doc, f.Engine)
	forged := write("forged.json", doc)
	_, e, st = cli(t, "verify", forged)
	want := "orderly: " + forged + ": event " + strconv.Itoa(doc.Events[i].Seq) + " (moved): its hash does not follow from the log before it; the log was changed at or before this event\n"
	if st != 2 || e != want {
		t.Fatalf("forged: %d %q, want %q", st, e, want)
	}
	// The whole chain made anew: only a head noted before catches it.
	archivetest.Rechain(t, doc)
	archivetest.Restate(t, doc, f.Engine)
	forged = write("rechained.json", doc)
	if _, e, st := cli(t, "verify", forged); st != 0 {
		t.Fatalf("a whole new chain: %d %s", st, e)
	}
	_, e, st = cli(t, "verify", forged, "--head", f.Early)
	if st != 2 || !strings.Contains(e, "is not in this game's chain") || strings.Count(e, "\n") != 1 {
		t.Fatalf("--head: %d %q", st, e)
	}
	// Exported before the reveal of the second seed: checked as far as it
	// can be, exit 1.
	doc = archivetest.Clone(t, f.Doc)
	doc.Seeds[1].Key = nil
	o, e, st = cli(t, "verify", write("secret.json", doc))
	if st != 1 || !strings.Contains(e, "still secret") || !strings.Contains(o, strconv.Itoa(doc.Seeds[1].From-1)+" followed along the chain") {
		t.Fatalf("secret: %d %q %q", st, o, e)
	}
	// The dice mode edited alone: one line naming it, exit 2.
	doc = archivetest.Clone(t, f.Doc)
	doc.Dice = "table"
	relabelled := write("relabelled.json", doc)
	o, e, st = cli(t, "verify", relabelled)
	want = "orderly: " + relabelled + ": the document's dice mode is not the one its chain was made with (the chain's start binds it)\n"
	if st != 2 || e != want || strings.Contains(o, "note:") {
		t.Fatalf("dice relabelled: %d %q %q, want %q", st, o, e, want)
	}
	// A document of the older format 3 is checked as before, with a note
	// of what its chain does not bind, whether it passes or not.
	doc = archivetest.Clone(t, f.Doc)
	doc.Format = archive.Format3
	archivetest.Rechain(t, doc)
	older := write("older.json", doc)
	note := older + ": note: format orderly-game/3, an older orderly's, does not bind dice and fog to the chain: they are taken on the document's word\n"
	o, e, st = cli(t, "verify", older, "--head", doc.Events[len(doc.Events)-1].Hash)
	if st != 0 || !strings.HasPrefix(o, older+": ok: ") || !strings.HasSuffix(o, "1 head found in the chain\n"+note) || e != "" {
		t.Fatalf("format 3: %d %q %q", st, o, e)
	}
	doc.Events[3].Hash = strings.Repeat("0", 64)
	o, e, st = cli(t, "verify", write("older-forged.json", doc))
	if st != 2 || !strings.HasSuffix(o, strings.Replace(note, "older.json", "older-forged.json", 1)) || !strings.Contains(e, "event 4 ") {
		t.Fatalf("format 3, forged: %d %q %q", st, o, e)
	}
	// A document of format 1, a bad head: one line, exit 2.
	old := strings.Replace(string(archivetest.JSON(t, f.Doc)), archive.Format, "orderly-game/1", 1)
	path := filepath.Join(dir, "old.json")
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", path}, {"verify", good, "--head", "xyz"}} {
		_, e, st := cli(t, args...)
		if st != 2 || strings.Count(e, "\n") != 1 {
			t.Errorf("%v: %d %q", args, st, e)
		}
	}
	if _, e, _ := cli(t, "verify", path); !strings.Contains(e, "older orderly") {
		t.Errorf("format 1: %q", e)
	}
}

// TestVerifyOwnTables: a game played on its own tables (a LOB game on the
// example tables) is checked on the tables its export carries, with no
// --rules; the same export with a table's numbers changed fails.
func TestVerifyOwnTables(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	eng, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, st, eng)
	if err != nil {
		t.Fatal(err)
	}
	made, err := srv.Create(ctx, server.Setup{Scenario: "lob-demo"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	umpire := made.Seats[0].Token
	for n := 0; n < 100; n++ { // turns of automatic steps: fluke checks after the grace period
		req, err := http.NewRequest("POST", ts.URL+"/api/games/"+made.Game.ID+"/commands", strings.NewReader(`{"end": true}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+umpire)
		req.Header.Set("Content-Type", "application/json")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			break // the game is over
		}
	}
	doc, err := srv.Export(ctx, made.Game.ID, true)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Tables == nil || !strings.Contains(doc.Tables.Source, "EXAMPLE VALUES") {
		t.Fatalf("the export carries tables %+v", doc.Tables)
	}
	rolls := 0
	for _, e := range doc.Events {
		rolls += len(e.Rolls)
	}
	if rolls == 0 {
		t.Fatal("the script's setup made no roll to check")
	}
	path := filepath.Join(t.TempDir(), "lob.json")
	if err := os.WriteFile(path, archivetest.JSON(t, doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if o, e, code := cli(t, "verify", path); code != 0 || !strings.Contains(o, "ok: ") {
		t.Fatalf("verify on its own tables: %d %q %q", code, o, e)
	}
	// Tables that give the same results but are not the ones played on:
	// the chain's genesis binds the tables file, so the first event says so.
	src := doc.Tables.Source
	doc.Tables.Source = strings.Replace(src, "EXAMPLE VALUES", "EXAMPLE VALUES, edited", 1)
	if err := os.WriteFile(path, archivetest.JSON(t, doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, e, code := cli(t, "verify", path); code != 2 || !strings.Contains(e, "event 1 ") || !strings.Contains(e, "does not follow") {
		t.Fatalf("verify on other tables: %d %q; want the chain broken at event 1", code, e)
	}
	doc.Tables.Source = src
	doc.Tables = nil
	if err := os.WriteFile(path, archivetest.JSON(t, doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, e, code := cli(t, "verify", path); code != 2 || !strings.Contains(e, "lob/command-roll") {
		t.Fatalf("verify without its tables: %d %q; want the missing tables named", code, e)
	}
}
