package rules

import "testing"

func TestBuiltinLoads(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables()) != 11 || len(s.Lookups()) != 7 {
		t.Errorf("%d tables and %d lookups, want 11 and 7", len(s.Tables()), len(s.Lookups()))
	}
}
