package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"orderly/server"
)

// A map people can read and drag at every size (issue 36, item 3): the
// five demos on a laptop (1280x800) and a tablet held upright (768x1024,
// touch), each seen by a side whose base edge is not the south one (so
// that the map is turned), checked from the DOM and kept as
// map36-RULES-WxH.png:
//   - the map fills its pane at the default zoom, and on the tablet it
//     takes at least 60% of the screen;
//   - a hex map's unit counters are at least 24 px;
//   - the side's own pieces lie in the lower half (its base edge at the
//     bottom), with the compass turned to show north;
//   - every unit of the side carries a label with its short name, and
//     BP's and CD's generals keep their names on the tablet;
//   - no piece is draggable where the board offers it no move.
// TestMapDrags drags NB's pieces 25 times (each moves or is refused with a
// message, and is drawn where the server says), and checks the distance
// label of a drag on and off the table; TestMapTicks the highlight of a
// unit ticked in BP's panel (and the reverse); TestMapTapToMove NES's tap
// on a shaded hex.

// map36Seat is a demo's seat checked at every size.
type map36Seat struct {
	rules, scenario, side string
	hex                   bool
	// the side's army commander, whom the scenario puts at its base edge
	commander string
}

var map36Seats = []map36Seat{
	{"nb", "demo", "allies", false, "wellington"},
	{"bp", "bp-demo", "british", false, "wellington"},
	{"cd", "cd-demo", "austrian", false, "schwarzenberg"},
	{"nes", "nes-demo", "french", true, "napoleon"},
	{"lob", "lob-demo", "confederate", true, "jackson"},
}

// map36Report is what map36JS measures.
type map36Report struct {
	Area       float64    `json:"area"`  // the map's share of the window
	Cover      float64    `json:"cover"` // the share of the map's pane the map covers
	Counter    float64    `json:"counter"`
	Own        [2]float64 `json:"own"` // the own units' mean centre, as fractions of the map's width and height
	Commander  [2]float64 `json:"commander"`
	Needle     string     `json:"needle"`
	Unlabelled []string   `json:"unlabelled"`
	Shown      int        `json:"shown"`
	Units      int        `json:"units"`
	Nameless   []string   `json:"nameless"`
	Draggable  []string   `json:"draggable"`
	Hint       string     `json:"hint"`
}

const map36JS = `((side, commander) => {
	const svg = document.getElementById('map');
	const r = svg.getBoundingClientRect();
	const out = { area: r.width * r.height / (innerWidth * innerHeight), cover: 0, counter: 0, own: [0, 0], needle: '', unlabelled: [], shown: 0, units: 0, nameless: [], draggable: [], hint: '' };
	// the map drawn: the table and its margin, or the hexes
	const drawn = [...svg.querySelectorAll('#layer-table .margin, #layer-table .hx-cell')].map((e) => e.getBoundingClientRect());
	if (drawn.length) {
		const u = drawn.reduce((a, b) => ({ left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) }));
		const w = Math.max(0, Math.min(u.right, r.right) - Math.max(u.left, r.left)), h = Math.max(0, Math.min(u.bottom, r.bottom) - Math.max(u.top, r.top));
		out.cover = w * h / (r.width * r.height);
	}
	const boxes = [...svg.querySelectorAll('#viewport .hx-counter .box')].map((e) => e.getBoundingClientRect());
	out.counter = boxes.length ? Math.min(...boxes.map((b) => Math.min(b.width, b.height))) : 0;
	let n = 0;
	for (const p of svg.querySelectorAll('#viewport [data-unit][data-side="' + side + '"]')) {
		const b = (p.querySelector('.body, .box') || p).getBoundingClientRect();
		out.own[0] += (b.left + b.width / 2 - r.left) / r.width; out.own[1] += (b.top + b.height / 2 - r.top) / r.height; n++;
		out.units++;
		const l = svg.querySelector('[data-unit-name="' + CSS.escape(p.dataset.unit) + '"]');
		if (!l || !l.textContent.trim()) out.unlabelled.push(p.dataset.unit);
		else if (!l.classList.contains('lbl-off')) out.shown++;
	}
	if (n) out.own = [out.own[0] / n, out.own[1] / n];
	const c = svg.querySelector('#viewport [data-general="' + commander + '"]');
	const cb = c ? (c.querySelector('.body, .ring') || c).getBoundingClientRect() : null;
	out.commander = cb ? [(cb.left + cb.width / 2 - r.left) / r.width, (cb.top + cb.height / 2 - r.top) / r.height] : [-1, -1];
	const needle = document.querySelector('#compass .needle');
	out.needle = needle ? needle.style.transform : '';
	for (const g of svg.querySelectorAll('#viewport [data-general]')) {
		const id = g.dataset.general;
		const l = [...svg.querySelectorAll('.lbl-gen, .hx-name')].find((e) => e.closest('[data-general="' + CSS.escape(id) + '"]') || e.dataset.name === id);
		if (!l || l.classList.contains('lbl-off') || !l.textContent.trim()) out.nameless.push(id);
	}
	out.draggable = [...svg.querySelectorAll('[data-draggable="true"]')].map((e) => e.dataset.unit || e.dataset.general);
	out.hint = document.getElementById('map-hint').textContent;
	return out;
})`

