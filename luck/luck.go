// Package luck measures where each side's dice fell against the exact
// odds of the tables they were rolled on (issue 36's luck report): for
// each side and table, the percentile of what was rolled in the exact
// distribution of what could have been rolled, from the same
// distributions as orderly odds.
//
// What is measured. A roll on a plain table is measured by its natural
// total (the dice alone: modifiers are the players' doing, not luck), in
// the distribution of the dice it was rolled with (package dice; a
// piece's class dice when they stood in). A roll on a pool table is
// measured by the dice that came through every stage, in the table's own
// Odds for the roll's recorded parameters. A table's lucky key says
// which way is lucky for the side that rolls; a table without it (its
// results have no order, such as a blunder's direction) counts in no
// side's luck. A roll belongs to the side of its subject (the unit,
// general or formation it was rolled for), or else to its event's side.
//
// The percentile. For a discrete measure S and what was rolled s, the
// percentile is the mid-percentile 100 × (P(S < s) + P(S = s)/2), with
// < read as "less lucky": its expected value is exactly 50 whatever the
// dice, so 50 is as expected and higher is luckier. A side's rolls on
// one table are taken together by the sum of their measures, whose exact
// law is the convolution of each roll's.
//
// A side overall. Sums of different tables' measures do not compare (a
// volley of twenty dice would outweigh an order's one d10), so each roll
// first scores the tenth of its own distribution it fell in (its decile,
// 0 to 9, by its mid-percentile), and the side's overall percentile is
// the mid-percentile of the sum of its rolls' deciles in that sum's exact
// law (the convolution of each roll's exact law of deciles). Every roll
// counts alike, the law is exact, and the work grows with the square of
// the number of rolls rather than with the product of the tables'
// denominators (as the exact law of a sum of percentiles would).
package luck

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/strict"
	"orderly/table"
)

// Report is the luck of every side of one game.
type Report struct {
	Sides []Side `json:"sides"`
}

// Side is one side's luck: over all its rolls that have a direction
// (Overall), and table by table.
type Side struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Rolls is how many of the side's rolls were measured.
	Rolls int `json:"rolls"`
	// Percentile (0 to 100) of the side's rolls taken together, where 50
	// is as expected and higher is luckier for the side.
	Percentile float64 `json:"percentile"`
	// Text says it in one sentence.
	Text   string  `json:"text"`
	Tables []Group `json:"tables"`
}

// Group is a side's rolls on one table.
type Group struct {
	Table string `json:"table"`
	Title string `json:"title"`
	Rolls int    `json:"rolls"`
	// Percentile (0 to 100) of the rolls taken together in the exact
	// distribution of their sum; higher is luckier for the side.
	Percentile float64 `json:"percentile"`
	// Expected and Got are the expected and the actual sum of what was
	// measured (naturals, or results in the table's order).
	Expected float64 `json:"expected"`
	Got      float64 `json:"got"`
	// Measure says what was summed: "natural" (the natural totals) or
	// "through" (a pool's dice that came through every stage); Lucky
	// which way is lucky for the side (table.LuckyHigh or LuckyLow).
	Measure string `json:"measure"`
	Lucky   string `json:"lucky"`
	// Text says it in one sentence ("the French order delays were in the
	// 12th percentile of what was expected").
	Text string `json:"text"`
}

// What a group sums (Group.Measure).
const (
	Natural = "natural"
	Through = "through"
)

// measured is one roll that counts: whose it is, its table, the law of
// its measure and what it measured.
type measured struct {
	side string
	t    *table.Table
	key  string // what its law is kept under (reader.law)
	law  law
	x    int
}

// Of works out the luck of every side of sc over a game's log (withdrawn
// events and events that draw no dice count for nothing), reading each
// roll's table from set. A roll on a table set lacks, or whose recorded
// dice or parameters its table refuses, is an error naming the event.
func Of(set *table.Set, sc *battle.Scenario, log []game.Event) (*Report, error) {
	gone := game.Withdrawn(log)
	rd := newReader(set, sc)
	var rolls []measured
	for i := range log {
		e := &log[i]
		if gone[e.Seq] {
			continue
		}
		for j := range e.Rolls {
			m, ok, err := rd.measure(e, &e.Rolls[j])
			if err != nil {
				return nil, fmt.Errorf("luck: event %d, roll on table %s: %w", e.Seq, strict.Quote(e.Rolls[j].Table, 80), err)
			}
			if ok {
				rolls = append(rolls, m)
			}
		}
	}
	rep := &Report{Sides: []Side{}}
	for _, sd := range sc.Sides {
		rep.Sides = append(rep.Sides, rd.side(sd, rolls))
	}
	return rep, nil
}

