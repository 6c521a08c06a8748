package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// TestReportPage: the after-action report in the page (issue 36, item
// 6). For each of the five demos, after a few steps ended by the umpire,
// the umpire's tab opens /report?game=ID: the first from the game page
// (the seat the tab holds), the others by their umpire's link
// (#token). The page shows the report's turns, each with its SVG map, has
// a print button, and its stylesheet holds the print styles. On a laptop
// (1280x800) and a tablet held upright (768x1024, touch), one tab per
// size; the screenshots are report-ID-WxH.png.
func TestReportPage(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	demos := []string{"demo", "nes-demo", "lob-demo", "bp-demo", "cd-demo"}
	games := make([]*site, len(demos))
	for i, sc := range demos {
		made, err := s.srv.Create(ctx, server.Setup{Scenario: sc})
		if err != nil {
			t.Fatal(err)
		}
		games[i] = &site{srv: s.srv, ts: s.ts, made: made, host: s.host}
		umpire := games[i].token(t, "umpire", "")
		for range 3 {
			games[i].command(t, umpire, `{"end":true}`)
		}
	}
	start := time.Now()
	for _, size := range []readableSize{{1280, 800, false}, {768, 1024, true}} {
		b := browser(t, ctx, size.w, size.h)
		p := newPage(t, b, fmt.Sprintf("report-%dx%d", size.w, size.h), dir)
		if size.touch {
			p.do("touch screen", chromedp.EmulateViewport(int64(b.w), int64(b.h), chromedp.EmulateTouch))
		}
		for i, g := range games {
			link := s.ts.URL + "/report?game=" + g.made.Game.ID
			if i == 0 {
				p.open(s.ts.URL, g.token(t, "umpire", ""))
			} else {
				link += "#" + g.token(t, "umpire", "")
			}
			p.do("open the report", chromedp.Navigate(link))
			p.until("the report's turns and maps", `document.querySelectorAll('#report section.turn').length >= 1 && document.querySelector('#report section.turn svg.map g.piece')`)
			if !eval[bool](p, `!document.getElementById('print').disabled && document.getElementById('status').textContent === ''`) {
				p.fail("%s: the print button is not offered, or the status still says %q", demos[i], eval[string](p, `document.getElementById('status').textContent`))
			}
			if !eval[bool](p, `[...document.styleSheets].some((s) => [...s.cssRules].some((r) => r instanceof CSSMediaRule && r.media.mediaText.includes('print') && r.cssText.includes('.report-bar')))`) {
				p.fail("%s: no print styles", demos[i])
			}
			if w := eval[float64](p, `document.querySelector('#report svg.map').getBoundingClientRect().width`); w < float64(size.w)/2 || w > float64(size.w) {
				p.fail("%s: the map is %.0f px wide in a %d px window", demos[i], w, size.w)
			}
			p.shot(fmt.Sprintf("report-%s-%dx%d", demos[i], size.w, size.h))
		}
		p.checkConsole()
	}
	t.Logf("the report pages took %v", time.Since(start).Round(time.Millisecond))
}
