package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/rules"
)

// TestSchemaScenario: orderly schema scenario prints the schema generated
// for the NB rule set, with or without --rules nb; the golden file shows
// what a change to the scenario format does to it.
func TestSchemaScenario(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := rules.Engine("nb", set)
	if err != nil {
		t.Fatal(err)
	}
	want, err := battle.Schema(battle.SpecOf(eng))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"schema", "scenario"}, {"schema", "scenario", "--rules", "nb"}, {"schema", "--rules=nb", "scenario"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, errs, st := cli(t, args...)
			if st != 0 || errs != "" {
				t.Fatalf("status %d, stderr %q", st, errs)
			}
			if out != string(want) {
				t.Error("the output differs from battle.Schema for the NB rule set")
			}
			var doc map[string]any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("the output is not JSON: %v", err)
			}
			if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
				t.Errorf("$schema is %v", doc["$schema"])
			}
			var got struct {
				Defs struct {
					General struct {
						Properties struct {
							Quality struct{ Enum []string }
						}
					}
				} `json:"$defs"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if q := got.Defs.General.Properties.Quality.Enum; !slices.Equal(q, eng.Vocab().Qualities) {
				t.Errorf("the general's qualities are %v, want NB's %v", q, eng.Vocab().Qualities)
			}
		})
	}
	out, _, _ := cli(t, "schema", "scenario")
	golden(t, "out/schema-scenario-nb", out)
}

// TestSchemaBoard: orderly schema board prints, for every rule set, the
// board schema the server serves (server.BoardSchema), a draft 2020-12
// document whose state holds the rule set's own part; the golden file
// shows what a change to the board's types does to NB's.
func TestSchemaBoard(t *testing.T) {
	for _, c := range []struct{ id, def string }{
		{"nb", "nb.Unit"}, {"bp", "bp.Board"}, {"nes", "nes.Board"}, {"cd", "cd.Board"}, {"lob", "lob.Board"},
	} {
		out, errs, st := cli(t, "schema", "board", "--rules", c.id)
		if st != 0 || errs != "" {
			t.Fatalf("%s: status %d, stderr %q", c.id, st, errs)
		}
		var doc struct {
			Schema string         `json:"$schema"`
			Title  string         `json:"title"`
			Defs   map[string]any `json:"$defs"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: the output is not JSON: %v", c.id, err)
		}
		if doc.Schema != "https://json-schema.org/draft/2020-12/schema" || doc.Title != "orderly board of the rule set "+c.id {
			t.Errorf("%s: $schema %q, title %q", c.id, doc.Schema, doc.Title)
		}
		if doc.Defs[c.def] == nil || doc.Defs["server.Board"] == nil {
			t.Errorf("%s: no definition of %s or server.Board", c.id, c.def)
		}
		if c.id == "nb" {
			golden(t, "out/schema-board-nb", out)
		}
	}
}

// TestSchemaBadArgs: one line on stderr naming the schemas or rule sets,
// exit status 2, nothing on stdout.
func TestSchemaBadArgs(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"schema", "nope"}, `orderly: unknown schema "nope"; allowed: scenario, board`},
		{[]string{"schema", "scenaro"}, `orderly: unknown schema "scenaro" (did you mean scenario?); allowed: scenario, board`},
		{[]string{"schema"}, "orderly: schema: name the schema to print; allowed: scenario, board"},
		{[]string{"schema", "scenario", "script"}, "orderly: schema: give one schema name, got 2; allowed: scenario, board"},
		{[]string{"schema", "scenario", "--rules", "nbb"}, `orderly: schema: unknown rule set "nbb" (did you mean nb?); allowed: nb, nes, lob, bp, cd`},
		{[]string{"schema", "scenario", "--rules", "house.yaml"}, `orderly: schema: unknown rule set "house.yaml"; allowed: nb, nes, lob, bp, cd; here --rules names a rule set, not a house-rules file`},
		{[]string{"schema", "scenario", "--rules"}, "orderly: schema: flag needs an argument: --rules; see orderly schema --help"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errs, st := cli(t, c.args...)
			if st != 2 {
				t.Errorf("status %d, want 2", st)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if errs != c.want+"\n" {
				t.Errorf("stderr %q, want the one line %q", errs, c.want)
			}
		})
	}
}

