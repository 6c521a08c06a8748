package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// The umpire's hand on the page (issue 15): acting for a side, placing a
// piece where the rules refused to move it, NB-15's casualties, and both
// sides' views under fog of war.

// makeGame makes a game on the site and returns it with its seats' tokens
// by "role/side" ("umpire/" for the umpire).
func makeGame(t *testing.T, ctx context.Context, s *site, setup server.Setup) (string, map[string]string) {
	t.Helper()
	made, err := s.srv.Create(ctx, setup)
	if err != nil {
		t.Fatal(err)
	}
	tok := map[string]string{}
	for _, st := range made.Seats {
		tok[st.Role+"/"+st.Side] = st.Token
	}
	return made.Game.ID, tok
}

// spySent records the bodies of the commands the page sends, in
// window.sent.
func (p *page) spySent() {
	p.t.Helper()
	p.do("spy on the commands", chromedp.Evaluate[chromedp.Void](`(() => { window.sent = []; const f = window.fetch;
		window.fetch = (path, init) => { if (/\/commands$/.test(String(path)) && init && init.body) window.sent.push(JSON.parse(init.body)); return f(path, init); }; })()`))
}

// lastSent is the last command the page sent.
func (p *page) lastSent() map[string]any {
	p.t.Helper()
	return eval[map[string]any](p, `window.sent[window.sent.length - 1] || {}`)
}

// drag drags on the map from one table point to another.
func (p *page) drag(what string, from, to [2]float64) {
	p.t.Helper()
	a, b := p.screenOf(from[0], from[1]), p.screenOf(to[0], to[1])
	p.do(what, chromedp.DragAndDropXY(a[0], a[1], b[0], b[1], 12))
}

// pieceOf reads a piece (unit or general) of a board as the API gives it.
func pieceOf(t *testing.T, s *site, game, token, id string) map[string]any {
	t.Helper()
	v := s.board(t, game, token)
	for _, list := range [][]map[string]any{v.State.Units, v.State.Generals, v.State.Leaders} {
		for _, x := range list {
			if x["id"] == id {
				return x
			}
		}
	}
	return nil
}

