package server_test

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nb"
	"orderly/server"
	"orderly/strict"
)

// wireEvents checks that every event of an answer's "events" is a JSON
// object with no key given twice and a "summary", and returns them.
func wireEvents(t *testing.T, what string, body []byte) []server.Entry {
	t.Helper()
	if err := strict.CheckJSON(body); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var raw struct {
		Events []map[string]json.RawMessage `json:"events"`
	}
	var typed struct {
		Events []server.Entry `json:"events"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := json.Unmarshal(body, &typed); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for i, e := range raw.Events {
		if _, ok := e["summary"]; !ok {
			t.Errorf("%s: event %s has no summary", what, e["seq"])
		}
		if s := typed.Events[i].Summary; s == "" || s == typed.Events[i].Event.Type {
			t.Errorf("%s: event %s is summed up as %q", what, e["seq"], s)
		}
	}
	return typed.Events
}

// TestEventsCarrySummary checks that every event the server sends a seat
// (its events, a command's answer, its stream) carries the server's one
// sentence for it, the engine's description; and one known answer.
func TestEventsCarrySummary(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	check := schemas(t, f)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var info server.Info
	f.call("GET", g, tok["french"], nil, &info)
	ch, err := f.subscribe(ctx, id, tok["french"], info.Version)
	if err != nil {
		t.Fatal(err)
	}
	code, body := f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12],"note":"by the road"}}`, nil)
	if code != 200 {
		t.Fatalf("write: %d %s", code, body)
	}
	answered := wireEvents(t, "the command's answer", body)
	want := map[string]string{
		// The army commander at (48, 45) sends a messenger riding his
		// 14" range (NB-3) with the order for d'Erlon; the log names
		// the corps and the generals as the demo does.
		nb.MessengerSent: `m-french-1 leaves (48, 45), riding 14" a turn (NB-3)`,
		nb.OrderWritten:  `french-5: attack (30, 12) "by the road" for I Corps, by Napoleon, carried by m-french-1 to d'Erlon (NB-2)`,
	}
	if len(answered) != 2 {
		t.Fatalf("the write answered %d events, want 2: %s", len(answered), body)
	}
	for _, e := range answered {
		if e.Summary != want[e.Event.Type] {
			t.Errorf("%s is summed up as %q, want %q", e.Event.Type, e.Summary, want[e.Event.Type])
		}
	}
	for _, e := range events(t, collect(t, ch, func(ms []sse) bool { return len(ms) == 2 })) {
		if e.Summary != want[e.Event.Type] {
			t.Errorf("the stream sums up %s as %q, want %q", e.Event.Type, e.Summary, want[e.Event.Type])
		}
	}
	for _, seat := range []string{"umpire", "french", "allies"} {
		_, body := f.call("GET", g+"/events", tok[seat], nil, nil)
		check("Events", body)
		evs := wireEvents(t, seat+"'s events", body)
		if len(evs) < 10 {
			t.Fatalf("%s sees %d events", seat, len(evs))
		}
		for _, e := range evs {
			if w := described(e.Event).Summary; e.Summary != w {
				t.Errorf("%s's event %d (%s) is summed up as %q; the engine describes it as %q", seat, e.Event.Seq, e.Event.Type, e.Summary, w)
			}
		}
	}
}