// reader measures a game's rolls, keeping each law it works out: most of
// a game's rolls are on the same few dice.
type reader struct {
	set  *table.Set
	sc   *battle.Scenario
	laws map[string]law
	decs map[string]law
}

func newReader(set *table.Set, sc *battle.Scenario) *reader {
	return &reader{set: set, sc: sc, laws: map[string]law{}, decs: map[string]law{}}
}

// measure reads one roll: false for a roll that says nothing of luck (a
// table without a direction, a row that needs no dice, a measure no die
// could change, a roll of no side).
func (rd *reader) measure(e *game.Event, r *game.Roll) (measured, bool, error) {
	t, err := rd.set.Table(r.Table)
	if err != nil {
		return measured{}, false, err
	}
	if t.Lucky == "" {
		return measured{}, false, nil
	}
	m := measured{side: sideOf(rd.sc, e, r.Subject), t: t, x: r.Natural}
	if m.side == "" {
		return measured{}, false, nil
	}
	if t.Pool != nil {
		m.x = r.Total
	} else if len(r.Faces) == 0 {
		return measured{}, false, nil // a fixed row: no dice were rolled
	}
	if m.key, m.law, err = rd.law(t, r); err != nil {
		return measured{}, false, err
	}
	if m.law.single() {
		return measured{}, false, nil
	}
	if m.x < m.law.min || m.x >= m.law.min+len(m.law.ways) {
		return measured{}, false, fmt.Errorf("it measured %d, which its dice cannot give (%d..%d)", m.x, m.law.min, m.law.min+len(m.law.ways)-1)
	}
	return m, true, nil
}

// law is the law of a roll's measure, and the key it is kept under: for
// a pool, the table and the parameters its odds depend on; for other
// tables the dice alone.
func (rd *reader) law(t *table.Table, r *game.Roll) (string, law, error) {
	key := "dice " + r.Dice
	if t.Pool != nil {
		key = "pool " + t.ID + " " + fmt.Sprint(r.Params)
	}
	if l, ok := rd.laws[key]; ok {
		return key, l, nil
	}
	var l law
	if t.Pool != nil {
		var err error
		if l, err = poolLaw(t, r.Params); err != nil {
			return "", law{}, err
		}
	} else {
		spec, err := dice.Parse(r.Dice)
		if err != nil {
			return "", law{}, err
		}
		d, err := spec.Dist()
		if err != nil {
			return "", law{}, err
		}
		l = law{min: d.Min, ways: d.Ways, den: d.Outcomes}
	}
	rd.laws[key] = l
	return key, l, nil
}

// deciles is the law of the deciles a roll m scores, kept by its law's
// key and direction.
func (rd *reader) deciles(m measured) law {
	key := m.t.Lucky + " " + m.key
	l, ok := rd.decs[key]
	if !ok {
		l = m.law.deciles(m.t.Lucky == table.LuckyHigh)
		rd.decs[key] = l
	}
	return l
}

// poolLaw is the law of the dice that come through a pool table's stages
// for the recorded parameters: the table's own Odds, whose results are
// the pool's result key and the count.
func poolLaw(t *table.Table, params map[string]string) (law, error) {
	a, err := t.Bind(params)
	if err != nil {
		return law{}, err
	}
	o, err := t.Odds(a)
	if err != nil {
		return law{}, err
	}
	var counts []int
	hi := 0
	for _, c := range o.Outcomes {
		var k int
		if _, err := fmt.Sscanf(strings.TrimPrefix(c.Result, t.Pool.Result+"-"), "%d", &k); err != nil || k < 0 {
			return law{}, fmt.Errorf("pool result %s is not %s-N", c.Result, t.Pool.Result)
		}
		counts = append(counts, k)
		hi = max(hi, k)
	}
	out := law{ways: make([]*big.Int, hi+1), den: o.Den}
	for i := range out.ways {
		out.ways[i] = new(big.Int)
	}
	for i, c := range o.Outcomes {
		out.ways[counts[i]].Add(out.ways[counts[i]], c.Num)
	}
	return out, nil
}