// TestBrowserActFor: on NB's demo the umpire chooses Act as the French
// side; his page says so, and a move he drags is sent as the French's
// (side french) and made as theirs, where the umpire's own move would be
// refused (NB-16); his End stays his. Back to Umpire, his moves go as his
// own again: refused, with the offer to allow them.
func TestBrowserActFor(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	fr, al, ump := s.token(t, "side", "french"), s.token(t, "side", "allies"), s.token(t, "umpire", "")
	s.command(t, fr, `{"ready":true}`)
	s.command(t, al, `{"ready":true}`)
	b := browser(t, ctx, 1100, 800)
	p := newPage(t, b, "act-for", dir)
	p.open(s.ts.URL, ump)
	p.until("the move step", `document.querySelector('#step').textContent === 'move'`)
	p.spySent()
	if got := eval[[]string](p, `[...document.querySelectorAll('#act-as option')].map(o => o.value + ':' + o.textContent)`); !slices.Equal(got, []string{":Umpire", "french:Armée du Nord", "allies:Anglo-allied army"}) {
		p.fail("Act as offers %v", got)
	}
	p.choose("#act-as", "french")
	p.until("the note", `(() => { const n = document.querySelector('#acting-note'); return !n.hidden && n.getClientRects().length > 0 && n.textContent === 'Acting for Armée du Nord'; })()`)
	p.shot("act-for-french")

	// A French move the rules accept from the French.
	p.drag("drag F-I-1-a", [2]float64{26, 32}, [2]float64{26, 29})
	p.until("the move logged", `[...document.querySelectorAll('#log li[data-type="moved"]')].some(li => li.textContent.includes('F-I-1-a'))`)
	if c := p.lastSent(); c["side"] != "french" || c["move"] == nil {
		p.fail("the move was sent as %v", c)
	}
	if at := pieceOf(t, s, s.made.Game.ID, ump, "F-I-1-a")["at"]; fmt.Sprint(at) != "[26 29]" {
		p.fail("F-I-1-a is at %v, want (26, 29)", at)
	}
	moved := 0
	for _, e := range logOf(t, s, ump) {
		if e.Type == "moved" && strings.Contains(e.Summary, "F-I-1-a") {
			moved++
			if e.Side != "french" {
				p.fail("F-I-1-a's move is %+v, want it made by french", e)
			}
		}
	}
	if moved != 1 {
		p.fail("the log has %d moves of F-I-1-a, want 1", moved)
	}

	// Back to the umpire: his own move is refused (NB-16), with the offer
	// to allow it; the command carried no side.
	p.choose("#act-as", "")
	p.until("the note gone", `document.querySelector('#acting-note').hidden`)
	p.drag("drag F-I-1-b", [2]float64{28, 32}, [2]float64{28, 30})
	p.until("the umpire's refusal", `!document.querySelector('#banner').hidden && /\(NB-16\)/.test(document.querySelector('#banner').textContent) && document.querySelector('#banner input.override-reason')`)
	if c := p.lastSent(); c["side"] != nil || c["move"] == nil {
		p.fail("the umpire's own move was sent as %v", c)
	}

	// Acting for the Allies, the umpire's End is still his own.
	p.choose("#act-as", "allies")
	p.do("end the step", chromedp.WaitEnabled(chromedp.ID("end-step")), chromedp.Click(chromedp.ID("end-step")),
		chromedp.WaitVisible(chromedp.ID("end-yes")), chromedp.Click(chromedp.ID("end-yes")))
	p.until("turn 2", `document.querySelector('#turn').textContent === '2'`)
	if c := p.lastSent(); c["side"] != nil || c["end"] != true {
		p.fail("the end was sent as %v", c)
	}
	p.checkConsole()
}

// TestBrowserActWrites: the umpire acting for a side writes its orders
// (issue 15: every command from the page, acting for a side). His own
// page has no Orders tab; acting for the French it shows their
// formations that may take an order, the order goes as theirs, and acting
// for himself again hides the tab.
func TestBrowserActWrites(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	ump := s.token(t, "umpire", "")
	b := browser(t, ctx, 1100, 800)
	p := newPage(t, b, "act-writes", dir)
	p.open(s.ts.URL, ump)
	p.until("the write step", `document.querySelector('#step').textContent === 'write'`)
	if !eval[bool](p, `document.querySelector('.tab-btn[data-tab="orders"]').hidden`) {
		p.fail("the umpire's own page shows the Orders tab")
	}
	before := ordersBy(t, s, ump)
	p.spySent()
	p.choose("#act-as", "french")
	p.until("the French formations to write for", `!document.querySelector('.tab-btn[data-tab="orders"]').hidden && !document.querySelector('#tab-orders').hidden &&
		document.querySelector('#order-for input[value="F-I"]') && !document.querySelector('#order-for input[value="A-R"]') && !document.querySelector('#order-form').classList.contains('off')`)
	if st := p.text("#order-status"); !strings.Contains(st, "3 of 3 orders left to write this turn") {
		p.fail("the order form's status while acting for the French: %q", st)
	}
	p.do("choose I Corps and attack",
		chromedp.Click(chromedp.CSS(`#order-for input[value="F-I"]`)),
		chromedp.SetValue(chromedp.ID("order-kind"), "attack"))
	p.clickMap(30, 20)
	p.until("the objective picked", `document.querySelector('#order-x').value === '30' && document.querySelector('#order-y').value === '20'`)
	p.shot("act-writes")
	// The log may hold orders of earlier turns: wait for one more.
	logged := eval[int](p, `document.querySelectorAll('#log li[data-type="order-written"]').length`)
	p.do("send the order", chromedp.WaitEnabled(chromedp.ID("order-send")), chromedp.Click(chromedp.ID("order-send")))
	p.until("the order logged", fmt.Sprintf(`document.querySelectorAll('#log li[data-type="order-written"]').length > %d`, logged))
	if c := p.lastSent(); c["side"] != "french" || c["write"] == nil {
		p.fail("the order was sent as %v", c)
	}
	if n := ordersBy(t, s, ump); n["french"] != before["french"]+1 || n["allies"] != before["allies"] || n["umpire"] != 0 {
		p.fail("orders written by side before %v, after %v; want one more by the French", before, n)
	}
	p.choose("#act-as", "")
	p.until("the Orders tab gone", `document.querySelector('.tab-btn[data-tab="orders"]').hidden && document.querySelector('#tab-orders').hidden`)
	p.checkConsole()
}

