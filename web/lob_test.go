package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// lobGame makes a game of the bundled LOB demo (played on the example
// tables it comes with) and returns its id and its seats' tokens by
// side, the umpire's under "umpire".
func lobGame(t *testing.T, ctx context.Context, s *site) (string, map[string]string) {
	t.Helper()
	made, err := s.srv.Create(ctx, server.Setup{Scenario: "lob-demo"})
	if err != nil {
		t.Fatal(err)
	}
	tok := map[string]string{}
	for _, st := range made.Seats {
		if st.Role == "umpire" {
			tok["umpire"] = st.Token
		} else {
			tok[st.Side] = st.Token
		}
	}
	return made.Game.ID, tok
}

// standing is where a game stands, as a seat's API answer says.
type standing struct {
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	Phase   string `json:"phase"`
	Step    string `json:"step"`
	Over    bool   `json:"over"`
}

func (s *site) standing(t *testing.T, game, token string) standing {
	t.Helper()
	code, body := s.call(t, "GET", "/api/games/"+game, token, "")
	if code != 200 {
		t.Fatalf("game %s: %d %s", game, code, body)
	}
	var st standing
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// send gives a command to a game as a seat, through the HTTP API, and
// returns the summaries of the events it made.
func (s *site) send(t *testing.T, game, token, body string) string {
	t.Helper()
	code, out := s.call(t, "POST", "/api/games/"+game+"/commands", token, body)
	if code != 200 {
		t.Fatalf("command %s: %d %s", body, code, out)
	}
	var res struct {
		Events []struct{ Summary string } `json:"events"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var sums []string
	for _, e := range res.Events {
		sums = append(sums, e.Summary)
	}
	return strings.Join(sums, " ")
}

// shows waits until the page shows the step the game stands in.
func (p *page) shows(st standing) {
	p.t.Helper()
	p.until(fmt.Sprintf("turn %d, %s, %s step on the page", st.Turn, st.Phase, st.Step), fmt.Sprintf(
		`document.querySelector('#turn').textContent === '%d' && document.querySelector('#phase').textContent === %q && document.querySelector('#step').textContent === %q`,
		st.Turn, st.Phase, st.Step))
}

// lobStep ends the step an LOB game stands in: a side's own step from
// its page (Ready) when pages has one for it, else through the API; and
// returns where the game stands next.
func lobStep(t *testing.T, s *site, game string, tok map[string]string, pages map[string]*page) standing {
	t.Helper()
	st := s.standing(t, game, tok["umpire"])
	side, _, _ := strings.Cut(st.Phase, "-")
	if p := pages[side]; p != nil {
		p.shows(st)
		p.until("the ready button", `!document.querySelector('#ready').disabled`)
		p.do("ready", chromedp.Click(chromedp.CSS(`#ready`)))
	} else {
		s.send(t, game, tok[side], `{"ready": true}`)
	}
	for end := time.Now().Add(wait); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if next := s.standing(t, game, tok["umpire"]); next.Version != st.Version {
			return next
		}
	}
	t.Fatalf("the %s step of turn %d did not end", st.Step, st.Turn)
	return st
}

