package roster

import (
	"encoding/json"
	"io/fs"
	"path"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/rules"
)

// spec is the built-in rule set id's part of the format.
func spec(t testing.TB, id string) battle.Spec {
	t.Helper()
	s, err := rules.Spec(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRoundTripBundled writes the sides of every bundled scenario as a
// roster and reads it back: the same sides, key for key, less what a
// roster has no column for (an order's objective and note).
func TestRoundTripBundled(t *testing.T) {
	ex := rules.Default().Examples()
	n := 0
	for _, id := range rules.Procedures() {
		files, _ := fs.Glob(ex, id+"/*.yaml")
		for _, file := range files {
			data, err := fs.ReadFile(ex, file)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := yaml.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if sc, ok := doc["scenario"].(map[string]any); ok {
				doc = sc // a script's own scenario
			}
			if doc["sides"] == nil || doc["rules"] != id {
				continue // a plan, or a script over a bundled scenario
			}
			n++
			sp := spec(t, id)
			sides := doc["sides"].([]any)
			text, err := Write(sp, sides)
			if err != nil {
				t.Errorf("%s: Write: %v", file, err)
				continue
			}
			ro, err := Read(path.Base(file)+".csv", text, sp)
			if err != nil {
				t.Fatal(err)
			}
			if err := ro.Err(); err != nil {
				t.Errorf("%s: reading its roster back:\n%v\n%s", file, err, text)
				continue
			}
			got, _ := json.Marshal(ro.Sides)
			want, _ := json.Marshal(normal(sides))
			var g, w any
			_ = json.Unmarshal(got, &g)
			_ = json.Unmarshal(want, &w)
			gs, _ := json.Marshal(g)
			ws, _ := json.Marshal(w)
			if string(gs) != string(ws) {
				t.Errorf("%s: round trip differs:\ngot  %s\nwant %s", file, gs, ws)
			}
		}
	}
	t.Logf("%d scenarios", n)
	if n < 10 {
		t.Errorf("only %d bundled scenarios read", n)
	}
}

// normal is a document with orders cut to their kind.
func normal(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if k == "order" {
				if m, ok := x.(map[string]any); ok {
					x = m["kind"]
					if o, ok := m["objective"]; ok {
						x = map[string]any{"kind": m["kind"], "objective": o}
					}
				}
			}
			out[k] = normal(x)
		}
		return out
	case []any:
		var out []any
		for _, x := range v {
			out = append(out, normal(x))
		}
		return out
	}
	return v
}

var _ = strings.Contains
