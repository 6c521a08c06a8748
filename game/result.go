package game

import (
	"fmt"
	"strings"

	"orderly/battle"
)

// GameResult is the type of a timeline entry, never in a game's log: the
// outcome (payload *Outcome, Side the winner, empty for a draw) that the
// script runner adds once a game whose scenario defines a result is over,
// so that a script can expect it.
const GameResult = "game-result"

// Outcome is how a game ended by the result its scenario defines: the
// winner (a side id, or empty for a draw), one sentence, each side's
// points, and who holds each objective.
type Outcome struct {
	Winner string         `json:"winner,omitempty"`
	Text   string         `json:"text"`
	Points map[string]int `json:"points,omitempty"`
	Held   []Held         `json:"held,omitempty"`
}

// Held is one objective of the scenario's result at the end: its name,
// its points and the side that holds it (empty: nobody, or both sides
// contest it).
type Held struct {
	Name   string `json:"name"`
	Points int    `json:"points"`
	Side   string `json:"side,omitempty"`
}

// near is how much a distance may exceed an objective's radius and still
// be within it: positions are written to two places.
const near = 1e-9

// Result works out the result sc defines from the state s: nil when sc
// defines none. Each objective is held by the side with a combat unit on
// the surface within its radius and no enemy combat unit within it, and
// scores its points for that side; a side wins with more points than the
// other by more than the margin, and otherwise the game is a draw. It
// reads only the core state (pieces, their sides and places, and whether
// they are on the surface), so it means the same in every rule set; s is
// the whole state, not a seat's view. The end of a game and the
// after-action report both call it; on a game not over it says how the
// battle stands.
func Result(sc *battle.Scenario, s *State) *Outcome {
	if sc == nil || sc.Result == nil || s == nil {
		return nil
	}
	sp := sc.Space()
	out := &Outcome{Points: map[string]int{}}
	for _, sd := range sc.Sides {
		out.Points[sd.ID] = 0
	}
	for _, o := range sc.Result.Objectives {
		there := map[string]bool{}
		for _, p := range s.Pieces {
			if p.OnTable && sc.Unit(p.ID) != nil && sp.Dist(p.At, o.At) <= o.Radius+near {
				there[p.Side] = true
			}
		}
		h := Held{Name: o.Name, Points: o.Points}
		if len(there) == 1 {
			for side := range there {
				h.Side = side
			}
			out.Points[h.Side] += o.Points
		}
		out.Held = append(out.Held, h)
	}
	out.Winner = winner(sc, out.Points, sc.Result.Margin)
	out.Text = outcomeText(sc, out)
	return out
}

// winner is the side whose points exceed every other's by more than
// margin, or "" for a draw.
func winner(sc *battle.Scenario, points map[string]int, margin int) string {
	for _, sd := range sc.Sides {
		wins := true
		for _, other := range sc.Sides {
			if other.ID != sd.ID && points[sd.ID]-points[other.ID] <= margin {
				wins = false
			}
		}
		if wins {
			return sd.ID
		}
	}
	return ""
}

// outcomeText says the outcome in one sentence: who won and by how many
// points (or a draw), and who holds what.
func outcomeText(sc *battle.Scenario, o *Outcome) string {
	name := func(id string) string {
		if sd := sc.Side(id); sd != nil && sd.Name != "" {
			return sd.Name
		}
		return id
	}
	var b strings.Builder
	if o.Winner != "" {
		fmt.Fprintf(&b, "%s wins, %s", name(o.Winner), points(o.Points[o.Winner]))
		for _, sd := range sc.Sides {
			if sd.ID != o.Winner {
				fmt.Fprintf(&b, " to %d", o.Points[sd.ID])
			}
		}
	} else {
		b.WriteString("A draw, ")
		for i, sd := range sc.Sides {
			if i > 0 {
				b.WriteString(" to ")
			}
			fmt.Fprintf(&b, "%d", o.Points[sd.ID])
		}
		b.WriteString(" points")
		if m := sc.Result.Margin; m > 0 {
			fmt.Fprintf(&b, " (a win needs a lead of more than %d)", m)
		}
	}
	var holds []string
	for _, sd := range sc.Sides {
		var names []string
		for _, h := range o.Held {
			if h.Side == sd.ID {
				names = append(names, h.Name)
			}
		}
		if len(names) > 0 {
			holds = append(holds, name(sd.ID)+" holds "+andList(names))
		}
	}
	if len(holds) == 0 {
		b.WriteString(": no side holds an objective.")
	} else {
		b.WriteString(": " + strings.Join(holds, "; ") + ".")
	}
	return b.String()
}

func points(n int) string {
	if n == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%d points", n)
}

// andList joins names as prose: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
