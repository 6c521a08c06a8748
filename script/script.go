// Package script plays a game from a file: a scenario, the commands of each
// turn and phase, and optionally the natural rolls to use (a player's
// physical dice, or a test's). It also checks the expectations a script
// states about its timeline, so that every example is its own test.
package script

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/strict"
)

// Script is a scripted game.
type Script struct {
	Name     string
	Title    string
	Scenario *battle.Scenario
	Seed     uint64
	// Dice is where the game's dice are thrown (game.DiceTable,
	// game.DiceMixed): the commands then give the dice of their rolls.
	Dice   string
	Until  int // the last turn to play
	Rolls  []Roll
	Steps  []Commands
	Expect []Expect
	File   string
	// Refused, when set, is what the script expects of its scenario: to
	// be refused, with an error that says this. Such a script has no
	// game (its Scenario is nil); Refusal is the error the scenario got.
	Refused string
	Refusal error
}

// Roll fixes the dice of one roll: the table rolled for a formation or
// general on a turn (0 for rolls before the game).
type Roll struct {
	Turn    int
	Table   string
	For     string
	Faces   []int
	Natural int
	Line    int
	used    bool
}

// Commands are the commands given in one phase of one turn.
type Commands struct {
	Turn     int
	Phase    string
	Commands []game.Command
	Line     int
}

// Expect is a fact the timeline must (or, with Not, must not) contain: an
// entry whose fields equal every given one.
type Expect struct {
	Fields map[string]string
	Not    bool
	Line   int

	order []string                                    // the fields in the order they are shown
	match func(e *game.Event, name, want string) bool // the rule set's fields
}

// Engine makes the rule set a scenario names.
type Engine func(id string) (game.Rules, error)

// Files finds the scenario that a script names instead of giving it
// inline: script is the script's own file name, name what its scenario
// field says. It returns the file name to use in messages and the text.
// Who reads a script decides what a name may reach: its own user's disk
// (Disk), or nothing at all (NoFiles), as for anything a server receives.
type Files func(script, name string) (file string, data []byte, err error)

// Disk reads a named scenario from the local disk, relative to the script,
// for the command line, where the user names his own files.
func Disk(script, name string) (string, []byte, error) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(script), path)
	}
	data, err := os.ReadFile(path)
	return path, data, err
}

// NoFiles refuses every name: the document must hold its scenario inline.
// It is what a received document (an upload, an export) is read with, so
// that nothing in it can reach a file.
func NoFiles(_, name string) (string, []byte, error) {
	return "", nil, fmt.Errorf("%s names a file, and here a scenario must be given inline", strict.Quote(name, 80))
}

