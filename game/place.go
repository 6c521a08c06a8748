package game

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/geom"
	"orderly/strict"
)

// The umpire's hand (issue 15): place is the engine's own verb, in every
// rule set and every step, for the umpire alone: a piece on the field is
// set where he says, with the reason he gives, whatever the rules would
// say of the move. It is how a refused move is made all the same, and how
// a slip at the table is mended. The event it makes, piece-placed, says
// so to everyone who may see the piece.
const (
	Place  = "place"
	Placed = "piece-placed"
)

// Placer is a rule set that keeps something by where pieces stand beside
// the pieces themselves (an index of positions kept up as its own events
// move them): Placed tells it, as the umpire's piece-placed event is
// applied (in play and in a replay), that piece id now stands where the
// event set it. Optional: a rule set that keeps no such index has none.
type Placer interface {
	Placed(s *State, id string)
}

// MaxWhy is the most characters of the umpire's reason.
const MaxWhy = 200

// Placement is the arguments of place: the piece, where it goes (To on a
// table; Hex, the printed label, on a hex map), perhaps a new formation
// and facing, and why.
type Placement struct {
	Piece  string     `json:"piece"`
	To     geom.Point `json:"to"`
	Hex    string     `json:"hex,omitempty"`
	Shape  string     `json:"formation,omitempty"`
	Facing *float64   `json:"facing,omitempty"`
	Why    string     `json:"why"`
}

// Size is the ids it names (Sizer).
func (p *Placement) Size() int { return 1 }

// PlaceData is the payload of a piece-placed event: the piece, where it was
// put as people write it, and the umpire's reason.
type PlaceData struct {
	Piece string `json:"piece"`
	At    string `json:"at"`
	Why   string `json:"why"`
}

// decodePlace reads place's arguments: {piece, to, formation, facing, why}.
func decodePlace(rd strict.Reader, n *yaml.Node, where string) (*Placement, error) {
	f, err := rd.Fields(n, where, "piece", "to", "formation", "facing", "why")
	if err != nil {
		return nil, err
	}
	if err := rd.Require(f, n, where, "piece", "to", "why"); err != nil {
		return nil, err
	}
	p := &Placement{}
	if p.Piece, err = rd.ID(f["piece"], where+".piece"); err != nil {
		return nil, err
	}
	if to := f["to"]; to.Kind == yaml.ScalarNode {
		if p.Hex, err = rd.Hex(to, where+".to"); err != nil {
			return nil, err
		}
	} else if p.To, err = battle.Position(rd, to, where+".to"); err != nil {
		return nil, err
	}
	if f["formation"] != nil {
		if p.Shape, err = rd.Word(f["formation"], where+".formation"); err != nil {
			return nil, err
		}
	}
	if f["facing"] != nil {
		v, err := battle.Number(rd, f["facing"], where+".facing")
		if err != nil {
			return nil, err
		}
		if v < 0 || v >= 360 {
			return nil, rd.Errf(f["facing"], "%s.facing: %v is out of range; allowed: 0 up to 360 degrees", where, v)
		}
		p.Facing = &v
	}
	if p.Why, err = rd.Str(f["why"], where+".why"); err != nil {
		return nil, err
	}
	p.Why = strings.TrimSpace(p.Why)
	if p.Why == "" || len(p.Why) > MaxWhy || strings.ContainsAny(p.Why, "\n\r") {
		return nil, rd.Errf(f["why"], "%s.why: give the reason in one line of 1 to %d characters; it is recorded with the move", where, MaxWhy)
	}
	return p, nil
}

// place carries out the umpire's place (see Place).
func (g *Game) place(c *Command) error {
	if c.Side != Umpire {
		return Reject("", "only the umpire places a piece where he likes; a side moves its pieces by its own commands")
	}
	p, ok := c.Args.(*Placement)
	if !ok || p == nil {
		return Reject("", "place needs a piece, where it goes, and why")
	}
	pc := g.st.Piece(p.Piece)
	if pc == nil {
		return Reject("", "there is no piece %s in this game", strict.Quote(p.Piece, 40))
	}
	if !pc.OnTable {
		return Reject("", "%s is not on the field; the umpire places only pieces that are", p.Piece)
	}
	sp := g.sc.Space()
	to := p.To
	if p.Hex != "" {
		l, ok := sp.(geom.Labeled)
		if !ok {
			return Reject("", "%s is a hex label, but this game is played on a table: give to as [x, y] in inches", strict.Quote(p.Hex, 20))
		}
		var err error
		if to, err = l.Parse(p.Hex); err != nil {
			return Reject("", "place to: %v", err)
		}
	} else if _, hex := sp.(geom.Labeled); hex {
		return Reject("", "this game is played on a hex map: give to as a hex's label, such as \"0412\"")
	}
	if !sp.Contains(to) {
		return Reject("", "%s is off %s", sp.Format(to), sp.Extent())
	}
	m := Move{To: to, Shape: p.Shape, Facing: p.Facing, Piece: g.st.piece[pc.ID] + 1}
	if u := g.sc.Unit(pc.ID); u != nil {
		m.Unit = pc.ID
		if p.Shape != "" {
			shapes := g.rules.Shapes()[u.Type]
			if !slices.Contains(shapes, p.Shape) {
				return Reject("", "%s is %s, which takes formations %s, not %s", pc.ID, u.Type, strings.Join(shapes, ", "), strict.Quote(p.Shape, 30))
			}
		}
	} else {
		m.General = pc.ID
		if p.Shape != "" || p.Facing != nil {
			return Reject("", "%s is a general: he has no formation or facing to set", pc.ID)
		}
	}
	x := g.tx(false)
	mv := x.Moves(1)
	mv[0] = m
	if err := x.Emit(Event{Type: Placed, Side: pc.Side, See: All, Moves: mv,
		Data: &PlaceData{Piece: pc.ID, At: sp.Format(to), Why: p.Why}}); err != nil {
		return err
	}
	return g.rules.Settle(g.tx(false))
}

// describePlace is a piece-placed event in one sentence.
func describePlace(d *PlaceData, name func(string) string) string {
	return fmt.Sprintf("the umpire placed %s at %s: %s", name(d.Piece), d.At, d.Why)
}
