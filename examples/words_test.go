package examples_test

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"orderly/battle"
	"orderly/examples"
	"orderly/game"
	"orderly/rules"
	"orderly/script"
)

// codes are wordings that show a player the program's codes instead of
// English: a plural written "(s)" or "(ies)", a count of one with a plural
// noun ("1 seeds", "(1 units)"), a modifier of zero ("at +0"), and a
// formation's name read as a place ("is in unlimbered").
var codes = []*regexp.Regexp{
	regexp.MustCompile(`\((s|ies|es)\)`),
	regexp.MustCompile(`(^|[^\w.,-])1 (units|seeds|hits|casualties|moves|castings|stands|pieces|rolls|hexes|generals|orders|points|turns|divisions|brigades)\b`),
	regexp.MustCompile(`(^|[^0-9.])[+-]0([^.0-9]|$)`),
	regexp.MustCompile(`\bin (un)?limbered\b`),
}

// quoted is a player's own words in a line (an order's note), which may
// say anything.
var quoted = regexp.MustCompile(`"[^"]*"`)

// TestWords checks the words every example shows its players: the
// timeline of every example script, and a hundred random commands in each
// demo, as `orderly run` and the server describe them. No line shows one
// of the codes above or a word doubled ("division Division Foy"), and no
// rule set's event names by its id a piece, general or formation the
// scenario names.
func TestWords(t *testing.T) {
	set, err := rules.Load("lob/example-tables.yaml") // the tables the bundled LOB games are played on
	if err != nil {
		t.Fatal(err)
	}
	eng := func(id string) (game.Rules, error) { return rules.Engine(id, set) }
	files, err := fs.Glob(examples.FS(), "*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines, named := 0, 0
	for _, file := range files {
		data, err := fs.ReadFile(examples.FS(), file)
		if err != nil {
			t.Fatal(err)
		}
		var g *game.Game
		var events []game.Event
		switch {
		case strings.Contains(file, "demo") && !strings.Contains(file, "plan"):
			g, events = playDemo(t, file, data, eng)
		default:
			s, err := script.Load(file, data, eng, script.Disk)
			if err != nil || s.Scenario == nil || len(s.Steps) == 0 {
				continue // a scenario, a plan or a refused scenario: no timeline
			}
			rs, err := eng(s.Scenario.Rules)
			if err != nil {
				t.Fatal(err)
			}
			g, events, err = s.Run(rs)
			if err != nil {
				continue // played on a house-rules file it is run with (orderly run --rules); cmd/orderly's goldens show it
			}
		}
		ids := namedIDs(g.Scenario())
		for i := range events {
			e := &events[i]
			text := g.Describe(e, nil)
			lines++
			if bad := badWords(text); bad != "" {
				t.Errorf("%s: event %d (%s) shows %s: %q", file, e.Seq, e.Type, bad, text)
			}
			if e.Type == game.CommandRejected {
				continue // a refusal is written when the command is, in ids
			}
			for _, w := range words(quoted.ReplaceAllString(text, `""`)) {
				if ids[w] {
					t.Errorf("%s: event %d (%s) names %s by its id, not its name %q: %q", file, e.Seq, e.Type, w, game.Names(g.Scenario())(w), text)
				}
			}
			if len(ids) > 0 {
				named++
			}
		}
	}
	if lines < 1000 || named < 100 {
		t.Fatalf("the test read %d lines, %d of them in scenarios that name their pieces; it needs more to mean anything", lines, named)
	}
}

// playDemo plays a demo scenario: its plan if it has one (demo-plan.yaml
// beside it), then commands from the rule set's random player.
func playDemo(t *testing.T, file string, data []byte, eng script.Engine) (*game.Game, []game.Event) {
	t.Helper()
	sc, err := script.LoadScenario(file, data, eng)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	rs, err := eng(sc.Rules)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(sc, rs, game.Seeded(1))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	plan := strings.TrimSuffix(file, ".yaml") + "-plan.yaml"
	if pd, err := fs.ReadFile(examples.FS(), plan); err == nil {
		p, err := script.LoadPlan(path.Base(plan), pd, sc, rs)
		if err != nil {
			t.Fatalf("%s: %v", plan, err)
		}
		if err := p.Play(g, nil); err != nil {
			t.Fatalf("%s: %v", plan, err)
		}
	}
	return g, g.Log()
}

// namedIDs is the set of ids the scenario gives a name other than the id.
func namedIDs(sc *battle.Scenario) map[string]bool {
	ids := map[string]bool{}
	if sc == nil {
		return ids
	}
	name := game.Names(sc)
	add := func(id string) {
		if name(id) != id && !strings.Contains(name(id), id) && sc.Side(id) == nil {
			ids[id] = true
		}
	}
	for _, g := range sc.Generals() {
		add(g.ID)
	}
	for _, u := range sc.Units() {
		add(u.ID)
	}
	for _, f := range sc.Formations() {
		add(f.ID)
	}
	return ids
}

// badWords says which code text shows, or a word it doubles; "" if none.
func badWords(text string) string {
	for _, re := range codes {
		if m := re.FindString(text); m != "" {
			return "the code " + strings.TrimSpace(m)
		}
	}
	ws := strings.Split(strings.ToLower(text), " ")
	for i := 1; i < len(ws); i++ {
		if ws[i] == ws[i-1] && len(ws[i]) > 1 && strings.IndexFunc(ws[i], func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			return "the word " + ws[i] + " twice"
		}
	}
	return ""
}

// words are text's words as ids are spelled: letters, digits, - and _.
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' && r != '/'
	})
}
