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
	"github.com/chromedp/chromedp/kb"

	"orderly/server"
)

// Fog of war on the page: a side's map draws the enemy pieces its board
// holds and no others, each piece it has lost sight of as a ghost where it
// was last seen (state.lost), and the header says the game is played with
// fog. The page works out none of it: the server's view decides.

// fogGhost is an entry of a board's state.lost.
type fogGhost struct {
	ID   string    `json:"id"`
	Side string    `json:"side"`
	Kind string    `json:"kind"`
	At   []float64 `json:"at"`
	Turn int       `json:"turn"`
}

// fogView is what the fog tests read of a seat's board.
type fogView struct {
	Game struct {
		Fog string `json:"fog"`
	} `json:"game"`
	Names map[string]string `json:"names"`
	State struct {
		Fog      string           `json:"fog"`
		Units    []map[string]any `json:"units"`
		Generals []map[string]any `json:"generals"`
		Leaders  []map[string]any `json:"leaders"`
		Lost     []fogGhost       `json:"lost"`
	} `json:"state"`
}

// onMap lists, sorted, the ids of side's pieces the view holds on the
// table (or map): the pieces a map draws as counters.
func (v fogView) onMap(side string) []string {
	var out []string
	for _, list := range [][]map[string]any{v.State.Units, v.State.Generals, v.State.Leaders} {
		for _, p := range list {
			if p["side"] != side || p["on-table"] != true || p["gone"] == true || (p["replaced"] != nil && p["replaced"] != "") {
				continue
			}
			out = append(out, p["id"].(string))
		}
	}
	slices.Sort(out)
	return out
}

// held lists, sorted, the ids of all side's pieces the view holds, on the
// table or not.
func (v fogView) held(side string) []string {
	var out []string
	for _, list := range [][]map[string]any{v.State.Units, v.State.Generals, v.State.Leaders} {
		for _, p := range list {
			if p["side"] == side {
				out = append(out, p["id"].(string))
			}
		}
	}
	slices.Sort(out)
	return out
}

// ghost is the entry of state.lost for id.
func (v fogView) ghost(t *testing.T, id string) fogGhost {
	t.Helper()
	for _, g := range v.State.Lost {
		if g.ID == id {
			return g
		}
	}
	t.Fatalf("the board's state.lost %+v has no %s", v.State.Lost, id)
	return fogGhost{}
}