// TestBrowserLOBOrder plays an order's life on the page. The Union's army
// commander, Pope, orders II Corps to move to 1008: the panel shows the
// exact odds of his command roll (1d6 + 2, issued on 6 or more: 1/2 with
// the example tables) and the note of its delivery (3 hexes, within his
// radius, two turns while he is unaware: turn 3) before the order is
// given. A roll that fails is tried again in a new game. The order then
// shows as issued in the panel's list, in the order of battle and as an
// objective on the map; the Union ends its steps from the page and the
// Confederates through the API, and on turn 2 the order is in delivery,
// with the odds of II Corps' acceptance roll to come (Banks 1d6 + 3:
// 2/3). Acceptance rolls add the rolls failed, so by turn 5 at the latest
// the order is accepted, and executing in the same step (a corps has no
// one above it to wait for), which the page shows, after awaiting
// acceptance if a roll failed. On the way, II Corps' HQ counter shows its
// radius when selected, Gordon's release shows its odds (certain), and a
// unit is moved from the page by a hex of its reach, with the path and
// cost the server gives.
func TestBrowserLOBOrder(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1280, 900)
	var (
		game  string
		tok   map[string]string
		union *page
		order string
	)
	for try := 1; order == ""; try++ {
		if try > 20 {
			t.Fatal("twenty command rolls of 1/2 failed in a row")
		}
		game, tok = lobGame(t, ctx, s)
		union = newPage(t, b, fmt.Sprintf("lob-union-%d", try), dir)
		union.open(s.ts.URL, tok["union"])
		union.until("the issue form", `document.querySelector('#lob-issue') && document.querySelector('#lob-from').value === 'pope'`)
		union.choose("#lob-to", "II")
		union.choose("#lob-kind", "move")
		union.do("pick the objective", chromedp.Click(chromedp.CSS(`[data-pick="objective"]`)))
		union.clickHex("1008")
		union.until("the objective in the form", `document.querySelector('#lob-objective').textContent === '1008' && document.querySelector('#map [data-picked="1008"]')`)
		union.until("the command roll's odds", `document.querySelector('#lob-odds tr[data-result="issued"]')`)
		odds := eval[map[string]string](union, `Object.fromEntries([...document.querySelectorAll('#lob-odds tr')].map(tr => [tr.dataset.result, tr.cells[1].textContent + ' ' + tr.cells[2].textContent]))`)
		if odds["issued"] != "50.0% 1/2" || odds["not-issued"] != "50.0% 1/2" {
			union.fail("the command roll's odds are %v, want issued and not-issued 50.0%% 1/2", odds)
		}
		if note := union.text("#lob-odds"); !strings.Contains(note, "3 hexes, within the radius of 10: delivered in 2 turns, on turn 3") {
			union.fail("the forecast's note is %q", note)
		}
		union.until("the odds of releasing Gordon's reserve brigade (1d6 + 3 + 2: certain)", `document.querySelector('[data-release="gordon"] tr[data-result="issued"] td.num')?.textContent === '100.0%'`)
		if try == 1 {
			union.shot("lob-issue-odds")
		}
		union.do("issue", chromedp.Click(chromedp.CSS(`#lob-issue`)))
		union.until("the command roll's result", `(document.querySelector('#lob-result') || {}).textContent?.includes('command roll')
			|| (document.querySelector('#lob-result') || {}).textContent?.includes('issues')`)
		if r := union.text("#lob-result"); strings.Contains(r, "fails") {
			t.Logf("game %d: %s", try, r)
			continue
		}
		union.until("the order listed as issued", `document.querySelector('#lob-orders li[data-stage="issued"][data-to="II"]')`)
		order = eval[string](union, `document.querySelector('#lob-orders li[data-stage="issued"][data-to="II"]').dataset.order`)
	}
	t.Logf("order %s issued in game %s", order, game)
	stageOf := func() string {
		return eval[string](union, fmt.Sprintf(`(document.querySelector('#lob-orders li[data-order=%q]') || {dataset: {}}).dataset.stage || ''`, order))
	}
	oob := func(stage string) {
		union.until("the order's stage in the order of battle", fmt.Sprintf(`document.querySelector('#oob [data-formation="II"] > div [data-order=%q][data-stage=%q]')`, order, stage))
	}
	oob("issued")
	union.until("its objective on the map", fmt.Sprintf(`document.querySelector('#map [data-objective~=%q]')`, order))
	if r := union.text("#lob-result"); !strings.Contains(r, "it arrives on turn 3") {
		union.fail("the result says %q", r)
	}
	if !eval[bool](union, `!document.querySelector('#lob-from option[value="pope"]') && document.querySelector('#lob-army').textContent.includes('has made his command roll')`) {
		union.fail("the army commander is offered a second order this turn")
	}
	// II Corps' HQ counter, and its radius (6 hexes) around it when selected.
	union.do("select II Corps' HQ", chromedp.Click(chromedp.CSS(`#map [data-hq="II"] rect`)))
	union.until("its radius and its card", `document.querySelector('#map .hx-centre[data-centre="0608"]') && document.querySelector('#map [data-radius="1208"]') && !document.querySelector('#map [data-radius="1308"]')
		&& document.querySelector('[data-lob-formation="II"]')?.textContent.includes('order union-1')`)
	if !eval[bool](union, `!!document.querySelector('#map [data-hq="union"]') && !!document.querySelector('#map [data-hq="confederate"]')`) {
		union.fail("the army HQs are not on the map")
	}
	union.shot("lob-issued")
	union.do("print the orders", chromedp.Click(chromedp.CSS(`#print-orders`)))
	union.until("the order on the sheet", fmt.Sprintf(`!document.querySelector('#sheet').hidden && document.querySelector('#sheet-body tr[data-order=%q]')?.textContent.includes('move 1008 to II Corps: issued, arrives turn 3')`, order))
	union.do("close the sheet", chromedp.Click(chromedp.CSS(`#sheet-close`)))

	pages := map[string]*page{"union": union}
	st := lobStep(t, s, game, tok, pages) // to the Union's movement
	union.shows(st)
	union.clickHex("1005") // the 28th New York
	union.until("its reach with costs", `document.querySelector('#map [data-reach="0905"]') && document.querySelector('#lob-left')`)
	union.clickHex("0905")
	union.until("the path and its cost", `(document.querySelector('#lob-path') || {}).textContent === 'costs 1 MP of the 6 left'`)
	union.shot("lob-move")
	union.do("move", chromedp.Click(chromedp.CSS(`#lob-move`)))
	union.until("the move made", `(document.querySelector('#lob-result') || {}).textContent?.includes('moves to 0905')`)
	// A leader moves by his reach too, which the board gives for leaders and HQs.
	at := eval[[]float64](union, `(() => { const r = document.querySelector('#map [data-general="banks"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	union.do("tap Banks", chromedp.MouseClickXY(at[0], at[1]))
	union.until("Banks's reach", `document.querySelector('#map [data-reach="0709"]') && /^Banks: .* MP left/.test(document.querySelector('#lob-left')?.textContent || '')`)
	union.clickHex("0709")
	union.until("Banks's path", `/costs .* MP of the .* left/.test((document.querySelector('#lob-path') || {}).textContent || '')`)
	union.do("move Banks", chromedp.Click(chromedp.CSS(`#lob-move`)))
	union.until("Banks moved", `(document.querySelector('#lob-result') || {}).textContent?.includes('moves to 0709')`)

	seen := []string{"issued"}
	for st.Turn <= 5 {
		st = lobStep(t, s, game, tok, pages)
		if !strings.HasPrefix(st.Phase, "union-") {
			continue
		}
		union.shows(st)
		stage := stageOf()
		if stage != seen[len(seen)-1] {
			seen = append(seen, stage)
			union.shot("lob-" + stage)
		}
		if st.Turn == 2 && st.Step == "orders" {
			if stage != "in-delivery" {
				union.fail("on turn 2 the order is %s, want in-delivery", stage)
			}
			oob("in-delivery")
			union.until("the acceptance roll to come", fmt.Sprintf(`(document.querySelector('#lob-coming li[data-subject=%q]') || {}).textContent?.includes('accepted 2/3 (66.7%%)')`, order))
		}
		if stage == "executing" {
			break
		}
	}
	t.Logf("the order went through %v", seen)
	if got := strings.Join(seen, " "); !strings.HasPrefix(got, "issued in-delivery ") || !strings.HasSuffix(got, " executing") {
		t.Fatalf("the order went through %s; want issued, in-delivery, (awaiting-acceptance,) executing", got)
	}
	oob("executing")
	union.checkConsole()
}

