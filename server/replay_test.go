package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"orderly/game"
	"orderly/game/gametest"
)

// replayGame is a game made on a twin, with its tokens by seat (the
// umpire under game.Umpire, each side under its id) and its live game.
type replayGame struct {
	w      *twin
	id     string
	tokens map[string]string
	l      *live
}

func newReplayGame(t *testing.T, w *twin, demo, fog string) *replayGame {
	t.Helper()
	c, err := w.srv.Create(context.Background(), Setup{Scenario: demo, Fog: fog})
	if err != nil {
		t.Fatal(err)
	}
	l, e := w.srv.game(context.Background(), c.Game.ID)
	if e != nil {
		t.Fatal(e)
	}
	rg := &replayGame{w: w, id: c.Game.ID, tokens: map[string]string{}, l: l}
	for _, s := range c.Seats {
		switch s.Role {
		case "umpire":
			rg.tokens[game.Umpire] = s.Token
		case "side":
			rg.tokens[s.Side] = s.Token
		}
	}
	return rg
}

// play sends one random command of the game's rule set, as its seat
// would, and reports whether the game goes on.
func (rg *replayGame) play(t *testing.T, rng *rand.Rand) bool {
	t.Helper()
	rg.l.mu.Lock()
	c := rg.l.rules.(gametest.Random).Random(rg.l.g, rng)
	over := rg.l.g.State().Over
	rg.l.mu.Unlock()
	if over {
		return false
	}
	rg.w.call(t, "POST", "/api/games/"+rg.id+"/commands", rg.tokens[c.Side], commandBody(c))
	return true
}

// comparable is a board as a replay must give it again: without what
// only a live game offers (the commands, offers, advice, waiting).
func comparable(t *testing.T, body string) string {
	t.Helper()
	var b map[string]any
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatalf("%v: %.300s", err, body)
	}
	delete(b, "offers")
	delete(b, "advice")
	delete(b, "acting")
	if in, ok := b["game"].(map[string]any); ok {
		for _, k := range []string{"verbs", "waiting", "since", "why", "undo"} {
			delete(in, k)
		}
	}
	out, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestReplayBoards plays each demo through the API, keeping every
// seat's board after each command, and checks that the replay of each
// seat's event number gives that board again (less what only a live
// game offers), and that the index lists the seat's events as GET
// /events does.
func TestReplayBoards(t *testing.T) {
	t.Parallel()
	w := newTwins(t, 7)
	for i, demo := range []string{"demo", "bp-demo", "cd-demo", "nes-demo", "lob-demo"} {
		t.Run(demo, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 36))
			rg := newReplayGame(t, w[0], demo, game.FogOn)
			base := "/api/games/" + rg.id
			side := rg.l.sc.Sides[0].ID
			type kept struct {
				seat    string
				version int
				board   string
			}
			var boards []kept
			look := func() {
				for _, seat := range []string{game.Umpire, side} {
					a := rg.w.call(t, "GET", base+"/board", rg.tokens[seat], nil)
					var b Board
					if err := json.Unmarshal([]byte(a.body), &b); err != nil {
						t.Fatal(err)
					}
					boards = append(boards, kept{seat, b.Info.Version, comparable(t, a.body)})
				}
			}
			look()
			for k := 0; k < 20 && rg.play(t, rng); k++ {
				look()
			}
			doc := rg.w.call(t, "GET", "/api/schema/board/"+rg.l.sc.Rules, "", nil)
			sch := compileBoard(t, rg.l.sc.Rules, []byte(doc.body))
			index := openAPISchema(t, "Replay")
			// Replayed out of order, so that cursors go back and forth.
			rng.Shuffle(len(boards), func(i, j int) { boards[i], boards[j] = boards[j], boards[i] })
			for _, k := range boards {
				a := rg.w.call(t, "GET", fmt.Sprintf("%s/replay/%d", base, k.version), rg.tokens[k.seat], nil)
				if a.status != 200 {
					t.Fatalf("%s's replay at %d: %d %s", k.seat, k.version, a.status, a.body)
				}
				valid(t, sch, "the board schema", a.body)
				if got := comparable(t, a.body); got != k.board {
					t.Fatalf("%s's replay at %d is\n%s\nwhile the board then was\n%s", k.seat, k.version, clipS(got), clipS(k.board))
				}
			}
			for _, seat := range []string{game.Umpire, side} {
				var idx Replay
				a := rg.w.call(t, "GET", base+"/replay", rg.tokens[seat], nil)
				if err := json.Unmarshal([]byte(a.body), &idx); err != nil {
					t.Fatal(err)
				}
				valid(t, index, "the OpenAPI document's Replay", a.body)
				var evs Events
				if err := json.Unmarshal([]byte(rg.w.call(t, "GET", base+"/events", rg.tokens[seat], nil).body), &evs); err != nil {
					t.Fatal(err)
				}
				if idx.Version != evs.Version || len(idx.Events) != len(evs.Events) {
					t.Fatalf("%s's index: version %d with %d events, /events %d with %d", seat, idx.Version, len(idx.Events), evs.Version, len(evs.Events))
				}
				for j, e := range evs.Events {
					x := idx.Events[j]
					if x.Seq != e.Event.Seq || x.Turn != e.Event.Turn || x.Type != e.Event.Type || x.Text != e.Summary {
						t.Fatalf("%s's index event %d is %+v, /events has %d %s %q", seat, j, x, e.Event.Seq, e.Event.Type, e.Summary)
					}
				}
				for j, ts := range idx.Turns {
					if ts.Turn != j+1 {
						t.Fatalf("%s's index: turn starts %+v", seat, idx.Turns)
					}
					if e := evs.Events[ts.Seq-1].Event; e.Turn != ts.Turn || ts.Seq > 1 && evs.Events[ts.Seq-2].Event.Turn == ts.Turn {
						t.Fatalf("%s's index: turn %d begins at %d, which is not its first event", seat, ts.Turn, ts.Seq)
					}
				}
				if len(idx.Turns) == 0 {
					t.Fatalf("%s's index has no turn", seat)
				}
				if idx.Full != (seat == game.Umpire) || idx.View != "seat" {
					t.Fatalf("%s's index: full %v view %s", seat, idx.Full, idx.View)
				}
			}
		})
	}
}

