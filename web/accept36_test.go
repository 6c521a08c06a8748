package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"orderly/server"
)

// TestAccept36 is issue 36's "done when", on a tablet held upright
// (768x1024, touch): a newcomer plays two turns of each of the five
// demos, one side's seat from the page alone (the panels' controls, a
// finger's drags and taps on the map, Ready), the other side and the
// umpire through the API. Along the way no control the page offers is
// refused (no error in the banner after any of them), every drag moves
// its piece or is refused with a message, LOB's tap on a hex the rules
// refuse offers no Move but says why, and the map takes at least 60% of
// the screen with each of the seat's units labelled. In NB's first turn
// a move is taken back from the turn bar (the piece goes back, on the
// server's board and on the map). After the two turns the umpire ends
// the game; the side's page shows the end panel, whose links open the
// replay (stepped back and forth, the full game offered) and the report;
// the umpire's end panel exports the game, and its report link opens
// the printable report: its turns, their SVG maps and its luck, a
// percentile for a side. One page for the five demos; screenshots
// accept36-RULES-*.png.
func TestAccept36(t *testing.T) {
	t.Parallel()
	start := time.Now()
	const w, h = 768, 1024
	// Each demo its own session and page, one after the other: the
	// session's time is for one demo, however busy the machine.
	for _, d := range accept36Demos {
		t.Run(d.rules, func(t *testing.T) {
			ctx, s, dir := session(t)
			p := newPage(t, browser(t, ctx, w, h), "accept36", dir)
			p.do("touch", chromedp.EmulateViewport(w, h, chromedp.EmulateTouch))
			made, err := s.srv.Create(ctx, server.Setup{Scenario: d.scenario, ExampleTables: d.rules == "lob"})
			if err != nil {
				t.Fatal(err)
			}
			g := &site{srv: s.srv, ts: s.ts, made: made, host: s.host}
			a := &acceptGame{t: t, p: p, s: g, d: d, seat: g.token(t, "side", d.side), umpire: g.token(t, "umpire", "")}
			for _, st := range made.Seats {
				if st.Role == "side" && st.Side != d.side {
					a.others = append(a.others, st.Token)
				}
			}
			t0 := time.Now()
			a.play()
			t.Logf("%s: two turns in %v", d.rules, time.Since(t0).Round(time.Millisecond))
			a.after()
			t.Logf("%s: played and looked back on in %v", d.rules, time.Since(start).Round(time.Millisecond))
			p.checkConsole()
		})
	}
}

// accept36Demo is a demo and the side the page plays.
type accept36Demo struct {
	rules, scenario, side string
	// the step in which the page moves a piece, once a turn
	moveStep string
}

var accept36Demos = []accept36Demo{
	{"nb", "demo", "french", "move"},
	{"bp", "bp-demo", "french", "orders"},
	{"cd", "cd-demo", "french", "activate"},
	{"nes", "nes-demo", "french", "move"},
	{"lob", "lob-demo", "union", "move"},
}

// acceptGame is one demo's game, played in page p.
type acceptGame struct {
	t      *testing.T
	p      *page
	s      *site
	d      accept36Demo
	seat   string   // the page's side's token
	others []string // the other sides' tokens
	umpire string
	drags  int
}

// info is the game's state as the seat of token knows it.
func (a *acceptGame) info(token string) server.Info {
	a.t.Helper()
	code, body := a.s.call(a.t, "GET", "/api/games/"+a.s.made.Game.ID, token, "")
	if code != 200 {
		a.t.Fatalf("%s: info: %d %s", a.d.rules, code, body)
	}
	var in server.Info
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		a.t.Fatal(err)
	}
	return in
}

// noRefusal fails if the banner shows an error after what the page did.
func (a *acceptGame) noRefusal(what string) {
	a.t.Helper()
	if msg := eval[string](a.p, `(() => { const b = document.querySelector('#banner'); return !b.hidden && b.dataset.kind === 'error' ? b.querySelector('.banner-text').textContent : ''; })()`); msg != "" {
		a.p.fail("%s: %s was refused: %q", a.d.rules, what, msg)
	}
}

// press clicks a control of the page (a tap on the tablet), and checks
// that the page shows no refusal once its answer is in.
func (a *acceptGame) press(what, sel, done string) {
	a.t.Helper()
	// On the tablet a piece's card lies over the foot of the panel:
	// the newcomer closes it to reach the control under it.
	if eval[bool](a.p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({ block: 'center' }); const r = e.getBoundingClientRect();
		const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!top && !e.contains(top) && !!top.closest('#selection'); })()`, sel)) {
		a.p.press(`#selection button.close`, true)
		a.p.until(a.d.rules+": the card closed", `document.querySelector('#selection').hidden`)
	}
	a.p.press(sel, true)
	a.p.until(a.d.rules+": "+what+" answered", done)
	a.noRefusal(what)
}

