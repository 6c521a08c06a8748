package server_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"orderly/store/pgtest"
)

// startChild starts the test binary as a server on db (a file or a
// PostgreSQL URL) and returns the process and its address, once it
// answers /readyz.
func startChild(t *testing.T, db, addrFile string) (*exec.Cmd, string) {
	t.Helper()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), "ORDERLY_TEST_SERVE_DB="+db, "ORDERLY_TEST_SERVE_ADDR="+addrFile)
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = child.Process.Kill()
		_ = child.Wait()
	})
	var addr string
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the child server did not start")
		}
		if addr == "" {
			b, err := os.ReadFile(addrFile)
			if err != nil {
				continue
			}
			addr = string(b)
		}
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return child, addr
			}
		}
	}
}

// TestKillOneOfThree runs three servers on one PostgreSQL database, with
// clients spread over them, and kills one with SIGKILL in the middle of a
// burst of commands: every command acknowledged (by any of them) is in the
// log exactly once, nothing is there that was not sent, and the streams
// held by the two that live on saw every event once, in order.
func TestKillOneOfThree(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts child processes")
	}
	url := pgtest.DB(t)
	dir := t.TempDir()
	maker := pgFixture(t, url, 7)
	id, tok := maker.demo(false)
	g := "/api/games/" + id
	maker.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil) // the move step

	var addrs [3]string
	var children [3]*exec.Cmd
	for i := range addrs {
		children[i], addrs[i] = startChild(t, url, filepath.Join(dir, "addr"+strconv.Itoa(i)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	client := &http.Client{Timeout: 10 * time.Second}
	// Streams on the two that will live: the umpire's (every event) and
	// the French side's (its own numbering).
	type watch struct {
		name, token string
		ch          <-chan sse
	}
	var watches []watch
	for _, i := range []int{1, 2} {
		for _, seat := range []string{"umpire", "french"} {
			ch, err := subscribeAt(ctx, http.DefaultClient, "http://"+addrs[i], id, tok[seat], 0) // no timeout: a stream lasts
			if err != nil {
				t.Fatal(err)
			}
			watches = append(watches, watch{fmt.Sprintf("%s's stream on instance %d", seat, i), tok[seat], ch})
		}
	}

	var mu sync.Mutex
	sent, acked := map[string]bool{}, map[string]bool{}
	conflicts, afterKill := 0, 0
	var wg sync.WaitGroup
	killed, stop := make(chan struct{}), make(chan struct{})
	for w := range 9 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			at := w % 3
			units := []string{"F-I-1-a", "A-I-1-a"}
			seats := []string{tok["french"], tok["allies"]}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				x, y := []float64{26, 12}[w%2]+float64(w)/1e4+float64(i)/1e8, []float64{32, 13}[w%2] // by its start: within its speed (NB-16)
				to := fmt.Sprintf("@%v,%v", x, y)
				body := fmt.Sprintf(`{"move":{"unit":%q,"to":[%v,%v]}}`, units[w%2], x, y)
				req, _ := http.NewRequest("POST", "http://"+addrs[at]+g+"/commands", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+seats[w%2])
				req.Header.Set("Content-Type", "application/json")
				mu.Lock()
				sent[units[w%2]+to] = true
				mu.Unlock()
				resp, err := client.Do(req)
				if err != nil {
					select {
					case <-killed:
						if at == 0 {
							return
						}
					default:
					}
					t.Errorf("instance %d: %v", at, err)
					return
				}
				resp.Body.Close()
				mu.Lock()
				switch resp.StatusCode {
				case 200:
					acked[units[w%2]+to] = true
					select {
					case <-killed:
						afterKill++
					default:
					}
				case http.StatusConflict:
					conflicts++ // refused whole: the client may send it again
				default:
					t.Errorf("instance %d: %s: %d", at, body, resp.StatusCode)
				}
				mu.Unlock()
			}
		}()
	}
	wait := func(cond func() bool) {
		for cond() {
			select {
			case <-ctx.Done():
				t.Fatalf("timed out with %d acknowledged", len(acked))
			case <-time.After(time.Millisecond):
			}
		}
	}
	wait(func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) < 150 })
	close(killed)
	if err := children[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The other two go on taking commands.
	wait(func() bool { mu.Lock(); defer mu.Unlock(); return afterKill < 100 })
	close(stop)
	wg.Wait()

	check := pgFixture(t, url, 8)
	doc, err := check.srv.Export(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	logged := checkLogged(t, doc, sent, acked)
	t.Logf("%d moves sent, %d acknowledged (%d after the kill), %d refused as conflicts, %d in the log", len(sent), len(acked), afterKill, conflicts, len(logged))

	for _, w := range watches {
		var info struct {
			Version int `json:"version"`
		}
		if code, body := check.call("GET", g, w.token, nil, &info); code != 200 {
			t.Fatalf("game: %d %s", code, body)
		}
		n := 0
		for n < info.Version {
			select {
			case m, ok := <-w.ch:
				if !ok {
					t.Fatalf("%s closed after %d of %d events", w.name, n, info.Version)
				}
				if m.event != "event" {
					continue
				}
				n++
				if m.id != strconv.Itoa(n) {
					t.Fatalf("%s: message %d has id %s", w.name, n, m.id)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s saw %d of %d events", w.name, n, info.Version)
			}
		}
		select {
		case m := <-w.ch:
			if m.event == "event" {
				t.Errorf("%s brought event %s past the last", w.name, m.id)
			}
		case <-time.After(100 * time.Millisecond):
		}
	}
}