// TestMapSizes checks the five demos at both sizes (see the top of the file).
func TestMapSizes(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	tokens := map[string]string{"nb": s.token(t, "side", "allies")}
	for _, st := range map36Seats[1:] {
		m, err := s.srv.Create(ctx, server.Setup{Scenario: st.scenario})
		if err != nil {
			t.Fatal(err)
		}
		for _, seat := range m.Seats {
			if seat.Side == st.side {
				tokens[st.rules] = seat.Token
			}
		}
	}
	// One page for the five demos, as a player going from game to game;
	// each demo seen on the laptop, then on the tablet (the window turned
	// into one: the map fills again what it is given).
	sizes := []readableSize{{1280, 800, false}, {768, 1024, true}}
	p := newPage(t, browser(t, ctx, sizes[0].w, sizes[0].h), "map36-sizes", dir)
	for _, st := range map36Seats {
		p.do("leave the game", chromedp.Navigate("about:blank"))
		p.do("the laptop", chromedp.EmulateViewport(int64(sizes[0].w), int64(sizes[0].h)))
		p.openAsIs(s.ts.URL, tokens[st.rules])
		for _, sz := range sizes {
			where := fmt.Sprintf("%s %s %dx%d", st.rules, st.side, sz.w, sz.h)
			if sz.touch {
				p.do("the tablet", chromedp.EmulateViewport(int64(sz.w), int64(sz.h), chromedp.EmulateTouch))
				p.until("the map in the tablet's layout", fmt.Sprintf(`innerWidth === %d && Math.abs(document.getElementById('map').getBoundingClientRect().width - %d) < 2`, sz.w, sz.w))
			}
			p.settle()
			var r map36Report
			if err := json.Unmarshal(eval[json.RawMessage](p, map36JS+fmt.Sprintf("(%q, %q)", st.side, st.commander)), &r); err != nil {
				p.fail("%s: the report: %v", where, err)
			}
			t.Logf("%s: map %.0f%% of the window, covers %.0f%% of its pane, counters %.1f px, own units at %.2f, commander at %.2f, %d of %d unit labels shown",
				where, 100*r.Area, 100*r.Cover, r.Counter, r.Own, r.Commander, r.Shown, r.Units)
			if r.Cover < 0.75 {
				p.fail("%s: the map covers %.0f%% of its pane at the default zoom, want 75%% or more", where, 100*r.Cover)
			}
			if sz.touch && r.Area < 0.6 {
				p.fail("%s: the map takes %.0f%% of the screen, want 60%% or more", where, 100*r.Area)
			}
			if st.hex && r.Counter < 24 {
				p.fail("%s: a unit counter is %.1f px at the default zoom, want 24 or more", where, r.Counter)
			}
			if r.Units == 0 || r.Commander[1] <= 0.5 || r.Commander[1] > 1 {
				p.fail("%s: the side's commander, at its base edge, is not in the lower half of the map (at %v of its width and height)", where, r.Commander)
			}
			if r.Needle == "" {
				p.fail("%s: the map is turned but the compass points up", where)
			}
			if len(r.Unlabelled) > 0 || 2*r.Shown < r.Units {
				p.fail("%s: units without a label %v; %d of %d labels shown", where, r.Unlabelled, r.Shown, r.Units)
			}
			if (st.rules == "bp" || st.rules == "cd") && len(r.Nameless) > 0 {
				p.fail("%s: generals without their names: %v", where, r.Nameless)
			}
			if st.rules == "bp" && len(r.Draggable) > 0 {
				p.fail("%s: pieces draggable in the orders step, where the board offers no move: %v", where, r.Draggable)
			}
			p.view(fmt.Sprintf("map36-%s-%dx%d", st.rules, sz.w, sz.h))
		}
	}
	p.checkConsole()
}

