package nb

import (
	"cmp"
	"slices"

	"orderly/game"
	"orderly/geom"
)

var (
	_ game.Annotator = (*Rules)(nil)
	_ game.Forecasts = (*Rules)(nil)
)

// Board is what a page needs, beside the state, to offer NB's commands
// without working out a rule (game.Annotator): for each of the seat's
// generals offered attach, what he may attach to (NB-13), and for each
// of its messengers offered redirect, the generals it may ride to
// instead (NB-11); and, when the umpire is offered a general's removal or
// replacement, the fates remove takes and the qualities a replacement may
// have (NB-15).
type Board struct {
	Generals   map[string]GeneralBox   `json:"generals"`
	Messengers map[string]MessengerBox `json:"messengers"`
	// Fates are what may befall a general removed, as remove takes them;
	// given when remove is offered for some general.
	Fates []string `json:"fates,omitempty"`
	// Qualities are those a replacing general may have; given when
	// replace is offered for some general.
	Qualities []string `json:"qualities,omitempty"`
	// Formations lists, for each unit offered move, the formations it
	// may take in a move now: an attack order allows only column, march
	// column or limbered until its division is engaged (NB-7).
	Formations map[string][]string `json:"formations,omitempty"`
}

// GeneralBox is a general as a page offers his commands: the units and
// generals he may attach to, nearest first.
type GeneralBox struct {
	Attach []Target `json:"attach,omitempty"`
}

// MessengerBox is a messenger as a page offers its commands: the
// generals it may be redirected to.
type MessengerBox struct {
	Redirect []string `json:"redirect,omitempty"`
}

// Target is a piece a command may name, and how far it is from the piece
// the command is for, in inches.
type Target struct {
	ID       string  `json:"id"`
	Distance float64 `json:"distance"`
}

// Annotate is the NB board for seat in the view s (game.Annotator): the
// targets of the attach and redirect commands step offers it, the
// formations each unit it may move may take (NB-7), and the words of the
// remove and replace commands it offers (NB-15).
func (r *Rules) Annotate(gs *game.State, step game.Step, seat string) any {
	b := Board{Generals: map[string]GeneralBox{}, Messengers: map[string]MessengerBox{}}
	offers := r.Offers(gs, step, seat)
	s := of(gs)
	for _, g := range s.Generals {
		if slices.Contains(offers[g.ID], "attach") {
			b.Generals[g.ID] = GeneralBox{Attach: attachTargets(s, g)}
		}
		if slices.Contains(offers[g.ID], "remove") && b.Fates == nil {
			b.Fates = slices.Clone(fates)
		}
		if slices.Contains(offers[g.ID], "replace") && b.Qualities == nil {
			b.Qualities = r.Vocab().Qualities
		}
	}
	for _, u := range s.Units {
		if slices.Contains(offers[u.ID], "move") {
			if b.Formations == nil {
				b.Formations = map[string][]string{}
			}
			b.Formations[u.ID] = r.shapesNow(s, u)
		}
	}
	for _, m := range s.Messengers {
		if slices.Contains(offers[m.ID], "redirect") {
			b.Messengers[m.ID] = MessengerBox{Redirect: redirectTargets(s, m)}
		}
	}
	return b
}

// Forecasts lists the verbs whose odds a page may ask for: only the one
// that writes orders (game.Forecasts).
func (r *Rules) Forecasts() []string { return []string{r.Writes()} }

// attachTargets lists what general g may attach to now, nearest first
// (NB-13): none unless he is on the table and not attached; else his
// side's units on the table and its other generals on the table who are
// not attached to him.
func attachTargets(s *State, g *General) []Target {
	if !g.Active() || g.Attached != "" {
		return nil
	}
	var out []Target
	near := func(id string, at geom.Point) {
		out = append(out, Target{ID: id, Distance: round(g.At.Dist(at))})
	}
	for _, u := range s.Units {
		if u.Side == g.Side && u.OnTable {
			near(u.ID, u.At)
		}
	}
	for _, h := range s.Generals {
		if h.Side == g.Side && h.ID != g.ID && h.Active() && h.Attached != g.ID {
			near(h.ID, h.At)
		}
	}
	slices.SortStableFunc(out, func(a, b Target) int { return cmp.Compare(a.Distance, b.Distance) })
	return out
}

// redirectTargets lists the generals messenger m may be sent to instead
// (NB-11): those its order may go to, on the table, other than the one it
// rides to.
func redirectTargets(s *State, m *Messenger) []string {
	o := s.OrderByID(m.Order)
	if o == nil {
		return nil
	}
	var fs []*Formation
	for _, id := range o.For {
		f := s.Formation(id)
		if f == nil {
			return nil
		}
		fs = append(fs, f)
	}
	to, err := recipients(s, fs)
	if err != nil {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(to), func(id string) bool {
		g := s.General(id)
		return id == m.To || g == nil || !g.Active()
	})
}

// round keeps a tenth of an inch, as the page shows distances.
func round(d float64) float64 { return float64(int(d*10+0.5)) / 10 }