// TestSchemaScenarioBP prints BP's scenario schema: brigades under the
// army, no wings, corps or divisions, generals with a staff rating and no
// quality or range, units with BP's statistics and formations.
func TestSchemaScenarioBP(t *testing.T) {
	out, errs, st := cli(t, "schema", "scenario", "--rules", "bp")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	golden(t, "out/schema-scenario-bp", out)
	var doc struct {
		Defs map[string]struct {
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	has := func(def, key string) bool { _, ok := doc.Defs[def].Properties[key]; return ok }
	for _, c := range []struct {
		def, key string
		want     bool
	}{{"side", "brigades", true}, {"side", "corps", false}, {"side", "divisions", false}, {"general", "staff", true},
		{"general", "quality", false}, {"general", "range", false}, {"unit", "stamina", true}, {"unit", "speed", false}} {
		if has(c.def, c.key) != c.want {
			t.Errorf("%s.%s in the BP schema: %v, want %v", c.def, c.key, has(c.def, c.key), c.want)
		}
	}
}

// TestSchemaScenarioNES prints NES's scenario schema: a hex map with its
// terrain, elevation, hexsides and roads; corps and divisions with
// brigades under divisions; generals with bonus, rating and range and no
// quality; sides with their HQ and command points; units with strength
// and class, and no speed; and every NES example scenario validates
// against it.
func TestSchemaScenarioNES(t *testing.T) {
	out, errs, st := cli(t, "schema", "scenario", "--rules", "nes")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	golden(t, "out/schema-scenario-nes", out)
	var doc struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	has := func(def, key string) bool { _, ok := doc.Defs[def].Properties[key]; return ok }
	for _, c := range []struct {
		def, key string
		want     bool
	}{{"map", "terrain", true}, {"map", "hexsides", true}, {"map", "roads", true}, {"division", "brigades", true},
		{"side", "hq", true}, {"side", "command-points", true}, {"side", "brigades", false}, {"general", "bonus", true},
		{"general", "quality", false}, {"general", "range", true}, {"unit", "strength", true}, {"unit", "speed", false}} {
		if has(c.def, c.key) != c.want {
			t.Errorf("%s.%s in the NES schema: %v, want %v", c.def, c.key, has(c.def, c.key), c.want)
		}
	}
	if _, ok := doc.Properties["evening"]; !ok {
		t.Error("the NES schema has no evening turns")
	}
	if _, ok := doc.Properties["field"]; ok {
		t.Error("the NES schema offers a table (field); NES plays on a hex map")
	}
}

// TestSchemaScenarioCD prints CD's scenario schema: a table with terrain
// features; corps and divisions with brigades under divisions; generals
// with a rating, bonus, the army's style and a promoted rating, and no
// quality or range; units with gun, class dice, CW, casualties, stands
// and skills.
func TestSchemaScenarioCD(t *testing.T) {
	out, errs, st := cli(t, "schema", "scenario", "--rules", "cd")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	golden(t, "out/schema-scenario-cd", out)
	var doc struct {
		Defs map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	has := func(def, key string) bool { _, ok := doc.Defs[def].Properties[key]; return ok }
	for _, c := range []struct {
		def, key string
		want     bool
	}{{"field", "features", true}, {"division", "brigades", true}, {"general", "rating", true}, {"general", "style", true},
		{"general", "quality", false}, {"general", "range", false}, {"unit", "dice", true}, {"unit", "gun", true}, {"unit", "stands", true},
		{"unit", "speed", false}, {"side", "brigades", false}} {
		if has(c.def, c.key) != c.want {
			t.Errorf("%s.%s in the CD schema: %v, want %v", c.def, c.key, has(c.def, c.key), c.want)
		}
	}
}
