package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// orderly games lists the games of a store with their turn and seats;
// --delete refuses without --yes, changing nothing, and with it deletes
// the game, whose join links then stop working.
func TestGames(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "club.db")
	o, e, st := cli(t, "games", "--db", db)
	if st != 2 || !strings.Contains(e, db) {
		t.Errorf("games on a missing file: %d %q %q", st, o, e)
	}
	served := serveOnce(t, db)
	game := regexp.MustCompile(`\(game (\w+)`).FindStringSubmatch(served)[1]
	o, e, st = cli(t, "games", "--db", db)
	row := regexp.MustCompile(`(?m)^` + game + `\s+nb\s+1 \w+\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+3\s+Demo: .* \(demo\)$`)
	if st != 0 || !strings.HasPrefix(o, "GAME ") || !row.MatchString(o) {
		t.Fatalf("games: %d %q %q", st, o, e)
	}
	for _, args := range [][]string{{"--delete", game}, {"--delete", "nosuch", "--yes"}} {
		o, e, st := cli(t, append([]string{"games", "--db", db}, args...)...)
		if st != 2 || o != "" || strings.Count(strings.TrimSpace(e), "\n") != 0 {
			t.Errorf("games %v: %d %q %q; want one line of refusal", args, st, o, e)
		}
	}
	if _, e, st := cli(t, "seats", "--db", db, game); st != 0 {
		t.Fatalf("the game after a refused delete: %d %s", st, e)
	}
	o, e, st = cli(t, "games", "--db", db, "--delete", game, "--yes")
	if st != 0 || o != "deleted game "+game+" (Demo: a corps-level battle for the NB orders rules)\n" {
		t.Errorf("games --delete --yes: %d %q %q", st, o, e)
	}
	if o, _, st := cli(t, "games", "--db", db); st != 0 || o != "no games in "+db+"\n" {
		t.Errorf("games after the delete: %d %q", st, o)
	}
	if _, _, st := cli(t, "seats", "--db", db, game); st != 2 {
		t.Errorf("the deleted game's seats: status %d, want 2", st)
	}
}