// board reads a seat's board of a game.
func (s *site) board(t *testing.T, game, token string) fogView {
	t.Helper()
	code, body := s.call(t, "GET", "/api/games/"+game+"/board", token, "")
	if code != http.StatusOK {
		t.Fatalf("board: %d %s", code, body)
	}
	var v fogView
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// post sends a command of a game as a seat and fails the test on a
// refusal.
func (s *site) post(t *testing.T, game, token, body string) {
	t.Helper()
	if code, res := s.call(t, "POST", "/api/games/"+game+"/commands", token, body); code != http.StatusOK {
		t.Fatalf("command %s: %d %s", body, code, res)
	}
}

// fogGame makes a game and returns it with its seats' tokens by
// role/side.
func fogGame(t *testing.T, ctx context.Context, s *site, setup server.Setup) (string, map[string]string) {
	t.Helper()
	made, err := s.srv.Create(ctx, setup)
	if err != nil {
		t.Fatal(err)
	}
	if made.Game.Fog != setup.Fog {
		t.Fatalf("the game's info says fog %q, want %q", made.Game.Fog, setup.Fog)
	}
	tok := map[string]string{}
	for _, st := range made.Seats {
		tok[st.Role+"/"+st.Side] = st.Token
	}
	return made.Game.ID, tok
}

// drawn lists, sorted, the ids of side's pieces the page draws as
// counters (units and generals).
func (p *page) drawn(side string) []string {
	p.t.Helper()
	ids := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('#map [data-unit], #map [data-general]')]
		.filter(e => e.dataset.side === %q).map(e => e.dataset.unit || e.dataset.general)`, side))
	slices.Sort(ids)
	return ids
}

// showsFog checks the header's fog of war chip.
func (p *page) showsFog(mode string) {
	p.t.Helper()
	p.until("the fog of war in the header", fmt.Sprintf(`(() => { const c = document.querySelector('#fog-mode');
		return c && !c.hidden && c.getClientRects().length > 0 && c.textContent === 'Fog of war: %s'; })()`, mode))
	if facts := p.text("#game-facts"); !strings.Contains(facts, "Fog of war"+mode) {
		p.fail("the game tab's facts %q do not give the fog of war %s", facts, mode)
	}
}

// ghostDrawn checks the ghost of g on the page: a faded, dashed outline
// that is not a piece, labelled with its name and the turn it was last
// seen, with a tooltip.
func (p *page) ghostDrawn(g fogGhost, name, outline string) {
	p.t.Helper()
	sel := fmt.Sprintf(`#map [data-ghost=%q]`, g.ID)
	p.until("the ghost of "+g.ID, `document.querySelector('`+sel+`')`)
	got := eval[map[string]any](p, `(() => { const g = document.querySelector('`+sel+`'); const o = g.querySelector('`+outline+`'); const cs = getComputedStyle(o);
		return { text: [...g.querySelectorAll('text')].map(x => x.textContent).join(' '), title: g.querySelector('title').textContent,
			piece: !!g.closest('[data-unit],[data-general],[data-messenger],[data-hq]'), dash: cs.strokeDasharray, fill: Number(cs.fillOpacity),
			turn: g.dataset.turn }; })()`)
	text, _ := got["text"].(string)
	if !strings.Contains(text, fmt.Sprintf("last seen T%d", g.Turn)) || !strings.Contains(text, name) {
		p.fail("the ghost of %s is labelled %q, want its name %q and last seen T%d", g.ID, text, name, g.Turn)
	}
	if title, _ := got["title"].(string); !strings.Contains(title, name) || !strings.Contains(title, fmt.Sprintf("last seen here on turn %d", g.Turn)) {
		p.fail("the ghost of %s has the tooltip %q", g.ID, title)
	}
	if got["piece"] == true {
		p.fail("the ghost of %s is drawn as a piece", g.ID)
	}
	if dash, _ := got["dash"].(string); dash == "" || dash == "none" {
		p.fail("the ghost of %s has a solid outline", g.ID)
	}
	if f, _ := got["fill"].(float64); f > 0.3 {
		p.fail("the ghost of %s is filled at opacity %g, not faded", g.ID, f)
	}
	if got["turn"] != fmt.Sprint(g.Turn) {
		p.fail("the ghost of %s says turn %v, want %d", g.ID, got["turn"], g.Turn)
	}
	if n := eval[int](p, fmt.Sprintf(`document.querySelectorAll('#map [data-unit=%q], #map [data-general=%q]').length`, g.ID, g.ID)); n != 0 {
		p.fail("%s is drawn as a counter as well as a ghost", g.ID)
	}
}