// logged is an event of the game's log as a seat is given it.
type logged struct {
	Type    string `json:"type"`
	Side    string `json:"side"`
	Summary string `json:"summary"`
}

// logOf is the game's log as the seat of tok is given it.
func logOf(t *testing.T, s *site, tok string) []logged {
	t.Helper()
	code, body := s.call(t, "GET", "/api/games/"+s.made.Game.ID+"/events?since=0&limit=1000", tok, "")
	if code != http.StatusOK {
		t.Fatalf("events: %d %s", code, body)
	}
	var evs struct {
		Events []logged `json:"events"`
	}
	if err := json.Unmarshal([]byte(body), &evs); err != nil {
		t.Fatal(err)
	}
	return evs.Events
}

// ordersBy counts the orders written in the game's log, by side.
func ordersBy(t *testing.T, s *site, tok string) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, e := range logOf(t, s, tok) {
		if e.Type == "order-written" {
			n[e.Side]++
		}
	}
	return n
}

// TestBrowserPlace: in BP's demo the umpire drags a unit that has no
// order (refused, BP-4); the banner offers to place it there anyway with
// a reason, and with one the unit stands there and the log says why. From
// a unit's card, Place… and a tap on the map does the same.
func TestBrowserPlace(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	game, tok := makeGame(t, ctx, s, server.Setup{Scenario: "bp-demo"})
	ump := tok["umpire/"]
	b := browser(t, ctx, 1100, 800)
	p := newPage(t, b, "place", dir)
	p.open(s.ts.URL, ump)
	if at := pieceOf(t, s, game, ump, "1-leger")["at"]; fmt.Sprint(at) != "[18 36]" {
		t.Fatalf("1-leger starts at %v", at)
	}

	// Dragged by the middle of its footprint, behind its front edge.
	p.drag("drag 1-leger", [2]float64{18, 37.5}, [2]float64{10, 31.5})
	p.until("the refusal with the offer", `!document.querySelector('#banner').hidden && /\(BP-4\)/.test(document.querySelector('#banner').textContent) &&
		document.querySelector('#banner input.place-reason') && /Place it there anyway/.test(document.querySelector('#banner').textContent)`)
	if n := eval[int](p, `document.querySelector('#banner input.place-reason').maxLength`); n != 200 {
		p.fail("the reason takes %d characters, want 200", n)
	}
	p.until("the unit back", `/translate\(18 36\)/.test(document.querySelector('#map [data-unit="1-leger"]').getAttribute('transform'))`)
	p.shot("place-offered")
	p.do("give the reason and place",
		chromedp.SendKeys(chromedp.CSS(`#banner input.place-reason`), "knocked over by a sleeve"),
		chromedp.Click(chromedp.CSS(`#banner [data-place-anyway="1-leger"]`)))
	p.until("the placement logged", `[...document.querySelectorAll('#log li[data-type="piece-placed"]')].some(li => li.textContent.includes('the umpire placed 1er Léger at (10, 30): knocked over by a sleeve'))`)
	if at := pieceOf(t, s, game, ump, "1-leger")["at"]; fmt.Sprint(at) != "[10 30]" {
		p.fail("1-leger is at %v after the placement, want (10, 30)", at)
	}
	p.until("the unit drawn there", `/translate\(10 30\)/.test(document.querySelector('#map [data-unit="1-leger"]').getAttribute('transform'))`)

	// From the card: Place…, a tap on the map, a reason.
	at := p.screenOf(26, 37.5)
	p.do("select 2-ligne", chromedp.MouseClickXY(at[0], at[1]))
	p.until("its card with Place…", `!document.querySelector('#selection').hidden && document.querySelector('#selection [data-place="2-ligne"]')`)
	p.do("Place…", chromedp.Click(chromedp.CSS(`#selection [data-place="2-ligne"]`)))
	p.until("the ask for a tap", `/Tap the map where/.test(document.querySelector('#banner').textContent)`)
	p.clickMap(62, 26)
	p.until("the reason asked", `document.querySelector('#banner input.place-reason') && /\(62, 26\)/.test(document.querySelector('#banner').textContent)`)
	p.do("give the reason and place",
		chromedp.SendKeys(chromedp.CSS(`#banner input.place-reason`), "set up wrong"),
		chromedp.Click(chromedp.CSS(`#banner [data-place-anyway="2-ligne"]`)))
	p.until("the second placement logged", `[...document.querySelectorAll('#log li[data-type="piece-placed"]')].some(li => li.textContent.includes('the umpire placed 2e de Ligne at (62, 26): set up wrong'))`)
	if at := pieceOf(t, s, game, ump, "2-ligne")["at"]; fmt.Sprint(at) != "[62 26]" {
		p.fail("2-ligne is at %v after the placement, want (62, 26)", at)
	}
	p.shot("placed")
	p.checkConsole()

	// On a hex map (NES): the bar's Place… for the counter selected, a
	// tapped hex, a reason; the unit stands in that hex.
	game, tok = makeGame(t, ctx, s, server.Setup{Source: nesSmall, File: "nes-small.yaml"})
	ump = tok["umpire/"]
	h := newPage(t, b, "place-hex", dir)
	h.open(s.ts.URL, ump)
	c := eval[[]float64](h, `(() => { const r = document.querySelector('#map [data-unit="f13"] .box').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	h.do("select f13", chromedp.MouseClickXY(c[0], c[1]))
	h.until("Place… in the umpire's bar", `!document.querySelector('#place-piece').hidden && /Place 13e Leger/.test(document.querySelector('#place-piece').textContent)`)
	h.do("Place…", chromedp.Click(chromedp.ID("place-piece")))
	h.until("the ask for a tap", `/Tap the map where/.test(document.querySelector('#banner').textContent)`)
	h.clickHex("0810")
	h.until("the reason asked", `document.querySelector('#banner input.place-reason') && /at 0810/.test(document.querySelector('#banner').textContent)`)
	h.do("give the reason and place",
		chromedp.SendKeys(chromedp.CSS(`#banner input.place-reason`), "marched by mistake"),
		chromedp.Click(chromedp.CSS(`#banner [data-place-anyway="f13"]`)))
	h.until("the hex placement logged", `[...document.querySelectorAll('#log li[data-type="piece-placed"]')].some(li => /13e Leger .*0810.*marched by mistake/.test(li.textContent))`)
	if at := pieceOf(t, s, game, ump, "f13")["at"]; fmt.Sprint(at) != "[8 10]" {
		h.fail("f13 is at %v after the placement, want hex 0810", at)
	}
	h.shot("placed-hex")
	h.checkConsole()
}

