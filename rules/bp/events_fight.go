package bp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"orderly/game"
)

// Charged is the payload of a charged event.
type Charged struct {
	Unit     string  `json:"unit"`
	Target   string  `json:"target"`
	Distance float64 `json:"distance"`
}

// Fold spends the charger's allowance and waits for the target's reply
// (BP-4).
func (d *Charged) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	u, err := st.unitOf(d.Unit)
	if err != nil {
		return err
	}
	u.Used = u.Allow
	st.Charge = &Charge{Unit: d.Unit, Target: d.Target}
	st.reveal(d.Unit)
	return nil
}

// Describe words the charge.
func (d *Charged) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s charges %s, moving %s\" into contact", name(d.Unit), name(d.Target), inch(d.Distance))
}

// Field gives the charger as unit and the charged unit as target.
func (d *Charged) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "target":
		return []string{d.Target}
	}
	return nil
}

// Test is a break test and what came of it.
type Test struct {
	Unit     string `json:"unit"`
	Modifier int    `json:"modifier"`
	Result   string `json:"result"` // a result of bp/break-test
	// Gone says the unit left the table (broke, or retreated off it).
	Gone bool `json:"gone,omitempty"`
}

// testWords words a break test and its result.
func testWords(t *Test, name func(string) string) string {
	s := fmt.Sprintf("%s takes a break test: %s", name(t.Unit), t.Result)
	if t.Modifier != 0 {
		s = fmt.Sprintf("%s takes a break test at %+d: %s", name(t.Unit), t.Modifier, t.Result)
	}
	if t.Gone {
		s += ", and leaves the table"
	}
	return s
}

// Volley is one unit's shooting at another, and its effect: the payload
// of a shot event, and part of a responded one (closing fire).
type Volley struct {
	Shooter    string `json:"shooter"`
	Target     string `json:"target"`
	Dice       int    `json:"dice"`
	Enfilade   bool   `json:"enfilade,omitempty"`
	Closing    bool   `json:"closing,omitempty"`
	Traversing bool   `json:"traversing,omitempty"`
	Hits       int    `json:"hits"`
	Casualties int    `json:"casualties"`
	Disorders  bool   `json:"disorders,omitempty"`
	After      int    `json:"after"` // the target's casualties after
	// Shaken says the target is shaken after it: casualties at stamina.
	Shaken bool  `json:"shaken,omitempty"`
	Test   *Test `json:"test,omitempty"`
}

// Fold applies the volley to its target and marks the shooter: its
// traversing fire given, which it takes off the units still to fire, or
// its shooting done for the turn (BP-5).
func (d *Volley) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	if err := st.volley(s, d); err != nil {
		return err
	}
	switch {
	case d.Traversing:
		st.Unit(d.Shooter).Fired = true
		if tr := st.Traverse; tr != nil {
			tr.Firers = slices.DeleteFunc(slices.Clone(tr.Firers), func(id string) bool { return id == d.Shooter })
			if len(tr.Firers) == 0 || !st.alive(s, tr.Unit) {
				st.Traverse = nil
			}
		}
	case !d.Closing:
		st.Unit(d.Shooter).Shot = true
	}
	return nil
}

// Describe words the volley with the event's roll.
func (d *Volley) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return volleyWords(d, name, rollNote(e))
}

// volleyWords words a volley, roll being its dice in words ("" for none).
func volleyWords(v *Volley, name func(string) string, roll string) string {
	what := "shoots at"
	switch {
	case v.Closing:
		what = "gives closing fire at"
	case v.Traversing:
		what = "gives traversing fire at"
	}
	s := fmt.Sprintf("%s %s %s with %d dice", name(v.Shooter), what, name(v.Target), v.Dice)
	if v.Enfilade {
		s += " in enfilade"
	}
	s += fmt.Sprintf("%s: %s, %s, %d in all", roll, game.Count(v.Hits, "hit", "hits"), game.Count(v.Casualties, "casualty", "casualties"), v.After)
	if v.Disorders {
		s += ", disordered by a natural 6"
	}
	if v.Test != nil {
		s += "; " + testWords(v.Test, name)
	}
	return s
}

// Field gives the shooter as unit and its target, and the volley's
// effect (volleyField).
func (d *Volley) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Shooter}
	case "target":
		return []string{d.Target}
	}
	return volleyField(d, name)
}

// volleyField gives a volley's effect, wherever it is recorded:
// casualties, disorders, the break test's result ("" for none) and the
// target as gone when it left the table.
func volleyField(v *Volley, name string) []string {
	switch name {
	case "casualties":
		return []string{strconv.Itoa(v.Casualties)}
	case "disorders":
		return []string{strconv.FormatBool(v.Disorders)}
	case "test":
		if v.Test != nil {
			return []string{v.Test.Result}
		}
		return []string{""}
	case "gone":
		if v.Test != nil && v.Test.Gone {
			return []string{v.Target}
		}
	}
	return nil
}

