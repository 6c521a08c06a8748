package rules

import "testing"

func TestBuiltinLoads(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables()) != 13 || len(s.Lookups()) != 12 {
		t.Errorf("%d tables and %d lookups, want 13 and 12", len(s.Tables()), len(s.Lookups()))
	}
}
