package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// Offer only what will be accepted, and warn before it is too late
// (issue 36, item 1), in the five demos on a laptop (1280x800) and a
// tablet held upright (768x1024, touch), one page per size:
//   - NB: the French are told their orders left this turn (3 of 3) beside
//     the order form; in the move step an attacking unit's card offers
//     column and march column, never line (NB-7), reached by tapping the
//     warning that names it; a unit moved out of its general's range is
//     warned of before Ready (NB-12), and the warning goes once it is back;
//   - CD and LOB: the seat whose turn it is not is offered no roll nor any
//     command, and is told why;
//   - BP: a unit whose order failed is offered no move (the map drags only
//     what is offered; the drag itself is the map's test);
//   - NES: the command points left are shown beside the command panel.
//
// Screenshots: offers36-WxH-RULES.png.
func TestBrowserOffers36(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	s := shared.server(t)
	dir := artifacts(t)
	create := func(sc, dice string) *server.Created {
		t.Helper()
		m, err := s.srv.Create(ctx, server.Setup{Scenario: sc, Dice: dice, ExampleTables: sc == "lob-demo"})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tok := func(m *server.Created, side string) string {
		t.Helper()
		for _, st := range m.Seats {
			if st.Side == side && (side != "" || st.Role == "umpire") {
				return st.Token
			}
		}
		t.Fatalf("no seat for %q in %s", side, m.Game.ID)
		return ""
	}
	cd, nes, lob := create("cd-demo", ""), create("nes-demo", ""), create("lob-demo", "")
	for _, sz := range []readableSize{{1280, 800, false}, {768, 1024, true}} {
		size := fmt.Sprintf("%dx%d", sz.w, sz.h)
		b := browser(t, ctx, sz.w, sz.h)
		p := newPage(t, b, "offers36-"+size, dir)
		if sz.touch {
			p.do("touch", chromedp.EmulateViewport(int64(sz.w), int64(sz.h), chromedp.EmulateTouch))
		}

		// NB: orders left in the write step.
		nb := create("demo", "")
		g := &site{srv: s.srv, ts: s.ts, made: nb, host: s.host}
		fr, al := tok(nb, "french"), tok(nb, "allies")
		p.reopen(s.ts.URL, fr)
		p.until("the orders left shown", `(() => { const a = document.querySelector('#advice'); return a && !a.hidden && /3 of 3 orders left to write this turn/.test(a.textContent); })()`)
		p.until("the order form's count", `/3 of 3 orders left to write this turn \(NB-2\)/.test(document.querySelector('#order-status').textContent)`)
		p.shot("offers36-" + size + "-nb-write")
		g.command(t, fr, `{"ready":true}`)
		g.command(t, al, `{"ready":true}`)
		p.until("the move step", `document.querySelector('#step').textContent === 'move'`)
		// The attack order's warnings name their pieces: a tap selects one.
		p.until("F-I-1-a warned of", `document.querySelector('#advice li.warning[data-piece="F-I-1-a"][data-rule="NB-7"] button')`)
		p.press(`#advice li.warning[data-piece="F-I-1-a"] button`, sz.touch)
		p.until("F-I-1-a's card with its formations", `document.querySelector('#selection select[aria-label="Formation"]') && /F-I-1-a/.test(document.querySelector('#selection').textContent)`)
		if opts := eval[[]string](p, `[...document.querySelectorAll('#selection select[aria-label="Formation"] option')].map((o) => o.value)`); slices.Contains(opts, "line") || !slices.Contains(opts, "march-column") {
			p.fail("under an attack order F-I-1-a is offered the formations %v; want column and march column, not line (NB-7)", opts)
		}
		// Out of range and back (Simmer at (58, 33), range 4).
		const warned = `#advice li.warning[data-rule="NB-12"][data-piece="F-VI-19-a"]`
		g.command(t, fr, `{"move":{"unit":"F-VI-19-a","to":[52,32]}}`)
		p.until("the range warning before Ready", `document.querySelector('`+warned+`') && /Simmer/.test(document.querySelector('`+warned+`').textContent)`)
		p.shot("offers36-" + size + "-nb-move")
		g.command(t, fr, `{"move":{"unit":"F-VI-19-a","to":[56,32]}}`)
		p.until("the range warning gone", `!document.querySelector('`+warned+`') && document.querySelector('#advice li.warning')`)

		// CD: the Austrians wait while the French activate.
		p.reopen(s.ts.URL, tok(cd, "austrian"))
		p.until("the waiting seat told why", `document.querySelector('#cd-waiting')`)
		if n := eval[int](p, `[...document.querySelectorAll('button')].filter((b) => /Roll to activate/.test(b.textContent)).length`); n != 0 {
			p.fail("the seat whose turn it is not has %d Roll to activate buttons", n)
		}
		if o := boardOf(t, s, cd.Game.ID, tok(cd, "austrian")).Offers; len(o) != 0 {
			p.fail("the seat whose turn it is not is offered %v", o)
		}
		p.shot("offers36-" + size + "-cd")

		// LOB: the confederates wait while the union gives its orders.
		p.reopen(s.ts.URL, tok(lob, "confederate"))
		p.until("the waiting seat told why", `document.querySelector('#lob-waiting')`)
		if n := eval[int](p, `document.querySelectorAll('#command-panel button[data-cmd], #command-panel .btn.primary').length`); n != 0 {
			p.fail("the seat whose turn it is not is shown %d command buttons", n)
		}
		p.shot("offers36-" + size + "-lob")

		// NES: the command points left beside the command panel.
		p.reopen(s.ts.URL, tok(nes, "french"))
		p.until("the command points left", `(() => { const a = document.querySelector('#advice'); return a && !a.hidden && /of \d+ command points this turn/.test(a.textContent); })()`)
		p.shot("offers36-" + size + "-nes")

		// BP: an order that fails (11 against Jamin's staff) leaves its
		// unit no move to make.
		bp := create("bp-demo", "table")
		bg := &site{srv: s.srv, ts: s.ts, made: bp, host: s.host}
		bfr := tok(bp, "french")
		bg.command(t, bfr, `{"order":{"brigade":"jamin","units":["1-leger"],"kind":"advance"},"dice":[{"table":"bp/command","for":"jamin-g","faces":[5,6]}]}`)
		if o := boardOf(t, s, bp.Game.ID, bfr).Offers["1-leger"]; slices.Contains(o, "move") {
			p.fail("1-leger, whose order failed, is offered %v", o)
		}
		p.reopen(s.ts.URL, bfr)
		p.until("the failed order in the log", `/fails/.test(document.querySelector('#log').textContent)`)
		p.shot("offers36-" + size + "-bp")
		p.checkConsole()
	}
}

// reopen opens another game's page in the same tab: a page of its own,
// not a change of the address's fragment.
func (p *page) reopen(base, token string) {
	p.t.Helper()
	p.do("leave the page", chromedp.Navigate("about:blank"))
	p.open(base, token)
}

// press taps (on a desk, clicks) the element sel, brought into view.
func (p *page) press(sel string, touch bool) {
	p.t.Helper()
	if !touch {
		p.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
		return
	}
	at := eval[[]float64](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({ block: 'center' });
		const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	p.tap([2]float64{at[0], at[1]})
}

// offered is the part of a seat's board this file reads.
type offered struct {
	Offers map[string][]string `json:"offers"`
}

// boardOf is game id's board for the seat of token.
func boardOf(t *testing.T, s *site, id, token string) offered {
	t.Helper()
	code, body := s.call(t, "GET", "/api/games/"+id+"/board", token, "")
	if code != http.StatusOK {
		t.Fatalf("board of %s: %d %s", id, code, body)
	}
	var b offered
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	return b
}
