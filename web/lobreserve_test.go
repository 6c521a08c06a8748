package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// TestBrowserLOBDesignate: an order to establish a reserve may leave the
// formation to the corps leader (LOB-5, 10.4c). On the bundled
// lob-05-designate, the issue form's reserve choice for II Corps says so;
// Pope's order (command roll 1d6 + 3, issued on 6 or more: 2/3 with the
// example tables, tried again in a new game when it fails) reaches II's
// HQ on turn 2, and only then does its line in the panel offer the
// formation to name; naming II-2 sends the relay the server works out
// (II is under attack orders), and the line then says whom it places.
func TestBrowserLOBDesignate(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1280, 900)
	var (
		game  string
		tok   map[string]string
		union *page
	)
	for try := 1; game == ""; try++ {
		if try > 20 {
			t.Fatal("twenty command rolls of 2/3 failed in a row")
		}
		made, err := s.srv.Create(ctx, server.Setup{Scenario: "lob-05-designate"})
		if err != nil {
			t.Fatal(err)
		}
		tok = map[string]string{}
		for _, st := range made.Seats {
			if st.Role == "umpire" {
				tok["umpire"] = st.Token
			} else {
				tok[st.Side] = st.Token
			}
		}
		union = newPage(t, b, fmt.Sprintf("lob-designate-%d", try), dir)
		union.open(s.ts.URL, tok["union"])
		union.until("the issue form", `document.querySelector('#lob-issue') && document.querySelector('#lob-from').value === 'pope'`)
		union.choose("#lob-to", "II")
		union.choose("#lob-kind", "reserve")
		union.until("the reserve left to II's leader", `document.querySelector('#lob-reserve option[value=""]')?.textContent === 'left to its leader to name'`)
		union.do("issue", chromedp.Click(chromedp.CSS(`#lob-issue`)))
		union.until("the command roll's result", `/command roll|issues/.test((document.querySelector('#lob-result') || {}).textContent || '')`)
		if r := union.text("#lob-result"); strings.Contains(r, "fails") {
			t.Logf("game %s: %s", made.Game.ID, r)
			continue
		}
		game = made.Game.ID
	}
	line := `document.querySelector('#lob-orders li[data-order="union-3"]')`
	union.until("the order listed", line)
	if eval[bool](union, line+`.querySelector('[data-cmd="designate"]') !== null`) {
		union.fail("naming the reserve is offered before the order reaches II's HQ")
	}
	pages := map[string]*page{}
	for st := s.standing(t, game, tok["umpire"]); st.Turn < 2 || st.Phase != "union-command" || st.Step != "orders"; {
		st = lobStep(t, s, game, tok, pages)
	}
	union.until("the formation to name and the button", line+`?.querySelector('[data-cmd="designate"]') && document.querySelector('#lob-name-union-3')`)
	union.choose("#lob-name-union-3", "II-2")
	union.shot("lob-designate")
	union.do("name the reserve", chromedp.Click(chromedp.CSS(`#lob-orders li[data-order="union-3"] [data-cmd="designate"]`)))
	union.until("the relay sent", `(document.querySelector('#lob-result') || {}).textContent?.includes('as the reserve of order union-3') && document.querySelector('#lob-result').textContent.includes('arriving turn 3')`)
	union.until("the line naming II-2, with nothing more to name", line+`?.textContent.includes('placing II-2') && !`+line+`.querySelector('[data-cmd="designate"]')`)
	union.checkConsole()
}
