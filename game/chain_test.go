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
	c, err := game.NewChain(d.source, seeds)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetChain(c); err != nil {
		t.Fatal(err)
	}
	return g, c
}

func play(t testing.TB, g *game.Game, p *script.Plan) {
	t.Helper()
	if err := p.Play(g, nil); err != nil {
		t.Fatal(err)
	}
}

// TestChainKnownAnswer computes the first two links of a game's chain as
// the README writes them, with nothing but the hash functions.
func TestChainKnownAnswer(t *testing.T) {
	d := loadDemo(t, 1)
	k := key(1)
	g, c := d.chained(t, []game.Seed{seed(1, k)})
	log := g.Log()
	if len(log) < 2 {
		t.Fatalf("the setup made %d events", len(log))
	}
	src := sha256.Sum256(d.source)
	genesis := sha256.Sum256(slices.Concat([]byte("orderly/genesis/v1\x00"), src[:], []byte(dice.Commitment(k))))
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
	cb, err := game.NewChain(d.source, seeds)
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
	v, err := game.VerifyChain(full, seeds, d.source)
	if err != nil || v.Checked != len(full) || v.Unchecked != 0 {
		t.Fatalf("VerifyChain: %+v, %v", v, err)
	}
	// Without the second key the chain is followed up to its seed.
	secret := slices.Clone(seeds)
	secret[1].Key = nil
	v, err = game.VerifyChain(full, secret, d.source)
	if err != nil || v.Checked != seeds[1].From-1 || v.Unchecked != len(full)-v.Checked {
		t.Fatalf("VerifyChain with the second seed secret: %+v, %v", v, err)
	}
	// And a game cannot be hashed on without its key.
	c, err := game.NewChain(d.source, secret)
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

// TestChainTables: a game's own tables file is bound into the genesis
// after the scenario's hash; a game without one keeps the genesis it had.
func TestChainTables(t *testing.T) {
	k := key(1)
	seeds := []game.Seed{seed(1, k)}
	source, tables := []byte("name: s\n"), []byte("tables: []\n")
	c, err := game.NewChain(source, seeds, tables)
	if err != nil {
		t.Fatal(err)
	}
	src, tab := sha256.Sum256(source), sha256.Sum256(tables)
	want := sha256.Sum256(slices.Concat([]byte("orderly/genesis/v1\x00"), src[:], []byte("tables\x00"), tab[:], []byte(dice.Commitment(k))))
	if c.Genesis() != hex.EncodeToString(want[:]) {
		t.Fatalf("genesis with tables %s, want %x", c.Genesis(), want)
	}
	plain, err := game.NewChain(source, seeds)
	if err != nil {
		t.Fatal(err)
	}
	none, err := game.NewChain(source, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Genesis() != none.Genesis() || plain.Genesis() == c.Genesis() {
		t.Fatalf("genesis without tables %s and with none given %s must agree, and differ from %s", plain.Genesis(), none.Genesis(), c.Genesis())
	}
}
