package web_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// turnDemo is how TestBrowserTurn plays one demo: the side whose seat is
// opened, the commands (as the API takes them) that bring the game to a
// step it acts in, the command it then gives and takes back, and the
// piece that command moves.
type turnDemo struct {
	scenario, dice string
	side           string
	umpire         bool     // the umpire's page ends the first step (End step asks first)
	before         []string // the side's commands before the page opens
	cmd            string
	piece          string // a CSS selector of the piece moved, on the map
	both           bool   // both sides act in the step: Ready may be withdrawn
}

var turnDemos = []turnDemo{
	{scenario: "demo", side: "french", umpire: true, cmd: `{"move":{"unit":"F-I-1-a","to":[26,30]}}`, piece: `#map [data-unit="F-I-1-a"]`, both: true},
	{scenario: "bp-demo", side: "french", cmd: `{"move":{"general":"jamin-g","to":[24,38]}}`, piece: `#map [data-general="jamin-g"]`},
	{scenario: "cd-demo", dice: "table", side: "french",
		before: []string{`{"activate":{"unit":"4-leger"},"dice":[{"table":"cd/activation","for":"4-leger","faces":[6,6]}]}`},
		cmd:    `{"move":{"unit":"4-leger","to":[10,34]}}`, piece: `#map [data-unit="4-leger"]`},
	{scenario: "nes-demo", side: "french", before: []string{`{"ready":true}`}, cmd: `{"move":{"unit":"fr-13l","to":"0707"}}`, piece: `#map [data-unit="fr-13l"]`},
	{scenario: "lob-demo", side: "union", before: []string{`{"ready":true}`}, cmd: `{"move":{"unit":"28-ny","to":"1004"}}`, piece: `#map [data-unit="28-ny"]`},
}

// TestBrowserTurn: in each of the five demos, on a laptop and on a touch
// tablet (issue 36), a side moves a piece and takes it back with the
// turn bar's Take back, which names what it withdraws: the piece is back
// where it was; the waiting line names the side waited for; where both
// sides act, Ready is withdrawn (Not ready); the umpire's End step asks
// first, naming who is not ready, and the side is told the step was ended
// (in the four demos where the umpire's page does not end it).
func TestBrowserTurn(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		name  string
		w, h  int
		touch bool
	}{{"laptop", 1280, 800, false}, {"tablet", 768, 1024, true}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			// A session of each size's own: its time starts when it runs.
			ctx, s, dir := session(t)
			p := newPage(t, browser(t, ctx, size.w, size.h), "turn-"+size.name, dir)
			if size.touch {
				p.do("touch screen", chromedp.EmulateViewport(int64(size.w), int64(size.h), chromedp.EmulateTouch))
			}
			press := func(sel string) {
				t.Helper()
				if !size.touch {
					p.do("press "+sel, chromedp.Click(chromedp.CSS(sel)))
					return
				}
				p.tap(eval[[2]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, sel)))
			}
			for _, d := range turnDemos {
				made, err := s.srv.Create(ctx, server.Setup{Scenario: d.scenario, Dice: d.dice})
				if err != nil {
					t.Fatal(err)
				}
				game := &site{srv: s.srv, ts: s.ts, made: made, host: s.host}
				side, umpire := game.token(t, "side", d.side), game.token(t, "umpire", "")
				for _, c := range d.before {
					game.command(t, side, c)
				}
				if d.umpire {
					// The umpire's End step asks first, naming who is not
					// ready, and Cancel ends nothing.
					p.name = "turn-" + size.name + "-umpire"
					leave(p)
					p.open(s.ts.URL, umpire)
					step := p.text("#step")
					press("#end-step")
					p.until("the question", `!document.querySelector('#end-confirm').hidden && document.querySelector('#end-question').textContent.includes('not ready')`)
					p.shot(p.name + "-question")
					press("#end-no")
					p.until("the question gone", `document.querySelector('#end-confirm').hidden`)
					if got := p.text("#step"); got != step {
						p.fail("Cancel ended the step: %s, then %s", step, got)
					}
					press("#end-step")
					p.until("the question again", `!document.querySelector('#end-confirm').hidden`)
					press("#end-yes")
					p.until("the step ended", fmt.Sprintf(`document.querySelector('#step').textContent !== %q`, step))
					p.checkConsole()
				}
				p.name = fmt.Sprintf("turn-%s-%s", size.name, d.scenario)
				leave(p)
				p.open(s.ts.URL, side)
				p.until("the waiting line naming the side", fmt.Sprintf(`document.querySelector('#waiting-for').textContent.startsWith('Waiting for ') && document.querySelector('#waiting-for').textContent.includes(%q)`, sideNameOf(made, d.side)))
				if !eval[bool](p, `document.querySelector('#take-back').disabled`) {
					p.fail("Take back is enabled before the side has given a command")
				}
				at := centreOf(p, d.piece)
				game.command(t, side, d.cmd)
				p.until("Take back naming the command", `!document.querySelector('#take-back').disabled && document.querySelector('#take-back').textContent.startsWith('Take back: ')`)
				p.until("the piece moved", movedFrom(d.piece, at, true))
				if size.touch {
					p.shot(p.name + "-moved")
				}
				press("#take-back")
				p.until("the piece back where it was", movedFrom(d.piece, at, false))
				p.until("nothing left to take back", `document.querySelector('#take-back').disabled`)
				if d.both {
					press("#ready")
					p.until("Ready becoming Not ready", `document.querySelector('#ready').textContent === 'Not ready' && !document.querySelector('#ready').disabled`)
					press("#ready")
					p.until("Ready again", `document.querySelector('#ready').textContent === 'Ready' && !document.querySelector('#ready').disabled`)
				}
				if !d.umpire {
					// Every seat is told that the umpire ended the step.
					ended(t, p, game, umpire)
				}
				p.checkConsole()
			}
		})
	}
}

// ended has the umpire end the step (through the API) and waits for the
// side's page to tell it so.
func ended(t *testing.T, p *page, game *site, umpire string) {
	t.Helper()
	game.command(t, umpire, `{"end":true}`)
	p.until("the notice of the umpire's end", `!document.querySelector('#turn-notice').hidden && document.querySelector('#turn-notice-text').textContent.startsWith('The umpire ended the ')`)
}

// leave closes the game page the tab shows, its stream first (a
// navigation alone may leave the stream's connection open a while, and a
// browser opens only six to a host), for the tab to open another.
func leave(p *page) {
	p.t.Helper()
	p.do("leave the last game", chromedp.Evaluate[chromedp.Void](`window.stop()`), chromedp.Navigate("about:blank"))
}

// sideNameOf is a side's name in a game made.
func sideNameOf(made *server.Created, side string) string {
	for _, sd := range made.Game.Sides {
		if sd.ID == side {
			return sd.Name
		}
	}
	return side
}

// centreOf is the centre of an element on the screen.
func centreOf(p *page, sel string) [2]float64 {
	p.t.Helper()
	c := eval[[]float64](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return []; const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, sel))
	if len(c) != 2 {
		p.fail("%s is not on the map", sel)
	}
	return [2]float64{c[0], c[1]}
}

// movedFrom is a condition: the element's centre is (moved) or is not
// (back) more than a pixel from at.
func movedFrom(sel string, at [2]float64, moved bool) string {
	op := "<= 1"
	if moved {
		op = "> 1"
	}
	return fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; const r = e.getBoundingClientRect();
		return Math.hypot(r.x + r.width / 2 - %g, r.y + r.height / 2 - %g) %s; })()`, sel, at[0], at[1], op)
}
