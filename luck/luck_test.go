package luck_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/luck"
	"orderly/rules"
	"orderly/script"
	"orderly/table"
)

var update = flag.Bool("update", false, "rewrite the golden luck reports")

func tables(t *testing.T) *table.Set {
	t.Helper()
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestGoldenScripts: the luck report of scripted games (their dice are
// fixed), kept in testdata.
func TestGoldenScripts(t *testing.T) {
	set := tables(t)
	eng := func(id string) (game.Rules, error) { return rules.Engine(id, set) }
	for _, file := range []string{"../examples/bp/bp-06-combat.yaml", "../examples/nb/nb-05-delays.yaml"} {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := script.Load(file, data, eng, script.Disk)
			if err != nil {
				t.Fatal(err)
			}
			r, err := eng(s.Scenario.Rules)
			if err != nil {
				t.Fatal(err)
			}
			g, _, err := s.Run(r)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := luck.Of(set, s.Scenario, g.Log())
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", name+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("luck report of %s differs from %s:\n%s", file, path, got)
			}
		})
	}
}

// roll is a recorded roll of 1d10 on nb/order-delay with the natural n.
func roll(n int, subject string) game.Roll {
	return game.Roll{Table: "nb/order-delay", Subject: subject, Dice: "1d10", Faces: []int{n}, Natural: n, Total: n, Result: "x"}
}

// TestWhoseAndWhich: a roll is its subject's side's, else its event's;
// withdrawn events, tables without a direction and fixed rows count for
// nothing; the words follow the numbers.
func TestWhoseAndWhich(t *testing.T) {
	set := tables(t)
	sc := &battle.Scenario{Sides: []*battle.Side{{ID: "fr", Name: "The French"}, {ID: "al", Name: "The Allies"}}}
	log := []game.Event{
		{Seq: 1, Side: "fr", Rolls: []game.Roll{roll(10, "")}},
		{Seq: 2, Side: "fr", Rolls: []game.Roll{roll(1, "")}},
		{Seq: 3, Type: game.TakenBack, Side: "fr", Data: &game.Taken{Of: []int{2}}},
		{Seq: 4, Side: "al", Rolls: []game.Roll{roll(1, "")}},
		// bp/blunder says no way is lucky.
		{Seq: 5, Side: "al", Rolls: []game.Roll{{Table: "bp/blunder", Dice: "1d6", Faces: []int{6}, Natural: 6, Total: 6, Result: "rush"}}},
		// A roll of the umpire's belongs to no side.
		{Seq: 6, Side: game.Umpire, Rolls: []game.Roll{roll(1, "")}},
	}
	rep, err := luck.Of(set, sc, log)
	if err != nil {
		t.Fatal(err)
	}
	fr, al := rep.Sides[0], rep.Sides[1]
	// A 10 on 1d10, high lucky: 9/10 + 1/20.
	if fr.Rolls != 1 || fr.Percentile != 95 || len(fr.Tables) != 1 || fr.Tables[0].Percentile != 95 || fr.Tables[0].Got != 10 || fr.Tables[0].Expected != 5.5 {
		t.Errorf("the French: %+v; want one roll of 10 at the 95th percentile, 5.5 expected", fr)
	}
	if want := "The French's 1 roll for order delay on reading was in the 95th percentile of what was expected: very lucky."; fr.Tables[0].Text != want {
		t.Errorf("text %q; want %q", fr.Tables[0].Text, want)
	}
	if al.Rolls != 1 || al.Percentile != 5 {
		t.Errorf("the Allies: %d rolls at %v; want their one 1 at the 5th percentile", al.Rolls, al.Percentile)
	}
	if want := "The Allies' 1 roll taken together was in the 5th percentile of what was expected: very unlucky."; al.Text != want {
		t.Errorf("text %q; want %q", al.Text, want)
	}
	// Two rolls of the subject's side: the general g belongs to al.
	none, err := luck.Of(set, &battle.Scenario{Sides: sc.Sides}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if none.Sides[0].Rolls != 0 || none.Sides[0].Percentile != 50 || len(none.Sides[0].Tables) != 0 {
		t.Errorf("no rolls: %+v; want none measured, at 50", none.Sides[0])
	}
	if _, err := luck.Of(set, sc, []game.Event{{Seq: 7, Side: "fr", Rolls: []game.Roll{{Table: "nb/no-such"}}}}); err == nil || !strings.Contains(err.Error(), "event 7") {
		t.Errorf("a roll on an unknown table: %v; want an error naming event 7", err)
	}
}

// TestOrdinal checks the ordinals the texts and the report's page use.
func TestOrdinal(t *testing.T) {
	for p, want := range map[float64]string{0.2: "1st", 1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th",
		13: "13th", 21: "21st", 22.4: "22nd", 43: "43rd", 82: "82nd", 91.67: "92nd", 99.9: "99th"} {
		if got := luck.Ordinal(p); got != want {
			t.Errorf("Ordinal(%v) = %q, want %q", p, got, want)
		}
	}
}

// TestPossessive checks a side's name in the texts: no "Austrians's".
func TestPossessive(t *testing.T) {
	for name, want := range map[string]string{"Austrians": "Austrians'", "French": "French's", "Armée du Nord": "Armée du Nord's"} {
		if got := luck.Possessive(name); got != want {
			t.Errorf("Possessive(%q) = %q, want %q", name, got, want)
		}
	}
}
