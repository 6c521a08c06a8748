package nb_test

import (
	"testing"

	"orderly/game"
	"orderly/script"
)

// playScript plays a script given inline and fails the test on every
// expectation it does not meet.
func playScript(t *testing.T, name, text string) []game.Event {
	t.Helper()
	r := engine(t)
	s, err := script.Load(name, []byte(text), func(string) (game.Rules, error) { return r, nil }, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	g, timeline, err := s.Run(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range s.Check(timeline) {
		t.Error(err)
	}
	if t.Failed() {
		for _, e := range timeline {
			t.Logf("turn %d %s %s: %s", e.Turn, e.Phase, e.Type, g.Describe(&e, nil))
		}
	}
	return timeline
}

// twoCorpsWing is a scenario with Grouchy's wing far from Napoleon: a
// messenger takes three rides to reach him.
const twoCorpsWing = `
scenario:
  name: two-corps-wing
  rules: nb
  turns: 6
  field: {width: 72, depth: 48}
  speeds: {infantry: 6, light-cavalry: 12, heavy-cavalry: 10, artillery: 6}
  sides:
    - id: french
      nation: french
      edge: south
      army: {id: napoleon, quality: excellent, range: 16, at: [36, 44]}
      wings:
        - id: R
          general: {id: grouchy, quality: average, range: 10, at: [60, 20]}
          corps:
            - id: III
              general: {id: vandamme, quality: average, range: 8, at: [56, 24]}
              order: defend
              divisions:
                - id: III-1
                  general: {id: lefol, quality: average, range: 4, at: [56, 23]}
                  units:
                    - {id: III-1-a, type: infantry, at: [56, 22]}
            - id: IV
              general: {id: gerard, quality: average, range: 8, at: [64, 24]}
              order: defend
              divisions:
                - id: IV-1
                  general: {id: pecheux, quality: average, range: 4, at: [64, 23]}
                  units:
                    - {id: IV-1-a, type: infantry, at: [64, 22]}
    - id: british
      nation: british
      edge: north
      army: {id: wellington, quality: excellent, range: 16, at: [10, 2]}
      corps:
        - id: B
          general: {id: hill, quality: good, range: 8, at: [10, 4]}
          order: defend
          divisions:
            - id: B-1
              general: {id: clinton, quality: good, range: 4, at: [10, 5]}
              units:
                - {id: B-1-a, type: infantry, formation: line, at: [10, 6]}
`

// TestArmyCommanderJoinsOneReader checks NB-13 with NB-11: the army
// commander joins Vandamme while the order for Grouchy's wing is still on
// its way. III Corps acts on it in the next command phase, but the
// messenger is not recalled, since IV Corps still needs it: it reaches
// Grouchy, Gerard reads it and acts on it, and Vandamme does not read it
// again.
func TestArmyCommanderJoinsOneReader(t *testing.T) {
	playScript(t, "army-commander-joins-one-reader", `
script: army-commander-joins-one-reader
seed: 1
until: 4
`+twoCorpsWing+`
rolls:
  - {turn: 4, table: nb/order-delay, for: IV, natural: 7}
turns:
  - turn: 1
    communications:
      - {side: french, write: {for: R, kind: defend, objective: [60, 10]}}
    maneuver:
      - {side: french, attach: {general: napoleon, to: vandamme}}
expect:
  - {turn: 2, phase: command, type: order-active, order: french-3, formation: III, how: army-commander}
  - {type: messenger-withdrawn, not: true}
  - {turn: 3, phase: maneuver, type: order-delivered, order: french-3, general: grouchy}
  - {turn: 4, phase: communications, type: order-read, order: french-3, formation: IV, acts: "4"}
  - {turn: 4, phase: maneuver, type: order-active, order: french-3, formation: IV, how: read}
  - {type: order-read, order: french-3, formation: III, not: true}
  - {type: order-active, order: french-3, formation: III, how: read, not: true}
`)
}

// TestAttachedReserveTakesNewest checks NB-9 with NB-13 when two orders
// reach a reserve while its general is attached to a unit: once he
// detaches, it acts on the newer one, and the older is superseded for it.
func TestAttachedReserveTakesNewest(t *testing.T) {
	playScript(t, "attached-reserve-takes-newest", `
script: attached-reserve-takes-newest
seed: 1
until: 3
scenario:
  name: nb-09-attached-reserve
  rules: nb
  turns: 6
  field: {width: 72, depth: 48}
  speeds: {infantry: 6, light-cavalry: 12, heavy-cavalry: 10, artillery: 6}
  sides:
    - id: french
      nation: french
      edge: south
      army: {id: napoleon, quality: excellent, range: 12, at: [36, 46]}
      corps:
        - id: G
          name: Imperial Guard
          general: {id: mortier, quality: good, range: 8, at: [30, 40]}
          order: reserve
          divisions:
            - id: G-1
              general: {id: friant, quality: good, range: 4, at: [30, 41]}
              units:
                - {id: G-1-a, type: infantry, at: [29, 42]}
                - {id: G-1-b, type: infantry, at: [31, 42]}
        - id: VI
          general: {id: lobau, quality: average, range: 8, at: [42, 40]}
          order: reserve
          divisions:
            - id: VI-1
              general: {id: simmer, quality: average, range: 4, at: [42, 41]}
              units:
                - {id: VI-1-a, type: infantry, at: [42, 42]}
    - id: british
      nation: british
      edge: north
      army: {id: wellington, quality: excellent, range: 16, at: [36, 2]}
      corps:
        - id: B
          general: {id: hill, quality: good, range: 8, at: [36, 6]}
          order: defend
          divisions:
            - id: B-1
              general: {id: clinton, quality: good, range: 4, at: [36, 5]}
              units:
                - {id: B-1-a, type: infantry, formation: line, at: [36, 4]}
turns:
  - turn: 1
    maneuver:
      - {side: french, attach: {general: mortier, to: G-1-a}}
  - turn: 2
    communications:
      - {side: french, write: {for: G, kind: defend, objective: [30, 30]}}
  - turn: 3
    communications:
      - {side: french, write: {for: G, kind: attack, objective: [30, 20]}}
    maneuver:
      - {side: french, detach: mortier}
expect:
  - {turn: 2, phase: maneuver, type: order-delivered, order: french-3, general: mortier}
  - {turn: 3, phase: maneuver, type: order-delivered, order: french-4, general: mortier}
  - {turn: 3, phase: maneuver, type: order-superseded, order: french-3, formation: G, rule: NB-13}
  - {turn: 3, phase: maneuver, type: order-active, order: french-4, formation: G, how: reserve, rule: NB-13}
  - {type: order-active, order: french-3, not: true}
`)
}
