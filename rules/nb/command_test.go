package nb_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nb"
)

func cmdPt(x, y float64) *geom.Point { p := geom.Pt(x, y); return &p }
func cmdF(v float64) *float64        { return &v }

func TestDecodeCommand(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want game.Command
	}{
		{
			name: "write for one id",
			in:   "{side: french, write: {for: I, kind: attack, objective: [30, 12], note: take the farm}}",
			want: game.Command{Side: "french", Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{"I"}, Kind: "attack", Objective: cmdPt(30, 12), Note: "take the farm"}}},
		},
		{
			name: "write for a list, to a general",
			in:   "side: french\nwrite:\n  for: [I, II-corps]\n  to: derlon\n  kind: defend\n",
			want: game.Command{Side: "french", Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{"I", "II-corps"}, To: "derlon", Kind: "defend"}}},
		},
		{
			name: "move one mapping",
			in:   "{side: french, move: {unit: I-1-a, to: [31, 21]}}",
			want: game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: "I-1-a", To: geom.Pt(31, 21)}}}},
		},
		{
			name: "move a list",
			in:   "side: french\nmove:\n  - {unit: I-1-a, to: [31, 21], formation: line, facing: 90}\n  - {general: quiot, to: [32.5, 20]}\n",
			want: game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{
				{Unit: "I-1-a", To: geom.Pt(31, 21), Shape: "line", Facing: cmdF(90)},
				{General: "quiot", To: geom.Pt(32.5, 20)},
			}}},
		},
		{
			name: "move with an override",
			in:   "side: umpire\nmove:\n  - {unit: a, to: [1, 2], override: forced march on the road}\n  - {unit: b, to: [3, 4]}\n",
			want: game.Command{Side: "umpire", Verb: "move", Args: &nb.Args{
				Moves:     []game.Move{{Unit: "a", To: geom.Pt(1, 2)}, {Unit: "b", To: geom.Pt(3, 4)}},
				Overrides: []string{"forced march on the road", ""},
			}},
		},
		{
			name: "move facing 0",
			in:   "{side: french, move: [{unit: a, to: [1, 2], facing: 0}]}",
			want: game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: "a", To: geom.Pt(1, 2), Facing: cmdF(0)}}}},
		},
		{
			name: "attach",
			in:   "{side: french, attach: {general: ney, to: I-1-a}}",
			want: game.Command{Side: "french", Verb: "attach", Args: &nb.Args{General: "ney", To: "I-1-a"}},
		},
		{
			name: "detach",
			in:   "{side: french, detach: ney}",
			want: game.Command{Side: "french", Verb: "detach", Args: &nb.Args{General: "ney"}},
		},
		{
			name: "redirect",
			in:   "{side: british, redirect: {messenger: british-3, to: alten}}",
			want: game.Command{Side: "british", Verb: "redirect", Args: &nb.Args{Messenger: "british-3", To: "alten"}},
		},
		{
			name: "complete",
			in:   "{side: french, complete: I}",
			want: game.Command{Side: "french", Verb: "complete", Args: &nb.Args{Formation: "I"}},
		},
		{
			name: "react one id",
			in:   "{side: british, react: 3rd-a}",
			want: game.Command{Side: "british", Verb: "react", Args: &nb.Args{Units: []string{"3rd-a"}}},
		},
		{
			name: "react a list",
			in:   "{side: british, react: [3rd-a, 3rd-b]}",
			want: game.Command{Side: "british", Verb: "react", Args: &nb.Args{Units: []string{"3rd-a", "3rd-b"}}},
		},
		{
			name: "combat one id",
			in:   "{side: french, combat: {units: I-1-a, target: 3rd}}",
			want: game.Command{Side: "french", Verb: "combat", Args: &nb.Args{Units: []string{"I-1-a"}, Target: "3rd"}},
		},
		{
			name: "combat a list",
			in:   "{side: french, combat: {units: [I-1-a, I-1-b], target: 3rd-b}}",
			want: game.Command{Side: "french", Verb: "combat", Args: &nb.Args{Units: []string{"I-1-a", "I-1-b"}, Target: "3rd-b"}},
		},
		{
			name: "rout one id",
			in:   "{side: umpire, rout: 3rd-a}",
			want: game.Command{Side: "umpire", Verb: "rout", Args: &nb.Args{Units: []string{"3rd-a"}}},
		},
		{
			name: "rout a list",
			in:   "{side: umpire, rout: [3rd-a]}",
			want: game.Command{Side: "umpire", Verb: "rout", Args: &nb.Args{Units: []string{"3rd-a"}}},
		},
		{
			name: "rally one id",
			in:   "{side: british, rally: 3rd-a}",
			want: game.Command{Side: "british", Verb: "rally", Args: &nb.Args{Units: []string{"3rd-a"}}},
		},
		{
			name: "rally a list",
			in:   "{side: british, rally: [3rd-a, 3rd-b, 3rd-c]}",
			want: game.Command{Side: "british", Verb: "rally", Args: &nb.Args{Units: []string{"3rd-a", "3rd-b", "3rd-c"}}},
		},
		{
			name: "remove killed",
			in:   "{side: umpire, remove: {general: ney, fate: killed}}",
			want: game.Command{Side: "umpire", Verb: "remove", Args: &nb.Args{General: "ney", Fate: "killed"}},
		},
		{
			name: "remove captured",
			in:   "{side: umpire, remove: {general: ney, fate: captured}}",
			want: game.Command{Side: "umpire", Verb: "remove", Args: &nb.Args{General: "ney", Fate: "captured"}},
		},
		{
			name: "replace",
			in:   "{side: french, replace: {general: ney, by: {id: ney-2, name: Reille, quality: poor, range: 6, at: [30, 20]}}}",
			want: game.Command{Side: "french", Verb: "replace", Args: &nb.Args{General: "ney", New: &nb.NewGeneral{ID: "ney-2", Name: "Reille", Quality: "poor", Range: 6, At: geom.Pt(30, 20)}}},
		},
		{
			name: "end true",
			in:   "{side: french, end: true}",
			want: game.Command{Side: "french", Verb: "end"},
		},
		{
			name: "end a step",
			in:   "{side: french, end: maneuver}",
			want: game.Command{Side: "french", Verb: "end", Step: "maneuver"},
		},
		{
			name: "JSON",
			in:   `{"side":"french","detach":"ney"}`,
			want: game.Command{Side: "french", Verb: "detach", Args: &nb.Args{General: "ney"}},
		},
		{
			name: "indented JSON",
			in:   "{\n\t\"side\": \"french\",\n\t\"move\": [{\"unit\": \"a\", \"to\": [1.5, 2], \"facing\": 180}]\n}\n",
			want: game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: "a", To: geom.Pt(1.5, 2), Facing: cmdF(180)}}}},
		},
		{
			name: "JSON write",
			in:   `{"side":"french","write":{"for":["I"],"kind":"attack","objective":[36,8]}}`,
			want: game.Command{Side: "french", Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{"I"}, Kind: "attack", Objective: cmdPt(36, 8)}}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := game.DecodeCommand(engine(t), []byte(c.in), "cmd")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("DecodeCommand(%q)\n got %+v\nwant %+v", c.in, got, c.want)
			}
			if !slices.Contains(append(engine(t).Verbs(), game.Ready, game.End), got.Verb) {
				t.Errorf("verb %q is not in Verbs", got.Verb)
			}
		})
	}
}

