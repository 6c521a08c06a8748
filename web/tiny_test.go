package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"orderly/internal/tiny"
	"orderly/rules"
	"orderly/server"
	"orderly/store/sqlite"
)

// TestTinyRuleSet registers a rule set used only in tests (internal/tiny)
// through the registries alone: one line in the Go registry, its page
// module given to the server (WithPages), nothing else. A side then
// plays it in the browser: it moves its unit through the module's card,
// sees the piece move and the log tell it, and ends its step.
func TestTinyRuleSet(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)

	reg := rules.Default().With(tiny.Entry()) // the one line that registers it
	eng, err := reg.Make()
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := server.New(ctx, st, eng, server.WithBundled(reg.Examples()), server.WithPages(tiny.Page()))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	made, err := srv.Create(ctx, server.Setup{Scenario: "tiny-demo"})
	if err != nil {
		t.Fatal(err)
	}
	s := &site{srv: srv, ts: ts, made: made}

	p := newPage(t, browser(t, ctx, 1280, 900), "tiny-blue", artifacts(t))
	p.open(ts.URL, s.token(t, "side", "blue"))
	if at := p.pieceAt(`[data-unit="blue-1"]`); at != [2]float64{18, 20} {
		p.fail("blue-1 is drawn at %v, want (18, 20)", at)
	}
	p.clickMap(18, 20)
	p.until("the unit's card with its Move control", `document.querySelector('#tiny-move')`)
	if got := p.text(`[data-reach="blue-1"]`); got != "moves up to 6″ a turn" {
		p.fail("the card shows the reach as %q, want the board's 6″", got)
	}
	eval[bool](p, `(() => { document.querySelector('#tiny-x').value = '18'; document.querySelector('#tiny-y').value = '15';
		document.querySelector('#tiny-move').click(); return true; })()`)
	p.until("blue-1 to be drawn where it moved", `/translate\(18[ ,]+15\)/.test(document.querySelector('[data-unit="blue-1"]').getAttribute('transform'))`)
	p.until("the log to tell the move", `[...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('Blue Foot moved 5" from (18, 20) to (18, 15).'))`)
	if p.text(`[data-at="blue-1"]`) == "" {
		p.fail("the card is gone after the move")
	}
	// A second move is not offered (the server's offers), so the card has
	// no Move control.
	p.until("the Move control to go", `!document.querySelector('#tiny-move')`)
	p.do("say blue is ready", chromedp.Click(chromedp.CSS(`#ready`)))
	p.until("red's step", `document.querySelector('#phase').textContent === 'red'`)
	p.shot("tiny-blue")
	p.checkConsole()
}

// TestTinyModuleOnlyWithPages: a server made without WithPages has no
// module for the tiny rule set, so that the test's module reaches only
// the server the test gives it to.
func TestTinyModuleOnlyWithPages(t *testing.T) {
	t.Parallel()
	needBrowser(t) // the shared server is the browser tests'
	s := shared.server(t)
	for path, want := range map[string]int{"/js/rules/tiny.js": http.StatusNotFound, "/js/rules/cd.js": http.StatusOK} {
		res, err := http.Get(s.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, res.StatusCode, want)
		}
	}
}
