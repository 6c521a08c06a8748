package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHouseRulesRefusedAtLoad: a house rule that the NB procedures cannot
// play (a required parameter they do not pass) is refused before anything
// runs, by sim and run alike: exit status 2 and one line on stderr, never
// an internal error; odds still shows the variant. It once crashed sim (nb.New's failure reached the
// scenario loader as a non-nil game.Rules holding a nil pointer).
func TestHouseRulesRefusedAtLoad(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"nb/reserve-arrival", "nb/order-delay"} {
		house := filepath.Join(dir, strings.ReplaceAll(id, "/", "_")+".yaml")
		text := "tables:\n  - id: " + id + "\n    params:\n      - {name: weather, kind: enum, required: true, values: {dry: 0, wet: -1}}\n"
		if err := os.WriteFile(house, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		passed := "quality (NB-10)"
		if id == "nb/order-delay" {
			passed = "nation, quality (NB-5)"
		}
		want := "orderly: " + house + ":4: table " + id + ": parameter weather is required, but the NB procedures pass only " + passed + "; make it optional with a default (e.g. required: false, default: dry)\n"
		for _, args := range [][]string{
			{"sim", demoScenario, "--plan", demoPlan, "--runs", "10", "--seed", "1", "--rules", house},
			{"sim", demoScenario, "--plan", demoPlan, "--runs", "10", "--rules", house},
			{"run", "../../examples/nb/seed-example.yaml", "--rules", house},
			{"run", "../../examples/nb/nb-10-off-board-reserve.yaml", "--rules", house},
		} {
			out, errs, status := cli(t, args...)
			if status != 2 || errs != want || out != "" {
				t.Errorf("%s %s: status %d, stdout %q, stderr %q; want 2, nothing, %q", args[0], id, status, out, errs, want)
			}
			if strings.Contains(errs, "internal error") {
				t.Errorf("%s %s: %s", args[0], id, errs)
			}
		}
		// The table commands take the variant: a designer explores it
		// before any procedure plays it.
		if out, errs, status := cli(t, "odds", id, "weather=wet", "--rules", house); status != 0 || !strings.Contains(out, "weather=wet") {
			t.Errorf("odds %s with the variant: %d %s %s", id, status, out, errs)
		}
	}
}