// play plays two turns: the page's side in the page, the rest by the API.
func (a *acceptGame) play() {
	a.t.Helper()
	p, d := a.p, a.d
	p.reopen(a.s.ts.URL, a.seat)
	a.readable()
	moved := map[int]bool{}
	for range 200 {
		in := a.info(a.seat)
		if in.Turn > 2 || in.Over {
			break
		}
		if slices.Contains(in.Verbs, "ready") && !slices.Contains(in.Ready, d.side) {
			where := fmt.Sprintf("turn %d, %s", in.Turn, in.Step)
			p.until(d.rules+": the page at "+where, fmt.Sprintf(`document.querySelector('#turn').textContent.trim() === '%d' && document.querySelector('#phase').textContent === %q && document.querySelector('#step').textContent === %q && !document.querySelector('#ready').disabled`, in.Turn, in.Phase, in.Step))
			if in.Step == d.moveStep && !moved[in.Turn] {
				moved[in.Turn] = true
				a.move(in.Turn)
				p.view(fmt.Sprintf("accept36-%s-turn%d", d.rules, in.Turn))
			}
			a.ready(where, in)
			continue
		}
		// The other sides, else the umpire, move the game on.
		done := false
		for _, tok := range a.others {
			o := a.info(tok)
			if slices.Contains(o.Verbs, "ready") && !slices.Contains(o.Ready, o.Seat.Side) {
				a.s.command(a.t, tok, `{"ready":true}`)
				done = true
				break
			}
		}
		if !done {
			a.s.command(a.t, a.umpire, `{"end":true}`)
		}
	}
	if in := a.info(a.seat); in.Turn != 3 {
		p.fail("%s: after two turns the game stands at turn %d", d.rules, in.Turn)
	}
	if len(moved) != 2 || a.drags == 0 && (d.rules == "nb" || d.rules == "cd") {
		p.fail("%s: the page moved in turns %v (%d drags); want a move in each of two turns", d.rules, moved, a.drags)
	}
	p.until(d.rules+": turn 3 on the page", `document.querySelector('#turn').textContent.trim() === '3'`)
}

// ready presses Ready in the step of in, and waits until the page shows
// the side ready or the step over.
func (a *acceptGame) ready(where string, in server.Info) {
	a.t.Helper()
	a.press("Ready in "+where, "#ready", fmt.Sprintf(`document.querySelector('#ready-list li[data-side=%q].is-ready') || document.querySelector('#turn').textContent.trim() !== '%d' || document.querySelector('#phase').textContent !== %q || document.querySelector('#step').textContent !== %q`, a.d.side, in.Turn, in.Phase, in.Step))
}

// readable checks the map at the page's default zoom: at least 60% of the
// screen, each of the seat's units labelled.
func (a *acceptGame) readable() {
	a.t.Helper()
	a.p.settle()
	var r map36Report
	if err := json.Unmarshal(eval[json.RawMessage](a.p, map36JS+fmt.Sprintf("(%q, '')", a.d.side)), &r); err != nil {
		a.p.fail("%s: the map's measures: %v", a.d.rules, err)
	}
	if r.Area < 0.6 {
		a.p.fail("%s: the map takes %.0f%% of the tablet's screen, want 60%% or more", a.d.rules, 100*r.Area)
	}
	if r.Units == 0 || len(r.Unlabelled) > 0 {
		a.p.fail("%s: of the side's %d units, %v carry no label", a.d.rules, r.Units, r.Unlabelled)
	}
}

