package nb_test

import (
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules/nb"
)

// FuzzDecodeCommand checks that DecodeCommand never panics, that every
// error is one line naming where the command came from, and that a decoded
// command has a side and one of the verbs.
func FuzzDecodeCommand(f *testing.F) {
	for _, s := range []string{
		"{side: french, write: {for: I, kind: attack, objective: [30, 12], note: take the farm}}",
		"side: french\nwrite:\n  for: [I, II]\n  to: derlon\n  kind: defend\n",
		"side: french\nmove:\n  - {unit: I-1-a, to: [31, 21], formation: line, facing: 90}\n  - {general: quiot, to: [32, 20]}\n",
		"{side: french, move: {unit: a, to: [1, 2]}}",
		"{side: french, attach: {general: ney, to: I-1-a}}",
		"{side: french, detach: ney}",
		"{side: british, redirect: {messenger: british-3, to: alten}}",
		"{side: french, complete: I}",
		"{side: british, react: [3rd-a, 3rd-b]}",
		"{side: french, combat: {units: [I-1-a], target: 3rd}}",
		"{side: french, combat: I-1-a}",
		"{side: umpire, rout: [3rd-a]}",
		"{side: british, rally: 3rd-a}",
		"{side: umpire, remove: {general: ney, fate: killed}}",
		"{side: french, replace: {general: ney, by: {id: ney-2, quality: poor, range: 6, at: [30, 20]}}}",
		"{side: french, end: true}",
		"{side: french, end: maneuver}",
		`{"side":"french","detach":"ney"}`,
		"{side: french, move: {unit: a, to: [1, 2], facing: 400}}",
		"{side: french, end: true, detach: ney}",
		"",
		"[1, 2]",
		"a: &x [*x, *x]",
	} {
		f.Add(s)
	}
	const where = "cmd.yaml"
	r := engine(f)
	f.Fuzz(func(t *testing.T, in string) {
		c, err := game.DecodeCommand(r, []byte(in), where)
		if err != nil {
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error is more than one line: %q", msg)
			}
			if !strings.HasPrefix(msg, where+":") {
				t.Fatalf("error does not start with %q: %q", where+":", msg)
			}
			return
		}
		if c.Side == "" {
			t.Fatalf("decoded %+v with no side", c)
		}
		if !slices.Contains(append(r.Verbs(), game.Ready, game.End), c.Verb) {
			t.Fatalf("decoded %+v with verb %q, not one of %v", c, c.Verb, append(r.Verbs(), game.Ready, game.End))
		}
		a, _ := c.Args.(*nb.Args)
		if a == nil {
			if c.Verb != game.Ready && c.Verb != game.End {
				t.Fatalf("decoded %+v without NB arguments", c)
			}
			a = &nb.Args{}
		}
		switch c.Verb {
		case "write":
			if a.Write == nil || len(a.Write.For) == 0 || a.Write.Kind == "" {
				t.Fatalf("write without for or kind: %+v", a.Write)
			}
		case "move":
			if len(a.Moves) == 0 {
				t.Fatalf("move without moves")
			}
			for _, m := range a.Moves {
				if (m.Unit == "") == (m.General == "") {
					t.Fatalf("move %+v names not exactly one piece", m)
				}
				if m.Facing != nil && (*m.Facing < 0 || *m.Facing >= 360) {
					t.Fatalf("move facing %v", *m.Facing)
				}
			}
		case "react", "combat", "rout", "rally":
			if len(a.Units) == 0 {
				t.Fatalf("%s without units", c.Verb)
			}
			if (c.Verb == "combat") != (a.Target != "") {
				t.Fatalf("%s with target %q", c.Verb, a.Target)
			}
		case "remove":
			if a.Fate != "killed" && a.Fate != "captured" {
				t.Fatalf("remove with fate %q", a.Fate)
			}
		case "replace":
			if a.New == nil || a.New.ID == "" || a.New.Range <= 0 {
				t.Fatalf("replace with %+v", a.New)
			}
		}
	})
}