// TestBrowserFogTable plays NB's demo on a table under fog of war: the
// French map draws exactly the Allied pieces the French board holds (fewer
// than the umpire's), and the header says fog of war: on. An Allied unit
// the French saw is moved out of their sight (by the umpire, through the
// API): the French board then lists it as lost, and the map draws it as a
// ghost where it was last seen, which a tap does not select. A game
// without fog shows no fog in the header.
func TestBrowserFogTable(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	game, tok := fogGame(t, ctx, s, server.Setup{Scenario: "demo", Fog: "on"})
	b := browser(t, ctx, 1100, 800)
	fr := newPage(t, b, "fog-table-french", dir)
	fr.open(s.ts.URL, tok["side/french"])
	fr.showsFog("on")

	view := s.board(t, game, tok["side/french"])
	want, all := view.onMap("allies"), s.board(t, game, tok["umpire/"]).onMap("allies")
	if view.State.Fog != "on" || view.Game.Fog != "on" {
		t.Fatalf("the French board says fog %q (state) and %q (game), want on", view.State.Fog, view.Game.Fog)
	}
	if held := view.held("allies"); !slices.Equal(held, want) {
		t.Fatalf("the French board holds the Allied pieces %v, of which %v on the table: fog should leave out those off it", held, want)
	}
	if len(want) == 0 || len(want) >= len(all) {
		t.Fatalf("the French see %d of the %d Allied pieces on the table: the demo should hide some and show some", len(want), len(all))
	}
	if got := fr.drawn("allies"); !slices.Equal(got, want) {
		fr.fail("the French map draws the Allied pieces %v; the French board holds %v", got, want)
	}
	if n := eval[int](fr, `document.querySelectorAll('#map [data-ghost]').length`); n != len(view.State.Lost) || n != 0 {
		fr.fail("%d ghosts drawn at the start, with %d lost on the board", n, len(view.State.Lost))
	}
	const gone = "A-I-1-a"
	if !slices.Contains(want, gone) {
		t.Fatalf("the French do not see %s at the start", gone)
	}

	// The move step; the umpire takes A-I-1-a far from every French piece.
	s.post(t, game, tok["side/french"], `{"ready":true}`)
	s.post(t, game, tok["side/allies"], `{"ready":true}`)
	s.post(t, game, tok["umpire/"], `{"move":{"unit":"`+gone+`","to":[95,1],"override":"out of sight, for the test"}}`)
	view = s.board(t, game, tok["side/french"])
	g := view.ghost(t, gone)
	if g.Side != "allies" || fmt.Sprint(g.At) != "[12 13]" || g.Turn != 1 {
		t.Fatalf("the French last saw %s as %+v, want the Allies' at [12 13] on turn 1", gone, g)
	}
	if um := s.board(t, game, tok["umpire/"]); len(um.State.Lost) != 0 {
		t.Fatalf("the umpire's board lists lost pieces: %+v", um.State.Lost)
	}
	// The move is not the French's to see: no event tells their page, so
	// it is opened again to read the new board.
	fr.do("reload the page", chromedp.Reload())
	fr.until("the stream to be live", `document.querySelector('#conn').textContent === 'live' && document.querySelector('#step').textContent === 'move'`)
	name := view.Names[gone]
	if name == "" {
		name = gone
	}
	fr.ghostDrawn(g, name, ".body")
	if at := fr.pieceAt(`#map [data-ghost="` + gone + `"]`); !near(at, [2]float64{12, 13}, 0.01) {
		fr.fail("the ghost of %s is drawn at %v, want (12, 13)", gone, at)
	}
	if got, want := fr.drawn("allies"), view.onMap("allies"); !slices.Equal(got, want) {
		fr.fail("after the move the French map draws the Allied pieces %v; the French board holds %v", got, want)
	}
	fr.shot("fog-table-ghost")

	// A tap on the ghost is a tap on the table: it selects nothing, and
	// takes away the selection of a French unit.
	at := fr.screenOf(26, 32)
	fr.do("tap F-I-1-a", chromedp.MouseClickXY(at[0], at[1]))
	fr.until("its card", `!document.querySelector('#selection').hidden && /F-I-1-a/.test(document.querySelector('#selection').textContent)`)
	at = fr.screenOf(12, 13)
	fr.do("tap the ghost", chromedp.MouseClickXY(at[0], at[1]))
	fr.until("no selection", `document.querySelector('#selection').hidden && !document.querySelector('#map .selected')`)
	eval[bool](fr, fmt.Sprintf(`document.getElementById('map').dispatchEvent(new WheelEvent('wheel', {deltaY: -900, clientX: %g, clientY: %g, cancelable: true}))`, at[0], at[1]))
	fr.shot("fog-table-ghost-near")
	fr.checkConsole()

	// The demo game the site made has no fog: the header says nothing of it.
	plain := newPage(t, b, "fog-table-plain", dir)
	plain.open(s.ts.URL, s.token(t, "side", "french"))
	if eval[bool](plain, `!document.querySelector('#fog-mode').hidden || document.querySelector('#game-facts').textContent.includes('Fog')`) {
		plain.fail("a game without fog of war shows fog in the header or the game tab")
	}
	plain.checkConsole()
}

