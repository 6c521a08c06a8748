package deploy

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"orderly/store/pgtest"
)

// TestPlayThroughProxy is compose.yaml without the containers: the binary
// built as the Dockerfile builds it, run twice with the orderly services'
// command and environment (their ORDERLY_DB pointing at a throwaway
// PostgreSQL instead of the db service), behind Debian's Caddy running
// deploy/Caddyfile as shipped but for the addresses. A game is made with
// the shared host token through the proxy; both sides' event streams are
// open twice, and least_conn spreads them over the two instances; the
// sides play through the proxy and every stream sees every one of its
// side's moves. Then one instance is killed with SIGKILL: only the
// streams on it end, the proxy sends the next command to the survivor,
// the streams there see it, and a dropped stream reconnects through the
// proxy (Last-Event-ID) and gets what it missed.
//
// Caddy comes from Debian's caddy package, which .ci/run installs; without
// it the test skips, except in CI.
func TestPlayThroughProxy(t *testing.T) {
	caddy, err := exec.LookPath("caddy")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("caddy is needed in CI (Debian's caddy package): %v", err)
		}
		t.Skipf("no caddy to test the proxy with: %v", err)
	}
	in := loadInputs(t)
	cf, _, err := loadCompose(in.files["compose.yaml"], composeEnv)
	if err != nil {
		t.Fatal(err)
	}
	url := pgtest.DB(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	names := []string{"orderly-a", "orderly-b"}
	ports := freePorts(t, 3)
	var procs []*exec.Cmd
	for i, name := range names {
		svc := cf.Services[name]
		if svc == nil {
			t.Fatalf("compose.yaml has no service %s", name)
		}
		args := slices.Clone(svc.Command.words)
		at := slices.Index(args, "--addr")
		if at < 0 || at+1 >= len(args) {
			t.Fatalf("%s's command has no --addr: %q", name, args)
		}
		args[at+1] = "127.0.0.1:" + strconv.Itoa(ports[i])
		env := []string{"HOME=" + dir}
		for k, v := range svc.Environment {
			if k == "ORDERLY_DB" {
				if !strings.HasPrefix(v, "postgres://") {
					t.Fatalf("%s's ORDERLY_DB is not a postgres:// URL: %s", name, v)
				}
				v = url
			}
			env = append(env, k+"="+v)
		}
		procs = append(procs, start(t, dir, name, once.bin, args, env))
	}

	src := in.files["deploy/Caddyfile"]
	for _, r := range []struct{ old, new string }{
		{"reverse_proxy orderly-a:8080 orderly-b:8080 {", fmt.Sprintf("reverse_proxy 127.0.0.1:%d 127.0.0.1:%d {", ports[0], ports[1])},
		{"\n:8080 {", fmt.Sprintf("\n:%d {", ports[2])},
		{"\tgrace_period 5s\n", "\tadmin off\n\tgrace_period 5s\n"},
	} {
		if strings.Count(src, r.old) != 1 {
			t.Fatalf("deploy/Caddyfile no longer has %q once: the test cannot point it at its instances", r.old)
		}
		src = strings.Replace(src, r.old, r.new, 1)
	}
	conf := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(conf, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	start(t, dir, "caddy", caddy, []string{"run", "--config", conf, "--adapter", "caddyfile"},
		[]string{"HOME=" + dir, "XDG_DATA_HOME=" + dir, "XDG_CONFIG_HOME=" + dir})

	p := &proxy{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", ports[2]), host: "localhost"}
	// Ready when the proxy's health checks have found both instances.
	for _, port := range ports[:2] {
		waitReady(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	}
	waitReady(t, p.base)
	time.Sleep(2500 * time.Millisecond) // one health_interval: both in the pool

	var made struct {
		Game  struct{ ID string } `json:"game"`
		Seats []struct {
			Name  string `json:"name"`
			Side  string `json:"side"`
			Role  string `json:"role"`
			Token string `json:"token"`
		} `json:"seats"`
	}
	if code, body := p.call("POST", "/api/games", composeEnv["ORDERLY_HOST_TOKEN"], `{"scenario":"demo"}`, &made); code != 201 {
		t.Fatalf("a game made through the proxy with the host token: %d %s", code, body)
	}
	g := "/api/games/" + made.Game.ID
	tok := map[string]string{}
	for _, s := range made.Seats {
		switch s.Role {
		case "umpire":
			tok["umpire"] = s.Token
		case "side":
			tok[s.Side] = s.Token
		}
	}
	units := map[string]string{"french": "F-I-1-a", "allies": "A-I-1-a"}
	var board struct {
		State struct {
			Units []struct {
				ID string     `json:"id"`
				At [2]float64 `json:"at"`
			} `json:"units"`
		} `json:"state"`
	}
	if code, body := p.call("GET", g+"/board", tok["umpire"], "", &board); code != 200 {
		t.Fatalf("board: %d %s", code, body)
	}
	at := map[string][2]float64{}
	for _, u := range board.State.Units {
		at[u.ID] = u.At
	}

	// Two streams a side, opened one after another: least_conn sends
	// each to the instance with fewer open connections.
	type open struct {
		side string
		s    *stream
	}
	var streams []open
	for range 2 {
		for _, side := range []string{"french", "allies"} {
			s, err := p.stream(ctx, g, tok[side], 0)
			if err != nil {
				t.Fatal(err)
			}
			streams = append(streams, open{side, s})
		}
	}
	if code, body := p.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil); code != 200 {
		t.Fatalf("end the setup: %d %s", code, body)
	}
	moved := map[string][]string{} // side -> the x of each of its moves, as the stream shows it
	move := func(side string, n int) {
		t.Helper()
		x := at[units[side]][0] + float64(n)/100
		body := fmt.Sprintf(`{"move":{"unit":%q,"to":[%s,%s]}}`, units[side], ftoa(x), ftoa(at[units[side]][1]))
		if code, out := p.call("POST", g+"/commands", tok[side], body, nil); code != 200 {
			t.Fatalf("a %s move through the proxy: %d %s", side, code, out)
		}
		moved[side] = append(moved[side], ftoa(x))
	}
	for n := range 6 {
		move("french", n+1)
		move("allies", n+1)
	}
	for _, o := range streams {
		o.s.await(t, moved[o.side])
	}

	// SIGKILL one instance: the streams on it end, the others stay.
	if err := procs[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var ended, alive []open
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ended, alive = nil, nil
		for _, o := range streams {
			select {
			case <-o.s.done:
				ended = append(ended, o)
			default:
				alive = append(alive, o)
			}
		}
		if len(ended) > 0 && len(ended) == len(streams)/2 || time.Now().After(deadline) {
			break
		}
	}
	if len(ended) == 0 {
		t.Fatal("no stream ended when an instance was killed: were they all on the other?")
	}
	if len(alive) == 0 {
		t.Fatal("every stream ended when one of two instances was killed: were they all on it?")
	}
	t.Logf("%d streams on the killed instance, %d on the survivor", len(ended), len(alive))

	// The proxy sends the next commands to the survivor; its streams see
	// them, and a dropped stream picks up where it left off. First the
	// proxy's health check takes the dead instance out (one interval):
	// Caddy before the fix of caddyserver/caddy#7546 (Debian's 2.6.2 among
	// them) answers 502 to a request with a body whose first try could
	// not connect, instead of trying the other instance. Requests without
	// a body (a page's reads and streams) are tried again already.
	if code, body := p.call("GET", g, tok["umpire"], "", nil); code != 200 {
		t.Fatalf("the game read through the proxy after the kill: %d %s", code, body)
	}
	time.Sleep(2500 * time.Millisecond)
	move("french", 50)
	move("allies", 50)
	for _, o := range alive {
		o.s.await(t, moved[o.side])
	}
	for _, o := range ended {
		o.s.drain()
		s, err := p.stream(ctx, g, tok[o.side], o.s.last)
		if err != nil {
			t.Fatalf("a dropped %s stream reconnecting through the proxy: %v", o.side, err)
		}
		s.xs = append(s.xs, o.s.xs...)
		s.await(t, moved[o.side])
	}
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// freePorts returns n ports free on the loopback address just now.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var out []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return out
}

// start runs a process for the length of the test, its output in a file
// that the test prints if it fails.
func start(t *testing.T, dir, name, bin string, args, env []string) *exec.Cmd {
	t.Helper()
	logf, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logf.Close()
		if t.Failed() {
			out, _ := os.ReadFile(logf.Name())
			t.Logf("%s's output:\n%s", name, out)
		}
	})
	return cmd
}

