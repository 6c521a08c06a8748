package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a buffer that a running server may write to while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var link = regexp.MustCompile(`(?m)^  (\S.*?)\s+(http://\S+)/play#(\S+)$`)

// TestServeExportVerifyImport runs the README's main command (on a port of
// its own), plays a command through its join links, stops it, and then
// exports, verifies and imports the game from the command line.
func TestServeExportVerifyImport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "club.db")
	var out, errb syncBuffer
	a := &app{out: &out, err: &errb, seed: func() uint64 { return 42 }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- a.run(ctx, []string{"serve", "--demo", "--db", db, "--addr", "127.0.0.1:0"}) }()
	var links [][]string
	for deadline := time.Now().Add(90 * time.Second); len(links) < 3; time.Sleep(20 * time.Millisecond) {
		links = link.FindAllStringSubmatch(out.String(), -1)
		if time.Now().After(deadline) {
			t.Fatalf("no join links: %s %s", out.String(), errb.String())
		}
	}
	if links[0][1] != "Umpire" || !strings.Contains(out.String(), "dice seed commitment (SHA-256): ") {
		t.Errorf("serve printed %s", out.String())
	}
	base := links[0][2]
	game := regexp.MustCompile(`\(game (\w+)\)`).FindStringSubmatch(out.String())[1]
	post := func(token, body string) int {
		req, _ := http.NewRequest("POST", base+"/api/games/"+game+"/commands", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(links[1][3], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12]}}`); code != 200 {
		t.Errorf("write through the French link: %d", code)
	}
	for range 6 {
		if code := post(links[0][3], `{"end":true}`); code != 200 {
			t.Errorf("end through the umpire's link: %d", code)
		}
	}
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "<html") {
		t.Errorf("the page: %d", resp.StatusCode)
	}
	cancel()
	if status := <-done; status != 0 {
		t.Fatalf("serve ended with %d: %s", status, errb.String())
	}

	// Export without secrets: verify says the rolls are still secret.
	plain := filepath.Join(dir, "plain.json")
	if _, e, st := cli(t, "export", "--db", db, game, "-o", plain); st != 0 {
		t.Fatalf("export: %d %s", st, e)
	}
	if o, e, st := cli(t, "verify", plain); st != 1 || !strings.Contains(e, "still secret") {
		t.Errorf("verify before the reveal: %d %s %s", st, o, e)
	}
	// With the keys, every roll checks out.
	full := filepath.Join(dir, "full.json")
	cli(t, "export", "--db", db, game, "--secrets", "-o", full)
	o, e, st := cli(t, "verify", full)
	if st != 0 || !regexp.MustCompile(`ok: \d+ events replay to state [0-9a-f]{16}; all [1-9]\d* rolls match`).MatchString(o) {
		t.Errorf("verify: %d %s %s", st, o, e)
	}
	// Import makes a new game with three new links.
	o, e, st = cli(t, "import", "--db", filepath.Join(dir, "other.db"), full)
	if st != 0 || len(link.FindAllString(o, -1)) != 3 {
		t.Errorf("import: %d %s %s", st, o, e)
	}
	// Bad input: one line, exit 2.
	for _, args := range [][]string{
		{"export", "--db", db, "nosuchgame"},
		{"export", "--db", filepath.Join(dir, "missing.db"), game},
		{"verify", filepath.Join(dir, "missing.json")},
		{"verify", db},
		{"serve", "--addr", "not-an-address", "--db", filepath.Join(dir, "x.db")},
	} {
		_, e, st := cli(t, args...)
		if st != 2 || strings.Count(strings.TrimSpace(e), "\n") != 0 {
			t.Errorf("%v: %d %q", args, st, e)
		}
	}
	// A forged document fails verification.
	var doc map[string]any
	data, _ := os.ReadFile(full)
	_ = json.Unmarshal(data, &doc)
	doc["hash"] = strings.Repeat("0", 64)
	forged := filepath.Join(dir, "forged.json")
	b, _ := json.Marshal(doc)
	_ = os.WriteFile(forged, b, 0o600)
	if _, e, st := cli(t, "verify", forged); st != 2 || !strings.Contains(e, "does not replay to the state the document records") {
		t.Errorf("forged hash: %d %s", st, e)
	}
}

// orderlyProcess starts this test binary as orderly serve, in a process
// of its own, on args, and waits for its first lines up to the join links
// (or the host link without --demo). It returns the process, killed when
// the test ends, and what it printed.
func orderlyProcess(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	child := exec.Command(os.Args[0], append([]string{"serve"}, args...)...)
	child.Env = append(os.Environ(), asOrderly+"=1", dbEnv+"=", "ORDERLY_HOST_TOKEN=")
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb syncBuffer
	child.Stderr = &errb
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = child.Process.Kill()
		_ = child.Wait()
	})
	demo := slices.Contains(args, "--demo")
	lines := make(chan string)
	go func() {
		defer close(lines)
		var b strings.Builder
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
			if (!demo && strings.HasPrefix(sc.Text(), "host link")) || (demo && len(link.FindAllString(b.String(), -1)) == 3) {
				lines <- b.String()
				_, _ = io.Copy(io.Discard, out)
				return
			}
		}
		lines <- b.String()
	}()
	select {
	case printed := <-lines:
		if !strings.Contains(printed, "host link") {
			t.Fatalf("orderly serve %v did not start: %s %s", args, printed, errb.String())
		}
		return child, printed
	case <-time.After(90 * time.Second):
		t.Fatalf("orderly serve %v printed nothing in 90 s: %s", args, errb.String())
	}
	return nil, ""
}

// TestOneServerPerFile: a second orderly serve on an SQLite file that
// another serves refuses to start, in one sentence that points to
// PostgreSQL; export, seats and import work on the file beside the
// running server; and once that server is killed (SIGKILL: nothing of it
// runs to release anything) a new one starts on the file.
func TestOneServerPerFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "club.db")
	first, printed := orderlyProcess(t, "--demo", "--db", db, "--addr", "127.0.0.1:0")
	game := regexp.MustCompile(`\(game (\w+)\)`).FindStringSubmatch(printed)[1]

	// The second refuses before it listens: a server that started would
	// run until the deadline, and say so on its way out.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	a := &app{out: &out, err: &errb, seed: func() uint64 { return 42 }}
	status := a.run(ctx, []string{"serve", "--db", db, "--addr", "127.0.0.1:0"})
	msg := errb.String()
	if status != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "another orderly serve is serving this file") ||
		!strings.Contains(msg, "PostgreSQL (--db postgres://") || strings.Contains(out.String(), "orderly serves") {
		t.Fatalf("a second serve on the file: %d %q %q", status, out.String(), msg)
	}

	// Commands beside the running server open the file as ever.
	exported := filepath.Join(dir, "game.json")
	if _, e, st := cli(t, "export", "--db", db, game, "--secrets", "-o", exported); st != 0 {
		t.Errorf("export beside the server: %d %s", st, e)
	}
	if o, e, st := cli(t, "seats", "--db", db, game); st != 0 || !strings.Contains(o, "umpire") {
		t.Errorf("seats beside the server: %d %s %s", st, o, e)
	}
	if o, e, st := cli(t, "import", "--db", db, exported); st != 0 || len(link.FindAllString(o, -1)) != 3 {
		t.Errorf("import beside the server: %d %s %s", st, o, e)
	}

	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	_, printed = orderlyProcess(t, "--db", db, "--addr", "127.0.0.1:0")
	if !strings.Contains(printed, "orderly serves 2 games") {
		t.Errorf("the server after the kill: %s", printed)
	}
}
