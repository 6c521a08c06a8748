package web_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// bpDuel is a staff-rating game of one unit a side, 9" apart, each in the
// other's front arc and range.
const bpDuel = `name: bp-duel
title: BP duel
rules: bp
turns: 4
field: {width: 72, depth: 48}
sides:
  - id: french
    name: French
    nation: french
    edge: south
    army: {id: fa, name: Reille, at: [36, 46]}
    brigades:
      - id: fb
        name: Brigade Jamin
        general: {id: fg, name: Jamin, staff: 8, at: [36, 32]}
        units:
          - {id: f1, name: 1er Léger, type: infantry, formation: line, at: [36, 25], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
  - id: british
    name: British
    nation: british
    edge: north
    army: {id: ba, name: Wellington, at: [36, 2]}
    brigades:
      - id: bb
        name: Maitland
        general: {id: bg, name: Maitland, staff: 8, at: [36, 8]}
        units:
          - {id: b1, name: 2/1st Guards, type: infantry, formation: line, at: [36, 16], facing: 180, shooting: 3, combat: 6, morale: 3, stamina: 3}
`

// bpGame makes a game of bpDuel on the site and returns it with its seats'
// tokens by "role/side" ("umpire/" for the umpire).
func bpGame(t *testing.T, ctx context.Context, s *site) (*server.Created, map[string]string) {
	t.Helper()
	made, err := s.srv.Create(ctx, server.Setup{Source: bpDuel, File: "bp-duel.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	tok := map[string]string{}
	for _, st := range made.Seats {
		tok[st.Role+"/"+st.Side] = st.Token
	}
	return made, tok
}

// TestBrowserBP plays a BP command phase and a volley on two seats: the
// French pick a brigade, a unit and an order, see the exact odds of the
// command roll (staff rating 8: one move 30.6%, two 13.9%, three 27.8%,
// SPEC BP-1), roll, and the British see the order in their log; in the
// shooting phase the French see their legal target marked on the map and
// the odds of the volley, fire, and the British see the casualties on
// their map as the server counts them.
func TestBrowserBP(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	made, tok := bpGame(t, ctx, s)
	b := browser(t, ctx, 1024, 768)
	french := newPage(t, b, "bp-french", dir)
	british := newPage(t, b, "bp-british", dir)
	umpire := newPage(t, b, "bp-umpire", dir)
	french.open(s.ts.URL, tok["side/french"])
	british.open(s.ts.URL, tok["side/british"])
	umpire.open(s.ts.URL, tok["umpire/"])
	// The umpire, who may play both sides at one table, is offered the
	// acting side's orders; the British, who do not act, none.
	umpire.until("the umpire's command tab with the French brigade", `!document.querySelector('.tab-btn[data-tab="command"]').hidden && document.querySelector('#bp-brigade option[value="fb"]')`)
	british.until("the British told why they wait", `document.querySelector('#command-panel #bp-waiting')`)
	if eval[bool](british, `!!document.querySelector('#bp-brigade')`) {
		british.fail("the British, who do not act in the French command phase, are offered an order")
	}

	// The command panel replaces written orders.
	french.until("the command tab", `!document.querySelector('.tab-btn[data-tab="command"]').hidden && document.querySelector('.tab-btn[data-tab="orders"]').hidden`)
	french.until("the brigade to order", `document.querySelector('#bp-brigade option[value="fb"]')`)
	french.do("pick f1", chromedp.Click(chromedp.CSS(`#command-panel input[data-unit="f1"]`)))
	french.until("the odds of the command roll", `[...document.querySelectorAll('#bp-odds tr')].some(tr => tr.textContent.includes('moves-1'))`)
	odds := eval[map[string]string](french, `Object.fromEntries([...document.querySelectorAll('#bp-odds tr')].map(tr => [tr.cells[0].textContent, tr.cells[1].textContent]))`)
	for k, want := range map[string]string{"moves-1": "30.6%", "moves-2": "13.9%", "moves-3": "27.8%", "blunder": "2.8%"} {
		if odds[k] != want {
			french.fail("the odds of %s are %q, want %q (all: %v)", k, odds[k], want, odds)
		}
	}
	french.do("roll for the order", chromedp.Click(chromedp.CSS(`#bp-roll`)))
	french.until("the result of the roll", `(document.querySelector('#bp-result') || {}).textContent?.includes('orders 1er Léger to advance')`)
	result := french.text("#bp-result")
	british.do("open the log", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="log"]`)))
	british.until("the French order in the British log", `document.querySelector('#log').textContent.includes('orders 1er Léger to advance')`)

	// The shooting phase: the French end their command phase.
	french.until("the ready button", `!document.querySelector('#ready').disabled`)
	french.do("ready", chromedp.Click(chromedp.CSS(`#ready`)))
	french.until("the shooting step", `document.querySelector('#step').textContent === 'shoot' && document.querySelector('#bp-shooter')`)
	french.until("the legal target offered", `document.querySelector('#command-panel [data-target="b1"]')`)
	french.until("the legal target marked on the map", `document.querySelector('#map [data-unit="b1"].target')`)
	french.until("the odds of the volley", `[...document.querySelectorAll('#bp-odds tr')].some(tr => tr.textContent.includes('casualties-0')) && document.querySelector('#bp-odds').textContent.includes('shaken')`)
	french.shot("bp-shooting")
	french.do("fire", chromedp.Click(chromedp.CSS(`#bp-fire`)))
	french.until("the volley's result", `(document.querySelector('#bp-result') || {}).textContent?.includes('shoots at 2/1st Guards')`)

	// The British map shows b1's casualties as the server counts them.
	code, body := s.call(t, "GET", "/api/games/"+made.Game.ID+"/board", tok["side/british"], "")
	if code != 200 {
		t.Fatalf("board: %d %s", code, body)
	}
	var board struct {
		State struct {
			Units []struct {
				ID         string `json:"id"`
				Casualties int    `json:"casualties"`
				Stamina    int    `json:"stamina"`
			} `json:"units"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(body), &board); err != nil {
		t.Fatal(err)
	}
	want := ""
	for _, u := range board.State.Units {
		if u.ID == "b1" {
			want = strconv.Itoa(u.Casualties) + "/" + strconv.Itoa(u.Stamina)
		}
	}
	british.until("b1's casualties on the British map", `document.querySelector('#map [data-unit="b1"] .lbl-cas').textContent === '`+want+`'`)
	british.shot("bp-british")
	t.Logf("order: %s; b1 casualties %s", result, want)
	french.checkConsole()
	british.checkConsole()
	umpire.checkConsole()
}

// TestBrowserBPCharge plays a charge and its combat on two seats: the
// French unit, 9" from the British, moves on its initiative (no roll),
// the French select it on the map and charge; the British page offers the
// replies the rules allow (an infantry unit may not evade infantry) and
// stands; in the French combat phase the combat's odds are shown and it
// is fought, and both logs show it.
func TestBrowserBPCharge(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	_, tok := bpGame(t, ctx, s)
	b := browser(t, ctx, 1024, 768)
	french := newPage(t, b, "bp-charge-french", dir)
	british := newPage(t, b, "bp-charge-british", dir)
	french.open(s.ts.URL, tok["side/french"])
	british.open(s.ts.URL, tok["side/british"])

	french.until("the initiative move offered", `document.querySelector('#command-panel [data-initiative="f1"]')`)
	french.do("move f1 on its initiative", chromedp.Click(chromedp.CSS(`#command-panel [data-initiative="f1"]`)))
	french.until("the initiative taken", `(document.querySelector('#bp-result') || {}).textContent?.includes('own initiative')`)
	// f1's front edge is at y=25, its body behind it: tap the body.
	french.clickMap(36, 25.8)
	french.until("the charge offered", `document.querySelector('#command-panel [data-charge="b1"]')`)
	french.do("charge b1", chromedp.Click(chromedp.CSS(`#command-panel [data-charge="b1"]`)))
	french.until("the charge made", `(document.querySelector('#bp-result') || {}).textContent?.includes('charges 2/1st Guards')`)

	british.until("the replies offered", `document.querySelector('#command-panel [data-reply="stand"]')`)
	replies := eval[[]string](british, `[...document.querySelectorAll('#command-panel [data-reply]')].map(b => b.dataset.reply)`)
	if slices.Contains(replies, "evade") || slices.Contains(replies, "counter-charge") || slices.Contains(replies, "turn-and-face") {
		british.fail("infantry charged by infantry is offered %v; it may only stand or give closing fire", replies)
	}
	british.do("stand", chromedp.Click(chromedp.CSS(`#command-panel [data-reply="stand"]`)))
	british.until("the stand recorded", `(document.querySelector('#bp-result') || {}).textContent?.includes('stand')`)

	// The French end their command and shooting phases: f1 is in combat.
	french.until("the command phase back", `document.querySelector('#step').textContent === 'orders'`)
	// A click on Ready before the page has the step's commands (the
	// button disabled) would be lost: wait for it each time.
	french.until("the ready button", `!document.querySelector('#ready').disabled`)
	french.do("end the command phase", chromedp.Click(chromedp.ID("ready")))
	french.until("the shooting step", `document.querySelector('#step').textContent === 'shoot' && !document.querySelector('#ready').disabled`)
	french.do("end the shooting phase", chromedp.Click(chromedp.ID("ready")))
	french.until("the combat offered with its odds", `document.querySelector('#command-panel [data-fight="f1"]') && [...document.querySelectorAll('#command-panel [data-fight="f1"] tr')].some(tr => tr.textContent.includes('casualties-0'))`)
	french.shot("bp-combat")
	french.do("fight", chromedp.Click(chromedp.CSS(`#command-panel [data-fight="f1"] button`)))
	french.until("the combat's result", `(document.querySelector('#bp-result') || {}).textContent?.includes('Combat:')`)
	british.do("open the log", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="log"]`)))
	british.until("the combat in the British log", `document.querySelector('#log').textContent.includes('Combat:')`)
	french.checkConsole()
	british.checkConsole()
}