// Responded is the payload of a responded event.
type Responded struct {
	Unit     string  `json:"unit"`
	Charger  string  `json:"charger"`
	Response string  `json:"response"`
	Volley   *Volley `json:"volley,omitempty"`
	// Engaged says the two are now in combat.
	Engaged bool `json:"engaged"`
	Auto    bool `json:"auto,omitempty"` // no reply was given: the unit stands
}

// Fold ends the wait for the reply, applies its closing fire, and puts the
// two in combat if the charge went home (BP-4).
func (d *Responded) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	st.Charge = nil
	if d.Volley != nil {
		if err := st.volley(s, d.Volley); err != nil {
			return err
		}
		st.Unit(d.Unit).Fired = true
	}
	if d.Engaged {
		st.engage(d.Unit, d.Charger)
	}
	st.reveal(d.Unit)
	return nil
}

// Describe words the reply, its closing fire and whether the two are in
// combat.
func (d *Responded) Describe(r *Rules, e *game.Event, name func(string) string) string {
	s := fmt.Sprintf("%s answers the charge of %s: %s", name(d.Unit), name(d.Charger), d.Response)
	if d.Auto {
		s = fmt.Sprintf("%s stands against the charge of %s (no other reply was given)", name(d.Unit), name(d.Charger))
	}
	if d.Volley != nil {
		s += "; " + volleyWords(d.Volley, name, rollNote(e))
	}
	if d.Engaged {
		s += "; the two are in combat"
	}
	return s
}

// Field gives the charged unit, the charger as target, the response,
// whether they are engaged, and its closing fire's effect (volleyField).
func (d *Responded) Field(r *Rules, e *game.Event, name string) []string {
	var got []string
	switch name {
	case "unit":
		got = []string{d.Unit}
	case "target":
		got = []string{d.Charger}
	case "response":
		got = []string{d.Response}
	case "engaged":
		got = []string{strconv.FormatBool(d.Engaged)}
	}
	if d.Volley != nil {
		got = append(got, volleyField(d.Volley, name)...)
	}
	return got
}

// Blow is what one unit inflicts in a combat.
type Blow struct {
	Unit       string `json:"unit"`
	Target     string `json:"target"`
	Dice       int    `json:"dice"`
	Casualties int    `json:"casualties"`
}

// Score is the casualties a side inflicted in a combat.
type Score struct {
	Side       string `json:"side"`
	Casualties int    `json:"casualties"`
}

// Fought is the payload of a fought event.
type Fought struct {
	Units  []string `json:"units"`
	Blows  []Blow   `json:"blows"`
	Scores []Score  `json:"scores"`
	// Margins says the combat-margin house rule was played (bp/options):
	// then Loser is the side that inflicted fewer casualties ("" for a
	// draw), Margin the difference, and the loser's units test at minus
	// it. Without it no side loses a combat (BP-6).
	Margins bool   `json:"margins,omitempty"`
	Loser   string `json:"loser,omitempty"`
	Margin  int    `json:"margin,omitempty"`
	After   []int  `json:"after"` // each unit's casualties after
	// Shaken lists the units shaken after it.
	Shaken []string `json:"shaken,omitempty"`
	Tests  []Test   `json:"tests,omitempty"`
}

// Fold marks each unit as having fought with its casualties after, then
// applies the break tests (BP-6).
func (d *Fought) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	for i, id := range d.Units {
		u, err := st.unitOf(id)
		if err != nil {
			return err
		}
		u.Fought = true
		if i < len(d.After) {
			u.wound(d.After[i])
		}
	}
	// A unit that breaks or retreats leaves the combat, and a unit
	// with no enemy left in it is out of it (disengage).
	for _, t := range d.Tests {
		st.test(s, t)
	}
	return nil
}

// Describe words each unit's blow, the margin when it is played, and the
// break tests.
func (d *Fought) Describe(r *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	for _, b := range d.Blows {
		parts = append(parts, fmt.Sprintf("%s %d on %s", name(b.Unit), b.Casualties, name(b.Target)))
	}
	s := "Combat: " + strings.Join(parts, ", ")
	switch {
	case !d.Margins:
	case d.Loser == "":
		s += "; a draw"
	default:
		s += fmt.Sprintf("; %s lose by %d", name(d.Loser), d.Margin)
	}
	for _, t := range d.Tests {
		s += "; " + testWords(&t, name)
	}
	return s
}

// Field gives the units in the combat, the loser and margin, the break
// tests' results, and the units that left the table as gone.
func (d *Fought) Field(r *Rules, e *game.Event, name string) []string {
	var got []string
	switch name {
	case "unit":
		got = d.Units
	case "loser":
		got = []string{d.Loser}
	case "margin":
		got = []string{strconv.Itoa(d.Margin)}
	case "test":
		for _, t := range d.Tests {
			got = append(got, t.Result)
		}
	case "gone":
		for _, t := range d.Tests {
			if t.Gone {
				got = append(got, t.Unit)
			}
		}
	}
	return got
}
