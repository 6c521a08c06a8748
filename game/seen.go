package game

import (
	"slices"

	"orderly/battle"
)

// Subjecter is a rule set that names the formations a command touches:
// every formation whose pieces, orders or messengers it acts on. A seat
// that commands one formation (a corps commander's) may give a command
// only if every formation named is under his, and the server refuses any
// command the rule set cannot name (deny by default). An id that is not in
// the game is named as it is, so that it is refused like any formation the
// seat does not command. Optional: a rule set without commander seats
// (BP) has none, and the server then refuses a commander's every command.
type Subjecter interface {
	Subjects(st *State, c *Command) ([]string, error)
}

// Foresight is a rule set that can tell, of a secret roll already made,
// whether its effect is still to come (a delay not yet run out, a reserve
// not yet entered), and describe it in a few words. Revealing the dice
// seed before then tells everyone what that roll was. Optional: only a
// rule set whose secret rolls act later (NB's order delays) has one; for
// another the server says it cannot tell which rolls are still to act.
type Foresight interface {
	Ahead(st *State, e *Event) (what string, ahead bool)
}

// Courier is a rule set that can tell when a messenger should arrive.
// Optional: only a rule set with messengers on the table (NB) has one.
type Courier interface {
	// Arrivals gives the turn each messenger of side (every messenger for
	// Umpire) should reach the general it rides to, were he to stay where
	// he is, by messenger id.
	Arrivals(s *State, side string) map[string]int
}

// Lister is a rule set that names the pieces and formations a seat sees,
// for the names a page shows and for near matches in its messages.
type Lister interface {
	// Seen lists the ids of what seat sees in s (a view from View).
	Seen(s *State) []string
}

// Sequencer is a rule set whose turn is the same phases every turn, in a
// fixed order: a script then gives commands phase by phase. Sequence
// lists the steps of a turn of scenario sc in order (a rule set may add
// steps within a phase as play needs them, such as a reply to a charge);
// none for a turn without fixed phases, which a script cannot give
// commands to turn by turn.
type Sequencer interface {
	Sequence(sc *battle.Scenario) []Step
}

// Fielder is a rule set whose events a script's expectations can test
// field by field; with no Fields, only the engine's.
type Fielder interface {
	// Fields lists the fields an expectation may name, the engine's among
	// them, in the order they are shown.
	Fields() []string
	// Match reports whether e's field name (one of the rule set's) is
	// want.
	Match(e *Event, name, want string) bool
}

// Measurer is a rule set that says what a Monte Carlo run of a plan
// measures (orderly sim): for each subject (a formation), the first turn
// on which something happens, overall and per label (NB: the turn each
// order is first acted on, labelled by the order). A zero Measures (no
// Subjects) measures nothing: the rule set cannot be simulated.
type Measurer interface {
	// Measures names what is measured, for people and for the keys of
	// the result.
	Measures() Measure
	// Planned lists the subjects a command of the plan will be measured
	// for, so that one for which nothing ever happens is still reported.
	Planned(sc *battle.Scenario, c *Command) []string
	// Measure calls note for each subject e shows the measured thing
	// happening to, with its label and the turn.
	Measure(e *Event, note func(subject, label string, turn int))
}

// Offerer is a rule set that says which of the current step's commands a
// seat may give for each piece or formation in its view, so that a page
// offers only those: the answer is worked out where the rules are, and the
// command is checked again when it comes.
type Offerer interface {
	// Offers maps an id to the verbs of step that seat may give for it
	// alone, in the view s; ids with none are left out.
	Offers(s *State, step Step, seat string) map[string][]string
}

// Measure names what a Monte Carlo run of a rule set measures: the words
// a report of it shows, and the keys of its JSON.
type Measure struct {
	What     string // in a few words: "first turn each formation acts on an order written during the game"
	Subject  string // one subject, as a column head: "formation"
	Subjects string // the JSON key of the subjects: "formations"
	First    string // the JSON key of the distribution of the first turn: "first-active-turn"
	Label    string // one label, as a column head: "order"
	Labels   string // the JSON key of the distributions per label: "orders"
	Plot     string // the title of a plot of the first turns: "first turn acting on an order"
}

// Worder is a rule set that words what a seat's view holds (its orders),
// for a page to show as the log does. Optional: NB words its written
// orders so; the others give what a page shows through Annotator.
type Worder interface {
	// Words is a JSON value of the words for the view s.
	Words(s *State) any
}

// Annotator is a rule set that gives a page, beside the state, what it
// needs to draw the table and offer commands without working out a rule:
// footprints, arcs, legal targets (BP), the targets of NB's attach and
// redirect. The value is marshalled as JSON, of the type its BoardTypes
// gives as Notes. Part of Rules: a rule set with nothing to add returns
// nil.
type Annotator interface {
	Annotate(s *State, step Step, seat string) any
}

// Shaper is a rule set with its own formations: for each unit type, the
// formations a unit of it may stand in.
type Shaper interface {
	Shapes() map[string][]string
}

// Forecasts lists the verbs of the commands whose odds a page may ask for
// before giving them (Forecaster.Forecast): the one that writes orders,
// and any other whose rolls can be foretold (a volley, a combat). Part of
// Rules: a rule set that foretells only its orders lists Writes alone.
type Forecasts interface {
	Forecasts() []string
}

// Offered gathers a step's offers (Offerer): Add keeps a verb only if the
// step has it, once per id.
type Offered struct {
	Step Step
	Out  map[string][]string
}

// NewOffered starts the offers of step.
func NewOffered(step Step) *Offered { return &Offered{Step: step, Out: map[string][]string{}} }

// Add offers verb for id, if the step has the verb.
func (o *Offered) Add(id, verb string) {
	if slices.Contains(o.Step.Verbs, verb) && !slices.Contains(o.Out[id], verb) {
		o.Out[id] = append(o.Out[id], verb)
	}
}

// SeatSide is the side a seat acts for: its own, or for the umpire the
// side whose turn it is.
func SeatSide(seat, phasing string) string {
	if seat != Umpire {
		return seat
	}
	return phasing
}