// boardAt is where the server's board (the seat's) puts a piece.
func boardAt(t *testing.T, s *site, token, kind, id string) [2]float64 {
	t.Helper()
	code, body := s.call(t, "GET", "/api/games/"+s.made.Game.ID+"/board", token, "")
	if code != 200 {
		t.Fatalf("board: %d %s", code, body)
	}
	var b struct {
		State struct {
			Units []struct {
				ID string
				At [2]float64
			} `json:"units"`
			Generals []struct {
				ID string
				At [2]float64
			} `json:"generals"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	list := b.State.Units
	if kind == "general" {
		list = b.State.Generals
	}
	for _, p := range list {
		if p.ID == id {
			return p.At
		}
	}
	t.Fatalf("%s %s is not on the board", kind, id)
	return [2]float64{}
}

// grabPoint is a point of a unit's body, on the screen, at which the
// topmost piece's body is its own (a general may stand on it), or false.
// It prefers a point where something else lies on top all the same (a
// label, a general's ring, another piece's hit area: where drags were
// lost), and says so (covered).
func grabPoint(p *page, id string) (at [2]float64, covered, ok bool) {
	p.t.Helper()
	got := eval[[]float64](p, fmt.Sprintf(`(() => { const u = document.querySelector('#map [data-unit=%q]'); const r = u.querySelector('.body').getBoundingClientRect();
		let clear = null;
		for (let i = 0; i < 25; i++) {
			const x = r.left + r.width * (0.1 + 0.2 * (i %% 5)), y = r.top + r.height * (0.1 + 0.2 * Math.floor(i / 5));
			const under = document.elementsFromPoint(x, y);
			const top = under.find((e) => e.classList.contains('body'));
			if (!top || top.closest('[data-unit]') !== u) continue;
			if (under[0].closest('[data-unit]') !== u) return [x, y, 1];
			clear = clear || [x, y, 0];
		}
		return clear || []; })()`, id))
	if len(got) != 3 {
		return [2]float64{}, false, false
	}
	return [2]float64{got[0], got[1]}, got[2] == 1, true
}

// TestMapDrags: in NB's move step, the drag's distance label says inches
// on the table and "off the table" off it; then 25 drags of the French
// pieces each move the piece or are refused with a message in the
// banner, and after each the piece is drawn where the server's board
// puts it (never where it was dropped).
func TestMapDrags(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	fr, al, um := s.token(t, "side", "french"), s.token(t, "side", "allies"), s.token(t, "umpire", "")
	s.command(t, fr, `{"ready":true}`)
	s.command(t, al, `{"ready":true}`)
	b := browser(t, ctx, 1280, 800)
	p := newPage(t, b, "map36-drags", dir)
	p.openAsIs(s.ts.URL, fr)
	p.until("the move step", `document.querySelector('#step').textContent === 'move'`)
	p.settle()
	if !eval[bool](p, `!!document.querySelector('#map [data-unit="F-I-1-a"][data-draggable="true"]') && !document.querySelector('#map [data-side="allies"][data-draggable]')`) {
		p.fail("the French units are not marked draggable, or the allies' are")
	}

	// The label while dragging: inches on the table, off the table off it.
	at := p.pieceAt(`#map [data-unit="F-I-1-a"]`)
	a, on, off := p.screenOf(at[0], at[1]), p.screenOf(at[0]+3, at[1]-4), p.screenOf(at[0], 52)
	press := func(what string, typ input.DispatchMouseEventType, q [2]float64) {
		p.t.Helper()
		ev := input.DispatchMouseEventParams{Type: typ, X: q[0], Y: q[1], Button: input.MouseButtonLeft, ClickCount: 1}
		if typ == input.DispatchMouseEventTypeMouseMoved {
			ev.Buttons = 1
		}
		if _, err := chromedp.Call(p.ctx, input.DispatchMouseEvent, ev); err != nil {
			p.fail("%s: %v", what, err)
		}
	}
	press("press F-I-1-a", input.DispatchMouseEventTypeMousePressed, a)
	for i := 1; i <= 6; i++ {
		f := float64(i) / 6
		press("drag it", input.DispatchMouseEventTypeMouseMoved, [2]float64{a[0] + (on[0]-a[0])*f, a[1] + (on[1]-a[1])*f})
	}
	if got := eval[[]string](p, `(() => { const l = document.querySelector('#map .guide-lbl'); return l ? [l.textContent, l.dataset.off] : []; })()`); len(got) != 2 || got[0] != "5″" || got[1] != "false" {
		p.fail("dragged 5 inches on the table, the label says %q, want 5″", got)
	}
	press("drag it off the table", input.DispatchMouseEventTypeMouseMoved, off)
	if got := eval[[]string](p, `(() => { const l = document.querySelector('#map .guide-lbl'); return l ? [l.textContent, l.dataset.off] : []; })()`); len(got) != 2 || got[0] != "off the table" || got[1] != "true" {
		p.fail("dragged off the table, the label says %q, want off the table", got)
	}
	press("drop it back where it was", input.DispatchMouseEventTypeMouseMoved, a)
	press("release", input.DispatchMouseEventTypeMouseReleased, a)
	p.settle()

	// 25 drags (the playtest lost one in 25), none lost.
	units := eval[[]string](p, `[...document.querySelectorAll('#map [data-unit][data-draggable="true"]')].map((e) => e.dataset.unit).slice(0, 12)`)
	if len(units) < 4 {
		p.fail("only %d French units may be dragged", len(units))
	}
	// up and down the table (so that no unit ends on another), and once
	// in a while off it
	steps := [][2]float64{{0, -1.5}, {0, 1}, {0, 1.5}, {0, -1}, {0, 30}}
	moved, refused, covered := 0, 0, 0
	for i := range 25 {
		// the next unit with a point of its body clear of other pieces
		var id string
		var a [2]float64
		for k := range units {
			id = units[(i+k)%len(units)]
			var ok, under bool
			if a, under, ok = grabPoint(p, id); ok {
				if under {
					covered++
				}
				break
			}
			id = ""
		}
		if id == "" {
			p.fail("drag %d: every French unit is under another piece", i+1)
		}
		sel := fmt.Sprintf(`#map [data-unit=%q]`, id)
		from := p.pieceAt(sel)
		d := steps[(i/len(units)+i)%len(steps)]
		to := [2]float64{from[0] + d[0], from[1] + d[1]}
		eval[bool](p, `(document.querySelector("#banner").hidden = true, true)`)
		// pressed on a point of its body that no other piece covers
		b := p.screenOf(to[0], to[1])
		c := p.screenOf(from[0], from[1])
		b[0], b[1] = b[0]+a[0]-c[0], b[1]+a[1]-c[1]
		p.do(fmt.Sprintf("drag %d: %s", i+1, id), chromedp.DragAndDropXY(a[0], a[1], b[0], b[1], 8))
		p.until(fmt.Sprintf("drag %d (%s) answered: moved, or refused with a message", i+1, id), fmt.Sprintf(
			`(() => { const e = document.querySelector(%q); if (!e || e.classList.contains('pending')) return false;
				const b = document.querySelector('#banner'); return (!b.hidden && b.querySelector('.banner-text').textContent.trim() !== '') || !/translate\(%g %g\)/.test(e.getAttribute('transform')); })()`,
			sel, from[0], from[1]))
		want := boardAt(t, s, fr, "unit", id)
		p.until(fmt.Sprintf("drag %d: %s drawn where the server puts it, %v", i+1, id, want), fmt.Sprintf(
			`(() => { const e = document.querySelector(%q); const m = /translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)/.exec(e && e.getAttribute('transform') || '');
				return m && Math.abs(m[1] - %g) < 0.01 && Math.abs(m[2] - %g) < 0.01 && !e.classList.contains('pending'); })()`, sel, want[0], want[1]))
		if math.Hypot(want[0]-from[0], want[1]-from[1]) > 0.01 {
			moved++
		} else {
			refused++
		}
	}
	t.Logf("25 drags: %d moved, %d refused with a message; %d started under a label or another piece's ring", moved, refused, covered)
	if moved == 0 || refused == 0 {
		p.fail("25 drags: %d moved and %d refused; the test means some of each", moved, refused)
	}
	p.checkConsole()

	// The umpire's hint says what he may do: no "Drag any piece".
	u := newPage(t, b, "map36-umpire", dir)
	u.open(s.ts.URL, um)
	if h := u.text("#map-hint"); h == "" || h == "Drag any piece to move it; tap one for its details." {
		u.fail("the umpire's hint is %q", h)
	}
	u.checkConsole()
}

// TestMapTicks: a unit ticked in BP's order panel is highlighted on the
// map, and one tapped on the map is marked in the panel.
func TestMapTicks(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	m, err := s.srv.Create(ctx, server.Setup{Scenario: "bp-demo"})
	if err != nil {
		t.Fatal(err)
	}
	tok := ""
	for _, seat := range m.Seats {
		if seat.Side == "french" {
			tok = seat.Token
		}
	}
	b := browser(t, ctx, 1280, 800)
	p := newPage(t, b, "map36-ticks", dir)
	p.openAsIs(s.ts.URL, tok)
	p.until("the order panel's units", `document.querySelector('#command-panel input[type="checkbox"][data-unit]')`)
	id := eval[string](p, `document.querySelector('#command-panel input[type="checkbox"][data-unit]').dataset.unit`)
	if eval[bool](p, `!!document.querySelector('#map .ticked')`) {
		p.fail("a unit is highlighted before any is ticked")
	}
	p.do("tick "+id, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#command-panel input[data-unit=%q]`, id))))
	p.until(id+" highlighted on the map", fmt.Sprintf(`document.querySelector('#map [data-unit=%q].ticked') && document.querySelectorAll('#map .ticked').length === 1`, id))
	p.do("untick "+id, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#command-panel input[data-unit=%q]`, id))))
	p.until(id+" no longer highlighted", `!document.querySelector('#map .ticked')`)
	// The reverse: tapped on the map, its row in the panel is marked.
	at := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector('#map [data-unit=%q] .body').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, id))
	p.do("tap "+id, chromedp.MouseClickXY(at[0], at[1]))
	p.until(id+"'s row marked in the panel", fmt.Sprintf(`document.querySelector('#command-panel input[data-unit=%q]').closest('.on-map')`, id))
	p.shot("map36-ticks")
	p.checkConsole()
}

// TestMapTapToMove: on NES's map, as on LOB's, a tap on a shaded hex of
// the selected unit's reach shows the way there and its cost, with no
// button pressed first.
func TestMapTapToMove(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	m, err := s.srv.Create(ctx, server.Setup{Scenario: "nes-demo"})
	if err != nil {
		t.Fatal(err)
	}
	tok := ""
	for _, seat := range m.Seats {
		if seat.Side == "french" {
			tok = seat.Token
		}
	}
	game := &site{srv: s.srv, ts: s.ts, made: m, host: s.host}
	game.command(t, tok, `{"ready":true}`)
	b := browser(t, ctx, 1280, 800)
	p := newPage(t, b, "map36-tap", dir)
	p.openAsIs(s.ts.URL, tok)
	p.until("the movement step", `document.querySelector('#step').textContent === 'move'`)
	p.settle()
	at := eval[[]float64](p, `(() => { const r = document.querySelector('#map [data-unit="fr-13l"] .box').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	p.do("tap the 13e", chromedp.MouseClickXY(at[0], at[1]))
	p.until("its reach shaded", `document.querySelector('#map [data-reach]') && document.querySelector('#nes-left')`)
	// the last hex of its reach the board lists that is in sight, with no piece on it
	to := eval[string](p, `(() => { const r = document.getElementById('map').getBoundingClientRect();
		const ins = (e) => { const b = e.getBoundingClientRect(); const x = b.x + b.width / 2, y = b.y + b.height / 2;
			return x > r.left + 60 && x < r.right - 10 && y > r.top + 10 && y < r.bottom - 10 && !document.elementsFromPoint(x, y).some((u) => u.closest('[data-unit],[data-general],[data-hq],[data-hit]')); };
		const hexes = [...document.querySelectorAll('#map [data-reach]')].filter(ins);
		return hexes.length ? hexes[hexes.length - 1].dataset.reach : ''; })()`)
	if to == "" {
		p.fail("no hex of the 13e's reach is in sight")
	}
	p.clickHex(to)
	p.until("the path and its cost", `/MP/.test((document.querySelector('#nes-path') || {}).textContent || '')`)
	p.do("move", chromedp.Click(chromedp.CSS(`#nes-move`)))
	p.until("the move made", fmt.Sprintf(`(document.querySelector('#nes-result') || {}).textContent?.includes('to %s')`, to))
	p.checkConsole()
}
