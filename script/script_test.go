package script_test

import (
	"os"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules"
	"orderly/script"
)

// A roll's subject is an id, or ids joined by / (a LOB order relayed
// down): the relayed orders' rolls of lob-04-relay are pinned so; an
// empty part, a character no id has, or too many parts are refused with
// the line and what is allowed.
func TestRollSubject(t *testing.T) {
	data, err := os.ReadFile("../examples/lob/lob-04-relay.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := rules.Load("../examples/lob/example-tables.yaml")
	if err != nil {
		t.Fatal(err)
	}
	eng := func(id string) (game.Rules, error) { return rules.Engine(id, set) }
	s, err := script.Load("relay.yaml", data, eng, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range s.Rolls {
		found = found || r.For == "union-1/A"
	}
	if !found {
		t.Fatal("the roll for union-1/A is not read")
	}
	for bad, want := range map[string]string{
		"union-1//A":   "the id is empty",
		"union-1/A B":  "has the character",
		"a/b/c/d/e":    "at most 4",
		"union-1/A/":   "the id is empty",
		"/union-1":     "the id is empty",
		"union-1/A\\B": "has the character",
	} {
		src := strings.Replace(string(data), "for: union-1/A,", "for: \""+strings.ReplaceAll(bad, "\\", "\\\\")+"\",", 1)
		_, err := script.Load("relay.yaml", []byte(src), eng, script.NoFiles)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "relay.yaml:") {
			t.Errorf("for %q: %v; want an error with the line saying %q", bad, err, want)
		}
	}
}
