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
)

// tableNeed is the need of an API error of code dice.
type tableNeed struct {
	Table string `json:"table"`
	For   string `json:"for"`
	Dice  string `json:"dice"`
	Sides int    `json:"sides"`
	Low   int    `json:"low"`
	Given int    `json:"given"`
	More  int    `json:"more"`
	Title string `json:"title"`
	Name  string `json:"name"`
}

// seatInfo reads the game's info as a seat: its version, step and dice.
func (s *site) seatInfo(t *testing.T, token string) (version int, step, dice string) {
	t.Helper()
	code, body := s.call(t, "GET", "/api/seat", token, "")
	if code != http.StatusOK {
		t.Fatalf("seat: %d %s", code, body)
	}
	var g struct {
		Version int    `json:"version"`
		Turn    int    `json:"turn"`
		Step    string `json:"step"`
		Dice    string `json:"dice"`
	}
	if err := json.Unmarshal([]byte(body), &g); err != nil {
		t.Fatal(err)
	}
	return g.Version, fmt.Sprintf("%d %s", g.Turn, g.Step), g.Dice
}

// TestBrowserTableDice: the front page's Dice choice makes a game whose
// dice are thrown at the table (and table dice under fog are refused with
// the server's sentence); on that game (the NES demo, whose first step
// rolls for every commander's command state) the umpire's End asks for
// each roll in a picker that names it as the server does and offers the
// die's faces; Cancel sends nothing (the game's version stays); the faces
// tapped (and one typed) go to the server, the log says the rolls were
// thrown at the table, and the events record exactly those faces. The
// picker asks for each die of a roll of several, and a pool asked stage
// by stage gets its faces appended to the dice given before.
func TestBrowserTableDice(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1100, 800)

	// The front page: the Dice choice, refused under fog, sent as dice.
	home := newPage(t, b, "dice-landing", dir)
	home.do("open the host link", chromedp.Navigate(s.ts.URL+"/#host="+s.host))
	home.until("the NES demo offered", `document.querySelector('#scenarios [data-scenario="nes-demo"]') && !document.querySelector('#scenarios [data-scenario="nes-demo"]').disabled`)
	if got := eval[[]string](home, `[...document.querySelectorAll('#dice option')].map(o => o.value + (o.selected ? '*' : ''))`); !slices.Equal(got, []string{"server*", "table", "mixed"}) {
		home.fail("the dice choice offers %v, want server (chosen), table, mixed", got)
	}
	home.choose("#fog", "on")
	home.choose("#dice", "table")
	home.do("make a game with table dice under fog", chromedp.Click(chromedp.CSS(`#scenarios [data-scenario="nes-demo"]`)))
	home.until("the server's refusal", `!document.querySelector('#banner').hidden && /dice table and fog on do not go together/.test(document.querySelector('#banner').textContent)`)
	if !eval[bool](home, `document.querySelector('#created').hidden`) {
		home.fail("a game was shown as made though the server refused it")
	}
	home.choose("#fog", "off")
	home.do("make a game with table dice", chromedp.Click(chromedp.CSS(`#scenarios [data-scenario="nes-demo"]`)))
	home.until("its links", `!document.querySelector('#created').hidden && document.querySelectorAll('#links a.join[data-role="umpire"]').length === 1`)
	game := home.text("#created-id")
	href := eval[string](home, `document.querySelector('#links a.join[data-role="umpire"]').href`)
	umpire := href[strings.Index(href, "#")+1:]
	version, step, dice := s.seatInfo(t, umpire)
	if dice != "table" {
		home.fail("the game made with Table chosen has dice %q", dice)
	}
	home.checkConsole()

	// What the server asks for first (a refused end changes nothing).
	code, body := s.call(t, "POST", "/api/games/"+game+"/commands", umpire, `{"end":true}`)
	var refused struct {
		Error struct {
			Code string    `json:"code"`
			Need tableNeed `json:"need"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &refused); err != nil || code != 422 || refused.Error.Code != "dice" {
		t.Fatalf("end in the table dice game: %d %s", code, body)
	}
	first := refused.Error.Need

	p := newPage(t, b, "dice-umpire", dir)
	p.open(s.ts.URL, umpire)
	p.until("the dice chip", `(() => { const c = document.querySelector('#dice-mode'); return c && !c.hidden && c.getClientRects().length > 0 && c.textContent === 'Table dice' && /thrown at the table/.test(c.title); })()`)
	if facts := p.text("#game-facts"); !strings.Contains(facts, "Dicetable") {
		p.fail("the game facts %q do not say the dice are thrown at the table", facts)
	}

	// Cancel: nothing is sent, the game stays where it was.
	p.do("end the step", chromedp.WaitEnabled(chromedp.ID("end-step")), chromedp.Click(chromedp.ID("end-step")),
		chromedp.WaitVisible(chromedp.ID("end-yes")), chromedp.Click(chromedp.ID("end-yes")))
	p.until("the dice picker", `document.querySelector('dialog.dice-picker[open]')`)
	picker := eval[map[string]any](p, `(() => { const d = document.querySelector('dialog.dice-picker[open]');
		return { title: d.querySelector('h3').textContent, table: d.dataset.table, for: d.dataset.for,
			rows: [...d.querySelectorAll('.dice-row')].map(r => [...r.querySelectorAll('button.dice-face')].map(b => Number(b.dataset.face))),
			ok: d.querySelector('[data-dice="ok"]').disabled,
			small: [...d.querySelectorAll('button')].filter(b => { const r = b.getBoundingClientRect(); return r.width < 44 || r.height < 44; }).map(b => b.textContent) }; })()`)
	want := fmt.Sprintf("Throw %s for %s — %s", first.Dice, first.Name, first.Title)
	if picker["title"] != want || picker["table"] != first.Table || picker["for"] != first.For {
		p.fail("the picker says %q for %v/%v, want %q for %s/%s", picker["title"], picker["table"], picker["for"], want, first.Table, first.For)
	}
	rows, _ := picker["rows"].([]any)
	if len(rows) != first.More {
		p.fail("the picker has %d rows of faces for %d dice", len(rows), first.More)
	}
	for _, r := range rows {
		faces, _ := r.([]any)
		if len(faces) != first.Sides || faces[0] != float64(first.Low) || faces[len(faces)-1] != float64(first.Low+first.Sides-1) {
			p.fail("a row offers the faces %v; want %d faces from %d", faces, first.Sides, first.Low)
		}
	}
	if picker["ok"] != true {
		p.fail("OK is enabled before a face is chosen")
	}
	if small, _ := picker["small"].([]any); len(small) > 0 {
		p.fail("buttons smaller than 44px in the picker: %v", small)
	}
	p.shot("dice-picker")
	p.do("cancel", chromedp.Click(chromedp.CSS(`dialog.dice-picker [data-dice="cancel"]`)))
	p.until("the picker gone and the banner", `!document.querySelector('dialog.dice-picker') && !document.querySelector('#banner').hidden && /not sent/.test(document.querySelector('#banner').textContent)`)
	if v, st, _ := s.seatInfo(t, umpire); v != version || st != step {
		p.fail("cancelling the dice moved the game from version %d (%s) to %d (%s)", version, step, v, st)
	}

	// Throw: tap each roll's faces (one typed on the keyboard), until the
	// step ends.
	thrown := map[string][]int{}
	p.do("end the step again", chromedp.WaitEnabled(chromedp.ID("end-step")), chromedp.Click(chromedp.ID("end-step")),
		chromedp.WaitVisible(chromedp.ID("end-yes")), chromedp.Click(chromedp.ID("end-yes")))
	for i := 0; ; i++ {
		if i == 20 {
			p.fail("the server asked for dice more than 20 times")
		}
		p.until("a picker or the next step", `document.querySelector('dialog.dice-picker[open]') || document.querySelector('#turn').textContent + ' ' + document.querySelector('#step').textContent !== '`+step+`'`)
		if !eval[bool](p, `!!document.querySelector('dialog.dice-picker[open]')`) {
			break
		}
		need := eval[tableNeed](p, `(() => { const d = document.querySelector('dialog.dice-picker[open]');
			const rows = [...d.querySelectorAll('.dice-row')]; const faces = [...rows[0].querySelectorAll('button.dice-face')].map(b => Number(b.dataset.face));
			return { table: d.dataset.table, for: d.dataset.for, more: rows.length, sides: faces.length, low: faces[0] }; })()`)
		var faces []int
		for d := 0; d < need.More; d++ {
			f := need.Low + (i*3+d*5+1)%need.Sides
			faces = append(faces, f)
			if i == 1 && need.Sides <= 10 && f < 10 {
				// typed as a player at a keyboard would
				p.do("type a face", chromedp.KeyEvent(fmt.Sprint(f)))
			} else {
				p.do("tap a face", chromedp.Click(chromedp.CSS(fmt.Sprintf(`dialog.dice-picker .dice-row[data-die="%d"] button[data-face="%d"]`, d, f))))
			}
		}
		p.until("the faces chosen", fmt.Sprintf(`(() => { const d = document.querySelector('dialog.dice-picker[open]');
			return !d.querySelector('[data-dice="ok"]').disabled && [...d.querySelectorAll('button.dice-face[aria-pressed="true"]')].map(b => Number(b.dataset.face)).join() === %q; })()`, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(faces)), ","), "[]")))
		thrown[need.Table+" "+need.For] = faces
		p.do("OK", chromedp.Click(chromedp.CSS(`dialog.dice-picker [data-dice="ok"]`)))
	}
	if len(thrown) < 2 {
		p.fail("the server asked for %d rolls; the test wants several", len(thrown))
	}
	p.until("the log to show the rolls at the table", `[...document.querySelectorAll('#log li dl.roll')].some(dl => /at the table/.test(dl.textContent))`)
	p.shot("dice-thrown")

	// The events record exactly the faces tapped, each from the table.
	code, body = s.call(t, "GET", "/api/games/"+game+"/events?since=0", umpire, "")
	if code != http.StatusOK {
		t.Fatalf("events: %d %s", code, body)
	}
	var evs struct {
		Events []struct {
			Seq   int `json:"seq"`
			Rolls []struct {
				Table   string `json:"table"`
				Subject string `json:"subject"`
				Faces   []int  `json:"faces"`
				From    string `json:"from"`
			} `json:"rolls"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(body), &evs); err != nil {
		t.Fatal(err)
	}
	got := map[string][]int{}
	for _, e := range evs.Events {
		for _, r := range e.Rolls {
			if r.From != "table" {
				t.Errorf("event %d: the %s roll for %s is not from the table (from %q)", e.Seq, r.Table, r.Subject, r.From)
			}
			got[r.Table+" "+r.Subject] = r.Faces
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(thrown) {
		t.Errorf("the events record the faces %v; the page was given %v", got, thrown)
	}
	if v, _, _ := s.seatInfo(t, umpire); v <= version {
		p.fail("the game's version is still %d after the dice were given", v)
	}

	// A roll of two dice: a row each, OK only once both have a face; a
	// pool asked stage by stage gets its faces appended to the entry given
	// before; Cancel rejects quietly.
	res := evalAwait[map[string]any](p, `(async () => {
		const m = await import('/js/tabledice.js');
		const need = { table: 'x/pool', for: 'u1', dice: '2d6', sides: 6, low: 1, given: 0, more: 2, title: 'A pool', name: 'Unit 1' };
		const two = m.pickDice(need);
		await new Promise(r => setTimeout(r, 50));
		const d = document.querySelector('dialog.dice-picker[open]');
		const rows = d.querySelectorAll('.dice-row').length;
		d.querySelector('.dice-row[data-die="0"] button[data-face="3"]').click();
		const half = d.querySelector('[data-dice="ok"]').disabled;
		d.querySelector('.dice-row[data-die="1"] button[data-face="5"]').click();
		d.querySelector('[data-dice="ok"]').click();
		const faces = await two;
		const sent = [];
		let asked = 0;
		const send = async (c) => {
			sent.push(JSON.stringify(c));
			if (asked === 0) { asked++; throw { code: 'dice', need }; }
			if (asked === 1) { asked++; throw { code: 'dice', need: { ...need, given: 2, more: 1, dice: '1d6' } }; }
			return 'done';
		};
		const picks = [[2, 6], [4]];
		const out = await m.withTableDice(send, { fire: 'u1' }, async () => picks.shift());
		let cancelled = '';
		const c = m.pickDice(need);
		await new Promise(r => setTimeout(r, 50));
		document.querySelector('dialog.dice-picker [data-dice="cancel"]').click();
		try { await c; } catch (e) { cancelled = e.code; }
		return { rows, half, faces, out, sent, cancelled, left: document.querySelectorAll('dialog.dice-picker').length };
	})()`)
	if res["rows"] != float64(2) || res["half"] != true || fmt.Sprint(res["faces"]) != "[3 5]" {
		p.fail("a 2d6 roll: %v rows, OK disabled with one face %v, faces %v; want 2, true, [3 5]", res["rows"], res["half"], res["faces"])
	}
	wantSent := []string{`{"fire":"u1"}`, `{"fire":"u1","dice":[{"table":"x/pool","for":"u1","faces":[2,6]}]}`, `{"fire":"u1","dice":[{"table":"x/pool","for":"u1","faces":[2,6,4]}]}`}
	if res["out"] != "done" || fmt.Sprint(res["sent"]) != fmt.Sprint(wantSent) {
		p.fail("a pool asked stage by stage sent %v (answer %v), want %v", res["sent"], res["out"], wantSent)
	}
	if res["cancelled"] != "cancelled" || res["left"] != float64(0) {
		p.fail("cancel rejected with %v and left %v pickers", res["cancelled"], res["left"])
	}
	p.checkConsole()
}

// evalAwait evaluates a JavaScript expression whose value is a promise,
// and waits for it.
func evalAwait[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("evaluate %s: %v", expr, err)
	}
	return v
}
