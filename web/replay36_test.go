package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules"
	"orderly/server"
	"orderly/table"
)

// replayDemo is a demo game played a little for the replay's browser
// test: one of a side's units placed by the umpire in turn 1, the steps
// ended into turn 2, and the unit placed again there.
type replayDemo struct {
	rules, id  string
	side, unit string
	umpire     string // the umpire's token
	token      string // the side's token
}

// TestBrowserReplay (issue 36, items 5 and 7) replays each demo in a
// laptop's window (1280x800) and a tablet's (768x1024, touch): the page
// opens at the first turn, steps forward and back an event, a deep link
// (#turn=2) opens at that turn with the unit where it stood then, the
// last event shows it where it stands now, and the address follows each
// step; at the end of a game the play page says "Game over" and shows the
// end panel, whose replay link opens the replay with the full view
// offered to the side.
func TestBrowserReplay(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	start := time.Now()
	eng, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	var demos []*replayDemo
	for _, d := range []struct{ rules, file string }{{"nb", "demo"}, {"bp", "bp-demo"}, {"cd", "cd-demo"}, {"nes", "nes-demo"}, {"lob", "lob-demo"}} {
		made, err := s.srv.Create(ctx, server.Setup{Scenario: d.file})
		if err != nil {
			t.Fatal(err)
		}
		var own []table.Source
		if d.rules == "lob" { // LOB's numbers are the user's: the example's, as the demo has them
			data, err := os.ReadFile("../examples/lob/example-tables.yaml")
			if err != nil {
				t.Fatal(err)
			}
			own = append(own, table.Source{Name: "example-tables.yaml", Data: data})
		}
		r, err := eng(d.rules, own...)
		if err != nil {
			t.Fatal(err)
		}
		sc := gametest.ReadFile(t, r, fmt.Sprintf("../examples/%s/%s.yaml", d.rules, d.file))
		rd := &replayDemo{rules: d.rules, id: made.Game.ID, side: sc.Sides[0].ID}
		for _, st := range made.Seats {
			switch {
			case st.Role == "umpire":
				rd.umpire = st.Token
			case st.Role == "side" && st.Side == rd.side:
				rd.token = st.Token
			}
		}
		g := &site{srv: s.srv, ts: s.ts, made: made, host: s.host}
		at := geom.Point{}
		for _, u := range sc.Units() {
			if u.Side == rd.side && !u.OffBoard {
				rd.unit, at = u.ID, u.At
				break
			}
		}
		place := func(turn int) {
			for _, d := range [][2]float64{{2, 0}, {-2, 0}, {0, 2}, {0, -2}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				p := geom.Point{X: at.X + d[0]*float64(turn), Y: at.Y + d[1]*float64(turn)}
				var to any = []float64{p.X, p.Y}
				if l, ok := sc.Space().(geom.Labeled); ok {
					to = l.Format(p)
				}
				body, _ := json.Marshal(map[string]any{"place": map[string]any{"piece": rd.unit, "to": to, "why": "the replay's test"}})
				if code, _ := g.call(t, "POST", "/api/games/"+rd.id+"/commands", rd.umpire, string(body)); code == 200 {
					return
				}
			}
			t.Fatalf("%s: the umpire could place %s nowhere near %v", d.rules, rd.unit, at)
		}
		place(1)
		for range 60 {
			var info server.Info
			_, body := g.call(t, "GET", "/api/games/"+rd.id, rd.umpire, "")
			if err := json.Unmarshal([]byte(body), &info); err != nil {
				t.Fatal(err)
			}
			if info.Turn >= 2 {
				break
			}
			g.command(t, rd.umpire, `{"end":true}`)
		}
		place(2)
		demos = append(demos, rd)
	}
	// The end of a game: another CD game, whose umpire ends every step to
	// the end.
	ended, err := s.srv.Create(ctx, server.Setup{Scenario: "cd-demo"})
	if err != nil {
		t.Fatal(err)
	}
	end := &replayDemo{rules: "cd", id: ended.Game.ID}
	for _, st := range ended.Seats {
		switch {
		case st.Role == "umpire":
			end.umpire = st.Token
		case st.Role == "side" && end.token == "":
			end.token = st.Token
		}
	}
	eg := &site{srv: s.srv, ts: s.ts, made: ended, host: s.host}
	for range 400 {
		if code, _ := eg.call(t, "POST", "/api/games/"+end.id+"/commands", end.umpire, `{"end":true}`); code != 200 {
			break
		}
	}
	t.Logf("the games made and played in %v", time.Since(start).Round(time.Millisecond))
	// One page for each size, through every demo and then the end of the
	// game. (Not in parallel: a parallel subtest waits for a free slot
	// after its test returns, while the session's time runs on.)
	for _, sz := range []struct {
		w, h  int
		touch bool
	}{{1280, 800, false}, {768, 1024, true}} {
		b := browser(t, ctx, sz.w, sz.h)
		p := newPage(t, b, fmt.Sprintf("replay-%dx%d", sz.w, sz.h), dir)
		if sz.touch {
			p.do("touch", chromedp.EmulateViewport(int64(sz.w), int64(sz.h), chromedp.EmulateTouch))
		}
		for _, rd := range demos {
			replayChecks(t, p, s.ts.URL, rd, fmt.Sprintf("%s %dx%d", rd.rules, sz.w, sz.h), fmt.Sprintf("replay-%s-%dx%d", rd.rules, sz.w, sz.h))
		}
		endChecks(t, p, s.ts.URL, end, fmt.Sprintf("replay-end-%dx%d", sz.w, sz.h))
		p.checkConsole()
	}
	t.Logf("replayed %d demos at two sizes and the end of one in %v; screenshots in %s", len(demos), time.Since(start).Round(time.Millisecond), dir)
}