// TestBrowserFogHex plays on hex maps under fog of war. On NES's demo the
// armies start out of each other's sight: the French board holds no
// Russian piece, and the French map draws none. On a small NES map the
// Russians see some French pieces and draw exactly those; the French move
// the 13e Leger into the woods, out of the Russians' sight: the Russian
// board lists it as lost, and the Russian map draws its ghost in the hex
// it left, which a tap does not select.
func TestBrowserFogHex(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1100, 800)

	demo, tok := fogGame(t, ctx, s, server.Setup{Scenario: "nes-demo", Fog: "on"})
	view := s.board(t, demo, tok["side/french"])
	// NES's demo starts with the armies out of each other's sight: the
	// French board holds no Russian piece, and the map must draw none.
	if held := view.held("russian"); !slices.Equal(held, view.onMap("russian")) {
		t.Fatalf("the French board holds the Russian pieces %v, of which %v on the map", held, view.onMap("russian"))
	}
	if n := len(s.board(t, demo, tok["umpire/"]).onMap("russian")); n == 0 || len(view.onMap("russian")) >= n {
		t.Fatalf("the French see %d of the %d Russian pieces: fog should hide some", len(view.onMap("russian")), n)
	}
	fr := newPage(t, b, "fog-hex-french", dir)
	fr.open(s.ts.URL, tok["side/french"])
	fr.until("the hex map", `document.querySelectorAll('#map .hx-cell').length === 704`)
	fr.showsFog("on")
	if got, want := fr.drawn("russian"), view.onMap("russian"); !slices.Equal(got, want) {
		fr.fail("the French map draws the Russian pieces %v; the French board holds %v", got, want)
	}
	if got := fr.drawn("french"); !slices.Equal(got, view.onMap("french")) {
		fr.fail("the French map draws the French pieces %v; the board holds %v", got, view.onMap("french"))
	}
	fr.checkConsole()

	game, tok := fogGame(t, ctx, s, server.Setup{Source: nesSmall, File: "nes-small.yaml", Fog: "on"})
	view = s.board(t, game, tok["side/russian"])
	want, all := view.onMap("french"), s.board(t, game, tok["umpire/"]).onMap("french")
	if held := view.held("french"); !slices.Equal(held, want) {
		t.Fatalf("the Russian board holds the French pieces %v, of which %v on the map", held, want)
	}
	if len(want) == 0 || len(want) >= len(all) || !slices.Contains(want, "f13") {
		t.Fatalf("the Russians see the French pieces %v of %v: want some, f13 among them, not all", want, all)
	}
	s.post(t, game, tok["side/french"], `{"ready":true}`)
	s.post(t, game, tok["side/french"], `{"move":{"unit":"f13","to":"0604"}}`)
	view = s.board(t, game, tok["side/russian"])
	g := view.ghost(t, "f13")
	if g.Side != "french" || fmt.Sprint(g.At) != "[6 6]" || g.Turn != 1 {
		t.Fatalf("the Russians last saw f13 as %+v, want the French's at [6 6] on turn 1", g)
	}
	ru := newPage(t, b, "fog-hex-russian", dir)
	ru.open(s.ts.URL, tok["side/russian"])
	ru.until("the hex map", `document.querySelectorAll('#map .hx-cell').length === 160`)
	ru.showsFog("on")
	if got, want := ru.drawn("french"), view.onMap("french"); !slices.Equal(got, want) || slices.Contains(got, "f13") {
		ru.fail("the Russian map draws the French pieces %v; the Russian board holds %v", got, want)
	}
	name := view.Names["f13"]
	if name == "" {
		name = "f13"
	}
	ru.ghostDrawn(g, name, ".box")
	if !eval[bool](ru, `(() => { const a = document.querySelector('#map [data-ghost="f13"] .box').getBoundingClientRect(); const h = document.querySelector('#map [data-hex="0606"]').getBoundingClientRect();
		const x = a.x + a.width / 2, y = a.y + a.height / 2; return x > h.left && x < h.right && y > h.top && y < h.bottom; })()`) {
		ru.fail("the ghost of f13 is not drawn in hex 0606")
	}
	ru.shot("fog-hex-ghost")

	// A tap on the ghost is a tap on its hex: it selects nothing. (With
	// the Orel regiment selected, a tap on a hex it reaches picks that hex
	// to move to, ghost or none: so it is unselected first.)
	r1 := eval[[]float64](ru, `(() => { const r = document.querySelector('#map [data-unit="r1"] .box').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	ru.do("tap the Orel regiment", chromedp.MouseClickXY(r1[0], r1[1]))
	ru.until("r1 selected", `document.querySelector('#map [data-unit="r1"].selected')`)
	ru.do("unselect it", chromedp.KeyEvent(kb.Escape))
	ru.until("no selection", `!document.querySelector('#map .selected')`)
	at := eval[[]float64](ru, `(() => { const r = document.querySelector('#map [data-ghost="f13"] .box').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	ru.do("tap the ghost", chromedp.MouseClickXY(at[0], at[1]))
	ru.settle()
	if eval[bool](ru, `!!document.querySelector('#map .selected')`) {
		ru.fail("a tap on the ghost selected something")
	}
	eval[bool](ru, fmt.Sprintf(`document.getElementById('map').dispatchEvent(new WheelEvent('wheel', {deltaY: -900, clientX: %g, clientY: %g, cancelable: true}))`, at[0], at[1]))
	ru.shot("fog-hex-ghost-near")
	ru.checkConsole()
}

// TestBrowserFogLanding makes games from the front page's form: without
// touching the fog of war choice the game is played without it (off), and
// with Strict chosen the game's info says strict.
func TestBrowserFogLanding(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1024, 768)
	p := newPage(t, b, "fog-landing", dir)
	p.do("open the host link", chromedp.Navigate(s.ts.URL+"/#host="+s.host))
	p.until("the demo offered", `document.querySelector('#scenarios [data-scenario="demo"]') && !document.querySelector('#scenarios [data-scenario="demo"]').disabled`)
	if got := eval[[]string](p, `[...document.querySelectorAll('#fog option')].map(o => o.value + (o.selected ? '*' : ''))`); !slices.Equal(got, []string{"off*", "on", "strict"}) {
		p.fail("the fog of war choice offers %v, want off (chosen), on, strict", got)
	}
	info := func(what string) string {
		p.t.Helper()
		p.until(what+"'s links", `document.querySelectorAll('#links a.join[data-role="umpire"]').length === 1 && !document.querySelector('#created').hidden`)
		id := p.text("#created-id")
		href := eval[string](p, `document.querySelector('#links a.join[data-role="umpire"]').href`)
		code, body := s.call(t, "GET", "/api/games/"+id, href[strings.Index(href, "#")+1:], "")
		if code != http.StatusOK {
			t.Fatalf("game info: %d %s", code, body)
		}
		var g struct {
			Fog string `json:"fog"`
		}
		if err := json.Unmarshal([]byte(body), &g); err != nil {
			t.Fatal(err)
		}
		return g.Fog
	}
	p.do("make a demo game", chromedp.Click(chromedp.CSS(`#scenarios [data-scenario="demo"]`)))
	if fog := info("the plain game"); fog != "off" {
		p.fail("a game made without choosing has fog %q, want off", fog)
	}
	first := p.text("#created-id")
	p.choose("#fog", "strict")
	p.do("make a demo game under strict fog", chromedp.Click(chromedp.CSS(`#scenarios [data-scenario="demo"]`)))
	p.until("a new game", `document.querySelector('#created-id').textContent !== '`+first+`'`)
	if fog := info("the fogged game"); fog != "strict" {
		p.fail("a game made with Strict chosen has fog %q, want strict", fog)
	}
	p.shot("fog-landing")
	p.checkConsole()
}
