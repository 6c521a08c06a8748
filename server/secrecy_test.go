package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"orderly/game"
	"orderly/server"
)

// TestNoLeaks is a property test over random games played through the
// API: no answer and no event stream for one side ever holds the other
// side's hidden data: its order notes, its order ids, or any event
// addressed to it alone (its orders, its secret rolls); and a side numbers
// the events it may see densely, 1, 2, 3, ..., so that neither numbers
// nor versions count what it does not see.
func TestNoLeaks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rapid.Check(t, func(rt *rapid.T) {
		id, tok := f.demo(false)
		g := "/api/games/" + id
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		streams := map[string]<-chan sse{}
		for _, side := range []string{"french", "allies"} {
			ch, err := f.subscribe(ctx, id, tok[side], 0)
			if err != nil {
				rt.Fatal(err)
			}
			streams[side] = ch
		}
		seen := map[string][]string{} // every body each side received
		units := map[string][]string{"french": {"F-I-1-a", "F-II-6-b", "F-VI-19-a"}, "allies": {"A-I-1-a", "A-I-1-c"}}
		corps := map[string][]string{"french": {"F-I", "F-II", "F-VI", "F-I-2", "left"}, "allies": {"A-I", "A-II", "A-I-1"}}
		steps := rapid.IntRange(5, 40).Draw(rt, "steps")
		for i := range steps {
			seat := rapid.SampledFrom([]string{"french", "allies", "umpire"}).Draw(rt, "seat")
			var body string
			if seat == "umpire" {
				body = rapid.SampledFrom([]string{`{"end":true}`, `{"side":"french","ready":true}`, `{"side":"allies","write":{"for":["A-II"],"kind":"attack","note":"secret-allies-u` + strconv.Itoa(i) + `"}}`}).Draw(rt, "umpire")
			} else {
				switch rapid.IntRange(0, 5).Draw(rt, "verb") {
				case 0, 1:
					body = fmt.Sprintf(`{"write":{"for":[%q],"kind":%q,"objective":[%d,%d],"note":"secret-%s-%d"}}`,
						rapid.SampledFrom(corps[seat]).Draw(rt, "for"), rapid.SampledFrom([]string{"attack", "defend"}).Draw(rt, "kind"),
						rapid.IntRange(0, 96).Draw(rt, "x"), rapid.IntRange(0, 48).Draw(rt, "y"), seat, i)
				case 2:
					body = fmt.Sprintf(`{"move":{"unit":%q,"to":[%d,%d]}}`, rapid.SampledFrom(units[seat]).Draw(rt, "unit"),
						rapid.IntRange(0, 96).Draw(rt, "x"), rapid.IntRange(0, 48).Draw(rt, "y"))
				case 3:
					body = fmt.Sprintf(`{"complete":%q}`, rapid.SampledFrom(corps[seat]).Draw(rt, "complete"))
				default:
					body = `{"ready":true}`
				}
			}
			_, data := f.call("POST", g+"/commands", tok[seat], body, nil)
			seen[seat] = append(seen[seat], string(data))
		}
		for _, side := range []string{"french", "allies"} {
			for _, path := range []string{g, g + "/board", g + "/events"} {
				_, data := f.call("GET", path, tok[side], nil, nil)
				seen[side] = append(seen[side], string(data))
			}
		}
		// The umpire's log, numbered as each side numbers it: a side's
		// events are exactly those addressed to all or to it, numbered
		// 1, 2, 3, ... with no gap where the other side's are.
		var all server.Events
		f.call("GET", g+"/events", tok["umpire"], nil, &all)
		for _, side := range []string{"french", "allies"} {
			var want []string
			for _, e := range all.Events {
				if e.Event.See == game.All || e.Event.See == side {
					// As the side is shown it: no command origin, which
					// holds the game's numbers (issue 36).
					e.Event = e.Event.Shown(side, false)
					e.Event.Seq = len(want) + 1
					want = append(want, string(mustJSON(t, e)))
				}
			}
			var mine server.Events
			f.call("GET", g+"/events", tok[side], nil, &mine)
			var info server.Info
			f.call("GET", g, tok[side], nil, &info)
			if mine.Version != len(want) || info.Version != len(want) {
				rt.Fatalf("%s: version %d (events) and %d (game), want its own count %d", side, mine.Version, info.Version, len(want))
			}
			for i, e := range mine.Events {
				if got := string(mustJSON(t, e)); i >= len(want) || got != want[i] {
					rt.Fatalf("%s: its event %d is %s, want %s", side, i+1, got, want[min(i, len(want)-1)])
				}
			}
			drain := collect(t, streams[side], func(ms []sse) bool { return len(ms) > 0 && ms[len(ms)-1].id == strconv.Itoa(len(want)) })
			for i, m := range drain {
				seen[side] = append(seen[side], m.data)
				if m.event != "event" || m.id != strconv.Itoa(i+1) || m.data != want[i] {
					rt.Fatalf("%s: stream message %d is %s %s %s, want event %s", side, i+1, m.event, m.id, m.data, want[i])
				}
			}
			orderID := regexp.MustCompile(`"` + other(side) + `-\d+"`)
			for _, body := range seen[side] {
				if strings.Contains(body, "secret-"+other(side)) {
					rt.Fatalf("%s saw the other side's note in %.300s", side, body)
				}
				if m := orderID.FindString(body); m != "" {
					rt.Fatalf("%s saw the other side's order id %s in %.300s", side, m, body)
				}
			}
		}
	})
}

