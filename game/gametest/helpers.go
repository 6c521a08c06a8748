package gametest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
)

// Queue is dice for a test that hand out the given faces in order, to
// every roll alike.
type Queue struct{ Faces []int }

// Roller is q itself, for every roll.
func (q *Queue) Roller(game.RollKey) dice.Roller { return q }

// Face hands out the next face, or an error when none is left.
func (q *Queue) Face(sides, low int) (int, error) {
	if len(q.Faces) == 0 {
		return 0, errors.New("no more faces")
	}
	f := q.Faces[0]
	q.Faces = q.Faces[1:]
	return f, nil
}

// Read reads a scenario of rule set rs, failing t on an error.
func Read(t testing.TB, rs battle.RuleSet, name string, data []byte) *battle.Scenario {
	t.Helper()
	sc, err := battle.Read(name, data, func(string) (battle.RuleSet, error) { return rs, nil })
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// ReadFile reads a scenario file of rule set rs, failing t on an error.
func ReadFile(t testing.TB, rs battle.RuleSet, path string) *battle.Scenario {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Read(t, rs, filepath.Base(path), data)
}
