package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// nesSmall is an NES game on a 16 x 10 hex map: the French army
// commander's order to his corps commander (bonus 9) is received whatever
// the die (9 - 9 - 2 from the army commander's hex <= 2), a division
// already under an attack order with its brigade mobilized, and a
// Russian division across a stream.
const nesSmall = `name: nes-small
title: NES on a small map
rules: nes
turns: 4
map:
  columns: 16
  rows: 10
  terrain: |
    ................
    ................
    .....ww.........
    .....ww.........
    ................
    ..........t.....
    ................
    ........ll......
    ................
    ................
  hexsides:
    stream: 1205/1305 1206/1306 1207/1307
  roads:
    major-road: ["0105 0205 0305 0405 0505 0605 0705 0805"]
sides:
  - id: french
    name: French
    nation: french
    edge: west
    command-points: 4
    army: {id: nap, name: Napoleon, at: "0205", range: 4}
    corps:
      - id: k1
        name: I Corps
        general: {id: davout, name: Davout, at: "0405", range: 3, bonus: 9, rating: 8}
        divisions:
          - id: d1
            name: Morand
            general: {id: morand, name: Morand, at: "0506", range: 3, bonus: 1, rating: 5}
            order: attack
            brigades:
              - id: b1
                general: {id: gerard, name: Gerard, at: "0606", range: 2, bonus: 1, rating: 4}
                units:
                  - {id: f13, name: 13e Leger, type: infantry, at: "0606", strength: 6}
                  - {id: f17, name: 17e Ligne, type: infantry, at: "0607", strength: 6}
  - id: russian
    name: Russians
    nation: russian
    edge: east
    command-points: 2
    army: {id: kut, name: Kutuzov, at: "1505", range: 4}
    divisions:
      - id: rd
        name: Paskevich
        general: {id: pask, name: Paskevich, at: "1406", range: 3, bonus: 1, rating: 5}
        order: defend
        units:
          - {id: r1, name: Orel, type: infantry, at: "1406", strength: 5}
`