// TestForecastCarriesMessenger checks the messenger estimate of the odds
// against a hand computation on the demo, turn 1, write step. Napoleon,
// the French army commander, stands at (48, 45) with a 14" range: his
// messengers ride 14" a turn (NB-3), first in this turn's maneuver phase.
//   - F-I goes to d'Erlon at (34, 34): sqrt(14² + 11²) = sqrt(317) ≈ 17.80",
//     two rides: delivered on turn 2, read on turn 3 (NB-4).
//   - F-I and F-II together go to their wing's commander, Ney, at (24, 38)
//     (NB-11): sqrt(24² + 7²) = 25", two rides: turn 2, read on turn 3.
//   - F-G, the Guard, an on-board reserve, goes to Drouot at (50, 42):
//     sqrt(2² + 3²) ≈ 3.61", one ride: turn 1, acted on at once (NB-9).
func TestForecastCarriesMessenger(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	for _, c := range []struct {
		write            string
		to               string
		dist             float64
		delivered, read  int
		formations, note string
	}{
		{`{"for":["F-I"],"kind":"attack"}`, "derlon", math.Sqrt(317), 2, 3, "F-I", ""},
		{`{"for":["F-I","F-II"],"kind":"attack"}`, "ney", 25, 2, 3, "F-I F-II", ""},
		{`{"for":["F-G"],"kind":"attack"}`, "drouot", math.Sqrt(13), 1, 0, "F-G", "NB-9"},
	} {
		var odds server.Odds
		code, body := f.call("POST", g+"/odds", tok["french"], `{"write":`+c.write+`}`, &odds)
		if code != 200 {
			t.Fatalf("odds of %s: %d %s", c.write, code, body)
		}
		var got []string
		for _, fc := range odds.Forecast {
			got = append(got, fc.Formation)
			m := fc.Messenger
			if m == nil {
				t.Errorf("%s: the forecast has no messenger: %s", c.write, body)
				continue
			}
			if m.From != "napoleon" || m.To != c.to || m.Speed != 14 || math.Abs(m.Distance-c.dist) > 1e-9 || m.Delivered != c.delivered || m.Read != c.read {
				t.Errorf("%s for %s: messenger %+v; want from napoleon to %s, %.2f\" at 14\" a turn, delivered turn %d, read turn %d",
					c.write, fc.Formation, *m, c.to, c.dist, c.delivered, c.read)
			}
			if !strings.Contains(fc.Note, c.note) {
				t.Errorf("%s: note %q, want %s", c.write, fc.Note, c.note)
			}
		}
		if strings.Join(got, " ") != c.formations {
			t.Errorf("%s: forecasts for %v", c.write, got)
		}
		if c.read == 0 && strings.Contains(string(body), `"read"`) {
			t.Errorf("%s: a reserve acting on delivery has a read turn: %s", c.write, body)
		}
	}
}