// endChecks opens the play page of rd, a game over, as its side in page
// p: the turn bar says "Game over", the end panel shows with its links,
// and its replay link opens the replay with the full view offered.
func endChecks(t *testing.T, p *page, base string, rd *replayDemo, shot string) {
	t.Helper()
	p.open(base, rd.token)
	p.until("the end panel", `(() => { const e = document.getElementById('end-panel'); return e && e.getClientRects().length && e.querySelector('#end-replay') && e.querySelector('#end-report') && !/Finding/.test(e.textContent); })()`)
	if got := p.text(".turn-info .game-over"); got != "Game over" {
		p.fail("the turn bar says %q at the end, want Game over", got)
	}
	if txt := p.text("#end-panel"); !strings.Contains(txt, "Game over") || !strings.Contains(txt, "umpire can export") {
		p.fail("the end panel says %q", txt)
	}
	if href := eval[string](p, `document.getElementById('end-report').getAttribute('href')`); href != "/report?game="+rd.id {
		p.fail("the report link is %q", href)
	}
	p.view(shot)
	href := eval[string](p, `document.getElementById('end-replay').getAttribute('href')`)
	if href != "/replay?game="+rd.id {
		p.fail("the replay link is %q", href)
	}
	p.do("follow the replay link", chromedp.Navigate(base+href))
	p.until("the replay, at the first turn, with the full view offered", `location.pathname === '/replay' && document.getElementById('turn').textContent === '1' && !document.getElementById('full-view').hidden`)
	p.do("the full view", chromedp.Click(chromedp.CSS(`#full-view`)))
	p.until("the full view, in the address too", `document.getElementById('full-view').getAttribute('aria-pressed') === 'true' && /view=full/.test(location.hash)`)
}

