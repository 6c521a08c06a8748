// Package report writes a game's after-action report (issue 36) from its
// export alone: a summary, and turn by turn the orders written, carried,
// read and acted on with their delays, the key rolls and a map of the end
// of the turn, with the luck of each side (package luck). The report is
// built by replaying the log (game.Replay), never from stored pictures;
// events withdrawn by a taken-back (game.Withdrawn) count for nothing.
package report

import (
	"fmt"
	"slices"
	"strings"

	"orderly/archive"
	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/luck"
	"orderly/script"
	"orderly/table"
)

// Report is a game's after-action report.
type Report struct {
	ID    string `json:"id,omitempty"`
	Title string `json:"title"`
	Rules string `json:"rules"`
	Sides []Side `json:"sides"`
	// Turns is the last turn played, Of the scenario's last.
	Turns int `json:"turns"`
	Of    int `json:"of"`
	// Over says the game has ended, Ending why (the game-over event's
	// words), Outcome the result the scenario defines (nil for none).
	Over    bool          `json:"over"`
	Ending  string        `json:"ending,omitempty"`
	Outcome *game.Outcome `json:"outcome,omitempty"`
	// Summary is the report in one paragraph: what the end of a game shows
	// when the scenario defines no result.
	Summary string `json:"summary"`
	// Orders are the lives of the game's orders, in the order they were
	// first heard of; empty for a rule set that tells none
	// (game.Chronicler).
	Orders []Order `json:"orders"`
	// Chronicled says the rule set tells its orders' lives; without it
	// each turn lists its events instead (Turn.Log).
	Chronicled bool   `json:"chronicled"`
	Turn       []Turn `json:"turn"`
	// Luck is where each side's dice fell against the exact odds of their
	// tables (luck.Of).
	Luck *luck.Report `json:"luck"`
}

// Side is one side of the game.
type Side struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Order is one order's life over the game: the turn of each stage it
// reached (0: not reached), the turn it was to be acted on, and its
// delay, the turns from first heard of to acted on.
type Order struct {
	Order   string `json:"order"`
	Side    string `json:"side"`
	For     string `json:"for,omitempty"`
	Written int    `json:"written,omitempty"`
	Sent    int    `json:"sent,omitempty"`
	Arrived int    `json:"arrived,omitempty"`
	Read    int    `json:"read,omitempty"`
	Acts    int    `json:"acts,omitempty"`
	Acted   int    `json:"acted,omitempty"`
	Failed  int    `json:"failed,omitempty"`
	// Delay is Acted less the turn of its first stage, when it was acted
	// on; -1 when it was not.
	Delay int `json:"delay"`
	// Text is what its first stage says.
	Text string `json:"text"`
}

// Turn is one turn of the game (0: before the first turn, when something
// happened then).
type Turn struct {
	Number int `json:"number"`
	// Stages are the stages of orders' lives the turn's events record.
	Stages []Stage `json:"stages"`
	// Rolls are every roll of the turn, in the order drawn, as far as
	// the turn has gone (a turn under way is reported so far).
	Rolls []Roll `json:"rolls"`
	// Log lists the turn's described events, for a rule set that tells no
	// orders' lives (game.Chronicler); empty otherwise.
	Log []Entry `json:"log,omitempty"`
	// Map is the SVG drawing of the end of the turn.
	Map string `json:"map"`

	told bool // something happened in it besides the engine's bookkeeping
}

// Stage is one stage of an order's life, as one event records it.
type Stage struct {
	Seq   int    `json:"seq"`
	Phase string `json:"phase"`
	Side  string `json:"side"`
	game.Life
}

// Roll is one roll of the game.
type Roll struct {
	Seq     int    `json:"seq"`
	Side    string `json:"side"`
	Table   string `json:"table"`
	Title   string `json:"title"`
	Subject string `json:"subject,omitempty"`
	Dice    string `json:"dice"`
	Natural int    `json:"natural"`
	Total   int    `json:"total"`
	Result  string `json:"result"`
	// Pool says the roll is a pool of dice taken through stages (shooting,
	// combat): its Natural means nothing, its Total is what the pool gave.
	Pool bool `json:"pool,omitempty"`
	// Key says why the roll is decisive ("failed", "extreme"), or is
	// empty for an ordinary one.
	Key string `json:"key,omitempty"`
}

// Entry is one described event.
type Entry struct {
	Seq   int    `json:"seq"`
	Phase string `json:"phase"`
	Side  string `json:"side"`
	Text  string `json:"text"`
}

// Engine is what the report replays a game with: the rule set of the
// document, made over its own tables file (rules.Maker), and the table
// set its rolls are read from (for their titles and the luck).
type Engine struct {
	Rules  func(id string, own ...table.Source) (game.Rules, error)
	Tables func(own ...table.Source) (*table.Set, error)
}

// Build makes the report of an exported game.
func Build(doc *archive.Game, eng Engine) (*Report, error) {
	r, err := eng.Rules(doc.Rules, doc.Own()...)
	if err != nil {
		return nil, fmt.Errorf("rules %s: %w", doc.Rules, err)
	}
	sc, err := script.LoadAny(doc.Scenario.File, []byte(doc.Scenario.Source), func(string) (game.Rules, error) { return r, nil }, script.NoFiles)
	if err != nil {
		return nil, fmt.Errorf("the document's scenario: %w", err)
	}
	if sc.Rules != doc.Rules {
		return nil, fmt.Errorf("the document says rules %s, its scenario %s", doc.Rules, sc.Rules)
	}
	var set *table.Set
	if eng.Tables != nil {
		if set, err = eng.Tables(doc.Own()...); err != nil {
			return nil, fmt.Errorf("tables: %w", err)
		}
	}
	log := slices.Clone(doc.Events)
	if err := game.Decode(r, log); err != nil {
		return nil, fmt.Errorf("the document's events: %w", err)
	}
	rep, err := build(sc, r, log, set, doc.Fog, doc.Dice)
	if err != nil {
		return nil, err
	}
	rep.ID = doc.ID
	if doc.Title != "" {
		rep.Title = doc.Title
	}
	return rep, nil
}

// build replays log over sc and writes the report as it goes: at each
// turn's end it draws the map.
func build(sc *battle.Scenario, r game.Rules, log []game.Event, set *table.Set, fog, dice string) (*Report, error) {
	g, err := game.Replay(sc, r, nil, game.WithFog(fog), game.WithDice(dice))
	if err != nil {
		return nil, fmt.Errorf("the scenario does not start: %w", err)
	}
	name := game.Names(sc)
	rep := &Report{Title: sc.Title, Rules: sc.Rules, Of: sc.Turns, Orders: []Order{}, Turn: []Turn{}}
	if rep.Title == "" {
		rep.Title = sc.Name
	}
	for _, s := range sc.Sides {
		n := s.Name
		if n == "" {
			n = s.ID
		}
		rep.Sides = append(rep.Sides, Side{ID: s.ID, Name: n})
	}
	ch, chronicled := r.(game.Chronicler)
	rep.Chronicled = chronicled
	gone := game.Withdrawn(log)
	lv := &lives{at: map[string]int{}, n: map[string]int{}}
	draw := newDrawing(sc)
	var cur *Turn
	finish := func() {
		if cur == nil {
			return
		}
		cur.Map = draw.svg(g.State(), name, cur.Number)
		if cur.told {
			rep.Turn = append(rep.Turn, *cur)
		}
		cur = nil
	}
	for i := range log {
		e := &log[i]
		if cur != nil && e.Turn != cur.Number {
			finish()
		}
		if err := g.Extend(log[i : i+1]); err != nil {
			return nil, fmt.Errorf("the log does not replay: %w", err)
		}
		if cur == nil {
			cur = &Turn{Number: e.Turn, Stages: []Stage{}, Rolls: []Roll{}}
		}
		if gone[e.Seq] || e.Type == game.TakenBack {
			continue
		}
		cur.told = cur.told || described(e)
		if e.Type == game.GameOver {
			if d, ok := e.Data.(*game.Over); ok {
				rep.Ending = d.Why
			}
		}
		rolls := len(cur.Rolls)
		for _, ro := range e.Rolls {
			cur.Rolls = append(cur.Rolls, rollOf(e, &ro, set, name))
		}
		if chronicled {
			for _, st := range ch.Chronicle(e, name) {
				if st.Stage == game.OrderFailed {
					// The rule set says the order failed: its rolls are
					// decisive whatever their result is called.
					for i := rolls; i < len(cur.Rolls); i++ {
						cur.Rolls[i].Key = "failed"
					}
				}
				if st.Text == "" {
					st.Text = g.Describe(e, name)
				}
				cur.Stages = append(cur.Stages, Stage{Seq: e.Seq, Phase: e.Phase, Side: e.Side, Life: st})
				life(rep, lv, e, st)
			}
		} else if described(e) {
			cur.Log = append(cur.Log, Entry{Seq: e.Seq, Phase: e.Phase, Side: e.Side, Text: g.Describe(e, name)})
		}
	}
	finish()
	s := g.State()
	rep.Over = s.Over
	rep.Turns = s.Turn
	rep.Outcome = game.Result(sc, s)
	if set != nil {
		l, err := luck.Of(set, sc, log)
		if err != nil {
			return nil, fmt.Errorf("luck: %w", err)
		}
		rep.Luck = l
	}
	if rep.Luck == nil {
		rep.Luck = &luck.Report{Sides: []luck.Side{}}
	}
	for i := range rep.Orders {
		if o := &rep.Orders[i]; o.Acted != 0 {
			o.Delay = max(o.Acted, 0) - first(o)
		}
	}
	rep.Summary = summary(rep)
	return rep, nil
}

// described reports whether an event is worth a line of a turn's log: the
// engine's bookkeeping of steps and readiness is not.
func described(e *game.Event) bool {
	switch e.Type {
	case game.StepBegun, game.SideReady:
		return false
	}
	return true
}

// lives are the orders' lives found so far: the index in Report.Orders
// of the current life of each order name, and how many lives each name
// has had.
type lives struct{ at, n map[string]int }

// life records stage st of an order in its life. lives holds the
// current life of each order name: a new order written under the name of
// one whose life has ended (a rule set that names an order by whom it is
// for) starts a life of its own, named with its number ("order to Ney
// (2)").
func life(rep *Report, lives *lives, e *game.Event, st game.Life) {
	i, ok := lives.at[st.Order]
	if ok && st.Stage == game.OrderWritten && (rep.Orders[i].Acted != 0 || rep.Orders[i].Failed != 0) {
		ok = false
	}
	if !ok {
		shown := st.Order
		if n := lives.n[st.Order]; n > 0 {
			shown = fmt.Sprintf("%s (%d)", st.Order, n+1)
		}
		lives.n[st.Order]++
		i = len(rep.Orders)
		lives.at[st.Order] = i
		rep.Orders = append(rep.Orders, Order{Order: shown, Side: e.Side, For: st.For, Delay: -1, Text: st.Text})
	}
	o := &rep.Orders[i]
	if o.For == "" {
		o.For = st.For
	}
	if st.Acts > 0 {
		o.Acts = st.Acts
	}
	at := func(t *int) {
		if *t == 0 {
			*t = e.Turn
			if *t == 0 {
				*t = -1 // before the first turn; shown as such
			}
		}
	}
	switch st.Stage {
	case game.OrderWritten:
		at(&o.Written)
	case game.OrderSent:
		at(&o.Sent)
	case game.OrderArrived:
		at(&o.Arrived)
	case game.OrderRead:
		at(&o.Read)
	case game.OrderActed:
		at(&o.Acted)
	case game.OrderFailed:
		at(&o.Failed)
	}
}

// first is the turn of an order's first stage (0 before the game).
func first(o *Order) int {
	for _, t := range []int{o.Written, o.Sent, o.Arrived, o.Read, o.Acted} {
		if t != 0 {
			return max(t, 0)
		}
	}
	return 0
}

// rollOf is a roll of e as the report lists it, marked when decisive: a
// result that fails (failed, blunder, ignored, refused), or a natural at
// either end of what the dice can give.
func rollOf(e *game.Event, ro *game.Roll, set *table.Set, name func(string) string) Roll {
	out := Roll{Seq: e.Seq, Side: e.Side, Table: ro.Table, Title: ro.Table, Dice: ro.Dice, Natural: ro.Natural, Total: ro.Total, Result: ro.Result, Pool: len(ro.Stages) > 0}
	if ro.Subject != "" {
		out.Subject = name(ro.Subject)
	}
	if set != nil {
		if t, err := set.Table(ro.Table); err == nil && t.Title != "" {
			out.Title = t.Title
		}
	}
	res := strings.ToLower(ro.Result)
	for _, w := range []string{"fail", "blunder", "ignore", "refuse"} {
		if strings.Contains(res, w) {
			out.Key = "failed"
			break
		}
	}
	if out.Key == "" && len(ro.Stages) == 0 {
		if d, err := dice.Parse(ro.Dice); err == nil && d.Max() > d.Min() {
			n := ro.Natural
			if n == d.Min() || n == d.Max() || n == d.Min()+d.Plus || n == d.Max()+d.Plus {
				out.Key = "extreme"
			}
		}
	}
	return out
}

// summary is the report in one paragraph: who fought, how many turns, how
// it ended, and the most telling numbers.
func summary(rep *Report) string {
	var b strings.Builder
	names := make([]string, len(rep.Sides))
	for i, s := range rep.Sides {
		names[i] = s.Name
	}
	fmt.Fprintf(&b, "%s: %s", rep.Title, strings.Join(names, " against "))
	switch {
	case rep.Over:
		fmt.Fprintf(&b, " fought %s", game.Count(rep.Turns, "turn", "turns"))
		if rep.Ending != "" {
			fmt.Fprintf(&b, ", and the game ended: %s", rep.Ending)
		}
		b.WriteString(".")
	default:
		fmt.Fprintf(&b, ", turn %d of %d, still being played.", rep.Turns, rep.Of)
	}
	if rep.Outcome != nil && rep.Outcome.Text != "" {
		fmt.Fprintf(&b, " %s", strings.TrimSuffix(rep.Outcome.Text, ".")+".")
	}
	rolls, key := 0, 0
	for _, t := range rep.Turn {
		rolls += len(t.Rolls)
		for _, r := range t.Rolls {
			if r.Key != "" {
				key++
			}
		}
	}
	if rep.Chronicled {
		acted, failed, delay := 0, 0, 0
		for _, o := range rep.Orders {
			switch {
			case o.Acted != 0:
				acted++
				delay += o.Delay
			case o.Failed != 0:
				failed++
			}
		}
		fmt.Fprintf(&b, " %s given: %d acted on", game.Count(len(rep.Orders), "order was", "orders were"), acted)
		switch {
		case acted > 0 && delay == 0:
			b.WriteString(" (each at once)")
		case acted > 0:
			fmt.Fprintf(&b, " (after %.1f turns on average)", float64(delay)/float64(acted))
		}
		fmt.Fprintf(&b, ", %d failed or were lost.", failed)
	}
	fmt.Fprintf(&b, " %s thrown, %d of them decisive (failures and extremes).", game.Count(rolls, "roll was", "rolls were"), key)
	if rep.Luck != nil {
		for _, s := range rep.Luck.Sides {
			if s.Text != "" {
				fmt.Fprintf(&b, " %s", strings.TrimSuffix(s.Text, ".")+".")
			}
		}
	}
	return b.String()
}
