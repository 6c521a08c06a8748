package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/store/sqlite"
)

// schemaServer is one server over a fresh database, serving over loopback.
func schemaServer(t *testing.T) *twin {
	t.Helper()
	eng, err := twinEngine()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "orderly.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	srv, err := New(context.Background(), db, eng, WithRand(rand.NewChaCha8([32]byte{'s'})),
		WithLogger(slog.New(slog.DiscardHandler)), WithClock(func() time.Time { return time.Unix(1_800_000_000, 0) }))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return &twin{srv: srv, ts: ts}
}

// compileBoard compiles a served board schema.
func compileBoard(t *testing.T, id string, doc []byte) *jsonschema.Schema {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("the board schema of %s is not JSON: %v", id, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "board-" + id + ".schema.json"
	if err := c.AddResource(url, inst); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("the board schema of %s does not compile: %v", id, err)
	}
	return sch
}

// TestBoardSchemaRoute: the board schema of every rule set the server
// plays is served without a token, and an unknown rule set is answered
// 404 in one sentence naming those it plays.
func TestBoardSchemaRoute(t *testing.T) {
	t.Parallel()
	w := schemaServer(t)
	ids := w.srv.ruleSets()
	if want := []string{"nb", "bp", "cd", "lob", "nes"}; !sameSet(ids, want) {
		t.Fatalf("the server plays %v; want %v", ids, want)
	}
	for _, id := range ids {
		a := w.call(t, "GET", "/api/schema/board/"+id, "", nil)
		if a.status != 200 {
			t.Fatalf("%s: %d %s", id, a.status, a.body)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(a.body), &doc); err != nil {
			t.Fatal(err)
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" || !strings.HasSuffix(doc["title"].(string), " "+id) {
			t.Errorf("%s: $schema %v, title %v", id, doc["$schema"], doc["title"])
		}
		compileBoard(t, id, []byte(a.body))
	}
	for _, bad := range []string{"xx", "NB", "nb%2F..", strings.Repeat("a", 300)} {
		a := w.call(t, "GET", "/api/schema/board/"+bad, "", nil)
		if a.status != 404 || !strings.Contains(a.body, "the rule sets are bp, cd, lob, nb, nes") || strings.Count(a.body, ". ") > 0 {
			t.Errorf("%s: %d %s; want 404 naming the rule sets", bad, a.status, a.body)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestBoardsMatchSchema plays every bundled demo under fog of war through
// two turns, with random commands of each side and the umpire ending each
// step, and at every step checks the board of the umpire, of each side,
// of a commander and of the umpire acting for each side against the board
// schema the server serves for the demo's rule set: the board holds no
// field its Go types do not declare, and none of a type they do not say.
func TestBoardsMatchSchema(t *testing.T) {
	t.Parallel()
	w := schemaServer(t)
	ctx := context.Background()
	schemas := map[string]*jsonschema.Schema{}
	demos := 0
	for i, b := range w.srv.bundled {
		if !strings.HasSuffix(b.ID, "demo") {
			continue
		}
		demos++
		if schemas[b.Rules] == nil {
			a := w.call(t, "GET", "/api/schema/board/"+b.Rules, "", nil)
			if a.status != 200 {
				t.Fatalf("%s: %d %s", b.Rules, a.status, a.body)
			}
			schemas[b.Rules] = compileBoard(t, b.Rules, []byte(a.body))
		}
		t.Run(b.ID, func(t *testing.T) { playBoards(t, w, ctx, b.ID, schemas[b.Rules], uint64(i+1)) })
	}
	if demos < 5 {
		t.Fatalf("%d bundled demos; want one of every rule set", demos)
	}
}

func playBoards(t *testing.T, w *twin, ctx context.Context, demo string, sch *jsonschema.Schema, seed uint64) {
	made, err := w.srv.Create(ctx, Setup{Scenario: demo, Fog: game.FogOn, Commanders: true})
	if err != nil {
		t.Fatal(err)
	}
	l, e := w.srv.game(ctx, made.Game.ID)
	if e != nil {
		t.Fatal(e)
	}
	base := "/api/games/" + made.Game.ID
	tokens := map[string]string{}
	var sides []string
	var seats []string // tokens whose boards are checked
	commanders := 0
	for _, s := range made.Seats {
		switch s.Role {
		case "umpire":
			tokens[game.Umpire] = s.Token
			seats = append(seats, s.Token)
		case "side":
			tokens[s.Side] = s.Token
			sides = append(sides, s.Side)
			seats = append(seats, s.Token)
		default:
			if commanders < 1 {
				seats = append(seats, s.Token)
				commanders++
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x5c4e))
	checked := 0
	check := func(when, path, token string) {
		t.Helper()
		a := w.call(t, "GET", path, token, nil)
		if a.status != 200 {
			t.Fatalf("%s: GET %s: %d %s", when, path, a.status, a.body)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(a.body))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("%s: the board of GET %s does not match the schema:\n%v\n%s", when, path, err, clipS(a.body))
		}
		checked++
	}
	look := func(when string) {
		t.Helper()
		for _, tok := range seats {
			check(when, base+"/board", tok)
		}
		for _, sd := range sides {
			check(when, base+"/board?act="+sd, tokens[game.Umpire])
		}
	}
	state := func() (turn int, step string, over bool) {
		l.mu.Lock()
		defer l.mu.Unlock()
		st := l.g.State()
		return st.Turn, st.Phase + "/" + st.Step, st.Over
	}
	look("at the start")
	steps, accepted := 0, 0
	for range 400 {
		turn, step, over := state()
		if over || turn > 2 {
			break
		}
		// A few random commands in the step, then the umpire ends it.
		for n := 0; n < 8 && accepted < 4*(steps+1); n++ {
			l.mu.Lock()
			c := l.rules.(gametest.Random).Random(l.g, rng)
			l.mu.Unlock()
			if c.Verb == game.End || c.Verb == game.Ready {
				continue
			}
			tok := tokens[c.Side]
			if tok == "" {
				tok = tokens[game.Umpire]
			}
			if a := w.call(t, "POST", base+"/commands", tok, commandBody(c)); a.status == 200 {
				accepted++
			}
			if _, now, _ := state(); now != step {
				break
			}
		}
		if _, now, _ := state(); now == step {
			if a := w.call(t, "POST", base+"/commands", tokens[game.Umpire], []byte(`{"end":true}`)); a.status != 200 {
				t.Fatalf("the umpire ends %s: %d %s", step, a.status, a.body)
			}
		}
		steps++
		look(fmt.Sprintf("turn %d, after %s", turn, step))
	}
	if turn, _, over := state(); turn < 3 && !over {
		t.Fatalf("the game stands at turn %d after %d steps; want two turns played", turn, steps)
	}
	if accepted == 0 {
		t.Fatalf("%s: no random command was accepted in %d steps", demo, steps)
	}
	t.Logf("%s: %d steps, %d commands, %d boards checked", demo, steps, accepted, checked)
}
