package battle_test

import (
	"slices"
	"testing"

	"orderly/battle"
)

// TestShapesOf checks that every unit type has formations to stand in, each
// one of Shapes and in its order, that every shape is some type's, and
// that a type not in UnitTypes has none.
func TestShapesOf(t *testing.T) {
	taken := map[string]bool{}
	for _, typ := range battle.UnitTypes {
		got := battle.ShapesOf(typ)
		if len(got) == 0 {
			t.Errorf("%s stands in no formation", typ)
		}
		last := -1
		for _, sh := range got {
			i := slices.Index(battle.Shapes, sh)
			if i < 0 {
				t.Errorf("%s stands in %q, not one of battle.Shapes", typ, sh)
			}
			if i <= last {
				t.Errorf("%s: %v is not in the order of battle.Shapes", typ, got)
			}
			last = i
			taken[sh] = true
		}
		got[0] = "changed"
		if battle.ShapesOf(typ)[0] == "changed" {
			t.Errorf("ShapesOf(%q) shares its slice between calls", typ)
		}
	}
	for _, sh := range battle.Shapes {
		if !taken[sh] {
			t.Errorf("no unit type stands in %s", sh)
		}
	}
	if got := battle.ShapesOf("elephant"); got != nil {
		t.Errorf("ShapesOf(elephant) = %v, want nil", got)
	}
	if got := battle.ShapesOf("light-cavalry"); slices.Contains(got, "square") || slices.Contains(got, "limbered") {
		t.Errorf("horse stands in %v: not in square, nor limbered like guns", got)
	}
}