// replayChecks replays rd as its side in page p.
func replayChecks(t *testing.T, p *page, base string, rd *replayDemo, where, shot string) {
	t.Helper()
	unit := fmt.Sprintf(`#viewport [data-unit=%q]`, rd.unit)
	// Where the unit is drawn, in the map's own units (whatever the zoom).
	at := func() [2]float64 {
		return eval[[2]float64](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return [NaN, NaN];
			const r = el.getBoundingClientRect(); const m = document.getElementById('viewport').getScreenCTM().inverse();
			const q = new DOMPoint(r.left + r.width / 2, r.top + r.height / 2).matrixTransform(m); return [q.x, q.y]; })()`, unit))
	}
	moved := func(a, b [2]float64) bool { return math.IsNaN(a[0]) || math.IsNaN(b[0]) || !near(a, b, 0.01) }
	heading := func() string { return p.text("#turn") + " " + p.text("#position") }
	p.do(where+": open the replay", chromedp.Navigate(fmt.Sprintf("%s/replay?game=%s#%s", base, rd.id, rd.token)))
	p.until(where+": the replay at turn 1", fmt.Sprintf(`document.getElementById('turn').textContent === '1' && /^#seq=\d+$/.test(location.hash) && document.querySelector(%q)`, unit))
	c0, h0 := at(), heading()
	if moved(c0, c0) {
		p.fail("%s: %s is not on the map at the start of turn 1", where, rd.unit)
	}
	p.do(where+": forward an event", chromedp.Click(chromedp.CSS(`[data-vcr="forward"]`)))
	p.until(where+": the next event", fmt.Sprintf(`document.getElementById('turn').textContent + ' ' + document.getElementById('position').textContent !== %q`, h0))
	p.do(where+": back an event", chromedp.Click(chromedp.CSS(`[data-vcr="back"]`)))
	p.until(where+": back where it began", fmt.Sprintf(`document.getElementById('turn').textContent + ' ' + document.getElementById('position').textContent === %q`, h0))
	if c := at(); moved(c, c0) {
		p.fail("%s: back at the start, %s is drawn at %v, not %v", where, rd.unit, c, c0)
	}
	// The keys step too: the right arrow forward, the left arrow back.
	eval[bool](p, `(document.activeElement && document.activeElement.blur(), true)`)
	p.do(where+": the right arrow", chromedp.KeyEvent(kb.ArrowRight))
	p.until(where+": the next event by the key", fmt.Sprintf(`document.getElementById('turn').textContent + ' ' + document.getElementById('position').textContent !== %q`, h0))
	p.do(where+": the left arrow", chromedp.KeyEvent(kb.ArrowLeft))
	p.until(where+": back by the key", fmt.Sprintf(`document.getElementById('turn').textContent + ' ' + document.getElementById('position').textContent === %q`, h0))
	if n := eval[int](p, `document.querySelectorAll('#log li').length`); n == 0 {
		p.fail("%s: the log is empty at the start of turn 1", where)
	}
	// The deep link to turn 2: the unit where the umpire put it in turn 1.
	eval[bool](p, `(location.hash = 'turn=2', true)`)
	p.until(where+": turn 2", `document.getElementById('turn').textContent === '2' && /^#seq=\d+$/.test(location.hash)`)
	c1 := at()
	if !moved(c1, c0) {
		p.fail("%s: at turn 2 %s is drawn where it began (%v): the umpire moved it in turn 1", where, rd.unit, c1)
	}
	seq2 := eval[string](p, `location.hash`)
	p.do(where+": the last event", chromedp.Click(chromedp.CSS(`[data-vcr="last"]`)))
	p.until(where+": the last event", fmt.Sprintf(`location.hash !== %q && document.querySelector('[data-vcr="forward"]').disabled`, seq2))
	if c := at(); !moved(c, c1) {
		p.fail("%s: at the last event %s is drawn where it stood at the start of turn 2 (%v)", where, rd.unit, c)
	}
	p.view(shot)
	// A page opened at the deep link starts there.
	p.do(where+": open at turn 2", chromedp.Navigate(fmt.Sprintf("%s/replay?game=%s#turn=2", base, rd.id)))
	p.until(where+": opened at turn 2", fmt.Sprintf(`document.getElementById('turn').textContent === '2' && location.hash === %q && document.querySelector(%q)`, seq2, unit))
	if c := at(); moved(c, c1) {
		p.fail("%s: opened at turn 2, %s is drawn at %v, not %v", where, rd.unit, c, c1)
	}
}
