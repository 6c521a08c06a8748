package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// serveOnce runs orderly serve --demo on db until it has printed its join
// links, then stops it; it returns what it printed.
func serveOnce(t *testing.T, db string, extra ...string) string {
	t.Helper()
	var out, errb syncBuffer
	a := &app{out: &out, err: &errb, seed: func() uint64 { return 42 }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- a.run(ctx, append([]string{"serve", "--demo", "--db", db, "--addr", "127.0.0.1:0"}, extra...))
	}()
	for deadline := time.Now().Add(90 * time.Second); len(link.FindAllString(out.String(), -1)) < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no join links: %s %s", out.String(), errb.String())
		}
	}
	cancel()
	if st := <-done; st != 0 {
		t.Fatalf("serve: %d %s", st, errb.String())
	}
	return out.String()
}

// A second serve --demo reuses the demo game, with new links: the game is
// the same, the old links no longer work, and no game is added. It prints
// a host link each time, and the old one stops working.
func TestServeDemoReused(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "club.db")
	first := serveOnce(t, db)
	second := serveOnce(t, db)
	id := regexp.MustCompile(`\(game (\w+)`)
	if a, b := id.FindStringSubmatch(first), id.FindStringSubmatch(second); a == nil || b == nil || a[1] != b[1] {
		t.Fatalf("the demo was not reused:\n%s\n%s", first, second)
	}
	if !strings.Contains(second, "made before; its links are new") || !strings.Contains(second, "serves 1 game ") {
		t.Errorf("the second start says: %s", second)
	}
	host := regexp.MustCompile(`host link, to make and import games \(keep it to yourself\): http://\S+/#host=(\S+)`)
	h1, h2 := host.FindStringSubmatch(first), host.FindStringSubmatch(second)
	if h1 == nil || h2 == nil || h1[1] == h2[1] {
		t.Errorf("host links: %v %v", h1, h2)
	}
	old, fresh := link.FindAllStringSubmatch(first, -1), link.FindAllStringSubmatch(second, -1)
	if old[1][3] == fresh[1][3] {
		t.Error("the links were not reissued")
	}
	// The seats list, and a reissue from the command line.
	game := id.FindStringSubmatch(second)[1]
	o, e, st := cli(t, "seats", "--db", db, game)
	if st != 0 || !regexp.MustCompile(`(?m)^umpire\s+umpire\s+Umpire$`).MatchString(o) || !regexp.MustCompile(`(?m)^french\s+side\s+`).MatchString(o) {
		t.Errorf("seats: %d %s %s", st, o, e)
	}
	o, e, st = cli(t, "seats", "--db", db, game, "--reissue", "allies", "--url", "http://club:8080")
	if st != 0 || !regexp.MustCompile(`http://club:8080/play#[A-Za-z0-9_-]{43}\n`).MatchString(o) {
		t.Errorf("reissue: %d %s %s", st, o, e)
	}
	for _, args := range [][]string{{"seats", "--db", db, game, "--reissue", "prussia"}, {"seats", "--db", db, "nosuch"}} {
		if _, e, st := cli(t, args...); st != 2 || strings.Count(strings.TrimSpace(e), "\n") != 0 {
			t.Errorf("%v: %d %q", args, st, e)
		}
	}
}

// A limit flag of zero or less is refused before anything starts.
func TestServeBadLimits(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "x.db")
	for _, flag := range []string{"--max-games=0", "--stream-timeout=0s", "--max-ids=-1", "--command-wait=0s"} {
		if _, e, st := cli(t, "serve", "--db", db, flag); st != 2 || !strings.Contains(e, "must be more than 0") {
			t.Errorf("%s: %d %s", flag, st, e)
		}
	}
	if _, e, st := cli(t, "serve", "--db", db, "--max-commands=-1"); st != 2 || !strings.Contains(e, "--max-commands must be 0") {
		t.Errorf("--max-commands=-1: %d %s", st, e)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused serve made its database")
	}
}

// orderly verify and import read nothing but the document: a scenario that
// names a file is refused without opening it.
func TestVerifyReadsNoFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.yaml")
	if err := os.WriteFile(secret, []byte("title: TOP-SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{secret, "/etc/passwd", "/dev/zero", "secret.yaml"} {
		doc := map[string]any{"format": "orderly-game/3", "id": "x", "title": "x", "rules": "nb", "hash": strings.Repeat("0", 64),
			"scenario": map[string]any{"file": "x.yaml", "source": "script: x\nscenario: " + name + "\n"},
			"seeds":    []map[string]any{{"from": 1, "commitment": strings.Repeat("a", 64)}}, "events": []any{}}
		b, _ := json.Marshal(doc)
		path := filepath.Join(dir, "doc.json")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"verify", path}, {"import", "--db", filepath.Join(dir, "i.db"), path}} {
			_, e, st := cli(t, cmd...)
			if st != 2 || !strings.Contains(e, "names a file") || strings.Contains(e, "TOP-SECRET") || strings.Contains(e, "root:") {
				t.Errorf("%v naming %s: %d %s", cmd[0], name, st, e)
			}
		}
	}
}
