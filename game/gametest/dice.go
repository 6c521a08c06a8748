package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
)

// TableDice is the table-dice test (issue 15): games of sc, seeded
// 1..games, played to the end with random commands in dice mode (DiceTable
// or DiceMixed), where every roll a command needs is thrown "at the table"
// by the test as a player would: the command is refused with
// *game.NeedDice, and given again with the faces asked for. It checks that
// the faces given are the faces recorded and marked as the table's
// (mixed: exactly the rolls of events everyone sees), that a game left
// part way by a refusal (Game.Torn) is rebuilt from its log as a server
// would, that dice given wrong (a face the die has not, a roll not made)
// are refused without a change, that the log replays, and that
// VerifyRolls counts every roll of the players' commands as thrown at the
// table and checks the server's against their seed. It fails if no roll
// was ever thrown at the table.
func TableDice(t *testing.T, rules Random, sc *battle.Scenario, games int, mode string) {
	t.Helper()
	thrown, made := 0, 0
	for seed := 1; seed <= games; seed++ {
		t.Run(fmt.Sprintf("%s-%d", mode, seed), func(t *testing.T) {
			th, m := tableGame(t, rules, sc, uint64(seed), mode)
			thrown, made = thrown+th, made+m
		})
	}
	if made == 0 || mode == game.DiceTable && thrown == 0 {
		t.Fatalf("over %d games in %s dice %d rolls were made after the setup and %d thrown at the table; the test needs some", games, mode, made, thrown)
	}
}

// diceRun is one game of the table-dice test: the game, what it is
// rebuilt from, and the counts of what happened.
type diceRun struct {
	t     *testing.T
	rules Random
	sc    *battle.Scenario
	mode  string
	seeds []game.Seed
	g     *game.Game
	rng   *rand.Rand
	// kept is how many events of the log stand before the command being
	// given, the log a torn game is rebuilt from.
	kept               int
	asked, torn, wrong int
}

// tableGame plays one game of the table-dice test to its end and checks
// its log; it returns the rolls thrown at the table and those made after
// the setup.
func tableGame(t *testing.T, rules Random, sc *battle.Scenario, seed uint64, mode string) (thrown, made int) {
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(seed) + byte(i)
	}
	seeds := []game.Seed{{From: 1, Commitment: dice.Commitment(key), Key: key}}
	g, err := game.New(sc, rules, game.Committed(seeds), game.WithDice(mode))
	if err != nil {
		t.Fatalf("new game: %v", err)
	}
	setup := g.Len()
	r := &diceRun{t: t, rules: rules, sc: sc, mode: mode, seeds: seeds, g: g, rng: rand.New(rand.NewPCG(seed, 31))}
	for steps := 0; !r.g.State().Over && steps < 5000; steps++ {
		r.command(r.rules.Random(r.g, r.rng))
		if r.rng.IntN(8) == 0 && !r.g.State().Over {
			// Dice for a roll no command makes are refused, changing nothing.
			c := r.rules.Random(r.g, r.rng)
			r.wrong += refusedWith(t, r.g, c, []game.Given{{Table: "no-such-table", Subject: "nobody", Faces: []int{1}}}, &r.kept, r.rebuild)
		}
	}
	if !r.g.State().Over {
		t.Fatalf("the game did not end in 5000 commands (turn %d)", r.g.State().Turn)
	}
	return r.check(setup)
}

// rebuild makes the game again from its log before the command that tore
// it, as a server does from its store.
func (r *diceRun) rebuild() {
	r.t.Helper()
	g, err := game.Replay(r.sc, r.rules, r.g.Log()[:r.kept], game.WithDice(r.mode))
	if err != nil {
		r.t.Fatalf("rebuilding a torn game from its log: %v", err)
	}
	g.SetDice(game.Committed(r.seeds))
	r.g = g
}

// command gives c, throwing the dice it asks for until it is taken or
// rejected; now and then it first gives a face the die does not have.
func (r *diceRun) command(c game.Command) {
	t, rng := r.t, r.rng
	var given []game.Given
	for try := 0; ; try++ {
		if try > 200 {
			t.Fatalf("command %+v still asks for dice after 200 throws", c)
		}
		before, n := r.g.Hash(), r.g.Len()
		r.kept = n
		c.Dice = given
		_, err := doSafely(r.g, c)
		var nd *game.NeedDice
		if errors.As(err, &nd) {
			r.asked++
			if r.g.Torn() {
				r.torn++
				r.rebuild()
			} else if r.g.Hash() != before || r.g.Len() != n {
				t.Fatalf("command %+v, refused for dice, changed the game", c)
			}
			if nd.More < 1 || nd.Sides < 1 || nd.Table == "" || nd.Subject == "" {
				t.Fatalf("command %+v asks for dice as %+v; want a table, a subject, sides and a count", c, nd)
			}
			if try == 0 && rng.IntN(4) == 0 {
				// A face the die does not have is refused, and changes nothing.
				bad := slices.Clone(given)
				bad = append(bad, game.Given{Table: nd.Table, Subject: nd.Subject, Faces: []int{nd.Low + nd.Sides}})
				r.wrong += refusedWith(t, r.g, c, bad, &r.kept, r.rebuild)
			}
			given = throw(given, nd, rng)
			continue
		}
		if err != nil {
			var ge *game.Error
			if !errors.As(err, &ge) {
				t.Fatalf("command %+v failed without a rejection: %v", c, err)
			}
			if r.g.Torn() {
				r.rebuild()
			} else if r.g.Hash() != before || r.g.Len() != n {
				t.Fatalf("rejected command %+v changed the game: %v", c, err)
			}
			return
		}
		checkThrown(t, r.g, n, given, r.mode)
		return
	}
}

