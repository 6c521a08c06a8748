package battle_test

import (
	"fmt"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/geom"
)

// ldResult is a result section for ldBase: two objectives and a margin.
const ldResult = `result:
  objectives:
    - {name: La Haye Sainte, at: [36, 20], points: 3, radius: 4}
    - {name: The ridge, at: [20, 24], points: 1, radius: 6}
  margin: 1
`

// TestResultLoads reads a scenario's result section into Scenario.Result.
func TestResultLoads(t *testing.T) {
	sc := ldMustLoad(t, ldBase+ldResult)
	r := sc.Result
	if r == nil || r.Margin != 1 || len(r.Objectives) != 2 {
		t.Fatalf("result %+v; want two objectives and margin 1", r)
	}
	o := r.Objectives[0]
	if o.Name != "La Haye Sainte" || o.At != geom.Pt(36, 20) || o.Points != 3 || o.Radius != 4 {
		t.Errorf("first objective %+v", o)
	}
	if ldMustLoad(t, ldBase).Result != nil {
		t.Errorf("a scenario without result: has a result")
	}
}

// TestResultErrors: a bad result section is one sentence naming where
// and what is allowed.
func TestResultErrors(t *testing.T) {
	cases := []struct {
		name, old, new string
		line           string // a text on the line the error names
		want           string
	}{
		{"unknown key", "points: 3, radius: 4", "pionts: 3, radius: 4", "La Haye", `result.objectives[0]: unknown field "pionts" (did you mean points?)`},
		{"points missing", "points: 3, radius: 4", "radius: 4", "La Haye", "result.objectives[0]: points is missing"},
		{"at missing", "at: [36, 20], ", "", "La Haye", "result.objectives[0]: at is missing"},
		{"points out of range", "points: 3,", "points: 0,", "La Haye", "result.objectives[0].points: 0 is out of range; allowed: 1..10000"},
		{"off the table", "at: [36, 20]", "at: [36, 60]", "La Haye", "result.objectives[0].at: (36, 60) is off the table"},
		{"named twice", "name: The ridge, at", "name: La Haye Sainte, at", "points: 1", `result.objectives[1]: name "La Haye Sainte" is already the name of result.objectives[0]`},
		{"no radius on a table", "points: 1, radius: 6", "points: 1", "The ridge", "result.objectives[1].radius: on a table an objective needs a radius above 0 inches"},
		{"negative margin", "margin: 1", "margin: -1", "margin", "result.margin: -1 is out of range"},
		{"unknown section key", "  margin: 1", "  margins: 1", "margins", `result: unknown field "margins" (did you mean margin?)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(ldResult, c.old) {
				t.Fatalf("%q is not in the result section", c.old)
			}
			src := ldBase + strings.Replace(ldResult, c.old, c.new, 1)
			_, err := battle.Load(ldFile, []byte(src), ldSpec)
			if err == nil {
				t.Fatalf("loaded; want an error containing %q", c.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) {
				t.Errorf("error %q\ndoes not contain %q", msg, c.want)
			}
			prefix := fmt.Sprintf("%s:%d: ", ldFile, ldLineOf(t, src, c.line))
			if !strings.HasPrefix(msg, prefix) {
				t.Errorf("error %q\ndoes not start with %q", msg, prefix)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is more than one line", msg)
			}
		})
	}
}

// TestResultCanonical: orderly format puts the result section after the
// sides, and an objective's keys in the format's order.
func TestResultCanonical(t *testing.T) {
	src := "result:\n  margin: 2\n  objectives:\n    - {radius: 4, points: 3, name: Farm, at: [36, 20]}\n" + ldBase
	out, err := battle.Format(ldFile, []byte(src), func(string) (battle.RuleSet, error) { return nil, fmt.Errorf("none") })
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	want := "result:\n  objectives:\n    - name: Farm\n      at: [36, 20]\n      points: 3\n      radius: 4\n  margin: 2\n"
	if !strings.HasSuffix(text, want) {
		t.Errorf("canonical form ends\n%s\nwant it to end\n%s", text[max(0, len(text)-200):], want)
	}
}
