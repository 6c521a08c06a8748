package server_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"orderly/server"
)

// TestNoLeaks is a property test over random games played through the
// API: no answer and no event stream for one side ever holds the other
// side's hidden data: its order notes, its order ids, or any event
// addressed to it alone (its orders, its secret rolls).
func TestNoLeaks(t *testing.T) {
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
		// The umpire's log says which events are each side's alone.
		var all server.Events
		f.call("GET", g+"/events", tok["umpire"], nil, &all)
		private := map[string]map[int]bool{"french": {}, "allies": {}}
		for _, e := range all.Events {
			if p := private[e.See]; p != nil {
				p[e.Seq] = true
			}
		}
		for _, side := range []string{"french", "allies"} {
			want := strconv.Itoa(all.Version)
			drain := collect(t, streams[side], func(ms []sse) bool { return len(ms) > 0 && ms[len(ms)-1].id == want })
			for _, m := range drain {
				seen[side] = append(seen[side], m.data)
			}
			for _, e := range events(t, drain) {
				if private[other(side)][e.Seq] {
					rt.Fatalf("%s's stream has event %d (%s), addressed to %s", side, e.Seq, e.Type, other(side))
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
			var mine server.Events
			f.call("GET", g+"/events", tok[side], nil, &mine)
			for _, e := range mine.Events {
				if private[other(side)][e.Seq] {
					rt.Fatalf("%s's events include %d (%s), addressed to %s", side, e.Seq, e.Type, other(side))
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
