package game_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"orderly/dice"
	"orderly/game"
	"orderly/script"
)

// chained starts a game of d with verifiable dice and a hash chain.
func (d *demo) chained(t testing.TB, seeds []game.Seed) (*game.Game, *game.Chain) {
	t.Helper()
	g, err := game.New(d.sc, d.rules, game.Committed(seeds))
	if err != nil {
		t.Fatal(err)
	}
	c, err := game.NewChain(d.basis(), seeds)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetChain(c); err != nil {
		t.Fatal(err)
	}
	return g, c
}

// basis is what a game of d played with the server's dice and no fog
// starts from.
func (d *demo) basis() game.Basis {
	return game.Basis{Genesis: game.GenesisV2, Scenario: d.source}
}

func play(t testing.TB, g *game.Game, p *script.Plan) {
	t.Helper()
	if err := p.Play(g, nil); err != nil {
		t.Fatal(err)
	}
}

// TestChainKnownAnswer computes the first two links of a game's chain as
// docs/api.md writes them, with nothing but the hash functions.
func TestChainKnownAnswer(t *testing.T) {
	d := loadDemo(t, 1)
	k := key(1)
	g, c := d.chained(t, []game.Seed{seed(1, k)})
	log := g.Log()
	if len(log) < 2 {
		t.Fatalf("the setup made %d events", len(log))
	}
	src := sha256.Sum256(d.source)
	genesis := sha256.Sum256(fmt.Appendf(nil, "orderly/genesis/v2\nscenario %x\ntables none\ndice server\nfog off\nseed %s\n", src, dice.Commitment(k)))
	if c.Genesis() != hex.EncodeToString(genesis[:]) {
		t.Fatalf("genesis %s, want %x", c.Genesis(), genesis)
	}
	prev := genesis[:]
	for _, e := range log[:2] {
		bare := e
		bare.Hash = ""
		b, err := json.Marshal(bare)
		if err != nil {
			t.Fatal(err)
		}
		m := hmac.New(sha256.New, k)
		m.Write(fmt.Appendf(nil, "orderly/event/v1/%d\x00", e.Seq))
		m.Write(b)
		sum := sha256.Sum256(slices.Concat([]byte("orderly/chain/v1\x00"), prev, m.Sum(nil)))
		if e.Hash != hex.EncodeToString(sum[:]) {
			t.Fatalf("event %d has hash %s, want %x", e.Seq, e.Hash, sum)
		}
		prev = sum[:]
	}
}

// TestChainAcrossReplayForgetAndReveal plays one game straight through and
// another that is replayed from the first's log midway, forgets most of
// it and goes on after a reveal (a new seed): both hash alike.
func TestChainAcrossReplayForgetAndReveal(t *testing.T) {
	d := loadDemo(t, 2)
	seeds := []game.Seed{seed(1, key(1))}
	a, ca := d.chained(t, seeds)
	play(t, a, d.early)
	mid := a.Log()
	if a.Head() != mid[len(mid)-1].Hash || !game.IsHash(a.Head()) {
		t.Fatalf("head %q, last event's hash %q", a.Head(), mid[len(mid)-1].Hash)
	}
	seeds = append(seeds, seed(a.Len()+1, key(2)))
	a.SetDice(game.Committed(seeds))
	if err := ca.SetSeeds(seeds); err != nil {
		t.Fatal(err)
	}
	play(t, a, d.end)

	b, err := game.Replay(d.sc, d.rules, mid)
	if err != nil {
		t.Fatal(err)
	}
	if b.Head() != mid[len(mid)-1].Hash {
		t.Fatalf("a replayed game's head %q, not its last event's hash", b.Head())
	}
	b.Forget(3)
	if b.Head() != mid[len(mid)-1].Hash {
		t.Fatalf("Forget lost the head")
	}
	b.SetDice(game.Committed(seeds))
	cb, err := game.NewChain(d.basis(), seeds)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetChain(cb); err != nil {
		t.Fatal(err)
	}
	play(t, b, d.end)
	if a.Head() != b.Head() || a.Len() != b.Len() {
		t.Fatalf("the straight game ends at %d with head %s, the replayed one at %d with %s", a.Len(), a.Head(), b.Len(), b.Head())
	}
	full := a.Log()
	for _, e := range b.Log() {
		if e.Hash != full[e.Seq-1].Hash {
			t.Fatalf("event %d: hash %s, the straight game's %s", e.Seq, e.Hash, full[e.Seq-1].Hash)
		}
	}
	v, err := game.VerifyChain(full, seeds, d.basis())
	if err != nil || v.Checked != len(full) || v.Unchecked != 0 {
		t.Fatalf("VerifyChain: %+v, %v", v, err)
	}
	// Without the second key the chain is followed up to its seed.
	secret := slices.Clone(seeds)
	secret[1].Key = nil
	v, err = game.VerifyChain(full, secret, d.basis())
	if err != nil || v.Checked != seeds[1].From-1 || v.Unchecked != len(full)-v.Checked {
		t.Fatalf("VerifyChain with the second seed secret: %+v, %v", v, err)
	}
	// And a game cannot be hashed on without its key.
	c, err := game.NewChain(d.basis(), secret)
	if err != nil {
		t.Fatal(err)
	}
	r, err := game.Replay(d.sc, d.rules, mid)
	if err != nil {
		t.Fatal(err)
	}
	r.SetDice(game.Committed(seeds))
	if err := r.SetChain(c); err != nil {
		t.Fatal(err)
	}
	n := r.Len()
	if err := r.Exec(game.Command{Side: game.Umpire, Verb: "end"}); err == nil || !strings.Contains(err.Error(), "key of its dice seed") {
		t.Errorf("hashing under a seed without its key: %v", err)
	}
	if r.Len() != n {
		t.Errorf("an event that could not be hashed was appended")
	}
}

