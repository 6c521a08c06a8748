package server_test

import (
	"encoding/json"
	"slices"
	"testing"

	"orderly/rules"
	"orderly/server"
)

// TestBundledFromRegistry: the scenarios a server offers are those of the
// examples it is given; a registry's examples (rules.Registry.Examples)
// give every registered rule set's, the same list as the default, and a
// registry of fewer rule sets offers only theirs.
func TestBundledFromRegistry(t *testing.T) {
	t.Parallel()
	list := func(opts ...server.Option) []map[string]any {
		t.Helper()
		f := newFixture(t, opts...)
		code, body := f.call("GET", "/api/scenarios", "", nil, nil)
		if code != 200 {
			t.Fatalf("scenarios: %d %s", code, body)
		}
		var out []map[string]any
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	rulesOf := func(l []map[string]any) []string {
		var out []string
		for _, b := range l {
			if id, _ := b["rules"].(string); !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		slices.Sort(out)
		return out
	}
	def := list()
	reg := list(server.WithBundled(rules.Default().Examples()))
	if len(def) == 0 || len(reg) != len(def) {
		t.Fatalf("the registry's examples offer %d scenarios, the default %d", len(reg), len(def))
	}
	for i := range def {
		if def[i]["id"] != reg[i]["id"] || def[i]["rules"] != reg[i]["rules"] {
			t.Errorf("scenario %d: the registry's is %v/%v, the default's %v/%v", i, reg[i]["rules"], reg[i]["id"], def[i]["rules"], def[i]["id"])
		}
	}
	if got, want := rulesOf(reg), slices.Sorted(slices.Values(rules.Procedures())); !slices.Equal(got, want) {
		t.Errorf("the registry's examples are of rule sets %v, want %v", got, want)
	}
	one := rules.Registry{}.With(rules.Default().Entry("bp"))
	if got := rulesOf(list(server.WithBundled(one.Examples()))); !slices.Equal(got, []string{"bp"}) {
		t.Errorf("a registry of BP alone offers scenarios of %v", got)
	}
}