// Every verb has a decoding case above.
func TestDecodeCommandEveryVerb(t *testing.T) {
	ins := map[string]string{
		"write":    "{side: s, write: {for: I, kind: attack}}",
		"move":     "{side: s, move: {unit: u, to: [0, 0]}}",
		"attach":   "{side: s, attach: {general: g, to: u}}",
		"detach":   "{side: s, detach: g}",
		"redirect": "{side: s, redirect: {messenger: m, to: g}}",
		"complete": "{side: s, complete: f}",
		"react":    "{side: s, react: u}",
		"combat":   "{side: s, combat: {units: u, target: v}}",
		"rout":     "{side: s, rout: u}",
		"rally":    "{side: s, rally: u}",
		"remove":   "{side: s, remove: {general: g, fate: killed}}",
		"replace":  "{side: s, replace: {general: g, by: {id: h, quality: good, range: 1, at: [0, 0]}}}",
		"ready":    "{side: s, ready: true}",
		"end":      "{side: s, end: true}",
	}
	for _, v := range append(engine(t).Verbs(), game.Ready, game.End) {
		in, ok := ins[v]
		if !ok {
			t.Errorf("no test input for verb %q", v)
			continue
		}
		c, err := game.DecodeCommand(engine(t), []byte(in), "cmd")
		if err != nil || c.Verb != v || c.Side != "s" {
			t.Errorf("%s: %+v, %v", v, c, err)
		}
	}
}

func TestDecodeCommandBad(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want string // the whole message
	}{
		{"no side", "{detach: ney}",
			"cmd:1: command: side is missing: the side that gives the command, or umpire"},
		{"two verbs", "{side: french, end: true, detach: ney}",
			"cmd:1: command: give exactly one of write, move, attach, detach, redirect, complete, react, combat, rout, rally, remove, replace, ready, end, place, unready, take-back; got detach and end"},
		{"no verb", "{side: french}",
			"cmd:1: command: give exactly one of write, move, attach, detach, redirect, complete, react, combat, rout, rally, remove, replace, ready, end, place, unready, take-back; got none"},
		{"unknown field with hint", "side: french\ndetatch: ney\n",
			`cmd:2: command: unknown field "detatch" (did you mean detach?); allowed: side, dice, write, move, attach, detach, redirect, complete, react, combat, rout, rally, remove, replace, ready, end, place, unready, take-back`},
		{"unknown move field with hint", "side: french\nmove:\n  - {unit: a, to: [1, 2]}\n  - {unit: b, too: [1, 2]}\n",
			`cmd:4: command.move[1]: unknown field "too" (did you mean to?); allowed: unit, general, to, formation, facing, override`},
		{"move without to", "side: french\nmove:\n  - {unit: a, to: [1, 2]}\n  - {unit: b}\n",
			"cmd:4: command.move[1]: to is missing: where the piece goes, [x, y]"},
		{"move to not a point", "side: french\nmove:\n  - {unit: a, to: [1, 2]}\n  - {unit: b, to: here}\n",
			`cmd:4: command.move[1].to: want a position [x, y] in inches, got "here"`},
		{"move to a bad number", "side: french\nmove:\n  - {unit: a, to: [1, 2]}\n  - {unit: b, to: [1, x]}\n",
			`cmd:4: command.move[1].to[1]: want a number, got "x"`},
		{"move with unit and general", "{side: french, move: {unit: a, general: ney, to: [1, 2]}}",
			"cmd:1: command.move: give either unit or general"},
		{"move with neither", "{side: french, move: [{to: [1, 2]}]}",
			"cmd:1: command.move[0]: give either unit or general"},
		{"move general with facing", "{side: french, move: {general: ney, to: [1, 2], facing: 10}}",
			"cmd:1: command.move: a general has no formation or facing; move him with general and to"},
		{"facing 400", "{side: french, move: {unit: a, to: [1, 2], facing: 400}}",
			"cmd:1: command.move.facing: 400 is out of range; allowed: 0 up to 360 degrees"},
		{"facing 360", "side: french\nmove:\n  - {unit: a, to: [1, 2], facing: 360}\n",
			"cmd:3: command.move[0].facing: 360 is out of range; allowed: 0 up to 360 degrees"},
		{"override a general's move", "{side: umpire, move: {general: ney, to: [1, 2], override: lost}}",
			"cmd:1: command.move.override: a general has no speed to pass; override is for a unit's move"},
		{"override without a reason", "{side: umpire, move: {unit: a, to: [1, 2], override: ' '}}",
			"cmd:1: command.move.override: the reason is empty; say why the umpire lets this move pass the unit's speed"},
		{"empty move list", "{side: french, move: []}",
			"cmd:1: command.move: the list of moves is empty"},
		{"fate drowned", "side: umpire\nremove:\n  general: ney\n  fate: drowned\n",
			`cmd:4: command.remove.fate: "drowned" is not one of killed, captured`},
		{"remove without fate", "{side: umpire, remove: {general: ney}}",
			"cmd:1: command.remove: fate is missing"},
		{"write without kind", "side: french\nwrite:\n  for: I\n",
			"cmd:3: command.write: kind is missing"},
		{"write for an empty list", "{side: french, write: {for: [], kind: attack}}",
			"cmd:1: command.write.for: the list is empty"},
		{"write for a bad id", "side: french\nwrite: {for: [I, 'II corps'], kind: attack}\n",
			`cmd:2: command.write.for[1]: "II corps" has the character ' '; an id uses letters, digits and - . _`},
		{"react with a list in a list", "{side: british, react: [a, [b]]}",
			"cmd:1: command.react[1]: want a text value, got a list"},
		{"combat without a target", "{side: french, combat: I-1-a}",
			"cmd:1: command.combat: give units and target, e.g. {units: [I-1-a], target: B-1}: the units that start combat and the enemy unit or division they attack (NB-6)"},
		{"combat target missing", "{side: french, combat: {units: [I-1-a]}}",
			"cmd:1: command.combat: target is missing"},
		{"rally an empty list", "{side: british, rally: []}",
			"cmd:1: command.rally: the list is empty"},
		{"attach without to", "{side: french, attach: {general: ney}}",
			"cmd:1: command.attach: to is missing"},
		{"replace without at", "{side: french, replace: {general: ney, by: {id: x, quality: good, range: 4}}}",
			"cmd:1: command.replace.by: at is missing"},
		{"replace range 0", "{side: french, replace: {general: ney, by: {id: x, quality: good, range: 0, at: [1, 2]}}}",
			"cmd:1: command.replace.by.range: 0 is out of range; allowed: more than 0 up to 1000 inches"},
		{"end nothing", "{side: french, end: }",
			"cmd:1: command.end: want true, or the name of the step or phase being ended, got nothing"},
		{"side with a space", "{side: 'a b', end: true}",
			`cmd:1: command.side: "a b" has the character ' '; an id uses letters, digits and - . _`},
		{"not a mapping", "[1, 2]",
			"cmd:1: command: want a mapping of side, dice, write, move, attach, detach, redirect, complete, react, combat, rout, rally, remove, replace, ready, end, place, unready, take-back, got a list"},
		{"empty", "",
			"cmd: the file is empty; write a command such as {side: french, end: true}"},
		{"JSON unknown field", `{"side":"french","detatch":"ney"}`,
			`cmd:1: command: unknown field "detatch" (did you mean detach?); allowed: side, dice, write, move, attach, detach, redirect, complete, react, combat, rout, rally, remove, replace, ready, end, place, unready, take-back`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := game.DecodeCommand(engine(t), []byte(c.in), "cmd")
			if err == nil {
				t.Fatalf("DecodeCommand(%q) succeeded; want %q", c.in, c.want)
			}
			if err.Error() != c.want {
				t.Errorf("DecodeCommand(%q)\n got %q\nwant %q", c.in, err, c.want)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error is more than one line: %q", err)
			}
		})
	}
}

// TestDecodeCommandReadyFalse checks that ready takes only true.
func TestDecodeCommandReadyFalse(t *testing.T) {
	for _, in := range []string{"{side: french, ready: false}", "{side: french, ready: move}", "{side: french, ready: [1]}"} {
		c, err := game.DecodeCommand(engine(t), []byte(in), "cmd")
		if err == nil || !strings.Contains(err.Error(), "command.ready: want true") {
			t.Errorf("%s decoded as %+v, %v; want an error", in, c, err)
		}
	}
}

// TestDecodeCommandEndFalse checks that end: false is refused when decoded,
// not taken as the name of a step.
func TestDecodeCommandEndFalse(t *testing.T) {
	c, err := game.DecodeCommand(engine(t), []byte("{side: french, end: false}"), "cmd")
	if err == nil {
		t.Errorf("end: false decoded as %+v; want an error", c)
	}
}