// TestNoChainNoHash: a game without a chain (orderly run, sim) has no
// hashes.
func TestNoChainNoHash(t *testing.T) {
	d := loadDemo(t, 2)
	g, err := game.New(d.sc, d.rules, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, d.early)
	for _, e := range g.Log() {
		if e.Hash != "" {
			t.Fatalf("event %d has hash %s without a chain", e.Seq, e.Hash)
		}
	}
	if g.Head() != "" {
		t.Fatalf("head %s without a chain", g.Head())
	}
}

// TestChainGenesisV1: the genesis of the games stored before GenesisV2
// (and of exports of format orderly-game/3) is as it was: the scenario,
// the game's own tables file after it when it has one, and the first
// seed's commitment; the dice and fog modes do not change it.
func TestChainGenesisV1(t *testing.T) {
	k := key(1)
	seeds := []game.Seed{seed(1, k)}
	source, tables := []byte("name: s\n"), []byte("tables: []\n")
	src, tab := sha256.Sum256(source), sha256.Sum256(tables)
	for _, c := range []struct {
		name string
		b    game.Basis
		want []byte
	}{
		{"plain", game.Basis{Genesis: game.GenesisV1, Scenario: source},
			slices.Concat([]byte("orderly/genesis/v1\x00"), src[:], []byte(dice.Commitment(k)))},
		{"own tables", game.Basis{Genesis: game.GenesisV1, Scenario: source, Tables: tables},
			slices.Concat([]byte("orderly/genesis/v1\x00"), src[:], []byte("tables\x00"), tab[:], []byte(dice.Commitment(k)))},
		{"dice and fog unbound", game.Basis{Genesis: game.GenesisV1, Scenario: source, Dice: game.DiceTable, Fog: game.FogOn},
			slices.Concat([]byte("orderly/genesis/v1\x00"), src[:], []byte(dice.Commitment(k)))},
	} {
		ch, err := game.NewChain(c.b, seeds)
		if err != nil {
			t.Fatal(err)
		}
		if want := sha256.Sum256(c.want); ch.Genesis() != hex.EncodeToString(want[:]) {
			t.Errorf("%s: genesis %s, want %x", c.name, ch.Genesis(), want)
		}
		if u := c.b.Unbound(); !slices.Equal(u, []string{"dice", "fog"}) {
			t.Errorf("%s: unbound %v", c.name, u)
		}
	}
}

// TestChainGenesisV2: the genesis binds every field of the basis, each
// alone: the scenario, the own tables file (or none), the dice and fog
// modes, the first seed, and the construction itself. An empty mode is
// its default; a mode or construction this orderly does not know is
// refused in one sentence.
func TestChainGenesisV2(t *testing.T) {
	seeds := []game.Seed{seed(1, key(1))}
	base := game.Basis{Genesis: game.GenesisV2, Scenario: []byte("name: s\n"), Tables: []byte("tables: []\n"), Dice: game.DiceMixed, Fog: game.FogOff}
	genesis := func(b game.Basis, seeds []game.Seed) string {
		t.Helper()
		c, err := game.NewChain(b, seeds)
		if err != nil {
			t.Fatal(err)
		}
		return c.Genesis()
	}
	g0 := genesis(base, seeds)
	if u := base.Unbound(); len(u) != 0 {
		t.Errorf("unbound %v", u)
	}
	for _, c := range []struct {
		name string
		edit func(b *game.Basis)
	}{
		{"scenario", func(b *game.Basis) { b.Scenario = []byte("name: t\n") }},
		{"tables", func(b *game.Basis) { b.Tables = []byte("tables: [] # mine\n") }},
		{"no tables", func(b *game.Basis) { b.Tables = nil }},
		{"dice", func(b *game.Basis) { b.Dice = game.DiceTable }},
		{"server dice", func(b *game.Basis) { b.Dice = "" }},
		{"fog", func(b *game.Basis) { b.Fog = game.FogOn }},
		{"strict fog", func(b *game.Basis) { b.Fog = game.FogStrict }},
		{"construction", func(b *game.Basis) { b.Genesis = game.GenesisV1 }},
	} {
		b := base
		c.edit(&b)
		if genesis(b, seeds) == g0 {
			t.Errorf("%s: the genesis does not change", c.name)
		}
	}
	if genesis(base, []game.Seed{seed(1, key(2))}) == g0 {
		t.Errorf("first seed: the genesis does not change")
	}
	// The defaults, empty or named, are one mode.
	a, b := base, base
	a.Dice, a.Fog = "", ""
	b.Dice, b.Fog = game.DiceServer, game.FogOff
	if genesis(a, seeds) != genesis(b, seeds) {
		t.Errorf("the default modes, empty and named, give two geneses")
	}
	for _, c := range []struct {
		edit func(b *game.Basis)
		want string
	}{
		{func(b *game.Basis) { b.Dice = "dice\nfog on" }, `the chain's start: dice "dice\nfog on" is not a dice mode; allowed: server, table, mixed`},
		{func(b *game.Basis) { b.Fog = "thick" }, `the chain's start: fog "thick" is not a fog mode; allowed: off, on, strict`},
		{func(b *game.Basis) { b.Genesis = 0 }, "the chain's start is of construction 0, which this orderly does not know; allowed: 1, 2"},
	} {
		b := base
		c.edit(&b)
		if _, err := game.NewChain(b, seeds); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}
