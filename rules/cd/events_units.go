package cd

import (
	"fmt"
	"strings"

	"orderly/game"
)

// Screened is the payload of a screened event: the unit leaves the table
// for its division's screen, adding its stands to it.
type Screened struct {
	Unit     string `json:"unit"`
	Division string `json:"division"`
	Stands   int    `json:"stands"`
	// Screen is the division's screen after, left out in a game played
	// with fog of war: it counts units the enemy may never have seen.
	Screen *int `json:"screen,omitempty"`
}

// Fold takes the unit off the table into its division's screen (CD-8).
func (d *Screened) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	u, err := st.unitOf(d.Unit)
	if err != nil {
		return err
	}
	// Off the table: the unit neither sees nor is seen (fog of war)
	// until it is recalled, whose move puts it back.
	u.Screened = true
	if u.Piece != nil {
		u.OnTable = false
	}
	if f := st.Formation(d.Division); f != nil {
		f.Screen += d.Stands
	}
	return nil
}

// Describe words the unit joining the screen, with the screen after when
// the event tells it.
func (d *Screened) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if d.Screen == nil {
		return fmt.Sprintf("%s joins the skirmish screen of %s (+%s).", name(d.Unit), name(d.Division), game.Count(d.Stands, "casting", "castings"))
	}
	return fmt.Sprintf("%s joins the skirmish screen of %s (+%s, now %d).", name(d.Unit), name(d.Division), game.Count(d.Stands, "casting", "castings"), *d.Screen)
}

// Field gives the unit, and the division as formation.
func (d *Screened) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "formation":
		return []string{d.Division}
	}
	return nil
}

// Recalled is the payload of a recalled event: the unit comes back onto
// the table, taking its stands out of the screen.
type Recalled struct {
	Unit       string `json:"unit"`
	Division   string `json:"division"`
	Casualties int    `json:"casualties"`
	// Screen is the division's screen after, left out with fog of war
	// (Screened).
	Screen *int `json:"screen,omitempty"`
}

// Fold brings the unit back from the screen disordered, with its
// casualties and no activation, and takes its stands out of the screen
// (CD-8); the event's move puts it on the table.
func (d *Recalled) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	u, err := st.unitOf(d.Unit)
	if err != nil {
		return err
	}
	u.Screened, u.Disordered, u.Casualties = false, true, d.Casualties
	u.Act, u.Factor, u.Used = -1, 0, 0
	if f := st.Formation(d.Division); f != nil {
		f.Screen = max(0, f.Screen-u.Stands)
	}
	return nil
}

// Describe words the unit's return and its casualties.
func (d *Recalled) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s comes back from the screen of %s at its rear, disordered with %s.", name(d.Unit), name(d.Division), game.Count(d.Casualties, "casualty", "casualties"))
}

// Field gives the unit, and the division as formation.
func (d *Recalled) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "formation":
		return []string{d.Division}
	}
	return nil
}

// Lost is the payload of a lost event: the commander lost, and each
// formation's new commander down the chain (CD-8).
type Lost struct {
	General    string       `json:"general"`
	Successors []Succession `json:"successors"`
}

// Succession is who commands a formation after a loss.
type Succession struct {
	Formation string `json:"formation"`
	General   string `json:"general,omitempty"` // "" for a stand-in with no figure
	Rating    string `json:"rating"`
	Bonus     int    `json:"bonus,omitempty"`
}

// Fold marks the commander lost and gives each formation its successor,
// with his rating and bonus (CD-8).
func (d *Lost) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	if g := st.General(d.General); g != nil {
		g.Lost = true
	}
	for _, sc := range d.Successors {
		f := st.Formation(sc.Formation)
		if f == nil {
			return fmt.Errorf("no formation %s", sc.Formation)
		}
		f.General, f.Rating, f.Bonus = sc.General, sc.Rating, sc.Bonus
		if g := st.General(sc.General); g != nil {
			g.Commands, g.Rating, g.Bonus = f.ID, sc.Rating, sc.Bonus
		}
	}
	return nil
}