// TestViewMovesWithEvents is a property test over random games: a side's
// view of the board changes only with an event it may see, so its event
// numbering (and the page, which redraws on each event) never falls
// behind what it is shown, and no count of hidden events is needed.
func TestViewMovesWithEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rapid.Check(t, func(rt *rapid.T) {
		id, tok := f.demo(false)
		g := "/api/games/" + id
		units := map[string][]string{"french": {"F-I-1-a", "F-II-6-b", "F-VI-19-a"}, "allies": {"A-I-1-a", "A-I-1-c"}}
		corps := map[string][]string{"french": {"F-I", "F-II", "F-VI", "F-G"}, "allies": {"A-I", "A-II", "A-R"}}
		look := func(side string) (int, string) {
			var b struct {
				Game  server.Info     `json:"game"`
				State json.RawMessage `json:"state"`
			}
			f.call("GET", g+"/board", tok[side], nil, &b)
			return b.Game.Version, string(b.State)
		}
		steps := rapid.IntRange(5, 20).Draw(rt, "steps")
		for i := range steps {
			before := map[string][2]any{}
			for _, side := range []string{"french", "allies"} {
				v, st := look(side)
				before[side] = [2]any{v, st}
			}
			seat := rapid.SampledFrom([]string{"french", "allies", "umpire"}).Draw(rt, "seat")
			body := `{"end":true}`
			if seat != "umpire" {
				switch rapid.IntRange(0, 4).Draw(rt, "verb") {
				case 0:
					body = fmt.Sprintf(`{"write":{"for":[%q],"kind":%q,"objective":[%d,%d]}}`, rapid.SampledFrom(corps[seat]).Draw(rt, "for"),
						rapid.SampledFrom([]string{"attack", "defend"}).Draw(rt, "kind"), rapid.IntRange(0, 96).Draw(rt, "x"), rapid.IntRange(0, 48).Draw(rt, "y"))
				case 1, 2:
					body = fmt.Sprintf(`{"move":{"unit":%q,"to":[%d,%d]}}`, rapid.SampledFrom(units[seat]).Draw(rt, "unit"),
						rapid.IntRange(0, 96).Draw(rt, "x"), rapid.IntRange(0, 48).Draw(rt, "y"))
				default:
					body = `{"ready":true}`
				}
			}
			f.call("POST", g+"/commands", tok[seat], body, nil)
			for _, side := range []string{"french", "allies"} {
				v, st := look(side)
				if st != before[side][1] && v == before[side][0] {
					rt.Fatalf("step %d (%s %s): %s's view changed with no event it may see", i, seat, body, side)
				}
			}
		}
	})
}

func other(side string) string {
	if side == "french" {
		return "allies"
	}
	return "french"
}