// TestReplayViews: a side replays its own view until the game is over,
// then the full game as well; a seq outside the seat's events, or a view
// that is not one, is a clear 400.
func TestReplayViews(t *testing.T) {
	t.Parallel()
	w := newTwins(t, 8)
	rg := newReplayGame(t, w[0], "cd-demo", game.FogOn)
	base := "/api/games/" + rg.id
	side := rg.l.sc.Sides[0].ID
	a := rg.w.call(t, "GET", base+"/replay/1?view=full", rg.tokens[side], nil)
	if a.status != 403 || !strings.Contains(a.body, "only once it is over") {
		t.Fatalf("a side's full view before the end: %d %s", a.status, a.body)
	}
	if a := rg.w.call(t, "GET", base+"/replay?view=full", rg.tokens[side], nil); a.status != 403 {
		t.Fatalf("a side's full index before the end: %d %s", a.status, a.body)
	}
	var info Info
	if err := json.Unmarshal([]byte(rg.w.call(t, "GET", base, rg.tokens[side], nil).body), &info); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"-1", strings.TrimSpace(fmt.Sprint(info.Version + 1)), "x", "1e3"} {
		a := rg.w.call(t, "GET", base+"/replay/"+q, rg.tokens[side], nil)
		if a.status != 400 || !strings.Contains(a.body, fmt.Sprintf("from 0 to %d", info.Version)) {
			t.Fatalf("replay/%s: %d %s", q, a.status, a.body)
		}
	}
	if a := rg.w.call(t, "GET", base+"/replay/0?view=mine", rg.tokens[side], nil); a.status != 400 || !strings.Contains(a.body, "allowed: seat, full") {
		t.Fatalf("view=mine: %d %s", a.status, a.body)
	}
	for k := 0; k < 200; k++ {
		if rg.w.call(t, "POST", base+"/commands", rg.tokens[game.Umpire], []byte(`{"end":true}`)).status != 200 {
			break
		}
	}
	var umpire Replay
	if err := json.Unmarshal([]byte(rg.w.call(t, "GET", base+"/replay", rg.tokens[game.Umpire], nil).body), &umpire); err != nil {
		t.Fatal(err)
	}
	if !umpire.Over {
		t.Fatal("the umpire's ends did not end the game")
	}
	var full Replay
	a = rg.w.call(t, "GET", base+"/replay?view=full", rg.tokens[side], nil)
	if err := json.Unmarshal([]byte(a.body), &full); err != nil || a.status != 200 {
		t.Fatalf("%s's full index once over: %d %s", side, a.status, a.body)
	}
	if !full.Full || full.View != "full" || full.Version != umpire.Version || len(full.Events) != len(umpire.Events) {
		t.Fatalf("%s's full index: full %v view %s version %d, the umpire's %d", side, full.Full, full.View, full.Version, umpire.Version)
	}
	for _, n := range []int{1, umpire.Version / 2, umpire.Version} {
		mine := rg.w.call(t, "GET", fmt.Sprintf("%s/replay/%d?view=full", base, n), rg.tokens[side], nil)
		theirs := rg.w.call(t, "GET", fmt.Sprintf("%s/replay/%d", base, n), rg.tokens[game.Umpire], nil)
		var a, b Board
		if json.Unmarshal([]byte(mine.body), &a) != nil || json.Unmarshal([]byte(theirs.body), &b) != nil {
			t.Fatalf("boards at %d: %s / %s", n, clipS(mine.body), clipS(theirs.body))
		}
		if mustJSON(t, a.State) != mustJSON(t, b.State) || a.Info.Version != n {
			t.Fatalf("%s's full view at %d differs from the umpire's", side, n)
		}
	}
}

