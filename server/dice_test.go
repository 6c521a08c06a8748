package server_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/script"
	"orderly/server"
)

// tableGame plays a demo made with dice mode to its end through the API,
// the umpire ending every step: each command refused with the code dice
// is given again with the faces the error asks for, thrown here as a
// table would. A refusal for dice changes nothing a seat can see (the
// game's version stays), even when it came part way through the steps an
// end led to. It returns the game's id and how many rolls were thrown at
// the table, as the answers' events record them.
func tableGame(t *testing.T, f *fixture, demo, mode string, rng *rand.Rand) (string, string, int) {
	t.Helper()
	var made server.Created
	if code, body := f.call("POST", "/api/games", f.host, map[string]any{"scenario": demo, "dice": mode}, &made); code != 201 {
		t.Fatalf("create %s with dice %s: %d %s", demo, mode, code, body)
	}
	if made.Game.Dice != mode {
		t.Fatalf("the game's info says dice %q; want %q", made.Game.Dice, mode)
	}
	id, umpire := made.Game.ID, made.Seats[0].Token
	path := "/api/games/" + id
	thrown, asks := 0, 0
	var given []game.Given
	for n := 0; ; n++ {
		if n == 3000 {
			t.Fatalf("%s: the game did not end in 3000 commands", demo)
		}
		var before server.Info
		f.call("GET", path, umpire, nil, &before)
		var res server.Result
		code, body := f.call("POST", path+"/commands", umpire, map[string]any{"end": true, "dice": given}, &res)
		if code == 200 {
			for _, e := range res.Events {
				for _, r := range e.Event.Rolls {
					if r.From == game.FromTable {
						thrown++
						i := slices.IndexFunc(given, func(g game.Given) bool { return g.Table == r.Table && g.Subject == r.Subject })
						if i < 0 || !slices.Equal(given[i].Faces, r.Faces) {
							t.Fatalf("%s: event %d records %s for %s thrown as %v; the table gave %+v", demo, e.Event.Seq, r.Table, r.Subject, r.Faces, given)
						}
					}
				}
			}
			given = nil
			continue
		}
		e := apiError(t, body)
		if e.Code == server.Gone || e.Code == server.Rejected && e.Msg == "the game is over" {
			break
		}
		if code != 422 || e.Code != server.Dice || e.Need == nil {
			t.Fatalf("%s: end: %d %s", demo, code, body)
		}
		asks++
		nd := e.Need
		if nd.More < 1 || nd.Sides < 2 || nd.Title == "" || nd.Name == "" || !strings.Contains(e.Msg, nd.Dice) || strings.Contains(e.Msg, "\n") {
			t.Fatalf("%s: the error asks for dice as %+v, %q", demo, nd, e.Msg)
		}
		var after server.Info
		f.call("GET", path, umpire, nil, &after)
		if after.Version != before.Version || after.Step != before.Step || after.Turn != before.Turn {
			t.Fatalf("%s: a command refused for dice moved the game from %d (turn %d %s) to %d (turn %d %s)",
				demo, before.Version, before.Turn, before.Step, after.Version, after.Turn, after.Step)
		}
		faces := make([]int, nd.More)
		for i := range faces {
			faces[i] = nd.Low + rng.IntN(nd.Sides)
		}
		if i := slices.IndexFunc(given, func(g game.Given) bool {
			return g.Table == nd.Table && g.Subject == nd.Subject && len(g.Faces) == nd.Given
		}); nd.Given > 0 && i >= 0 {
			given[i].Faces = append(given[i].Faces, faces...)
		} else {
			given = append(given, game.Given{Table: nd.Table, Subject: nd.Subject, Faces: faces})
		}
	}
	if thrown > 0 && asks == 0 {
		t.Fatalf("%s: %d rolls thrown at the table, yet none asked for", demo, thrown)
	}
	return id, umpire, thrown
}