// move makes the turn's move from the page, as the rule set's page has
// it: NB drags a unit; BP orders a unit from the panel and drags it if
// the order lets it move; CD activates a unit, then drags it; NES and
// LOB tap a unit, a hex of its reach and Move.
func (a *acceptGame) move(turn int) {
	a.t.Helper()
	p := a.p
	switch a.d.rules {
	case "nb":
		// A move, taken back in the first turn: the piece goes back.
		id, from := a.dragAny(`#map [data-unit][data-draggable="true"][data-side="french"]`)
		if turn == 1 {
			a.takeBack(id, from)
		}
	case "bp":
		p.until("bp: the panel's units", `document.querySelector('#command-panel input[type="checkbox"][data-unit]')`)
		id := eval[string](p, `document.querySelector('#command-panel input[type="checkbox"][data-unit]').dataset.unit`)
		a.press("tick "+id, fmt.Sprintf(`#command-panel input[data-unit=%q]`, id), `document.querySelector('#bp-roll') && !document.querySelector('#bp-roll').disabled`)
		a.press("roll for "+id+"'s order", `#bp-roll`, `(document.querySelector('#bp-result') || {}).textContent`)
		if eval[bool](p, fmt.Sprintf(`!!document.querySelector('#map [data-unit=%q][data-draggable="true"]')`, id)) {
			a.drag(id)
		}
	case "cd":
		// The division's roll, offered with no unit selected: on the
		// tablet the card of a selected unit lies over the panel's roll
		// for the unit alone (reported to the lead).
		sel := `.activation[data-activate='{"division":"foy"}']`
		p.until("cd: the odds of Foy's division's roll", `document.querySelector(`+"`"+sel+` tr`+"`"+`) && document.querySelector(`+"`"+sel+` button`+"`"+`)`)
		a.press("roll to activate Foy's division", sel+` button`, `/activates|fails/.test((document.querySelector('#cd-result') || {}).textContent || '')`)
		if eval[bool](p, `!!document.querySelector('#map [data-unit="1-ligne"][data-draggable="true"]')`) {
			a.drag("1-ligne")
		}
	case "nes", "lob":
		a.tapToMove()
	}
}

// dragAny drags the pieces sel finds, that have a point of their body
// clear of the others, until one moves; it returns that piece and where
// it stood.
func (a *acceptGame) dragAny(sel string) (string, [2]float64) {
	a.t.Helper()
	ids := eval[[]string](a.p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((e) => e.dataset.unit)`, sel))
	for _, id := range ids {
		if _, _, ok := grabPoint(a.p, id); ok {
			from := a.p.pieceAt(fmt.Sprintf(`#map [data-unit=%q]`, id))
			if a.drag(id) {
				return id, from
			}
		}
	}
	a.p.fail("%s: no piece among %v moved when dragged", a.d.rules, ids)
	return "", [2]float64{}
}

// takeBack takes back the move of unit id from the turn bar, and checks
// that it stands where it was, on the server's board and on the map.
func (a *acceptGame) takeBack(id string, from [2]float64) {
	a.t.Helper()
	p, sel := a.p, fmt.Sprintf(`#map [data-unit=%q]`, id)
	p.until(a.d.rules+": Take back offered", `(() => { const b = document.querySelector('#take-back'); return b && !b.hidden && !b.disabled && /^Take back: /.test(b.textContent); })()`)
	a.t.Logf("%s: %s", a.d.rules, p.text("#take-back"))
	a.press("Take back", "#take-back", fmt.Sprintf(`(() => { const e = document.querySelector(%q); const m = /translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)/.exec(e && e.getAttribute('transform') || '');
		return m && Math.abs(m[1] - %g) < 0.01 && Math.abs(m[2] - %g) < 0.01 && !e.classList.contains('pending'); })()`, sel, from[0], from[1]))
	if at := boardAt(a.t, a.s, a.seat, "unit", id); !near(at, from, 0.01) {
		p.fail("%s: %s's move taken back, the server has it at %v, not %v", a.d.rules, id, at, from)
	}
}

// drag moves unit id an inch and a half up the table with a finger, and
// checks the drag was not lost: the piece moved where the server puts
// it, or the banner says why not. It returns whether the piece moved.
func (a *acceptGame) drag(id string) bool {
	a.t.Helper()
	p := a.p
	sel := fmt.Sprintf(`#map [data-unit=%q]`, id)
	grab, _, ok := grabPoint(p, id)
	if !ok {
		p.fail("%s: %s is under other pieces", a.d.rules, id)
	}
	from := p.pieceAt(sel)
	c, b := p.screenOf(from[0], from[1]), p.screenOf(from[0], from[1]-1.5)
	to := [2]float64{grab[0] + b[0] - c[0], grab[1] + b[1] - c[1]}
	eval[bool](p, `(document.querySelector("#banner").hidden = true, true)`)
	p.touchDrag(fmt.Sprintf("%s: drag %s", a.d.rules, id), grab, to, 8)
	p.until(a.d.rules+": the drag of "+id+" answered: moved, or refused with a message", fmt.Sprintf(
		`(() => { const e = document.querySelector(%q); if (!e || e.classList.contains('pending')) return false;
			const b = document.querySelector('#banner'); return (!b.hidden && b.querySelector('.banner-text').textContent.trim() !== '') || !/translate\(%g %g\)/.test(e.getAttribute('transform')); })()`,
		sel, from[0], from[1]))
	want := boardAt(a.t, a.s, a.seat, "unit", id)
	p.until(fmt.Sprintf("%s: %s drawn where the server puts it, %v", a.d.rules, id, want), fmt.Sprintf(
		`(() => { const e = document.querySelector(%q); const m = /translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)/.exec(e && e.getAttribute('transform') || '');
			return m && Math.abs(m[1] - %g) < 0.01 && Math.abs(m[2] - %g) < 0.01 && !e.classList.contains('pending'); })()`, sel, want[0], want[1]))
	a.drags++
	if math.Hypot(want[0]-from[0], want[1]-from[1]) < 0.01 {
		a.t.Logf("%s: the drag of %s was refused: %s", a.d.rules, id, p.text("#banner .banner-text"))
		return false
	}
	return true
}

