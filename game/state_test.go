package game

import "testing"

// TestMoveHintIsChecked: a move's piece hint is used only when it names
// the piece the move is for; a wrong or stale hint falls back to the id.
func TestMoveHintIsChecked(t *testing.T) {
	s := &State{Pieces: []*Piece{{ID: "a"}, {ID: "b"}}, piece: map[string]int{"a": 0, "b": 1}}
	for _, c := range []struct {
		m    Move
		want string // "" for no piece
	}{
		{Move{Unit: "b", Piece: 2}, "b"},
		{Move{Unit: "b", Piece: 1}, "b"}, // the hint names a
		{Move{Unit: "a", Piece: 9}, "a"}, // beyond the pieces
		{Move{General: "a", Piece: -3}, "a"},
		{Move{Unit: "c", Piece: 1}, ""}, // not in the game, whatever the hint
	} {
		got := ""
		if p := s.moved(c.m); p != nil {
			got = p.ID
		}
		if got != c.want {
			t.Errorf("%+v moves %q, want %q", c.m, got, c.want)
		}
	}
}