// TestTableDiceGame plays the NB, NES and LOB demos to their end with every roll
// thrown at the table (issue 15), then exports each: the export says its
// dice mode, Verify counts every table roll as thrown at the table (and
// refuses the same header said to be played on the server's dice: the
// chain's start binds the dice mode), and an
// import keeps the mode. A game on the server's dice refuses dice given
// with a command; table dice with fog, and a mode that is none, are
// refused in one sentence.
func TestTableDiceGame(t *testing.T) {
	t.Parallel()
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 1)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	total := 0
	for _, demo := range []string{"demo", "nes-demo", "lob-demo"} {
		t.Run(demo, func(t *testing.T) {
			id, _, thrown := tableGame(t, f, demo, game.DiceTable, rng)
			total += thrown
			t.Logf("%s: %d rolls thrown at the table", demo, thrown)
			doc, err := f.srv.Export(ctx, id, true)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Dice != game.DiceTable {
				t.Fatalf("the export says dice %q", doc.Dice)
			}
			eng := engine(t)
			se := script.Engine(func(r string) (game.Rules, error) { return eng(r, doc.Own()...) })
			rep, err := doc.Verify(se)
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if rep.Table != thrown {
				t.Fatalf("verify counts %d rolls thrown at the table; the game threw %d", rep.Table, thrown)
			}
			if thrown > 0 {
				doc.Dice = ""
				// The chain's start binds the dice mode.
				if _, err := doc.Verify(se); err == nil || err.Error() != "the document's dice mode is not the one its chain was made with (the chain's start binds it)" {
					t.Fatalf("a table roll in a game on the server's dice: %v", err)
				}
				doc.Dice = game.DiceTable
			}
			back, err := f.srv.Import(ctx, doc, false)
			if err != nil {
				t.Fatal(err)
			}
			if back.Game.Dice != game.DiceTable {
				t.Fatalf("the imported game says dice %q", back.Game.Dice)
			}
		})
	}
	if total == 0 {
		t.Fatal("no roll was thrown at the table in either demo; the test needs some")
	}

	// The server's dice: dice given with a command are refused.
	id, tok := f.demo(false)
	code, body := f.call("POST", "/api/games/"+id+"/commands", tok["umpire"], map[string]any{"end": true, "dice": []game.Given{{Table: "nb/order-delay", Subject: "I", Faces: []int{3}}}}, nil)
	if e := apiError(t, body); code != 422 || e.Code != server.Rejected || !strings.Contains(e.Msg, "drawn by the server") {
		t.Fatalf("dice given in a game on the server's dice: %d %s", code, body)
	}
	for _, bad := range []map[string]any{
		{"scenario": "demo", "dice": "table", "fog": "on"},
		{"scenario": "demo", "dice": "dice-tower"},
	} {
		code, body := f.call("POST", "/api/games", f.host, bad, nil)
		e := apiError(t, body)
		if code != 400 || strings.Contains(e.Msg, "\n") || !strings.Contains(e.Msg, "dice") {
			t.Fatalf("create %v: %d %s", bad, code, body)
		}
	}
}

// TestMixedDice: in mixed dice the rolls everyone sees are thrown at the
// table and the secret ones (a side's or the umpire's) stay the server's,
// over the NB, NES and LOB demos played to their end.
func TestMixedDice(t *testing.T) {
	t.Parallel()
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 2)
	rng := rand.New(rand.NewPCG(3, 4))
	drawn, table := 0, 0
	for _, demo := range []string{"demo", "nes-demo", "lob-demo"} {
		id, umpire, thrown := tableGame(t, f, demo, game.DiceMixed, rng)
		var evs server.Events
		if code, body := f.call("GET", "/api/games/"+id+"/events?limit=1000", umpire, nil, &evs); code != 200 {
			t.Fatalf("events: %d %s", code, body)
		}
		if evs.More {
			t.Fatalf("%s: more than 1000 events; page through them", demo)
		}
		n := 0
		for _, e := range evs.Events {
			for _, r := range e.Event.Rolls {
				switch {
				case r.From != game.FromTable:
					drawn++
				case e.Event.See != game.All:
					t.Fatalf("%s: event %d, seen by %s, has dice thrown at the table", demo, e.Event.Seq, e.Event.See)
				default:
					n++
				}
			}
		}
		if n != thrown {
			t.Fatalf("%s: the log has %d rolls thrown at the table; the game threw %d", demo, n, thrown)
		}
		table += n
	}
	if table == 0 || drawn == 0 {
		t.Fatalf("mixed dice threw %d rolls at the table and drew %d; the test needs both", table, drawn)
	}
}
