package bp_test

import (
	"fmt"
	"testing"

	"orderly/game"
	"orderly/rules/bp"
)

// TestBoardModifierBounds: the modifier bounds the board gives the page
// are those a command is decoded with: an order declaring the bound is
// read, one just beyond it is refused (BP-1).
func TestBoardModifierBounds(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	b := r.Annotate(g.State(), g.Step(), game.Umpire).(bp.Board)
	if b.Modifier.Min >= 0 || b.Modifier.Max <= 0 || b.Proximity != bp.Proximity {
		t.Fatalf("board modifier %+v, proximity %v", b.Modifier, b.Proximity)
	}
	order := func(m int) error {
		_, err := game.DecodeCommand(r, fmt.Appendf(nil, "{side: french, order: {brigade: b1, units: [u1], kind: advance, modifier: %d}}", m), "test")
		return err
	}
	for m, ok := range map[int]bool{b.Modifier.Min: true, b.Modifier.Max: true, b.Modifier.Min - 1: false, b.Modifier.Max + 1: false} {
		if err := order(m); (err == nil) != ok {
			t.Errorf("an order with modifier %d: %v", m, err)
		}
	}
}