// Load reads a script. A scenario given as a name instead of inline is
// found by files.
func Load(file string, data []byte, engine Engine, files Files) (*Script, error) {
	r := strict.Reader{File: file, Want: "a script: scenario, and turns of commands"}
	n, err := r.Parse(data)
	if err != nil {
		return nil, err
	}
	f, err := r.Fields(n, "script", "script", "title", "scenario", "refused", "seed", "dice", "until", "rolls", "turns", "expect")
	if err != nil {
		return nil, err
	}
	s := &Script{File: file, Seed: 1}
	if f["scenario"] == nil {
		return nil, r.Errf(n, "script: scenario is missing: a file name, or the scenario itself")
	}
	if f["script"] != nil {
		if s.Name, err = r.Word(f["script"], "script"); err != nil {
			return nil, err
		}
	}
	if f["title"] != nil {
		if s.Title, err = r.Str(f["title"], "title"); err != nil {
			return nil, err
		}
	}
	if f["refused"] != nil {
		return s, refused(r, s, f, engine, files)
	}
	if s.Scenario, err = scenario(r, f["scenario"], engine, files); err != nil {
		return nil, err
	}
	rules, err := engine(s.Scenario.Rules)
	if err != nil {
		return nil, r.Errf(f["scenario"], "scenario: %v", err)
	}
	s.Until = s.Scenario.Turns
	if f["seed"] != nil {
		v, err := r.Int(f["seed"], "seed")
		if err != nil {
			return nil, err
		}
		if v < 0 {
			return nil, r.Errf(f["seed"], "seed: want a whole number of 0 or more, got %d", v)
		}
		s.Seed = uint64(v)
	}
	if f["dice"] != nil {
		if s.Dice, err = r.Word(f["dice"], "dice"); err != nil {
			return nil, err
		}
		if err := game.CheckDice(s.Dice); err != nil {
			return nil, r.Errf(f["dice"], "dice: %v", err)
		}
	}
	if f["until"] != nil {
		if s.Until, err = r.Int(f["until"], "until"); err != nil {
			return nil, err
		}
		if s.Until < 1 || s.Until > s.Scenario.Turns {
			return nil, r.Errf(f["until"], "until: %d is out of range; allowed: 1..%d, the scenario's turns", s.Until, s.Scenario.Turns)
		}
	}
	if f["rolls"] != nil {
		if s.Rolls, err = rolls(r, f["rolls"], rules); err != nil {
			return nil, err
		}
	}
	if f["turns"] != nil {
		if s.Steps, err = turns(r, f["turns"], s.Scenario, rules); err != nil {
			return nil, err
		}
	}
	if f["expect"] != nil {
		if s.Expect, err = expects(r, f["expect"], rules); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// refused reads a script that expects its scenario to be refused (a
// scenario's checks are rules too): it has only a title and the text
// the refusal must contain, and it holds when the scenario, read and
// prepared for a game as the server would, is refused with that text.
func refused(r strict.Reader, s *Script, f map[string]*yaml.Node, engine Engine, files Files) error {
	for _, k := range []string{"seed", "dice", "until", "rolls", "turns", "expect"} {
		if f[k] != nil {
			return r.Errf(f[k], "%s: a script that expects its scenario refused (refused:) plays nothing, so it has no %s", k, k)
		}
	}
	want, err := r.Str(f["refused"], "refused")
	if err != nil {
		return err
	}
	if strings.TrimSpace(want) == "" {
		return r.Errf(f["refused"], "refused: want the text the scenario's refusal must contain, got nothing")
	}
	s.Refused = want
	// A scenario file that cannot be read is the script's own error, never
	// the refusal it expects.
	var file string
	var data []byte
	if n := f["scenario"]; n.Kind == yaml.ScalarNode {
		if file, data, err = files(r.File, n.Value); err != nil {
			return r.Errf(n, "scenario: %v", err)
		}
	}
	err = func() error {
		var sc *battle.Scenario
		var err error
		if file != "" {
			sc, err = LoadScenario(file, data, engine)
		} else {
			sc, err = scenario(r, f["scenario"], engine, files)
		}
		if err != nil {
			return err
		}
		rules, err := engine(sc.Rules)
		if err != nil {
			return r.Errf(f["scenario"], "scenario: %v", err)
		}
		if _, err := game.Prepare(sc, rules); err != nil {
			return fmt.Errorf("%s: %w", r.File, err)
		}
		return nil
	}()
	switch {
	case err == nil:
		return r.Errf(f["refused"], "refused: the scenario loads, but the script expects it refused with %s", strict.Quote(want, 120))
	case !strings.Contains(err.Error(), want):
		return r.Errf(f["refused"], "refused: the scenario is refused, but not with %s: %v", strict.Quote(want, 120), err)
	}
	s.Refusal = err
	return nil
}

func scenario(r strict.Reader, n *yaml.Node, engine Engine, files Files) (*battle.Scenario, error) {
	if n.Kind == yaml.ScalarNode {
		path, data, err := files(r.File, n.Value)
		if err != nil {
			return nil, r.Errf(n, "scenario: %v", err)
		}
		return LoadScenario(path, data, engine)
	}
	return battle.ReadNode(r.File, n, engine.find)
}

// find is the engine as battle.Read looks up a rule set.
func (e Engine) find(id string) (battle.RuleSet, error) { return e(id) }

// LoadScenario reads a scenario file with the vocabulary of the rule set it
// names, and checks it against that rule set (battle.Read).
func LoadScenario(file string, data []byte, engine Engine) (*battle.Scenario, error) {
	return battle.Read(file, data, engine.find)
}

// subject reads what a roll is for: an id, or ids joined by / (an order
// relayed down, as LOB names one: union-1/II-1).
func subject(r strict.Reader, n *yaml.Node, where string) (string, error) {
	s, err := r.Str(n, where)
	if err != nil {
		return "", err
	}
	parts := strings.Split(s, "/")
	if len(parts) > 4 {
		return "", r.Errf(n, "%s: %s joins %d ids; a roll's subject is an id, or at most 4 joined by /", where, strict.Quote(s, 60), len(parts))
	}
	for _, p := range parts {
		if err := strict.CheckID(p); err != nil {
			return "", r.Errf(n, "%s: %v (a roll's subject is an id, or ids joined by /)", where, err)
		}
	}
	return s, nil
}

func rolls(r strict.Reader, n *yaml.Node, rules game.Rules) ([]Roll, error) {
	items, err := r.List(n, "rolls")
	if err != nil {
		return nil, err
	}
	var out []Roll
	for i, it := range items {
		w := fmt.Sprintf("rolls[%d]", i)
		f, err := r.Fields(it, w, "turn", "table", "for", "natural", "faces")
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"turn", "table", "for"} {
			if f[k] == nil {
				return nil, r.Errf(it, "%s: %s is missing", w, k)
			}
		}
		ro := Roll{Line: it.Line}
		if ro.Turn, err = r.Int(f["turn"], w+".turn"); err != nil {
			return nil, err
		}
		if ro.Table, err = r.Word(f["table"], w+".table"); err != nil {
			return nil, err
		}
		if ro.For, err = subject(r, f["for"], w+".for"); err != nil {
			return nil, err
		}
		t, err := rules.Table(ro.Table)
		if err != nil {
			return nil, r.Errf(f["table"], "%s.table: %v", w, err)
		}
		switch {
		case f["natural"] != nil && f["faces"] == nil:
			if ro.Natural, err = r.Int(f["natural"], w+".natural"); err != nil {
				return nil, err
			}
			if t.Dice.Count != 1 && !t.ClassDice {
				return nil, r.Errf(f["natural"], "%s: %s rolls %s; give each die under faces", w, t.ID, t.Dice)
			}
			ro.Faces = []int{ro.Natural}
		case f["faces"] != nil && f["natural"] == nil:
			if ro.Faces, err = r.Ints(f["faces"], w+".faces"); err != nil {
				return nil, err
			}
			switch {
			case t.Pool != nil && len(ro.Faces) == 0:
				return nil, r.Errf(f["faces"], "%s.faces: give the faces of every die %s rolls, in the order rolled (stage by stage, a die rolled again right after it)", w, t.ID)
			case t.ClassDice && len(ro.Faces) == 0:
				return nil, r.Errf(f["faces"], "%s.faces: give the face of every class die the unit rolls", w)
			case t.Pool == nil && !t.ClassDice && len(ro.Faces) != t.Dice.Count:
				return nil, r.Errf(f["faces"], "%s.faces: %s rolls %s, so give %d faces", w, t.ID, t.Dice, t.Dice.Count)
			}
		default:
			return nil, r.Errf(it, "%s: give either natural (one die) or faces", w)
		}
		lo := 1
		if t.Dice.Zero {
			lo = 0
		}
		for _, fc := range ro.Faces {
			if t.ClassDice {
				// A unit's class dice stand in for the table's: the
				// faces are checked against them when rolled.
				if fc < 0 || fc > 1000 {
					return nil, r.Errf(it, "%s: face %d is not on a die; allowed: 0..1000", w, fc)
				}
				continue
			}
			if fc < lo || fc > lo+t.Dice.Sides-1 {
				return nil, r.Errf(it, "%s: face %d is not on a d%d; allowed: %d..%d", w, fc, t.Dice.Sides, lo, lo+t.Dice.Sides-1)
			}
		}
		out = append(out, ro)
	}
	return out, nil
}

func turns(r strict.Reader, n *yaml.Node, sc *battle.Scenario, rules game.Rules) ([]Commands, error) {
	items, err := r.List(n, "turns")
	if err != nil {
		return nil, err
	}
	steps := rules.Sequence(sc)
	if len(steps) == 0 {
		return nil, r.Errf(n, "turns: rule set %s has no fixed order of phases, so a script cannot give its commands turn by turn", rules.ID())
	}
	var phases []string
	player := map[string]bool{}
	for _, s := range steps {
		if !slices.Contains(phases, s.Phase) {
			phases = append(phases, s.Phase)
		}
		if s.Player() {
			player[s.Phase] = true
		}
	}
	var out []Commands
	last := 0
	for i, it := range items {
		w := fmt.Sprintf("turns[%d]", i)
		f, err := r.Fields(it, w, append([]string{"turn"}, phases...)...)
		if err != nil {
			return nil, err
		}
		if f["turn"] == nil {
			return nil, r.Errf(it, "%s: turn is missing", w)
		}
		t, err := r.Int(f["turn"], w+".turn")
		if err != nil {
			return nil, err
		}
		if t <= last {
			return nil, r.Errf(f["turn"], "%s.turn: turns go in order, each once; %d follows %d", w, t, last)
		}
		last = t
		for _, ph := range phases {
			if f[ph] == nil {
				continue
			}
			if !player[ph] {
				return nil, r.Errf(f[ph], "%s.%s: the %s phase takes no commands", w, ph, ph)
			}
			cs, err := r.List(f[ph], w+"."+ph)
			if err != nil {
				return nil, err
			}
			c := Commands{Turn: t, Phase: ph, Line: f[ph].Line}
			for j, cn := range cs {
				cmd, err := game.CommandFromNode(rules, r, cn, fmt.Sprintf("%s.%s[%d]", w, ph, j))
				if err != nil {
					return nil, err
				}
				c.Commands = append(c.Commands, cmd)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// engineFields are the fields of the engine's envelope an expectation can
// test; a rule set (game.Fielder) adds its own.
var engineFields = []string{"turn", "phase", "step", "type", "side", "result", "natural", "total", "from", "rule", "verb"}

func expects(r strict.Reader, n *yaml.Node, rules game.Rules) ([]Expect, error) {
	items, err := r.List(n, "expect")
	if err != nil {
		return nil, err
	}
	order, match := rules.Fields(), rules.Match
	if len(order) == 0 {
		order = engineFields
	}
	if !slices.Contains(order, "from") {
		// Where a roll's dice were thrown is the engine's, in every rule set.
		order = append(slices.Clone(order), "from")
	}
	expectable := append(slices.Clone(order), "not")
	var out []Expect
	for i, it := range items {
		w := fmt.Sprintf("expect[%d]", i)
		pairs, err := r.Fields(it, w, expectable...)
		if err != nil {
			return nil, err
		}
		e := Expect{Fields: map[string]string{}, Line: it.Line, order: order, match: match}
		for k, v := range pairs {
			if k == "not" {
				if e.Not, err = r.Bool(v, w+".not"); err != nil {
					return nil, err
				}
				continue
			}
			if e.Fields[k], err = r.Str(v, w+"."+k); err != nil {
				return nil, err
			}
		}
		if len(e.Fields) == 0 {
			return nil, r.Errf(it, "%s: name at least one field; allowed: %s", w, strings.Join(expectable, ", "))
		}
		out = append(out, e)
	}
	return out, nil
}

// dice gives the script's fixed rolls, and the seeded generator for the
// rest.
type scriptDice struct {
	s    *Script
	rest game.Dice
}

func (d *scriptDice) Roller(k game.RollKey) dice.Roller {
	for i := range d.s.Rolls {
		ro := &d.s.Rolls[i]
		if !ro.used && ro.Turn == k.Turn && ro.Table == k.Table && ro.For == k.Subject {
			ro.used = true
			return dice.NewScripted(ro.Faces...)
		}
	}
	return d.rest.Roller(k)
}

// Run plays the script and returns its timeline: every event of the game,
// with the rejected commands in their place, and at the end, once the game
// is over, the result its scenario defines (game.GameResult).
func (s *Script) Run(rules game.Rules) (*game.Game, []game.Event, error) {
	if s.Scenario == nil {
		return nil, nil, fmt.Errorf("%s: this script expects its scenario refused (refused:), so it has no game to play", s.File)
	}
	for i := range s.Rolls {
		s.Rolls[i].used = false
	}
	g, err := game.New(s.Scenario, rules, &scriptDice{s: s, rest: game.Seeded(s.Seed)}, game.WithDice(s.Dice))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", s.File, err)
	}
	var timeline []game.Event
	seen := 0
	flush := func() {
		for _, e := range g.Since(seen) {
			if e.Turn <= s.Until {
				timeline = append(timeline, e)
			}
		}
		seen = g.Len()
	}
	plan := &Plan{Steps: s.Steps, Until: s.Until, File: s.File}
	err = plan.Play(g, func(c game.Command, ge *game.Error) {
		flush()
		st := g.State()
		timeline = append(timeline, game.Event{Turn: st.Turn, Phase: st.Phase, Step: st.Step, Type: game.CommandRejected,
			Side: c.Side, See: c.Side, Rule: ge.Rule, Data: &game.Rejected{Why: ge.Msg, Command: &c}})
	})
	if err != nil {
		return nil, nil, err
	}
	flush()
	if st := g.State(); st.Over && st.Turn <= s.Until {
		if o := game.Result(s.Scenario, st); o != nil {
			timeline = append(timeline, game.Event{Turn: st.Turn, Phase: st.Phase, Step: st.Step, Type: game.GameResult,
				Side: o.Winner, See: game.All, Data: o})
		}
	}
	for _, ro := range s.Rolls {
		if !ro.used {
			return nil, nil, &strict.Error{File: s.File, Line: ro.Line, Msg: fmt.Sprintf("no %s roll for %s was made on turn %d", ro.Table, ro.For, ro.Turn)}
		}
	}
	return g, timeline, nil
}

// Plan is the commands of a game, turn by turn and phase by phase, played
// until a given turn.
type Plan struct {
	Steps []Commands
	Until int
	File  string
	// phase is the place of each phase in the rule set's turn, worked
	// out once when the plan is loaded (Play works it out otherwise).
	phase map[string]int
}

// phases maps each phase of seq's turn to the place of its first step.
func phases(seq game.Sequencer, sc *battle.Scenario) map[string]int {
	phase := map[string]int{}
	for i, st := range seq.Sequence(sc) {
		if _, ok := phase[st.Phase]; !ok {
			phase[st.Phase] = i
		}
	}
	return phase
}

// LoadPlan reads a plan: until and turns, as in a script, for scenario sc.
func LoadPlan(file string, data []byte, sc *battle.Scenario, rules game.Rules) (*Plan, error) {
	r := strict.Reader{File: file, Want: "a plan: turns of commands"}
	n, err := r.Parse(data)
	if err != nil {
		return nil, err
	}
	f, err := r.Fields(n, "plan", "plan", "title", "until", "turns")
	if err != nil {
		return nil, err
	}
	p := &Plan{Until: sc.Turns, File: file}
	if len(rules.Sequence(sc)) > 0 {
		p.phase = phases(rules, sc)
	}
	if f["plan"] != nil {
		if _, err := r.Word(f["plan"], "plan"); err != nil {
			return nil, err
		}
	}
	if f["title"] != nil {
		if _, err := r.Str(f["title"], "title"); err != nil {
			return nil, err
		}
	}
	if f["until"] != nil {
		if p.Until, err = r.Int(f["until"], "until"); err != nil {
			return nil, err
		}
		if p.Until < 1 || p.Until > sc.Turns {
			return nil, r.Errf(f["until"], "until: %d is out of range; allowed: 1..%d, the scenario's turns", p.Until, sc.Turns)
		}
	}
	if f["turns"] == nil {
		return nil, r.Errf(n, "plan: turns is missing: the commands of each turn")
	}
	if p.Steps, err = turns(r, f["turns"], sc, rules); err != nil {
		return nil, err
	}
	return p, nil
}

// Play gives the plan's commands to g as the game reaches each phase, ends
// every step, and stops after turn Until. A command the rules reject goes
// to rejected (which may be nil) and play goes on.
func (p *Plan) Play(g *game.Game, rejected func(game.Command, *game.Error)) error {
	// A plan read for a rule set with a fixed order of phases knows them
	// already (p.phase); asking again would copy them every run of a sim.
	phase := p.phase
	if phase == nil {
		seq := g.Rules()
		if len(seq.Sequence(g.Scenario())) == 0 {
			return fmt.Errorf("%s: rule set %s has no fixed order of phases, so a plan cannot give its commands turn by turn", p.File, g.Rules().ID())
		}
		phase = phases(seq, g.Scenario())
	}
	next, ended := 0, false
	end := game.Command{Side: game.Umpire, Verb: "end", Quiet: true}
	for {
		st := g.State()
		if st.Over || st.Turn > p.Until {
			break
		}
		for next < len(p.Steps) {
			cs := &p.Steps[next]
			if cs.Turn > st.Turn || cs.Turn == st.Turn && phase[cs.Phase] > phase[st.Phase] {
				break
			}
			next++
			if cs.Turn != st.Turn || cs.Phase != st.Phase {
				return &strict.Error{File: p.File, Line: cs.Line, Msg: fmt.Sprintf("turn %d %s: the game was already past it", cs.Turn, cs.Phase)}
			}
			for _, c := range cs.Commands {
				ended = false
				if err := g.Exec(c); err != nil {
					var ge *game.Error
					if !errors.As(err, &ge) || g.Torn() {
						// A script cannot take back the steps a refused end
						// had begun: the dice it gives must be right.
						return fmt.Errorf("%s: turn %d %s: %w", p.File, cs.Turn, cs.Phase, err)
					}
					if rejected != nil {
						rejected(c, ge)
					}
					continue
				}
				// A phase that ends with an end of its own (giving the dice
				// the steps after it throw at the table) is not ended again.
				ended = c.Verb == game.End
			}
		}
		if ended {
			ended = false
			continue
		}
		if err := g.Exec(end); err != nil {
			var nd *game.NeedDice
			if errors.As(err, &nd) {
				return fmt.Errorf("%s: turn %d, ending step %s: %w; end the phase with dice of its own, as {side: umpire, end: true, dice: [{table: %s, for: %s, faces: [...]}]}",
					p.File, st.Turn, g.Step().Name, err, nd.Table, nd.Subject)
			}
			return fmt.Errorf("%s: ending %s: %w", p.File, g.Step().Name, err)
		}
	}
	if next < len(p.Steps) {
		cs := p.Steps[next]
		return &strict.Error{File: p.File, Line: cs.Line, Msg: fmt.Sprintf("turn %d %s: the game ended before these commands", cs.Turn, cs.Phase)}
	}
	return nil
}

// Check tests the script's expectations against a timeline and returns one
// error per expectation that fails.
func (s *Script) Check(timeline []game.Event) []error {
	var errs []error
	for _, x := range s.Expect {
		found := slices.IndexFunc(timeline, func(e game.Event) bool { return x.matches(&e) }) >= 0
		if found == x.Not {
			verb := "no entry"
			if x.Not {
				verb = "an entry it should not have"
			}
			errs = append(errs, &strict.Error{File: s.File, Line: x.Line, Msg: fmt.Sprintf("the timeline has %s with %s", verb, x)})
		}
	}
	return errs
}

func (x Expect) String() string {
	keys := make([]string, 0, len(x.Fields))
	for k := range x.Fields {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return slices.Index(x.order, a) - slices.Index(x.order, b) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + x.Fields[k]
	}
	return strings.Join(parts, " ")
}

func (x Expect) matches(e *game.Event) bool {
	for k, want := range x.Fields {
		if v, ok := Field(e, k); ok {
			if v != want {
				return false
			}
			continue
		}
		if !x.match(e, k, want) {
			return false
		}
	}
	return true
}

// Field is the text of one of the engine's fields of an event, as
// expectations name it; false for a field of the rule set's.
func Field(e *game.Event, name string) (string, bool) {
	switch name {
	case "turn":
		return strconv.Itoa(e.Turn), true
	case "phase":
		return e.Phase, true
	case "step":
		return e.Step, true
	case "type":
		return e.Type, true
	case "side":
		return e.Side, true
	case "rule":
		return e.Rule, true
	case "verb":
		if d, ok := e.Data.(*game.Rejected); ok && d.Command != nil {
			return d.Command.Verb, true
		}
		if d, ok := e.Data.(*game.Taken); ok {
			return d.Verb, true
		}
		return "", true
	case "from":
		// Where the first roll's dice were thrown: table or server.
		r := e.FirstRoll()
		switch {
		case r == nil:
			return "", true
		case r.From == "":
			return game.DiceServer, true
		}
		return r.From, true
	case "result", "natural", "total":
		r := e.FirstRoll()
		if r == nil {
			return "", true
		}
		switch name {
		case "result":
			return r.Result, true
		case "natural":
			return strconv.Itoa(r.Natural), true
		}
		return strconv.Itoa(r.Total), true
	}
	return "", false
}

// LoadAny reads a scenario file, or the scenario of a script (a file with
// a script field), and checks it against its rule set. A script's scenario
// given by name is found by files.
func LoadAny(file string, data []byte, engine Engine, files Files) (*battle.Scenario, error) {
	var n yaml.Node
	if yaml.Unmarshal(data, &n) == nil && len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode {
		m := n.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "script" {
				s, err := Load(file, data, engine, files)
				if err != nil {
					return nil, err
				}
				if s.Scenario == nil {
					return nil, fmt.Errorf("%s: this script expects its scenario refused (refused:), so it has no game to play", file)
				}
				return s.Scenario, nil
			}
		}
	}
	return LoadScenario(file, data, engine)
}
