package sim

import (
	"fmt"
	"testing"

	"orderly/game"
	"orderly/script"
)

// many notes, for each event, more subjects than the short list holds,
// each twice and again on every later event: a run must count each
// subject once, at the first event's turn.
type many struct{ game.Measurer }

func (many) Measure(e *game.Event, note func(subject, label string, turn int)) {
	for i := range 50 {
		note(fmt.Sprint("s", i), "", e.Turn)
		note(fmt.Sprint("s", i), "", e.Turn+1)
	}
}

func TestOnceNotesEachSubjectOnce(t *testing.T) {
	sc, r := DemoForTest(t)
	start, err := game.Prepare(sc, r)
	if err != nil {
		t.Fatal(err)
	}
	plan := &script.Plan{Until: 3}
	c := &counts{by: map[noted]int{}}
	var g *game.Game
	for run := range 3 {
		if g, err = once(start, g, many{r}, plan, uint64(run), c); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.by) != 50 {
		t.Fatalf("noted %d subject-turns, want 50 (each subject once a run, at its first turn): %v", len(c.by), c.by)
	}
	for i := range 50 {
		if n := c.by[noted{fmt.Sprint("s", i), "", 0}]; n != 3 {
			t.Errorf("subject s%d noted %d times at turn 0 over 3 runs, want 3", i, n)
		}
	}
}
