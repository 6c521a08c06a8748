package server_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"orderly/archive"
	"orderly/rules"
	"orderly/rules/nb"
	"orderly/server"
	"orderly/store"
	"orderly/store/pgtest"
	"orderly/store/postgres"
	"orderly/store/sqlite"
)

// TestMain lets the test binary play the server in a child process, for
// TestKillMidBurst, or the slow clients of TestSlowClients.
func TestMain(m *testing.M) {
	if db := os.Getenv("ORDERLY_TEST_SERVE_DB"); db != "" {
		os.Exit(serveChild(db, os.Getenv("ORDERLY_TEST_SERVE_ADDR")))
	}
	if spec := os.Getenv(slowEnv); spec != "" {
		os.Exit(slowChild(spec, os.Stdin, os.Stdout))
	}
	os.Exit(pgtest.Main(m))
}

func serveChild(db, addrFile string) int {
	ctx := context.Background()
	var st store.Store
	var err error
	if postgres.IsURL(db) {
		st, err = postgres.Open(ctx, db)
	} else {
		st, err = sqlite.Open(ctx, db)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	eng, err := rules.Make()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv, err := server.New(ctx, st, eng)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.WriteFile(addrFile+".tmp", []byte(ln.Addr().String()), 0o600); err != nil || os.Rename(addrFile+".tmp", addrFile) != nil {
		return 1
	}
	if w, ok := st.(store.Watcher); ok {
		go func() { _ = srv.Follow(ctx, w) }()
	}
	_ = http.Serve(ln, srv.Handler())
	return 0
}

// TestKillMidBurst kills the server with SIGKILL in the middle of a burst
// of commands from eight clients, and starts it again on the same file:
// every command the server acknowledged is in the log exactly once,
// nothing is there that was not sent, and the state the restarted server
// holds is the replay of the log.
func TestKillMidBurst(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "kill.db")
	f := openFixture(t, path, 7)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil) // the move step
	f.close()

	child, addr := startChild(t, path, filepath.Join(dir, "addr"))

	var mu sync.Mutex
	sent, acked := map[string]bool{}, map[string]bool{}
	client := &http.Client{Timeout: 5 * time.Second}
	var wg sync.WaitGroup
	killed := make(chan struct{})
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			units := []string{"F-I-1-a", "A-I-1-a"}
			seats := []string{tok["french"], tok["allies"]}
			for i := 0; ; i++ {
				x, y := []float64{26, 12}[w%2]+float64(w)/1e4+float64(i)/1e8, []float64{32, 13}[w%2] // by its start: within its speed (NB-16)
				to := fmt.Sprintf("@%v,%v", x, y)
				body := fmt.Sprintf(`{"move":{"unit":%q,"to":[%v,%v]}}`, units[w%2], x, y)
				req, _ := http.NewRequest("POST", "http://"+addr+g+"/commands", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+seats[w%2])
				req.Header.Set("Content-Type", "application/json")
				mu.Lock()
				sent[units[w%2]+to] = true
				mu.Unlock()
				resp, err := client.Do(req)
				if err != nil {
					select {
					case <-killed:
						return
					default:
						t.Errorf("before the kill: %v", err)
						return
					}
				}
				resp.Body.Close()
				if resp.StatusCode == 200 {
					mu.Lock()
					acked[units[w%2]+to] = true
					mu.Unlock()
				} else {
					t.Errorf("%s: %d", body, resp.StatusCode)
				}
			}
		}()
	}
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 200 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(killed)
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	wg.Wait()

	// Start again on the same file.
	f2 := openFixture(t, path, 8)
	doc, err := f2.srv.Export(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	logged := checkLogged(t, doc, sent, acked)
	t.Logf("%d moves sent, %d acknowledged, %d in the log after the kill", len(sent), len(acked), len(logged))
	if _, err := doc.Replay(engineOf(t)); err != nil {
		t.Errorf("the restarted server's state is not the replay of its log: %v", err)
	}
	if code, body := f2.call("POST", g+"/commands", tok["french"], `{"move":{"unit":"F-I-1-a","to":[27,32]}}`, nil); code != 200 {
		t.Errorf("after restart: %d %s", code, body)
	}
}

// checkLogged checks that every acknowledged move is in the exported log
// exactly once and every logged move was sent, once; it returns the
// logged moves (UNIT@X,Y) and how often each is there.
func checkLogged(t *testing.T, doc *archive.Game, sent, acked map[string]bool) map[string]int {
	t.Helper()
	logged := map[string]int{}
	for _, e := range doc.Events {
		if e.Type != nb.Moved {
			continue
		}
		for _, m := range e.Moves {
			logged[m.Unit+fmt.Sprintf("@%v,%v", m.To.X, m.To.Y)]++
		}
	}
	for k := range acked {
		if logged[k] != 1 {
			t.Errorf("acknowledged move %s is in the log %d times", k, logged[k])
		}
	}
	for k, n := range logged {
		if !sent[k] || n != 1 {
			t.Errorf("logged move %s: sent %v, %d times", k, sent[k], n)
		}
	}
	return logged
}