// TestBrowserNES plays the French command segment and movement on the hex
// map: the map is drawn from the server's terrain; the French send an
// order from Napoleon to Davout, see its exact odds (received 100%) and
// see it delivered, the order-received marker on Davout's counter, while
// the Russians' map shows Davout with no marker; in the movement phase
// the French select a unit, see the hexes it can reach shaded with their
// costs, pick a hex, see the path and its cost from the server, move, and
// the unit stands in its new hex on both sides' maps. A line of sight is
// looked along and found blocked by the woods.
func TestBrowserNES(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	made, err := s.srv.Create(ctx, server.Setup{Source: nesSmall, File: "nes-small.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	tok := map[string]string{}
	for _, st := range made.Seats {
		tok[st.Role+"/"+st.Side] = st.Token
	}
	b := browser(t, ctx, 1100, 800)
	french := newPage(t, b, "nes-french", dir)
	russian := newPage(t, b, "nes-russian", dir)
	french.open(s.ts.URL, tok["side/french"])
	russian.open(s.ts.URL, tok["side/russian"])

	french.until("the hex map", `document.querySelectorAll('#map .hx-cell').length === 160`)
	// The counters as NES's view words them (rules/common/hex-units.js): a
	// leader's letter by his role, a unit's formation shortened, and the
	// key naming the letters.
	french.until("the lettered counters", `(() => {
		const letters = [...document.querySelectorAll('#map .hx-leader text.role')].map((t) => t.textContent);
		const shapes = [...document.querySelectorAll('#map .hx-counter text.shape')].map((t) => t.textContent);
		return letters.length > 0 && letters.every((l) => /^[ACDB]$/.test(l)) && shapes.length > 0 && shapes.every((w) => ['ln', 'col', 'rd', 'GO', 'sk'].includes(w)) &&
			/A army, C corps/.test(document.querySelector('#legend').textContent);
	})()`)
	if got := eval[string](french, `document.querySelector('#map [data-hex="0603"]').dataset.terrain`); got != "woods" {
		french.fail("hex 0603 is drawn as %q, want woods", got)
	}
	if n := eval[int](french, `document.querySelectorAll('#map .hx-side[data-side="stream"]').length`); n != 3 {
		french.fail("%d stream hexsides drawn, want 3", n)
	}
	french.until("the command panel", `!document.querySelector('.tab-btn[data-tab="command"]').hidden && document.querySelector('#nes-from')`)
	french.choose("#nes-from", "nap")
	french.until("Davout offered as receiver", `document.querySelector('#nes-to option[value="davout"]')`)
	french.choose("#nes-to", "davout")
	french.until("the delivery odds", `(document.querySelector('#nes-odds tr[data-result="received"] td.num') || {}).textContent === '100.0%'`)
	french.shot("nes-orders")
	french.do("send", chromedp.Click(chromedp.CSS(`#nes-send`)))
	french.until("the order delivered", `(document.querySelector('#nes-result') || {}).textContent?.includes('received')`)
	french.until("the received marker on Davout", `document.querySelector('#map [data-general="davout"][data-marker="received"]')`)
	russian.until("Davout on the Russian map", `document.querySelector('#map [data-general="davout"]')`)
	if m := eval[string](russian, `document.querySelector('#map [data-general="davout"]').dataset.marker`); m != "" {
		russian.fail("the Russians see Davout's marker %q", m)
	}

	// A line of sight from 0403 to 0803 runs through the woods.
	french.do("the line-of-sight tool", chromedp.Click(chromedp.CSS(`[data-tool="sight"]`)))
	french.clickHex("0403")
	french.clickHex("0803")
	french.until("the line blocked", `(document.querySelector('#nes-result') || {}).textContent?.includes('blocked by woods')`)
	french.do("the tool off", chromedp.Click(chromedp.CSS(`[data-tool="sight"]`)))

	// Movement: ready through the continuation checks.
	french.do("ready", chromedp.Click(chromedp.CSS(`#ready`)))
	french.until("the movement step", `document.querySelector('#step').textContent === 'move'`)
	at := eval[[]float64](french, `(() => { const r = document.querySelector('#map [data-unit="f13"] .box').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	french.do("tap the 13e", chromedp.MouseClickXY(at[0], at[1]))
	french.until("its reach shaded", `document.querySelector('#map [data-reach="0906"]') && document.querySelector('#nes-left')`)
	french.do("choose a hex", chromedp.Click(chromedp.CSS(`#nes-pick-move`)))
	french.clickHex("0906")
	french.until("the path and its cost", `(document.querySelector('#nes-path') || {}).textContent?.includes('3 hexes for 3 MP of 6 left')`)
	french.shot("nes-move")
	french.do("move", chromedp.Click(chromedp.CSS(`#nes-move`)))
	french.until("the move made", `(document.querySelector('#nes-result') || {}).textContent?.includes('moves 3 hexes to 0906')`)

	code, body := s.call(t, "GET", "/api/games/"+made.Game.ID+"/board", tok["side/russian"], "")
	if code != 200 {
		t.Fatalf("board: %d %s", code, body)
	}
	var board struct {
		State struct {
			Units []struct {
				ID string    `json:"id"`
				At []float64 `json:"at"`
			} `json:"units"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(body), &board); err != nil {
		t.Fatal(err)
	}
	for _, u := range board.State.Units {
		if u.ID == "f13" && fmt.Sprint(u.At) != "[9 6]" {
			t.Errorf("the Russians see f13 at %v, want [9 6]", u.At)
		}
	}
	russian.until("the 13e in its new hex on the Russian map", `(() => { const u = document.querySelector('#map [data-unit="f13"] .box'); const h = document.querySelector('#map [data-hex="0906"]'); if (!u || !h) return false; const a = u.getBoundingClientRect(), b = h.getBoundingClientRect(); const x = a.x + a.width / 2, y = a.y + a.height / 2; return x > b.left && x < b.right && y > b.top && y < b.bottom; })()`)
	french.checkConsole()
	russian.checkConsole()
}

// clickHex taps the middle of a hex of the hex map.
func (p *page) clickHex(label string) {
	at := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector('#map [data-hex=%q]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, label))
	p.do("tap hex "+label, chromedp.MouseClickXY(at[0], at[1]))
}

// choose sets a select's value as a player would, with its change event.
func (p *page) choose(sel, value string) {
	if !eval[bool](p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); if (!s) return false; s.value = %q; s.dispatchEvent(new Event('change')); return s.value === %q; })()`, sel, value, value)) {
		p.fail("cannot choose %s in %s", value, sel)
	}
}

// TestNESDemoBundled: the bundled NES demo is offered on the front page's
// list and makes a game whose board carries the map's terrain for the page
// to draw: a 32 x 22 map, a letter and a level for every hex, its streams
// and roads.
func TestNESDemoBundled(t *testing.T) {
	t.Parallel()
	ctx, s, _ := session(t)
	code, body := s.call(t, "GET", "/api/scenarios", s.host, "")
	if code != 200 || !strings.Contains(body, `"nes-demo"`) {
		t.Fatalf("scenarios: %d %s", code, body)
	}
	made, err := s.srv.Create(ctx, server.Setup{Scenario: "nes-demo"})
	if err != nil {
		t.Fatal(err)
	}
	tok := ""
	for _, st := range made.Seats {
		if st.Side == "french" {
			tok = st.Token
		}
	}
	code, body = s.call(t, "GET", "/api/games/"+made.Game.ID+"/board", tok, "")
	if code != 200 {
		t.Fatalf("board: %d %s", code, body)
	}
	var b struct {
		Space struct {
			Hex struct {
				Columns, Rows int
				Terrain       struct {
					Hexes, Levels string
					Sides, Roads  []struct{ What []string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	h := b.Space.Hex
	if h.Columns != 32 || h.Rows != 22 || len(h.Terrain.Hexes) != 704 || len(h.Terrain.Levels) != 704 {
		t.Fatalf("map %d x %d, %d terrain letters, %d levels", h.Columns, h.Rows, len(h.Terrain.Hexes), len(h.Terrain.Levels))
	}
	streams := 0
	for _, sd := range h.Terrain.Sides {
		if slices.Contains(sd.What, "stream") {
			streams++
		}
	}
	if streams != 18 || len(h.Terrain.Roads) != 31+21 {
		t.Errorf("%d stream hexsides (want 18), %d road crossings (want 52)", streams, len(h.Terrain.Roads))
	}
}

// TestBrowserNESFromLanding: the host makes an NES game from the front
// page's bundled nes-demo, follows the French join link and plays: the
// hex map and the command panel come up, an order goes out and shows in
// the log, and the ready button moves the game on to the French movement.
func TestBrowserNESFromLanding(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1200, 820)
	p := newPage(t, b, "nes-landing", dir)
	p.do("open the host link", chromedp.Navigate(s.ts.URL+"/#host="+s.host))
	p.until("the NES demo offered", `document.querySelector('#scenarios [data-scenario="nes-demo"]') && !document.querySelector('#scenarios [data-scenario="nes-demo"]').disabled`)
	p.do("make an NES game", chromedp.Click(chromedp.CSS(`#scenarios [data-scenario="nes-demo"]`)))
	p.until("its join links", `[...document.querySelectorAll('#links a.join')].some(a => a.dataset.side === 'french')`)
	href := eval[string](p, `[...document.querySelectorAll('#links a.join')].find(a => a.dataset.side === 'french').href`)
	p.do("follow the French link", chromedp.Navigate(href))
	p.until("the hex map", `document.querySelectorAll('#map .hx-cell').length === 704`)
	p.until("the command panel", `document.querySelector('#nes-send')`)
	p.choose("#nes-from", "davout")
	p.choose("#nes-to", "fr-1-1-g")
	p.until("the odds", `document.querySelector('#nes-odds tr[data-result="received"]')`)
	p.do("send", chromedp.Click(chromedp.CSS(`#nes-send`)))
	p.until("the order's result", `(document.querySelector("#nes-result") || {}).textContent?.includes("Davout sends an attack order to Morand")`)
	p.do("ready", chromedp.Click(chromedp.CSS(`#ready`)))
	p.until("the French movement", `document.querySelector('#step').textContent === 'move'`)
	p.do("open the log", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="log"]`)))
	p.until("the order in the log", `document.querySelector('#log').textContent.includes('Davout sends an attack order to Morand')`)
	p.checkConsole()
}
