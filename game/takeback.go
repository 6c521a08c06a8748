package game

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The engine's verbs of issue 36: a side takes back its last command
// (TakeBack), or withdraws its Ready before the step ends (Unready).
const (
	TakeBack = "take-back"
	Unready  = "unready"
)

// The engine's events of issue 36: SideUnready records that a side
// withdrew its Ready; StepEnded that the umpire ended the step (before
// the events of the steps that follow), so that every seat is told.
const (
	SideUnready = "side-unready"
	StepEnded   = "step-ended"
)

// Ended is the payload of a step-ended event: who ended it.
type Ended struct {
	By string `json:"by"`
	// Waited lists the sides that were not ready when it was ended.
	Waited []string `json:"waited,omitempty"`
}

// Origin marks an event appended by a side's command (a verb of the rule
// set, given by the side or by the umpire acting for it): the seq of the
// command's first event, the side and the verb. Every event the command
// appends carries it, those of the Settle that follows included, so the
// log alone tells which events belong to one command (a server that
// restarts reads it back). Events of steps, of ready and end, and of the
// umpire's own commands carry none.
type Origin struct {
	Seq  int    `json:"seq"`
	Side string `json:"side"`
	Verb string `json:"verb"`
}

// Taker is a rule set that says which of its event types a side may take
// back (issue 36): moves, formation changes, orders written and not yet
// sent, markers placed; never one that rolled or that tells another side
// something. The engine also refuses a command whose events drew dice,
// made contact or changed what any side spots. Optional: a rule set
// without it has nothing taken back.
type Taker interface {
	TakesBack(e *Event) bool
}

// takeBack carries out a side's take-back of its last command in the
// current step: it appends a taken-back event and folds the log again
// without the events withdrawn.
func (g *Game) takeBack(c *Command) error {
	p, err := g.undoable(c.Side)
	if err != nil {
		return err
	}
	if g.base > 0 {
		return fmt.Errorf("the game has forgotten its first %d events; rebuild it from its whole log (Replay) to take a command back", g.base)
	}
	skip := maps.Clone(g.skip)
	if skip == nil {
		skip = map[int]bool{}
	}
	for _, s := range p.of {
		skip[s] = true
	}
	st, err := g.refold(skip)
	if err != nil {
		return fmt.Errorf("taking back %s: %w", p.verb, err)
	}
	// The state is the fold of the log without the events withdrawn (fog
	// of war included); the taken-back event itself folds nothing.
	g.st, g.skip = st, skip
	return g.tx(false).Emit(Event{Type: TakenBack, Side: c.Side, See: p.see,
		Data: &Taken{Of: p.of, Verb: p.verb, Text: p.text}})
}

// undo is a take-back worked out: the events it withdraws, the verb of
// their command, its words and who may be told.
type undo struct {
	of   []int
	verb string
	text string
	see  string
	mine string // the words of what the side saw of it
}

// Undo is the words of the command side may take back now (what Take
// back would withdraw), or "" if it may take back none (issue 36).
func (g *Game) Undo(side string) string {
	if g.st.Over || side == Umpire || g.sc.Side(side) == nil {
		return ""
	}
	p, err := g.undoable(side)
	if err != nil {
		return ""
	}
	return p.mine
}

// undoable finds the last command of side in the current step and says
// whether it may be taken back: the side acts in the step and is not
// ready, no other command has been given since, and none of its events
// drew dice, made contact, changed what any side spots, or is of a type
// the rule set does not take back (Taker).
func (g *Game) undoable(side string) (*undo, error) {
	if side == Umpire {
		return nil, Reject("", "the umpire takes back a side's command as that side (side: the side's id); his own commands are not taken back")
	}
	step := g.Step()
	if !step.Player() {
		return nil, Reject("", "the game is not waiting for the players, so there is nothing to take back")
	}
	if !g.acts(side) {
		return nil, Reject("", "%s does not act in step %s of the %s phase; a side takes back only its own commands of the step under way", side, step.Name, step.Phase)
	}
	if slices.Contains(g.st.Ready, side) {
		return nil, Reject("", "%s is ready to end step %s; withdraw Ready first (unready), then take the command back", side, step.Name)
	}
	// Back from the end of the log to the step's start: the side's last
	// command still standing, and nobody else's since.
	var last []*Event
	other := ""
	for i := len(g.log) - 1; i >= 0; i-- {
		e := g.log[i]
		if e.Type == StepBegun {
			break
		}
		if g.skip[e.Seq] || e.Type == TakenBack || e.Type == SideReady || e.Type == SideUnready {
			continue
		}
		if e.Cmd.Seq == 0 || e.Cmd.Side != side {
			if len(last) == 0 && other == "" {
				other = e.Side
				if e.Cmd.Side != "" {
					other = e.Cmd.Side
				}
				if other == "" {
					other = "the game"
				}
			}
			if len(last) > 0 {
				break
			}
			continue
		}
		if len(last) > 0 && e.Cmd.Seq != last[0].Cmd.Seq {
			break
		}
		last = append(last, e)
	}
	if len(last) == 0 {
		return nil, Reject("", "%s has given no command in step %s of the %s phase that may be taken back (a command of an earlier step stays)", side, step.Name, step.Phase)
	}
	slices.Reverse(last)
	verb := last[0].Cmd.Verb
	if other != "" {
		return nil, Reject("", "%s's last command (%s) cannot be taken back: %s has acted since; only a command nobody has acted after may be taken back", side, verb, other)
	}
	if last[0].Seq != last[0].Cmd.Seq && g.base == 0 {
		return nil, fmt.Errorf("the log is broken: the command of event %d begins at %d, which is missing", last[0].Seq, last[0].Cmd.Seq)
	}
	tk, _ := g.rules.(Taker)
	see := ""
	sides := 0
	for _, e := range last {
		switch {
		case len(e.Rolls) > 0:
			return nil, Reject("", "%s's last command (%s) cannot be taken back: it drew dice (%s); only a command that drew none may be taken back", side, verb, e.Rolls[0].Table)
		case e.Type == Contacted:
			return nil, Reject("", "%s's last command (%s) cannot be taken back: it came upon an enemy piece; only a command that revealed nothing may be taken back", side, verb)
		case g.revealed[e.Cmd.Seq]:
			return nil, Reject("", "%s's last command (%s) cannot be taken back: it changed what %s spots; only a command that revealed nothing may be taken back", side, verb, side)
		case tk == nil || !tk.TakesBack(e):
			return nil, Reject("", "%s's last command (%s) cannot be taken back: the rules do not take back %s; allowed: %s", side, verb, e.Type, takable(g.rules))
		}
		switch e.See {
		case All:
			see = All
		case Umpire:
		default:
			if see != All && see != e.See {
				if see != "" {
					see = All
				} else {
					see = e.See
				}
				sides++
			}
		}
	}
	if see == "" {
		see = Umpire
	}
	if see == All && sides > 1 {
		return nil, Reject("", "%s's last command (%s) cannot be taken back: its events were shown to different sides", side, verb)
	}
	p := &undo{verb: verb, see: see}
	var words, mine []string
	for _, e := range last {
		p.of = append(p.of, e.Seq)
		// The taken-back event's words name only what every seat told of
		// it saw; the side is shown the words of what it saw.
		if e.Visible(see) || see == Umpire {
			words = append(words, g.Describe(e, nil))
		}
		if e.Visible(side) {
			mine = append(mine, g.Describe(e, nil))
		}
	}
	p.text, p.mine = strings.Join(words, "; "), strings.Join(mine, "; ")
	if p.mine == "" {
		p.mine = verb
	}
	return p, nil
}

