package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"orderly/archive"
	"orderly/archive/archivetest"
	"orderly/rules/nb"
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
	if st != 0 || !strings.Contains(o, "ok: ") || !strings.Contains(o, "2 head(s) found in the chain") || e != "" {
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