// TestBoardWords checks that the board carries what the page used to work
// out for itself: the formations of each unit type, and each order in
// words, for the seat's own orders only.
func TestBoardWords(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12],"note":"secret-plan-4711"}}`, nil)
	var fr, al nbBoard
	f.call("GET", g+"/board", tok["french"], nil, &fr)
	f.call("GET", g+"/board", tok["allies"], nil, &al)
	for _, b := range []nbBoard{fr, al} {
		// NB's formations by unit type (rules/nb's Shapes).
		for typ, want := range map[string][]string{
			"infantry":      {"column", "march-column", "line", "square", "skirmish"},
			"light-cavalry": {"column", "march-column", "line"},
			"heavy-cavalry": {"column", "march-column", "line"},
			"artillery":     {"limbered", "unlimbered"},
		} {
			if !slices.Equal(b.Shapes[typ], want) {
				t.Errorf("the board gives %s the formations %v, want %v", typ, b.Shapes[typ], want)
			}
		}
		for _, u := range b.State.Units {
			if len(b.Shapes[u.Type]) == 0 {
				t.Errorf("the board gives %s, a %s, no formations", u.ID, u.Type)
			}
		}
	}
	if got := fr.OrderText.Orders["french-5"]; got != `attack (30, 12) "secret-plan-4711"` {
		t.Errorf("the French board words french-5 as %q", got)
	}
	// F-I acts on its initial order, as the demo gives it.
	if got := fr.OrderText.Acting["F-I"]; got != `attack (34, 14) "storm the ridge"` {
		t.Errorf("the French board words F-I's order as %q", got)
	}
	if got := al.OrderText.Acting["P-IV"]; got != "reserve" {
		t.Errorf("the Allied board words the Prussians' order as %q", got)
	}
	for _, o := range fr.State.Orders {
		if fr.OrderText.Orders[o.ID] != o.String() {
			t.Errorf("the French board words %s as %q, the engine as %q", o.ID, fr.OrderText.Orders[o.ID], o.String())
		}
	}
	// A completed attack order keeps its id and becomes defend (NB-8):
	// the formation's order is worded as it now stands.
	f.call("POST", g+"/commands", tok["french"], `{"ready":true}`, nil)
	f.call("POST", g+"/commands", tok["allies"], `{"ready":true}`, nil)
	if code, body := f.call("POST", g+"/commands", tok["french"], `{"complete":"F-II"}`, nil); code != 200 {
		t.Fatalf("complete F-II: %d %s", code, body)
	}
	f.call("GET", g+"/board", tok["french"], nil, &fr)
	if got := fr.OrderText.Acting["F-II"]; got != `defend (12, 12) "take the château"` {
		t.Errorf("the French board words F-II's completed order as %q", got)
	}
	// Once their general is at the table's edge, the Prussians, an
	// off-board reserve, have the order they follow on entry (NB-10).
	for range 30 {
		if f.call("GET", g+"/board", tok["allies"], nil, &al); al.OrderText.Then["P-IV"] != "" || al.Info.Over {
			break
		}
		f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil)
	}
	if got := al.OrderText.Then["P-IV"]; got != `attack (70, 34) "fall on the French right"` {
		t.Errorf("the Allied board words the Prussians' order on entry as %q", got)
	}
	if len(al.OrderText.Orders) == 0 || len(al.OrderText.Acting) == 0 {
		t.Errorf("the Allied board words none of its orders: %+v", al.OrderText)
	}
	for _, words := range []map[string]string{al.OrderText.Orders, al.OrderText.Acting, al.OrderText.Then} {
		for id, text := range words {
			if !strings.HasPrefix(id, "allies-") && !strings.HasPrefix(id, "A-") && !strings.HasPrefix(id, "P-") {
				t.Errorf("the Allied board words %s, not theirs, as %q", id, text)
			}
		}
	}
}

// TestEntryJSON checks the wire form of an event sent to a seat: the
// event exactly as game.Event marshals itself, then the summary, with no
// key twice (game.Event must not grow a summary of its own), and back.
func TestEntryJSON(t *testing.T) {
	t.Parallel()
	at := geom.Point{X: 48, Y: 45}
	e := game.Event{Seq: 3, Turn: 1, Phase: "communications", Step: "write", Type: nb.MessengerSent, Side: "french", See: game.All,
		Rule: "NB-3", Data: &nb.Data{Messenger: "m-french-1", At: &at, Range: 14}}
	sum := `m-french-1 leaves (48, 45), riding 14" a turn <fast> & "sure"`
	got := mustJSON(t, server.Entry{Event: e, Summary: sum})
	ev := mustJSON(t, e)
	want := string(ev[:len(ev)-1]) + `,"summary":` + string(mustJSON(t, sum)) + "}"
	if string(got) != want {
		t.Errorf("entry marshals as\n%s\nwant\n%s", got, want)
	}
	if err := strict.CheckJSON(got); err != nil {
		t.Errorf("entry %s: %v", got, err)
	}
	var back server.Entry
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if back.Summary != sum || string(mustJSON(t, back.Event)) != string(ev) {
		t.Errorf("entry reads back as %+v", back)
	}
	if got := mustJSON(t, server.Entry{Summary: "x"}); !strings.HasPrefix(string(got), `{"seq":0,`) || !strings.HasSuffix(string(got), `,"summary":"x"}`) {
		t.Errorf("an empty event's entry marshals as %s", got)
	}
}

// nbBoard is the board of an NB game as a Go client reads it: NB's part of
// the state and the words for its orders.
type nbBoard struct {
	server.Board
	State     nb.State     `json:"state"`
	OrderText nb.OrderText `json:"order-text"`
}
