package cd_test

import (
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules/cd"
)

// TestAdviceCoherence: a brigade whose lines stand 1.1" apart across the
// front is warned of in its side's activate step, in the words an
// activation of both would be refused with (CD-4); 1" apart it is not;
// the other side, which does not activate now, is told nothing, and its
// offers are empty.
func TestAdviceCoherence(t *testing.T) {
	r := engine(t)
	for _, c := range []struct {
		x    string
		warn bool
	}{{"35", false}, {"35.1", true}} {
		sc := scenario(t, r, "established", "", "{id: u1, type: infantry, formation: line, at: [30, 40], facing: 0}",
			"{id: u2, type: infantry, formation: line, at: ["+c.x+", 40], facing: 0}")
		g, errs := play(t, r, sc, []int{4, 4}, "{side: french, activate: {units: [u1, u2]}}")
		a := r.Advise(g.Sees("french"), g.Step(), "french", game.Names(sc))
		if !c.warn {
			if a != nil {
				t.Errorf("u2 at x %s: warned %+v; the lines are coherent", c.x, a)
			}
			continue
		}
		if a == nil || len(a.Warnings) != 1 {
			t.Fatalf("u2 at x %s: advice %+v; want one warning", c.x, a)
		}
		w := a.Warnings[0]
		if w.Rule != "CD-4" || w.Piece != "u2" || !strings.HasPrefix(w.Text, refusal(errs[0])) {
			t.Errorf("warning %+v; want CD-4 on u2 in the refusal's words %q", w, refusal(errs[0]))
		}
		if u := r.Advise(g.Sees(game.Umpire), g.Step(), game.Umpire, nil); u == nil || !slices.Equal(u.Warnings, a.Warnings) {
			t.Errorf("the umpire is told %+v; want the French warning", u)
		}
		if b := r.Advise(g.Sees("austrian"), g.Step(), "austrian", nil); b != nil {
			t.Errorf("the Austrians, who do not activate now, are told %+v", b)
		}
		if o := r.Offers(g.Sees("austrian"), g.Step(), "austrian"); len(o) != 0 {
			t.Errorf("the Austrians, who do not activate now, are offered %v", o)
		}
		if x := r.Annotate(g.Sees("austrian"), g.Step(), "austrian").(cd.Board); len(x.Divisions) != 0 {
			t.Errorf("the Austrians' board offers division activations %v in the French step", x.Divisions)
		}
	}
}