// TestBrowserLOBHidden: the Confederate page never shows the Union's
// orders. The Union's corps leader orders a division to attack, with a
// note (no command roll, so it always goes), and the game is played on
// through the Union's delivery and acceptance; at every step the
// Confederate page lists only Confederate orders, draws only their
// objectives, and holds neither the Union order's id nor its note, nor
// does the Confederate board. In the Confederate movement a unit of
// Early's division, which has no orders, is selected: the hexes of its
// reach outside Early's radius are drawn as refused, and a tap on one
// shows the server's reason.
func TestBrowserLOBHidden(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	game, tok := lobGame(t, ctx, s)
	b := browser(t, ctx, 1280, 900)
	rebel := newPage(t, b, "lob-confederate", dir)
	rebel.open(s.ts.URL, tok["confederate"])
	const note = "cross the creek at dawn"
	if r := s.send(t, game, tok["union"], `{"issue": {"from": "banks", "to": "II-1", "order": "attack", "objective": "1306", "note": "`+note+`"}}`); !strings.Contains(r, "union-3") {
		t.Fatalf("the Union's order: %s", r)
	}
	if _, board := s.call(t, "GET", "/api/games/"+game+"/board", tok["union"], ""); !strings.Contains(board, note) {
		t.Fatal("the Union's board lacks its own order")
	}
	hidden := func(st standing) {
		t.Helper()
		rebel.shows(st)
		rebel.until("the Confederate orders", `document.querySelectorAll('#lob-orders li').length > 0`)
		if got := eval[[]string](rebel, `[...document.querySelectorAll('#lob-orders li, #map [data-objective], #oob [data-order]')].map(e => e.dataset.order || e.dataset.objective).filter(id => !/^confederate-/.test(id))`); len(got) > 0 {
			rebel.fail("the Confederate page shows the orders %v", got)
		}
		if eval[bool](rebel, `/union-\d/.test(document.body.innerHTML) || document.body.innerHTML.includes(`+fmt.Sprintf("%q", note)+`)`) {
			rebel.fail("the Confederate page holds the Union's order")
		}
		if _, board := s.call(t, "GET", "/api/games/"+game+"/board", tok["confederate"], ""); strings.Contains(board, "union-3") || strings.Contains(board, note) {
			t.Fatalf("the Confederate board holds the Union's order: %s", board)
		}
	}
	st := s.standing(t, game, tok["umpire"])
	hidden(st)
	if !eval[bool](rebel, `!!document.querySelector('#map [data-hq="II"]') && !!document.querySelector('#map [data-hq="union"]')`) {
		rebel.fail("the Union's HQ counters are not on the Confederate map")
	}
	pages := map[string]*page{"confederate": rebel}
	for st.Phase != "confederate-movement" {
		st = lobStep(t, s, game, tok, pages)
		hidden(st)
	}
	rebel.shot("lob-confederate-move")

	// Early has no orders: his units move only within his radius.
	_, board := s.call(t, "GET", "/api/games/"+game+"/board", tok["confederate"], "")
	var bd struct {
		Extra struct {
			Units map[string]struct {
				Reach []struct {
					At  []int  `json:"at"`
					Why string `json:"why"`
				} `json:"reach"`
			} `json:"units"`
		} `json:"extra"`
	}
	if err := json.Unmarshal([]byte(board), &bd); err != nil {
		t.Fatal(err)
	}
	refused := ""
	for _, c := range bd.Extra.Units["15-al"].Reach {
		if c.Why != "" {
			refused = fmt.Sprintf("%02d%02d", c.At[0], c.At[1])
			break
		}
	}
	if refused == "" {
		t.Fatalf("no hex of 15-al's reach is refused: %+v", bd.Extra.Units["15-al"])
	}
	rebel.clickHex("1511")
	rebel.until("the refused hexes of its reach", fmt.Sprintf(`document.querySelector('#map .hx-reach.refused[data-reach=%q]')?.dataset.why.includes('early has no orders')`, refused))
	rebel.clickHex(refused)
	rebel.until("the reason on the panel", `(document.querySelector('#lob-path') || {}).textContent?.includes('refused: early has no orders')`)
	rebel.shot("lob-refused")
	// A move the rules refuse is not offered (issue 36): no Move button.
	if eval[bool](rebel, `!!document.querySelector('#lob-move')`) {
		rebel.fail("a Move to %s is offered, which the rules refuse", refused)
	}
	for st.Turn < 3 {
		st = lobStep(t, s, game, tok, pages)
		hidden(st)
	}
	rebel.checkConsole()
}