// check checks the ended game: its log replays, VerifyRolls counts the
// rolls the log records as thrown at the table and by the server, and
// none made at the setup was thrown at the table. It returns the rolls
// thrown at the table and those made after the first setup events.
func (r *diceRun) check(setup int) (thrown, made int) {
	t := r.t
	checkReplayWith(t, r.g, game.WithDice(r.mode))
	log := r.g.Log()
	table, server := 0, 0
	for i := range log {
		for _, roll := range log[i].Rolls {
			if log[i].Seq > setup {
				made++
			}
			if roll.From == game.FromTable {
				table++
				if log[i].Seq <= setup {
					t.Fatalf("event %d, made when the game was set up, has dice thrown at the table", log[i].Seq)
				}
			} else {
				server++
			}
		}
	}
	v, err := game.VerifyRolls(log, r.seeds, r.rules.Table)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if v.Table != table || v.Rolls != server || v.Secret != 0 {
		t.Fatalf("verify counted %d table and %d server rolls (%d secret); the log has %d and %d", v.Table, v.Rolls, v.Secret, table, server)
	}
	if table > 0 && r.asked == 0 {
		t.Fatalf("%d rolls were thrown at the table, yet no command asked for dice", table)
	}
	t.Logf("%s dice: %d rolls at the table, %d by the server, %d asks, %d torn, %d wrong dice refused", r.mode, table, server, r.asked, r.torn, r.wrong)
	return table, made
}

// throw adds the dice nd asks for to given: more faces for a roll already
// begun (a pool's next stage), or a new roll.
func throw(given []game.Given, nd *game.NeedDice, rng *rand.Rand) []game.Given {
	faces := make([]int, nd.More)
	for i := range faces {
		faces[i] = nd.Low + rng.IntN(nd.Sides)
	}
	if nd.Given > 0 {
		for i := len(given) - 1; i >= 0; i-- {
			if given[i].Table == nd.Table && given[i].Subject == nd.Subject && len(given[i].Faces) == nd.Given {
				given[i].Faces = append(slices.Clone(given[i].Faces), faces...)
				return given
			}
		}
	}
	return append(slices.Clone(given), game.Given{Table: nd.Table, Subject: nd.Subject, Faces: faces})
}

// refusedWith gives c with dice and wants it refused, the game unchanged
// (or torn and rebuilt); it returns 1 when it was refused as a rule's
// refusal or for dice.
func refusedWith(t *testing.T, g *game.Game, c game.Command, given []game.Given, kept *int, rebuild func()) int {
	t.Helper()
	c.Dice = given
	before, n := g.Hash(), g.Len()
	*kept = n
	_, err := doSafely(g, c)
	if err == nil {
		t.Fatalf("command %+v with wrong dice %+v was accepted", c, given)
	}
	var ge *game.Error
	var nd *game.NeedDice
	if !errors.As(err, &ge) && !errors.As(err, &nd) {
		t.Fatalf("command %+v with wrong dice failed without a rejection: %v", c, err)
	}
	if g.Torn() {
		rebuild()
	} else if g.Hash() != before || g.Len() != n {
		t.Fatalf("command %+v with wrong dice changed the game: %v", c, err)
	}
	return 1
}

// checkThrown checks the rolls of the events after the first n: in table
// mode every roll that threw dice was thrown at the table, in mixed mode
// exactly those of events everyone sees; and each table roll's faces are
// the ones given for it, every given roll used once.
func checkThrown(t *testing.T, g *game.Game, n int, given []game.Given, mode string) {
	t.Helper()
	used := make([]bool, len(given))
	for _, e := range g.Since(n) {
		for _, r := range e.Rolls {
			thrown := len(r.Faces) > 0 || slices.ContainsFunc(r.Stages, func(s game.Stage) bool { return len(s.Faces) > 0 })
			want := thrown && (mode == game.DiceTable || e.See == game.All)
			if (r.From == game.FromTable) != want {
				t.Fatalf("event %d (%s, seen by %s): its %s roll for %s is from %q; in %s dice want table: %v", e.Seq, e.Type, e.See, r.Table, r.Subject, r.From, mode, want)
			}
			if r.From != game.FromTable {
				continue
			}
			i := slices.IndexFunc(given, func(gv game.Given) bool { return gv.Table == r.Table && gv.Subject == r.Subject })
			for i >= 0 && used[i] {
				j := slices.IndexFunc(given[i+1:], func(gv game.Given) bool { return gv.Table == r.Table && gv.Subject == r.Subject })
				if j < 0 {
					i = -1
					break
				}
				i += 1 + j
			}
			if i < 0 {
				t.Fatalf("event %d: its %s roll for %s is marked as thrown at the table, but no dice were given for it", e.Seq, r.Table, r.Subject)
			}
			used[i] = true
			if !slices.Equal(r.Faces, given[i].Faces) {
				t.Fatalf("event %d: its %s roll for %s records faces %v; the table threw %v", e.Seq, r.Table, r.Subject, r.Faces, given[i].Faces)
			}
		}
	}
	for i, u := range used {
		if !u {
			t.Fatalf("dice given for %s for %s were accepted but recorded in no roll", given[i].Table, given[i].Subject)
		}
	}
}
