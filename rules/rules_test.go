package rules

import "testing"

func TestBuiltinLoads(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables()) != 17 || len(s.Lookups()) != 17 {
		t.Errorf("%d tables and %d lookups, want 17 and 17", len(s.Tables()), len(s.Lookups()))
	}
}