// TestBrowserLOBEnter: the umpire's panel names the road hex where a
// reinforcement enters if every hex of its entry area is held by the
// enemy (3.7a), offering only what the server accepts: the reinforcements
// still to come, of either side, and the map's road hexes on its edges
// (0108 and 2408 on the demo). The Union's own panel has no such form. Naming one is kept
// in the Union's view of its reinforcement, and not in the enemy's.
func TestBrowserLOBEnter(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	game, tok := lobGame(t, ctx, s)
	b := browser(t, ctx, 1280, 900)
	ump := newPage(t, b, "lob-umpire", dir)
	ump.open(s.ts.URL, tok["umpire"])
	ump.until("the umpire's entry form", `!!document.querySelector('#lob-enter-at')`)
	if got := eval[[]string](ump, `[...document.querySelectorAll('#lob-enter-at option')].map(o => o.value)`); strings.Join(got, " ") != "0108 2408" {
		ump.fail("the umpire is offered the road hexes %v; want 0108 2408", got)
	}
	if got := eval[[]string](ump, `[...document.querySelectorAll('#lob-enter-formation option')].map(o => o.value)`); strings.Join(got, " ") != "hill ricketts" {
		ump.fail("the umpire is offered the reinforcements %v; want both sides' still to come, hill and ricketts", got)
	}
	ump.do("pick ricketts", chromedp.SetValue(chromedp.ID("lob-enter-formation"), "ricketts"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#lob-enter-formation').dispatchEvent(new Event('change'))`))
	ump.until("ricketts picked", `document.querySelector('#lob-enter-formation').value === 'ricketts'`)
	ump.do("pick 2408", chromedp.SetValue(chromedp.ID("lob-enter-at"), "2408"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#lob-enter-at').dispatchEvent(new Event('change'))`))
	ump.until("2408 picked", `document.querySelector('#lob-enter-at').value === '2408'`)
	ump.do("name it", chromedp.Click(chromedp.CSS(`[data-cmd="enter"]`)))
	for end := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if _, board := s.call(t, "GET", "/api/games/"+game+"/board", tok["union"], ""); strings.Contains(board, `"road-entry":[24,8]`) {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the Union's view does not hold the road hex named for ricketts")
		}
	}
	if _, board := s.call(t, "GET", "/api/games/"+game+"/board", tok["confederate"], ""); strings.Contains(board, `"road-entry"`) {
		t.Fatal("the Confederate view holds the road hex named for the Union's reinforcement")
	}
	union := newPage(t, b, "lob-union", dir)
	union.open(s.ts.URL, tok["union"])
	union.until("the union panel", `!!document.querySelector('#lob-army')`)
	if eval[bool](union, `!!document.querySelector('#lob-enter-at')`) {
		union.fail("the Union's panel offers to name a road hex")
	}
	ump.checkConsole()
	union.checkConsole()
}