// waitReady waits for base's /readyz to answer 200.
func waitReady(t *testing.T, base string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		req, _ := http.NewRequest("GET", base+"/readyz", nil)
		req.Host = "localhost"
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s/readyz never answered 200", base)
		}
	}
}

// proxy is the API through the proxy, with the Host a browser would send.
type proxy struct {
	t          *testing.T
	base, host string
}

func (p *proxy) call(method, path, token, body string, out any) (int, string) {
	p.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, p.base+path, r)
	if err != nil {
		p.t.Fatal(err)
	}
	req.Host = p.host
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(data, out); err != nil {
			p.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return resp.StatusCode, string(data)
}

// stream is an event stream read in the background: the x of each move
// it brought, and the id of the last event taken from it.
type stream struct {
	msgs chan message
	done chan struct{} // closed when the stream has ended
	xs   []string
	last int
}

// message is one event of a stream: its id and the x of its moves.
type message struct {
	id int
	xs []string
}

func (p *proxy) stream(ctx context.Context, game, token string, last int) (*stream, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", p.base+game+"/stream", nil)
	if err != nil {
		return nil, err
	}
	req.Host = p.host
	req.Header.Set("Authorization", "Bearer "+token)
	if last > 0 {
		req.Header.Set("Last-Event-ID", strconv.Itoa(last))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		return nil, fmt.Errorf("stream: status %d", resp.StatusCode)
	}
	s := &stream{msgs: make(chan message, 4096), done: make(chan struct{}), last: last}
	go func() {
		defer close(s.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var m message
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if m.id > 0 {
					s.msgs <- m
				}
				m = message{}
				continue
			}
			if id, ok := strings.CutPrefix(line, "id: "); ok {
				m.id, _ = strconv.Atoi(id)
				continue
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			var e struct {
				Moves []struct {
					To [2]float64 `json:"to"`
				} `json:"moves"`
			}
			if json.Unmarshal([]byte(data), &e) == nil {
				for _, mv := range e.Moves {
					m.xs = append(m.xs, ftoa(mv.To[0]))
				}
			}
		}
	}()
	return s, nil
}

// take adds one message to what the stream has brought.
func (s *stream) take(m message) {
	s.xs = append(s.xs, m.xs...)
	s.last = m.id
}

// drain takes every message of an ended stream.
func (s *stream) drain() {
	<-s.done
	for {
		select {
		case m := <-s.msgs:
			s.take(m)
		default:
			return
		}
	}
}

// await waits until the stream has brought every x in want.
func (s *stream) await(t *testing.T, want []string) {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		have := map[string]bool{}
		for _, x := range s.xs {
			have[x] = true
		}
		missing := 0
		for _, x := range want {
			if !have[x] {
				missing++
			}
		}
		if missing == 0 {
			return
		}
		select {
		case m := <-s.msgs:
			s.take(m)
		case <-deadline:
			t.Fatalf("a stream brought %d moves, %d of the %d wanted are missing", len(s.xs), missing, len(want))
		}
	}
}
