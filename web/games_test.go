package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"orderly/server"
)

// TestBrowserGames: the host's front page lists the server's games, the
// last made first; New links gives a game's seats links that work (the
// old ones no longer do), Export downloads the game, and a confirmed
// Delete takes a game off the list, its old links then refused.
func TestBrowserGames(t *testing.T) {
	t.Parallel()
	ctx, s, dir := privateSession(t)
	other, err := s.srv.Create(ctx, server.Setup{Scenario: "demo", Title: "The second game"})
	if err != nil {
		t.Fatal(err)
	}
	first, second := s.made.Game.ID, other.Game.ID
	p := newPage(t, browser(t, ctx, 1024, 768), "games", dir)
	p.do("open the host link", chromedp.Navigate(s.ts.URL+"/#host="+s.host))
	p.until("two games listed", `document.querySelectorAll('#games li.game').length === 2`)
	if got := eval[[]string](p, `[...document.querySelectorAll('#games li.game')].map(li => li.dataset.game)`); got[0] != second || got[1] != first {
		p.fail("the games are listed as %v, want %s (made last) then %s", got, second, first)
	}
	row := `#games li.game[data-game="` + first + `"]`
	if text := p.text(row); !strings.Contains(text, s.made.Game.Title) || !strings.Contains(text, "NB rules") || !strings.Contains(text, "0 of 3 seats connected") {
		p.fail("the first game's row says %q", text)
	}

	// New links for every seat of the first game.
	p.do("ask for new links", chromedp.Click(chromedp.CSS(row+` button[data-act="links"]`)))
	p.do("make them", chromedp.Click(chromedp.CSS(row+` button[data-act="reissue"]`)))
	p.until("three new links", `document.querySelectorAll('#games .games-new a.join').length === 3`)
	href := eval[string](p, `document.querySelector('#games .games-new a.join[data-name="french"]').href`)
	token, ok := strings.CutPrefix(href, s.ts.URL+"/play#")
	if !ok || len(token) < 40 {
		p.fail("the new French link is %q", href)
	}
	if !strings.Contains(p.text("#games .games-new"), "shown only once") || !eval[bool](p, `document.querySelectorAll('#games .games-new li button').length === 3`) {
		p.fail("the new links come without their warning or their Copy buttons")
	}
	if code, body := s.call(t, "GET", "/api/seat", token, ""); code != http.StatusOK {
		t.Errorf("the new French link: %d %s", code, body)
	}
	if code, _ := s.call(t, "GET", "/api/seat", s.token(t, "side", "french"), ""); code != http.StatusUnauthorized {
		t.Errorf("the old French link: %d, want 401", code)
	}
	p.shot("games-links")

	// Export downloads the game.
	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(p.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID, DownloadPath: downloads,
	}); err != nil {
		t.Fatal(err)
	}
	p.do("export the first game", chromedp.Click(chromedp.CSS(row+` button[data-act="export"]`)))
	p.until("the export", `/^blob:/.test((document.querySelector('#games a.games-export') || {}).href || '')`)
	name := eval[string](p, `document.querySelector('#games a.games-export').download`)
	var doc struct {
		ID     string            `json:"id"`
		Events []json.RawMessage `json:"events"`
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(downloads, name))
		if err == nil && json.Unmarshal(data, &doc) == nil {
			break
		}
		if time.Now().After(deadline) {
			p.fail("the export %s was not saved: %v", name, err)
		}
	}
	if doc.ID != first || len(doc.Events) == 0 {
		p.fail("the export is of game %q with %d events", doc.ID, len(doc.Events))
	}

	// Delete the second game, once confirmed.
	gone := `#games li.game[data-game="` + second + `"]`
	p.do("ask to delete the second game", chromedp.Click(chromedp.CSS(gone+` button[data-act="delete"]`)))
	if text := p.text(gone + " .game-more"); !strings.Contains(text, "The second game") || !strings.Contains(text, second) {
		p.fail("the confirmation does not name the game: %q", text)
	}
	p.do("confirm", chromedp.Click(chromedp.CSS(gone+` button[data-act="confirm-delete"]`)))
	p.until("one game left", `document.querySelectorAll('#games li.game').length === 1 && document.querySelector('#games li.game').dataset.game === '`+first+`'`)
	for _, seat := range other.Seats {
		if code, _ := s.call(t, "GET", "/api/seat", seat.Token, ""); code != http.StatusUnauthorized {
			t.Errorf("the deleted game's %s link: %d, want 401", seat.Label, code)
		}
	}
	p.shot("games")
	p.checkConsole()
}