// TestBrowserRemoveReplace: on NB's demo the umpire removes a general from
// his card (killed, NB-15), then replaces him from the card's form: a used
// id is refused with the server's sentence, a new one made with the
// quality chosen where the fallen general stood. The board has the new
// general and the log both events. The umpire's rout and rally of a unit
// are offered on its card and work.
func TestBrowserRemoveReplace(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	ump := s.token(t, "umpire", "")
	game := s.made.Game.ID
	b := browser(t, ctx, 1100, 800)
	p := newPage(t, b, "remove-replace", dir)
	p.open(s.ts.URL, ump)

	at := p.screenOf(28, 33)
	p.do("select Quiot", chromedp.MouseClickXY(at[0], at[1]))
	p.until("his card with Remove", `!document.querySelector('#selection').hidden && document.querySelector('#selection [data-remove="quiot"]')`)
	if got := eval[[]string](p, `[...document.querySelectorAll('#selection select[data-fate="quiot"] option')].map(o => o.value)`); !slices.Equal(got, []string{"killed", "captured"}) {
		p.fail("the fates offered are %v", got)
	}
	p.do("remove him", chromedp.Click(chromedp.CSS(`#selection [data-remove="quiot"]`)))
	p.until("the removal logged", `document.querySelector('#log li[data-type="general-removed"]')`)
	if g := pieceOf(t, s, game, ump, "quiot"); g["fate"] != "killed" {
		p.fail("Quiot's fate is %v", g["fate"])
	}
	// Fallen (NB-15): so marked on the map, in his tooltip and in the order
	// of battle (NB's map view and module, not the shared ones).
	p.until("Quiot fallen on the map and in the order of battle", `document.querySelector('#map [data-general="quiot"].fallen') &&
		/killed/.test(document.querySelector('#map [data-general="quiot"] title').textContent) &&
		document.querySelector('#oob li[data-formation="F-I-1"] > .fm-gen .chip.fallen')`)
	p.until("Replace… on his card", `document.querySelector('#selection [data-replace="quiot"]') && !document.querySelector('#selection [data-remove="quiot"]')`)
	p.do("open the form", chromedp.Click(chromedp.CSS(`#selection [data-replace="quiot"]`)))
	p.until("the form", `document.querySelector('#selection form.replace-form[data-replacing="quiot"]')`)
	form := eval[map[string]any](p, `(() => { const f = document.querySelector('#selection form.replace-form');
		const v = (k) => f.querySelector('[data-field="' + k + '"]').value;
		return { id: v('id'), quality: v('quality'), range: v('range'), x: v('x'), y: v('y'),
			qualities: [...f.querySelectorAll('[data-field="quality"] option')].map(o => o.value) }; })()`)
	if form["id"] != "quiot-2" || form["x"] != "28" || form["y"] != "33" || form["range"] != "4" || fmt.Sprint(form["qualities"]) != "[excellent good average poor]" {
		p.fail("the form starts as %v", form)
	}
	p.shot("replace-form")

	// An id already used: the server's sentence.
	p.do("an id already used", chromedp.SetValue(chromedp.CSS(`#selection [data-field="id"]`), "ney"))
	p.do("send", chromedp.Evaluate[chromedp.Void](`(() => { const i = document.querySelector('#selection [data-field="id"]'); i.dispatchEvent(new Event('input')); })()`),
		chromedp.Click(chromedp.CSS(`#selection [data-replace-send="quiot"]`)))
	p.until("the refusal", `!document.querySelector('#banner').hidden && /already used/.test(document.querySelector('#banner').textContent)`)

	p.do("a new id and a name", chromedp.SetValue(chromedp.CSS(`#selection [data-field="id"]`), "charlet"),
		chromedp.SendKeys(chromedp.CSS(`#selection [data-field="name"]`), "Charlet"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#selection [data-field="id"]').dispatchEvent(new Event('input'))`))
	p.choose(`#selection [data-field="quality"]`, "good")
	p.do("replace him", chromedp.Click(chromedp.CSS(`#selection [data-replace-send="quiot"]`)))
	p.until("the replacement logged", `document.querySelector('#log li[data-type="general-replaced"]')`)
	g := pieceOf(t, s, game, ump, "charlet")
	if g == nil || g["name"] != "Charlet" || g["quality"] != "good" || fmt.Sprint(g["at"]) != "[28 33]" || g["commands"] != "F-I-1" {
		p.fail("the new general is %v", g)
	}
	if q := pieceOf(t, s, game, ump, "quiot"); q["replaced"] != "charlet" {
		p.fail("Quiot is %v", q)
	}
	p.until("the new general on the map", `document.querySelector('#map [data-general="charlet"]') && !document.querySelector('#map [data-general="quiot"]')`)
	for _, typ := range []string{"general-removed", "general-replaced"} {
		if !eval[bool](p, fmt.Sprintf(`!!document.querySelector('#log li[data-type=%q]')`, typ)) {
			p.fail("the log has no %s", typ)
		}
	}
	p.shot("replaced")

	// Rout and rally, the umpire's, from a unit's card.
	const unit = "F-I-1-a"
	at = p.screenOf(26, 32)
	p.do("select "+unit, chromedp.MouseClickXY(at[0], at[1]))
	p.until("Rout on its card", `[...document.querySelectorAll('#selection button')].some(b => b.textContent === 'Rout')`)
	p.do("rout", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#selection button')].find(b => b.textContent === 'Rout').click()`))
	p.until("Rally on its card", `[...document.querySelectorAll('#selection button')].some(b => b.textContent === 'Rally')`)
	if u := pieceOf(t, s, game, ump, unit); u["status"] != "routed" {
		p.fail("%s is %v after the rout", unit, u["status"])
	}
	p.do("rally", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#selection button')].find(b => b.textContent === 'Rally').click()`))
	p.until("Rout on its card again", `[...document.querySelectorAll('#selection button')].some(b => b.textContent === 'Rout')`)
	if u := pieceOf(t, s, game, ump, unit); u["status"] == "routed" {
		p.fail("%s is still routed after the rally", unit)
	}
	p.checkConsole()
}

// sideViewDrawn lists, sorted, the ids of pieces of side drawn in the
// umpire's view of what viewer sees.
func (p *page) sideViewDrawn(viewer, side string) []string {
	p.t.Helper()
	ids := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('.side-view[data-side=%q] svg [data-unit], .side-view[data-side=%q] svg [data-general]')]
		.filter(e => e.dataset.side === %q).map(e => e.dataset.unit || e.dataset.general)`, viewer, viewer, side))
	slices.Sort(ids)
	return ids
}

// TestBrowserSidesViews: in NB's demo under fog of war the umpire shows
// the sides' views: beside his map, a read-only map for each side draws
// exactly the enemy pieces that side's own board holds (fewer than the
// umpire's), looks as his own map does, and follows the game: an Allied
// unit placed in the French sight appears in the French view.
func TestBrowserSidesViews(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	game, tok := fogGame(t, ctx, s, server.Setup{Scenario: "demo", Fog: "on"})
	ump := tok["umpire/"]
	b := browser(t, ctx, 1200, 900)
	p := newPage(t, b, "sides-views", dir)
	p.open(s.ts.URL, ump)
	p.until("the Sides' views toggle", `!document.querySelector('#sides-toggle').hidden`)
	if !eval[bool](p, `document.querySelector('#sides-views').hidden`) {
		p.fail("the sides' views show before they are asked for")
	}
	umpireDrawn := p.drawn("allies")
	p.do("show the sides' views", chromedp.Click(chromedp.ID("sides-toggle")))
	p.until("both views drawn", `document.querySelectorAll('.side-view svg [data-unit]').length > 0 && document.querySelector('.side-view[data-side="french"] svg [data-unit]') && document.querySelector('.side-view[data-side="allies"] svg [data-unit]')`)
	titles := eval[[]string](p, `[...document.querySelectorAll('.side-view h4')].map(h => h.firstChild.nextSibling.textContent)`)
	if !slices.Equal(titles, []string{"What Armée du Nord sees", "What Anglo-allied army sees"}) {
		p.fail("the views are titled %v", titles)
	}
	check := func(when string) {
		t.Helper()
		fewer := false
		for _, c := range [][2]string{{"french", "allies"}, {"allies", "french"}} {
			viewer, enemy := c[0], c[1]
			want := s.board(t, game, tok["side/"+viewer]).onMap(enemy)
			all := s.board(t, game, ump).onMap(enemy)
			p.until(when+": "+viewer+"'s view drawn as its board", fmt.Sprintf(`[...document.querySelectorAll('.side-view[data-side=%q] svg [data-unit], .side-view[data-side=%q] svg [data-general]')]
				.filter(e => e.dataset.side === %q).length === %d`, viewer, viewer, enemy, len(want)))
			if got := p.sideViewDrawn(viewer, enemy); !slices.Equal(got, want) {
				p.fail("%s: the view of %s draws the %s pieces %v; its board holds %v", when, viewer, enemy, got, want)
			}
			if own, mine := p.sideViewDrawn(viewer, viewer), s.board(t, game, tok["side/"+viewer]).onMap(viewer); !slices.Equal(own, mine) {
				p.fail("%s: the view of %s draws its own pieces %v; its board holds %v", when, viewer, own, mine)
			}
			if len(want) < len(all) {
				fewer = true
			}
		}
		if !fewer {
			p.fail("%s: no side sees fewer enemy pieces than the umpire; the fog hid nothing", when)
		}
	}
	check("at first")
	if got := p.drawn("allies"); !slices.Equal(got, umpireDrawn) {
		p.fail("the umpire's own map now draws %v, before %v", got, umpireDrawn)
	}
	// The views are the umpire's map's kind and look, without ids of its own.
	look := eval[map[string]any](p, `(() => { const a = document.querySelector('#map [data-unit][data-side="french"] .body');
		const b = document.querySelector('.side-view[data-side="french"] svg [data-unit][data-side="french"] .body');
		const r = document.querySelector('.side-view[data-side="french"] svg').getBoundingClientRect();
		return { main: getComputedStyle(a).fill, side: getComputedStyle(b).fill, ids: document.querySelectorAll('#viewport, #layer-units').length,
			w: r.width, h: r.height, tools: document.querySelectorAll('.side-view .tool, .side-view button').length }; })()`)
	if look["main"] != look["side"] || look["ids"] != float64(2) || look["tools"] != float64(0) {
		p.fail("the French view's units are filled %v (the umpire's %v), %v elements bear the map's ids, %v controls", look["side"], look["main"], look["ids"], look["tools"])
	}
	if w, _ := look["w"].(float64); w < 200 {
		p.fail("the French view is %vpx wide", w)
	}
	p.shot("sides-views")

	// An Allied unit out of the French sight set before them: the French
	// view follows.
	seen := s.board(t, game, tok["side/french"]).onMap("allies")
	hidden := ""
	for _, id := range s.board(t, game, ump).onMap("allies") {
		if !slices.Contains(seen, id) && strings.HasPrefix(id, "A-") {
			hidden = id
			break
		}
	}
	if hidden == "" {
		t.Fatalf("the French see every Allied unit: %v", seen)
	}
	s.post(t, game, ump, `{"place":{"piece":"`+hidden+`","to":[26,29],"why":"a test"}}`)
	if !slices.Contains(s.board(t, game, tok["side/french"]).onMap("allies"), hidden) {
		t.Fatalf("the French do not see %s placed before them", hidden)
	}
	p.until(hidden+" in the French view", `document.querySelector('.side-view[data-side="french"] svg [data-unit="`+hidden+`"]')`)
	check("after the placement")
	p.shot("sides-views-after")

	p.do("hide the sides' views", chromedp.Click(chromedp.ID("sides-toggle")))
	p.until("the views hidden", `document.querySelector('#sides-views').hidden`)
	p.checkConsole()
}
