package rules

import "testing"

func TestBuiltinLoads(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables()) != 16 || len(s.Lookups()) != 14 {
		t.Errorf("%d tables and %d lookups, want 16 and 14", len(s.Tables()), len(s.Lookups()))
	}
}