// TestReplaySecrecy is the differential property of fog of war for the
// replay (as TestBlindHTTP is for the live game): two servers, alike to
// their random source, make the same game of each demo, and the umpire
// places enemy pieces a side does not spot elsewhere in each. While the
// side knows the same in both games, its replay index is the same in
// both, and so is its replayed board at each of its events, byte for
// byte (less the hashes, keyed by a secret seed).
func TestReplaySecrecy(t *testing.T) {
	t.Parallel()
	w := newTwins(t, 36)
	for i, demo := range []string{"demo", "bp-demo", "cd-demo", "nes-demo", "lob-demo"} {
		mode := game.FogOn
		if i%2 == 1 {
			mode = game.FogStrict
		}
		t.Run(demo, func(t *testing.T) { replaySecrecy(t, w, demo, mode, uint64(i+40)) })
	}
}

func replaySecrecy(t *testing.T, w [2]*twin, demo, mode string, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x36))
	ctx := context.Background()
	var made [2]*Created
	var ls [2]*live
	for try := 0; ; try++ {
		if try == 8 {
			t.Fatalf("%s: no game in 8 was made with enemy pieces hidden where the test wants them", demo)
		}
		for i := range w {
			c, err := w[i].srv.Create(ctx, Setup{Scenario: demo, Fog: mode})
			if err != nil {
				t.Fatal(err)
			}
			made[i] = c
			l, e := w[i].srv.game(ctx, c.Game.ID)
			if e != nil {
				t.Fatal(e)
			}
			ls[i] = l
		}
		if blindSetup(t, w, made[0], ls, rng) != nil {
			break
		}
	}
	id := made[0].Game.ID
	side := ls[0].sc.Sides[0].ID
	tokens := map[string]string{}
	for _, s := range made[0].Seats {
		switch s.Role {
		case "umpire":
			tokens[game.Umpire] = s.Token
		case "side":
			tokens[s.Side] = s.Token
		}
	}
	base := "/api/games/" + id
	compare := func(what string, a [2]answer) {
		t.Helper()
		if a[0] != a[1] {
			t.Fatalf("%s: %s is answered\n%d %s\nby one server and\n%d %s\nby the other, whose game differs only in enemy pieces it does not spot", demo, what, a[0].status, clipS(a[0].body), a[1].status, clipS(a[1].body))
		}
	}
	knows := func() bool {
		var k [2]string
		for i, l := range ls {
			l.mu.Lock()
			k[i] = string(gametest.Knows(l.g, side))
			l.mu.Unlock()
		}
		return k[0] == k[1]
	}
	version := 0
	boards := 0
	for k := 0; k < 25; k++ {
		ls[0].mu.Lock()
		c := ls[0].rules.(gametest.Random).Random(ls[0].g, rng)
		over := ls[0].g.State().Over
		ls[0].mu.Unlock()
		if over {
			break
		}
		both(t, w, "POST", base+"/commands", tokens[c.Side], commandBody(c))
		if !knows() {
			break
		}
		idx := both(t, w, "GET", base+"/replay", tokens[side], nil)
		compare("the index", idx)
		var r Replay
		if err := json.Unmarshal([]byte(idx[0].body), &r); err != nil {
			t.Fatal(err)
		}
		// The boards at the side's new events, while they are its last.
		for n := version; n <= r.Version; n++ {
			compare(fmt.Sprintf("the board at %d", n), both(t, w, "GET", fmt.Sprintf("%s/replay/%d", base, n), tokens[side], nil))
			boards++
		}
		version = r.Version
	}
	// And again at every event, out of order, once more has happened.
	for _, n := range rng.Perm(version + 1) {
		compare(fmt.Sprintf("the board at %d, later", n), both(t, w, "GET", fmt.Sprintf("%s/replay/%d", base, n), tokens[side], nil))
	}
	if version < 3 {
		t.Fatalf("%s: only %d events of %s were compared", demo, version, side)
	}
	t.Logf("%s: %d boards at %d events of %s compared", demo, boards, version, side)
}