// sideOf is the side a roll belongs to: its subject's, if the subject is
// a unit, general or formation of the scenario, else its event's; "" for
// none (the umpire's).
func sideOf(sc *battle.Scenario, e *game.Event, subject string) string {
	if subject != "" {
		if u := sc.Unit(subject); u != nil {
			return u.Side
		}
		if g := sc.General(subject); g != nil {
			return g.Side
		}
		if f := sc.Formation(subject); f != nil {
			return f.Side
		}
	}
	if sc.Side(e.Side) != nil {
		return e.Side
	}
	return ""
}

// side is one side's luck from every measured roll.
func (rd *reader) side(sd *battle.Side, rolls []measured) Side {
	out := Side{ID: sd.ID, Name: name(sd), Percentile: 50, Tables: []Group{}}
	overall, score := certain(), 0
	byTable := map[string][]measured{}
	for _, m := range rolls {
		if m.side != sd.ID {
			continue
		}
		out.Rolls++
		high := m.t.Lucky == table.LuckyHigh
		overall = overall.plus(rd.deciles(m))
		score += decile(m.law.mid(m.x, high))
		byTable[m.t.ID] = append(byTable[m.t.ID], m)
	}
	if out.Rolls == 0 {
		out.Text = sentence("None of %s rolls was on a table that says which way is lucky.", Possessive(out.Name))
		return out
	}
	out.Percentile = percent(overall.mid(score, true))
	out.Text = sentence("%s %s taken together %s in the %s percentile of what was expected: %s.",
		Possessive(out.Name), count(out.Rolls), were(out.Rolls), Ordinal(out.Percentile), verdict(out.Percentile))
	for _, t := range rd.set.Tables() {
		if ms := byTable[t.ID]; len(ms) > 0 {
			out.Tables = append(out.Tables, group(out.Name, ms))
		}
	}
	return out
}

// group is a side's luck on one table: the sum of its rolls' measures in
// that sum's exact law.
func group(who string, ms []measured) Group {
	t := ms[0].t
	g := Group{Table: t.ID, Title: t.Title, Rolls: len(ms), Measure: Natural, Lucky: t.Lucky}
	if t.Pool != nil {
		g.Measure = Through
	}
	sum, got := certain(), 0
	for _, m := range ms {
		sum = sum.plus(m.law)
		got += m.x
	}
	high := t.Lucky == table.LuckyHigh
	g.Percentile = percent(sum.mid(got, high))
	exp, _ := sum.mean().Float64()
	g.Expected, g.Got = round2(exp), float64(got)
	g.Text = sentence("%s %s for %s %s in the %s percentile of what was expected: %s.",
		Possessive(who), count(g.Rolls), topic(t.Title), were(g.Rolls), Ordinal(g.Percentile), verdict(g.Percentile))
	return g
}

// Possessive is a name's possessive: "Austrians'", "French's".
func Possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

// sentence formats a sentence and starts it with a capital letter (a
// side named in lower case may open it).
func sentence(format string, args ...any) string {
	s := fmt.Sprintf(format, args...)
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// name is how a side is named in the text: its name, else its id.
func name(sd *battle.Side) string {
	if sd.Name != "" {
		return sd.Name
	}
	return sd.ID
}

// topic is a table's title as it reads inside a sentence.
func topic(title string) string {
	title = strings.TrimSuffix(title, " (example values)")
	if title == "" {
		return title
	}
	return strings.ToLower(title[:1]) + title[1:]
}

func count(n int) string {
	if n == 1 {
		return "1 roll"
	}
	return fmt.Sprintf("%d rolls", n)
}

func were(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// Ordinal words a percentile as a whole ordinal, 1st to 99th ("12th").
func Ordinal(p float64) string {
	n := min(max(int(math.Round(p)), 1), 99)
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// verdict words a percentile for the side.
func verdict(p float64) string {
	switch {
	case p < 10:
		return "very unlucky"
	case p < 30:
		return "unlucky"
	case p <= 70:
		return "about as expected"
	case p <= 90:
		return "lucky"
	}
	return "very lucky"
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }
