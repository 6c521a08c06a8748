package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"orderly/store/pgtest"
)

// asOrderly in a test binary's environment makes it orderly itself, run
// on its arguments, for tests that need a process of their own to kill
// (TestOneServerPerFile).
const asOrderly = "ORDERLY_TEST_AS_ORDERLY"

func TestMain(m *testing.M) {
	if os.Getenv(asOrderly) != "" {
		main()
	}
	os.Exit(pgtest.Main(m))
}

// TestServePostgres: orderly serve keeps its games in PostgreSQL when
// ORDERLY_DB (or --db) is a postgres:// URL (issue 16); export, seats and
// import work against it as against a file, and a game moves from an
// SQLite file to PostgreSQL and back by export and import with its log
// intact.
func TestServePostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.DB(t)
	dir := t.TempDir()
	var out, errb syncBuffer
	const host = "a-shared-host-token-for-every-instance-0123"
	env := map[string]string{dbEnv: url, "ORDERLY_HOST_TOKEN": host}
	a := &app{out: &out, err: &errb, seed: func() uint64 { return 42 }, env: func(k string) string { return env[k] }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- a.run(ctx, []string{"serve", "--demo", "--addr", "127.0.0.1:0"}) }()
	var links [][]string
	for deadline := time.Now().Add(90 * time.Second); len(links) < 3; time.Sleep(20 * time.Millisecond) {
		links = link.FindAllStringSubmatch(out.String(), -1)
		if time.Now().After(deadline) {
			t.Fatalf("no join links: %s %s", out.String(), errb.String())
		}
	}
	if !strings.Contains(out.String(), "from postgres://") {
		t.Errorf("serve does not say it serves from the database: %s", out.String())
	}
	base := links[0][2]
	game := regexp.MustCompile(`\(game (\w+)\)`).FindStringSubmatch(out.String())[1]
	req, _ := http.NewRequest("POST", base+"/api/games/"+game+"/commands", strings.NewReader(`{"write":{"for":["F-I"],"kind":"attack","objective":[30,12]}}`))
	req.Header.Set("Authorization", "Bearer "+links[1][3])
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("write through the French link: %d", resp.StatusCode)
	}
	// The host token is the one in ORDERLY_HOST_TOKEN, never printed, and
	// the server listens for other instances' changes.
	if strings.Contains(out.String(), host) || !strings.Contains(out.String(), "the token in ORDERLY_HOST_TOKEN") {
		t.Errorf("serve's host link with ORDERLY_HOST_TOKEN: %s", out.String())
	}
	req, _ = http.NewRequest("POST", base+"/api/games", strings.NewReader(`{"scenario":"demo"}`))
	req.Header.Set("Authorization", "Bearer "+host)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 201 {
		t.Errorf("a game made with the shared host token: %v %v", resp, err)
	}
	var ready struct{ Ready, Listening bool }
	for deadline := time.Now().Add(10 * time.Second); !ready.Listening; time.Sleep(20 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&ready)
			resp.Body.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz never said it listens: %+v", ready)
		}
	}
	cancel()
	if status := <-done; status != 0 {
		t.Fatalf("serve ended with %d: %s", status, errb.String())
	}
	for _, c := range []struct {
		env  map[string]string
		args []string
		msg  string
	}{
		{map[string]string{"ORDERLY_HOST_TOKEN": "short"}, nil, "ORDERLY_HOST_TOKEN: the host token has 5 characters; it needs at least 32"},
		{nil, []string{"--trusted-proxy", "proxy.local"}, `--trusted-proxy "proxy.local" is neither an IP address nor a CIDR range`},
	} {
		var o, e syncBuffer
		a := &app{out: &o, err: &e, seed: func() uint64 { return 1 }, env: func(k string) string { return c.env[k] }}
		args := append([]string{"serve", "--db", filepath.Join(dir, "bad.db"), "--addr", "127.0.0.1:0"}, c.args...)
		if st := a.run(context.Background(), args); st != 2 || !strings.Contains(e.String(), c.msg) {
			t.Errorf("%v %v: exit %d, %q; want 2 and %q", c.env, c.args, st, e.String(), c.msg)
		}
		if _, err := os.Stat(filepath.Join(dir, "bad.db")); err == nil {
			t.Errorf("%v %v: refused, yet it made the database", c.env, c.args)
		}
	}

	full := filepath.Join(dir, "full.json")
	if _, e, st := cli(t, "export", "--db", url, game, "--secrets", "-o", full); st != 0 {
		t.Fatalf("export from PostgreSQL: %d %s", st, e)
	}
	o, e, st := cli(t, "verify", full)
	if st != 0 || !strings.Contains(o, "ok: ") {
		t.Fatalf("verify: %d %s %s", st, o, e)
	}
	if o, e, st := cli(t, "seats", "--db", url, game); st != 0 || !strings.Contains(o, "umpire") {
		t.Errorf("seats: %d %s %s", st, o, e)
	}
	// Into an SQLite file and from it into another PostgreSQL database.
	file := filepath.Join(dir, "club.db")
	o, e, st = cli(t, "import", "--db", file, full)
	if st != 0 || len(link.FindAllString(o, -1)) != 3 {
		t.Fatalf("import into a file: %d %s %s", st, o, e)
	}
	moved := regexp.MustCompile(`\(game (\w+)\)`).FindStringSubmatch(o)
	if moved == nil {
		t.Fatalf("import printed no game: %s", o)
	}
	again := filepath.Join(dir, "again.json")
	if _, e, st := cli(t, "export", "--db", file, moved[1], "--secrets", "-o", again); st != 0 {
		t.Fatalf("export from the file: %d %s", st, e)
	}
	other := pgtest.DB(t)
	if o, e, st := cli(t, "import", "--db", other, again); st != 0 || len(link.FindAllString(o, -1)) != 3 {
		t.Fatalf("import into PostgreSQL: %d %s %s", st, o, e)
	}
	if o, e, st := cli(t, "verify", again); st != 0 || !strings.Contains(o, "ok: ") {
		t.Fatalf("verify the moved game: %d %s %s", st, o, e)
	}
	// A database that is not there: one line, exit 2, no password shown.
	_, e, st = cli(t, "export", "--db", "postgres://orderly:hunter2@/nosuchdb?host="+filepath.Join(dir, "nosocket"), game)
	if st != 2 || strings.Count(strings.TrimSpace(e), "\n") != 0 || strings.Contains(e, "hunter2") {
		t.Errorf("a missing database: %d %q", st, e)
	}
}