// BenchmarkReplayStep times one step of a replay through the API, the
// umpire's board at the next event (forward, from the cursor left at the
// one before) and at the one before (back), on the longest demo game
// (NES's, played through to its end by random commands, fog on).
func BenchmarkReplayStep(b *testing.B) {
	t := &testing.T{}
	w := newTwins(t, 9)
	rg := newReplayGame(t, w[0], "nes-demo", game.FogOn)
	rng := rand.New(rand.NewPCG(9, 36))
	for k := 0; k < 3000 && rg.play(t, rng); k++ {
	}
	rg.l.mu.Lock()
	n := rg.l.g.Len()
	rg.l.mu.Unlock()
	base := "/api/games/" + rg.id + "/replay/"
	tok := rg.tokens[game.Umpire]
	b.Logf("%d events", n)
	step := func(b *testing.B, seq int) {
		req, err := http.NewRequest("GET", rg.w.ts.URL+base+fmt.Sprint(seq), nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := rg.w.ts.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("replay/%d: %d", seq, resp.StatusCode)
		}
		b.SetBytes(n)
	}
	b.Run("forward", func(b *testing.B) {
		seq := 0
		for b.Loop() {
			seq = seq%n + 1
			step(b, seq)
		}
	})
	b.Run("back", func(b *testing.B) {
		seq := n
		for b.Loop() {
			if seq--; seq < 0 {
				seq = n
			}
			step(b, seq)
		}
	})
}

// openAPISchema compiles one of the OpenAPI document's component schemas.
func openAPISchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(openapiDoc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("openapi.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("openapi.json#/components/schemas/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// valid fails the test if body does not match sch.
func valid(t *testing.T, sch *jsonschema.Schema, what, body string) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
	if err != nil {
		t.Fatalf("%v: %.300s", err, body)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("an answer does not match %s: %v\n%s", what, err, clipS(body))
	}
}

// TestReplayTakeBack: the NB demo's French move a unit and take the move
// back; every board of the side's replay is given, stepped forward from
// the start (a cursor goes past the take-back: it must fold it again from
// the start), and the board after the take-back has the unit where it
// began.
func TestReplayTakeBack(t *testing.T) {
	t.Parallel()
	w := newTwins(t, 11)
	rg := newReplayGame(t, w[0], "demo", game.FogOn)
	base := "/api/games/" + rg.id
	for _, c := range []struct{ side, body string }{
		{"french", `{"ready":true}`},
		{"allies", `{"ready":true}`},
		{"french", `{"move":{"unit":"F-I-1-a","to":[26,30.5]}}`},
		{"french", `{"take-back":true}`},
	} {
		if a := rg.w.call(t, "POST", base+"/commands", rg.tokens[c.side], []byte(c.body)); a.status != 200 {
			t.Fatalf("%s: %d %s", c.body, a.status, a.body)
		}
	}
	var ix Replay
	if a := rg.w.call(t, "GET", base+"/replay", rg.tokens["french"], nil); a.status != 200 {
		t.Fatalf("the index: %d %s", a.status, a.body)
	} else if err := json.Unmarshal([]byte(a.body), &ix); err != nil {
		t.Fatal(err)
	}
	var last string
	for _, e := range ix.Events {
		a := rg.w.call(t, "GET", fmt.Sprintf("%s/replay/%d", base, e.Seq), rg.tokens["french"], nil)
		if a.status != 200 {
			t.Fatalf("the French replay at %d (%s): %d %s", e.Seq, e.Type, a.status, a.body)
		}
		last = a.body
		if e.Type == game.TakenBack {
			break
		}
	}
	var b struct {
		State struct {
			Units []struct {
				ID string     `json:"id"`
				At [2]float64 `json:"at"`
			} `json:"units"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(last), &b); err != nil {
		t.Fatal(err)
	}
	for _, u := range b.State.Units {
		if u.ID == "F-I-1-a" && u.At != [2]float64{26, 32} {
			t.Fatalf("after the take-back the replay has F-I-1-a at %v, want (26, 32)", u.At)
		}
	}
}