// Describe words the loss and who takes each formation.
func (d *Lost) Describe(r *Rules, e *game.Event, name func(string) string) string {
	parts := make([]string, 0, len(d.Successors))
	for _, sc := range d.Successors {
		who := "a promoted colonel"
		if sc.General != "" {
			who = name(sc.General)
		}
		rating := sc.Rating
		if sc.Bonus != 0 {
			rating = fmt.Sprintf("%s %+d", sc.Rating, sc.Bonus)
		}
		parts = append(parts, fmt.Sprintf("%s takes %s (%s)", who, name(sc.Formation), rating))
	}
	return fmt.Sprintf("%s is lost; %s.", name(d.General), strings.Join(parts, ", "))
}

// Field gives the general lost, and each successor, his rating and his
// formation.
func (d *Lost) Field(r *Rules, e *game.Event, name string) []string {
	var got []string
	switch name {
	case "general":
		got = []string{d.General}
	case "successor":
		for _, s := range d.Successors {
			got = append(got, s.General)
		}
	case "rating":
		for _, s := range d.Successors {
			got = append(got, s.Rating)
		}
	case "formation":
		for _, s := range d.Successors {
			got = append(got, s.Formation)
		}
	}
	return got
}

// Marked is the payload of a marked event: what the players read off
// their own charts (fire, melee, morale), which CD's source leaves out.
type Marked struct {
	Unit       string `json:"unit"`
	Shaken     *bool  `json:"shaken,omitempty"`
	Disordered *bool  `json:"disordered,omitempty"`
	Smoke      *bool  `json:"smoke,omitempty"`
	Casualties *int   `json:"casualties,omitempty"`
	CW         *int   `json:"cw,omitempty"`
}

// Fold sets each mark the event gives.
func (d *Marked) Fold(r *Rules, s *game.State, e *game.Event) error {
	u, err := ext(s).unitOf(d.Unit)
	if err != nil {
		return err
	}
	if d.Shaken != nil {
		u.Shaken = *d.Shaken
	}
	if d.Disordered != nil {
		u.Disordered = *d.Disordered
	}
	if d.Smoke != nil {
		u.Smoke = *d.Smoke
	}
	if d.Casualties != nil {
		u.Casualties = *d.Casualties
	}
	if d.CW != nil {
		v := *d.CW
		u.CW = &v
	}
	return nil
}

// Describe words each mark the event gives.
func (d *Marked) Describe(r *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	b := func(k string, v *bool) {
		if v != nil {
			if *v {
				parts = append(parts, k)
			} else {
				parts = append(parts, "not "+k)
			}
		}
	}
	b("shaken", d.Shaken)
	b("disordered", d.Disordered)
	b("in smoke", d.Smoke)
	if d.Casualties != nil {
		parts = append(parts, game.Count(*d.Casualties, "casualty", "casualties"))
	}
	if d.CW != nil {
		parts = append(parts, fmt.Sprintf("CW %d", *d.CW))
	}
	return fmt.Sprintf("%s is marked %s.", name(d.Unit), strings.Join(parts, ", "))
}

// Field gives the unit.
func (d *Marked) Field(r *Rules, e *game.Event, name string) []string {
	if name == "unit" {
		return []string{d.Unit}
	}
	return nil
}

// TurnEnded is the payload of a turn-ended event.
type TurnEnded struct {
	Side  string   `json:"side"`
	Moved []string `json:"moved,omitempty"`
}

// Fold keeps whether each of the side's units moved, for its next turn,
// and clears its activations, moves, relief and smoke and the side's
// count of rolls.
func (d *TurnEnded) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != d.Side {
			continue
		}
		u.MovedLast = u.Moved
		u.Act, u.Factor, u.Used, u.Moved, u.Relieving, u.Smoke, u.From = 0, 0, 0, false, false, false, ""
	}
	st.Acts = nil
	if sd := st.Side(d.Side); sd != nil {
		sd.Rolls = 0
	}
	return nil
}

// Describe words the turn's end and how many units moved.
func (d *TurnEnded) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s's turn ends; %s moved.", name(d.Side), game.Count(len(d.Moved), "unit", "units"))
}

// Field gives none: a turn-ended event is matched by its type and side.
func (d *TurnEnded) Field(r *Rules, e *game.Event, name string) []string { return nil }
