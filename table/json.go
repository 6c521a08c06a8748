package table

// OddsJSON is the odds of a table for bound parameters, as `orderly odds
// --json` prints them and the server answers them: one shape for both.
type OddsJSON struct {
	Table    string            `json:"table"`
	Rule     string            `json:"rule,omitempty"`
	Params   map[string]string `json:"params,omitempty"`
	Dice     string            `json:"dice"`
	Modifier int               `json:"modifier"`
	Target   *int              `json:"target,omitempty"`
	Outcomes []OutcomeJSON     `json:"outcomes"`
}

// OutcomeJSON is one result's chance: exactly (a fraction, "1/5"), as a
// float, and the number and the words the table gives the result.
type OutcomeJSON struct {
	Result      string  `json:"result"`
	Probability float64 `json:"probability"`
	Exact       string  `json:"exact"`
	Value       *int    `json:"value,omitempty"`
	Doc         string  `json:"doc,omitempty"`
}

// JSON is the odds o of table t under parameters a, in the one JSON shape.
func (o Odds) JSON(t *Table, a Args) OddsJSON {
	return OddsJSON{Table: t.ID, Rule: t.Rule, Params: a.Map(), Dice: o.Dice, Modifier: o.Modifier, Target: o.Target, Outcomes: o.OutcomesJSON(t)}
}

// OutcomesJSON is each outcome of o, with the value and words t gives it.
func (o Odds) OutcomesJSON(t *Table) []OutcomeJSON {
	out := make([]OutcomeJSON, 0, len(o.Outcomes))
	for _, c := range o.Outcomes {
		j := OutcomeJSON{Result: c.Result, Probability: o.Float(c), Exact: o.Rat(c).RatString()}
		if r := t.Result(c.Result); r != nil {
			j.Value, j.Doc = r.Value, r.Doc
		}
		out = append(out, j)
	}
	return out
}