// takable names the rule set's event types a side may take back, for a
// refusal.
func takable(r Rules) string {
	if _, ok := r.(Taker); !ok {
		return "none (the rule set takes nothing back)"
	}
	return "moves and other commands that drew no dice and told no other side anything"
}

// unready withdraws side's Ready before the step ends.
func (g *Game) unready(side string) error {
	if side == Umpire {
		return Reject("", "the umpire is never ready; a side withdraws its own Ready with unready")
	}
	if !g.Step().Player() {
		return Reject("", "the game is not waiting for the players")
	}
	if !g.acts(side) {
		return Reject("", "%s does not act in step %s of the %s phase; %s does", side, g.st.Step, g.st.Phase, strings.Join(g.Acting(), ", "))
	}
	if !slices.Contains(g.st.Ready, side) {
		return Reject("", "%s is not ready in step %s of the %s phase, so there is no Ready to withdraw", side, g.st.Step, g.st.Phase)
	}
	return g.tx(false).Emit(Event{Type: SideUnready, Side: side, See: All})
}

// refold is the state the log in memory folds to without the events of
// skip, from the state before the first event: what the game would be
// had they never been given, fog of war included.
func (g *Game) refold(skip map[int]bool) (*State, error) {
	if g.origin == nil {
		return nil, fmt.Errorf("the game keeps no start to fold its log from")
	}
	st := g.origin.clone()
	for _, e := range g.log {
		if skip[e.Seq] {
			continue
		}
		if err := st.apply(g.rules, e); err != nil {
			return nil, fmt.Errorf("event %d (%s): %w", e.Seq, e.Type, err)
		}
		if f := st.fog; f != nil {
			f.after(st, e)
		}
	}
	return st, nil
}

// withdraw folds the game again without the events of, on meeting a
// taken-back event in a log being replayed (Extend) whose events were
// folded before it came.
func (g *Game) withdraw(of []int) error {
	fresh := false
	for _, s := range of {
		if !g.skip[s] {
			if g.skip == nil {
				g.skip = map[int]bool{}
			}
			g.skip[s], fresh = true, true
		}
	}
	if !fresh {
		return nil
	}
	if g.base > 0 {
		return fmt.Errorf("it takes back events the game has forgotten (before %d); rebuild the game from its whole log (Replay)", g.base+1)
	}
	st, err := g.refold(g.skip)
	if err != nil {
		return err
	}
	g.st = st
	return nil
}

// reveals notes that the command e belongs to changed what its side
// spots, if the fog's looks of that side changed while e was folded. What
// the other side came to spot is not asked: the side does not know it, so
// whether it may take a command back cannot depend on it (the enemy is
// told of the take-back if it saw the events withdrawn).
func (g *Game) reveals(e *Event, looks int) {
	if e.Cmd.Seq == 0 || g.st.fog.spotChanges(e.Cmd.Side) == looks {
		return
	}
	if g.revealed == nil {
		g.revealed = map[int]bool{}
	}
	g.revealed[e.Cmd.Seq] = true
}

// spotChanges counts the changes of what side spots so far (none without
// fog, or for no side).
func (f *fog) spotChanges(side string) int {
	if f == nil {
		return 0
	}
	if i, ok := f.spotting(side); ok {
		return f.ver[i]
	}
	return 0
}
