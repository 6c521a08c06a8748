package main

import (
	"encoding/json"
	"strings"
	"testing"

	"orderly/battle"
)

func TestSchemaScenario(t *testing.T) {
	out, errs, st := cli(t, "schema", "scenario")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", st, errs)
	}
	if !json.Valid([]byte(out)) {
		t.Fatalf("the output is not JSON:\n%s", out)
	}
	if out != string(battle.Schema()) {
		t.Error("the output differs from battle.Schema()")
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema is %v", doc["$schema"])
	}
}

// TestSchemaBadArgs: one line on stderr naming the schemas, exit status 2,
// nothing on stdout.
func TestSchemaBadArgs(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"schema", "nope"}, `orderly: unknown schema "nope"; allowed: scenario`},
		{[]string{"schema", "scenaro"}, `orderly: unknown schema "scenaro" (did you mean scenario?); allowed: scenario`},
		{[]string{"schema"}, "orderly: schema: name the schema to print; allowed: scenario"},
		{[]string{"schema", "scenario", "script"}, "orderly: schema: give one schema name, got 2; allowed: scenario"},
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
