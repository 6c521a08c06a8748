package web_test

import (
	"net/http"
	"strings"
	"testing"

	"orderly/archive"
	"orderly/battle"
	"orderly/game/gametest"
	"orderly/rules"
)

// conformEditorMade reads back the scenario of a game started from the
// editor (from the umpire's export: the text the store keeps) and plays
// it under the engine's conformance checks (gametest.Conformance), over
// the game's own tables if it has them: a scenario built in the page is
// one the engine keeps its promises on.
func conformEditorMade(t *testing.T, s *site, id, umpire string) {
	t.Helper()
	code, body := s.call(t, "GET", "/api/games/"+id+"/export", umpire, "")
	if code != http.StatusOK {
		t.Fatalf("export %s: %d %s", id, code, body)
	}
	g, err := archive.Read(strings.NewReader(body), "the export")
	if err != nil {
		t.Fatal(err)
	}
	mk, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	var r any
	sc, err := battle.Read(g.Scenario.File, []byte(g.Scenario.Source), func(id string) (battle.RuleSet, error) {
		rs, err := mk(id, g.Own()...)
		r = rs
		return rs, err
	})
	if err != nil {
		t.Fatalf("the editor's scenario does not load: %v", err)
	}
	rr, ok := r.(gametest.Random)
	if !ok {
		t.Fatalf("rule set %s makes no random commands", sc.Rules)
	}
	gametest.Conformance(t, rr, sc, 1)
}
