package rules

import (
	"os"
	"testing"

	"orderly/game"
	"orderly/table"
)

func TestBuiltinLoads(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables()) != 17 || len(s.Lookups()) != 18 {
		t.Errorf("%d tables and %d lookups, want 17 and 18 (BP's house rules among them)", len(s.Tables()), len(s.Lookups()))
	}
}

// TestMakeShares: a Maker makes each rule set once over each set of
// tables, and shares it; other tables make another.
func TestMakeShares(t *testing.T) {
	m, err := Make()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../examples/lob/example-tables.yaml")
	if err != nil {
		t.Fatal(err)
	}
	own := table.Source{Name: "example-tables.yaml", Data: data}
	made := func(id string, own ...table.Source) game.Rules {
		t.Helper()
		r, err := m(id, own...)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		return r
	}
	if made("nb") != made("nb") || made("lob", own) != made("lob", own) {
		t.Error("a rule set was made twice over the same tables")
	}
	if made("nb") == made("nb", own) || made("nb") == made("bp") {
		t.Error("rule sets over other tables, or of another id, are one")
	}
}