// tapToMove taps a unit the board offers a move, the farthest hex of its
// reach in sight, and Move.
func (a *acceptGame) tapToMove() {
	a.t.Helper()
	p, r := a.p, a.d.rules
	offers := boardOf(a.t, a.s, a.s.made.Game.ID, a.seat).Offers
	var ids []string
	for id, v := range offers {
		if slices.Contains(v, "move") {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		at := eval[[]float64](p, fmt.Sprintf(`(() => { const e = document.querySelector('#map [data-unit=%q] .box'); if (!e) return [];
			const r = e.getBoundingClientRect(), m = document.getElementById('map').getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2;
			const top = document.elementFromPoint(x, y);
			return x > m.left && x < m.right && y > m.top && y < m.bottom && top && top.closest('[data-unit]') === e.closest('[data-unit]') ? [x, y] : []; })()`, id))
		if len(at) != 2 {
			continue
		}
		p.tap([2]float64{at[0], at[1]})
		p.until(r+": "+id+"'s reach shaded", fmt.Sprintf(`document.querySelector('#map [data-reach]') && document.querySelector('#%s-left')`, r))
		// the farthest hex in sight the rules allow (refused: one they
		// refuse, marked with the reason)
		hex := func(refused bool) []float64 {
			return eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.getElementById('map').getBoundingClientRect();
			const at = (e) => { const b = e.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; };
			const ins = (e) => { const [x, y] = at(e); return x > r.left + 60 && x < r.right - 10 && y > r.top + 10 && y < r.bottom - 10 && !document.elementsFromPoint(x, y).some((u) => u.closest('[data-unit],[data-general],[data-hq],[data-hit]')); };
			const hexes = [...document.querySelectorAll('#map [data-reach]')].filter((e) => e.classList.contains('refused') === %t).filter(ins);
			return hexes.length ? at(hexes[hexes.length - 1]) : []; })()`, refused))
		}
		// A hex the rules refuse is not offered to move to: the panel
		// says why.
		if no := hex(true); len(no) == 2 {
			p.tap([2]float64{no[0], no[1]})
			p.until(r+": the refused hex's reason, and no Move", fmt.Sprintf(`/refused/.test((document.querySelector('#%s-path') || {}).textContent || '') && !document.querySelector('#%[1]s-move')`, r))
		}
		to := hex(false)
		if len(to) != 2 {
			continue
		}
		p.tap([2]float64{to[0], to[1]})
		p.until(r+": the path, its cost and Move", fmt.Sprintf(`/MP/.test((document.querySelector('#%s-path') || {}).textContent || '') && document.querySelector('#%[1]s-move')`, r))
		a.press("Move "+id, "#"+r+"-move", fmt.Sprintf(`/ to \d{4}/.test((document.querySelector('#%s-result') || {}).textContent || '')`, r))
		return
	}
	p.fail("%s: none of %v has a hex of its reach in sight", r, ids)
}

// touchDrag drags a finger from a to b in steps.
func (p *page) touchDrag(what string, a, b [2]float64, steps int) {
	p.t.Helper()
	id := 1.0
	touch := func(typ input.DispatchTouchEventType, q [2]float64) {
		pts := []*input.TouchPoint{{X: q[0], Y: q[1], ID: &id}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			pts = []*input.TouchPoint{}
		}
		if _, err := chromedp.Call(p.ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts}); err != nil {
			p.fail("%s: %v", what, err)
		}
	}
	touch(input.DispatchTouchEventTypeTouchStart, a)
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		touch(input.DispatchTouchEventTypeTouchMove, [2]float64{a[0] + (b[0]-a[0])*f, a[1] + (b[1]-a[1])*f})
	}
	touch(input.DispatchTouchEventTypeTouchEnd, b)
}

// after ends the game and looks back on it: the side's end panel and its
// links, the replay stepped back and forth, and the umpire's report with
// its luck.
func (a *acceptGame) after() {
	a.t.Helper()
	p, r, id := a.p, a.d.rules, a.s.made.Game.ID
	t0 := time.Now()
	p.do(r+": leave the page while the umpire ends the game", chromedp.Navigate("about:blank"))
	for range 1000 {
		if a.info(a.umpire).Over {
			break
		}
		a.s.command(a.t, a.umpire, `{"end":true}`)
	}
	if !a.info(a.umpire).Over {
		p.fail("%s: the umpire's end commands did not end the game", r)
	}
	a.t.Logf("%s: the umpire ended the game in %v", r, time.Since(t0))
	// The side's page: Game over and the end panel's links.
	p.reopen(a.s.ts.URL, a.seat)
	p.until(r+": the end panel", `(() => { const e = document.getElementById('end-panel'); return e && e.getClientRects().length && e.querySelector('#end-replay') && e.querySelector('#end-report') && !/Finding/.test(e.textContent); })()`)
	if href := eval[string](p, `document.getElementById('end-report').getAttribute('href')`); href != "/report?game="+id {
		p.fail("%s: the end panel's report link is %q", r, href)
	}
	p.view("accept36-" + r + "-end")
	// The replay, from the end panel's link, as the side.
	href := eval[string](p, `document.getElementById('end-replay').getAttribute('href')`)
	if href != "/replay?game="+id {
		p.fail("%s: the end panel's replay link is %q", r, href)
	}
	p.do(r+": follow the replay link", chromedp.Navigate(a.s.ts.URL+href))
	p.until(r+": the replay at turn 1, the full game offered to the side", `location.pathname === '/replay' && document.getElementById('turn').textContent === '1' && !document.getElementById('full-view').hidden`)
	head := func() string { return p.text("#turn") + " " + p.text("#position") }
	h0 := head()
	p.press(`[data-vcr="forward"]`, true)
	p.until(r+": the replay a step on", fmt.Sprintf(`document.getElementById('turn').textContent + ' ' + document.getElementById('position').textContent !== %q`, h0))
	p.press(`[data-vcr="back"]`, true)
	p.until(r+": the replay a step back", fmt.Sprintf(`document.getElementById('turn').textContent + ' ' + document.getElementById('position').textContent === %q`, h0))
	p.press(`[data-vcr="last"]`, true)
	p.until(r+": the replay at its last event", `document.querySelector('[data-vcr="forward"]').disabled && document.querySelector('#map [data-unit]')`)
	p.view("accept36-" + r + "-replay")
	// The umpire's end panel: the export (in the first demo: it is the
	// same page in all), then the report by its link.
	p.reopen(a.s.ts.URL, a.umpire)
	p.until(r+": the umpire's end panel", `(() => { const e = document.getElementById('end-panel'); return e && e.getClientRects().length && e.querySelector('#end-export') && e.querySelector('#end-report'); })()`)
	if r == accept36Demos[0].rules {
		a.press("Export the game", "#end-export", `(() => { const f = document.getElementById('end-export-file'); return !f.hidden && f.href.startsWith('blob:') && !document.getElementById('end-export').disabled; })()`)
	}
	href = eval[string](p, `document.getElementById('end-report').getAttribute('href')`)
	if href != "/report?game="+id {
		p.fail("%s: the umpire's report link is %q", r, href)
	}
	p.do(r+": follow the report link", chromedp.Navigate(a.s.ts.URL+href))
	p.until(r+": the report's turns, maps and luck", `document.querySelectorAll('#report section.turn').length >= 3 && document.querySelector('#report section.turn svg') && !document.getElementById('print').disabled && [...document.querySelectorAll('#report h2')].some((e) => e.textContent === 'Luck')`)
	luck := eval[[]string](p, `[...document.querySelectorAll('#report h3')].map((e) => e.textContent).filter((t) => /: \d+th percentile$/.test(t))`)
	if len(luck) == 0 {
		p.fail("%s: the report's luck gives no side a percentile: %q", r, p.text("#report"))
	}
	a.t.Logf("%s: luck: %s", r, strings.Join(luck, "; "))
	p.shot("accept36-" + r + "-report")
}
