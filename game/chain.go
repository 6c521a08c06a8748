package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Chain links a game's events into a hash chain, so that an exported log
// cannot be changed, cut or reordered without it showing (SPEC-independent;
// docs/api.md gives the construction):
//
//	genesis  = SHA-256 of the lines of Basis.text (GenesisV2; GenesisV1 below)
//	digest_n = HMAC-SHA256(key of the seed of event n, "orderly/event/v1/n" || 0x00 || JSON of event n with its hash empty)
//	hash_n   = hex(SHA-256("orderly/chain/v1" || 0x00 || hash_{n-1} as 32 bytes || digest_n)), hash_0 = genesis
//
// The genesis binds what shapes the game before its first event (Basis),
// so that a header edited alone breaks the chain at its first event, and
// a hash a seat noted vouches for the header as well as for the log. The
// digest is keyed so that a side shown the hashes of the events it may see
// cannot try the possible contents of the hidden events between them (a
// secret roll has few); once a seed is revealed anyone can follow its part
// of the chain. A seat that notes a hash it was shown (its head) can later
// tell whether an exported log is the one it played.
type Chain struct {
	genesis [sha256.Size]byte
	first   string // the first seed's commitment, which the genesis binds
	seeds   []Seed
}

// Constructions of a chain's genesis (Basis.Genesis).
const (
	// GenesisV1 is SHA-256("orderly/genesis/v1" || 0x00 || SHA-256(scenario
	// file's text) || for a game on its own tables file "tables" || 0x00 ||
	// SHA-256(its text) || the first seed's commitment, as its 64 hex
	// digits). It binds neither the dice nor the fog mode: games stored by
	// an orderly before GenesisV2 keep it, and exports of format
	// orderly-game/3 have it.
	GenesisV1 = 1
	// GenesisV2 is the SHA-256 of the lines Basis.text writes: every field
	// of the Basis, each by name.
	GenesisV2 = 2
)

// Basis is what a game's chain starts from: everything fixed when the
// game is made that changes its replay or what its log means.
type Basis struct {
	Genesis  int    // GenesisV1 or GenesisV2
	Scenario []byte // the scenario file's text
	// Tables is the text of the game's own tables file (its house rules,
	// or a LOB game's numbers); none for a game on the server's tables.
	Tables []byte
	Dice   string // the dice mode; "" is DiceServer
	Fog    string // the fog mode; "" is FogOff
}

// Unbound names the fields of an exported game's header that GenesisV2
// binds and the basis's genesis does not: dice and fog for GenesisV1,
// none for GenesisV2.
func (b *Basis) Unbound() []string {
	if b.Genesis == GenesisV1 {
		return []string{"dice", "fog"}
	}
	return nil
}

// binds says in words what the genesis binds, for messages.
func (b *Basis) binds() string {
	if b.Genesis == GenesisV1 {
		return "the scenario, the game's own tables file (or none) and its first dice seed"
	}
	return "the scenario, the game's own tables file (or none), its dice and fog modes and its first dice seed"
}

// text is what a GenesisV2 genesis hashes: one line a field, each a name,
// a space and a value, in this order, each ending in a newline (a hash in
// 64 lowercase hex digits; a mode by its name, the default's included):
//
//	orderly/genesis/v2
//	scenario SHA-256(scenario file's text)
//	tables SHA-256(own tables file's text), or none
//	dice server|table|mixed
//	fog off|on|strict
//	seed the first seed's commitment
func (b *Basis) text(first string) []byte {
	sum := func(data []byte) string {
		s := sha256.Sum256(data)
		return hex.EncodeToString(s[:])
	}
	tables := "none"
	if len(b.Tables) > 0 {
		tables = sum(b.Tables)
	}
	dice, fog := b.Dice, b.Fog
	if dice == "" {
		dice = DiceServer
	}
	if fog == "" {
		fog = FogOff
	}
	return fmt.Appendf(nil, "orderly/genesis/v2\nscenario %s\ntables %s\ndice %s\nfog %s\nseed %s\n",
		sum(b.Scenario), tables, dice, fog, first)
}

// genesis is the hash the chain starts from, with the seeds' first
// commitment (already checked).
func (b *Basis) genesis(first string) ([sha256.Size]byte, error) {
	switch b.Genesis {
	case GenesisV1:
		src := sha256.Sum256(b.Scenario)
		h := sha256.New()
		h.Write([]byte("orderly/genesis/v1\x00"))
		h.Write(src[:])
		if len(b.Tables) > 0 {
			sum := sha256.Sum256(b.Tables)
			h.Write([]byte("tables\x00"))
			h.Write(sum[:])
		}
		h.Write([]byte(first))
		var out [sha256.Size]byte
		h.Sum(out[:0])
		return out, nil
	case GenesisV2:
		if err := CheckDice(b.Dice); err != nil {
			return [sha256.Size]byte{}, fmt.Errorf("the chain's start: %w", err)
		}
		if err := CheckFog(b.Fog); err != nil {
			return [sha256.Size]byte{}, fmt.Errorf("the chain's start: %w", err)
		}
		return sha256.Sum256(b.text(first)), nil
	}
	return [sha256.Size]byte{}, fmt.Errorf("the chain's start is of construction %d, which this orderly does not know; allowed: %d, %d", b.Genesis, GenesisV1, GenesisV2)
}

// NewChain makes the chain of a game from what it starts from and its
// seeds (as for Committed; keys may be nil, but an event under a seed
// without a key cannot be hashed).
func NewChain(b Basis, seeds []Seed) (*Chain, error) {
	if err := checkSeeds(seeds); err != nil {
		return nil, err
	}
	g, err := b.genesis(seeds[0].Commitment)
	if err != nil {
		return nil, err
	}
	return &Chain{genesis: g, first: seeds[0].Commitment, seeds: slices.Clone(seeds)}, nil
}

// SetSeeds gives the chain the game's seeds anew: after a reveal (a new
// seed, a key made public) or a reload. The first seed must be the one the
// chain was made with.
func (c *Chain) SetSeeds(seeds []Seed) error {
	if err := checkSeeds(seeds); err != nil {
		return err
	}
	if seeds[0].Commitment != c.first {
		return errors.New("the first seed is not the one the chain was made with")
	}
	c.seeds = slices.Clone(seeds)
	return nil
}

// Genesis is the hash before the first event, in hex.
func (c *Chain) Genesis() string { return hex.EncodeToString(c.genesis[:]) }

// Next is the hash of event e, whose predecessor has hash prev ("" for
// the first event, which follows the genesis). e's own Hash is ignored.
func (c *Chain) Next(prev string, e *Event) (string, error) {
	var p [sha256.Size]byte
	switch {
	case prev == "" && e.Seq == 1:
		p = c.genesis
	case prev == "":
		return "", fmt.Errorf("event %d cannot be hashed: the hash of the event before it is unknown", e.Seq)
	default:
		if err := decodeHash(p[:], prev); err != nil {
			return "", fmt.Errorf("event %d cannot be hashed: the hash before it %w", e.Seq, err)
		}
	}
	s := seedOf(c.seeds, e.Seq)
	if s.Key == nil {
		return "", fmt.Errorf("event %d cannot be hashed: the key of its dice seed (from event %d) is not given", e.Seq, s.From)
	}
	d, err := digest(s.Key, e)
	if err != nil {
		return "", err
	}
	return link(&p, &d), nil
}

// digest is the keyed digest of an event: HMAC-SHA256(key,
// "orderly/event/v1/{seq}" || 0x00 || its JSON with Hash empty).
func digest(key []byte, e *Event) ([sha256.Size]byte, error) {
	var out [sha256.Size]byte
	c := *e
	c.Hash = ""
	b, err := json.Marshal(&c)
	if err != nil {
		return out, fmt.Errorf("event %d (%s): %w", e.Seq, e.Type, err)
	}
	m := hmac.New(sha256.New, key)
	m.Write(strconv.AppendInt([]byte("orderly/event/v1/"), int64(e.Seq), 10))
	m.Write([]byte{0})
	m.Write(b)
	m.Sum(out[:0])
	return out, nil
}

// link is hex(SHA-256("orderly/chain/v1" || 0x00 || prev || digest)).
func link(prev, d *[sha256.Size]byte) string {
	h := sha256.New()
	h.Write([]byte("orderly/chain/v1\x00"))
	h.Write(prev[:])
	h.Write(d[:])
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))
}

func decodeHash(dst []byte, s string) error {
	if !IsHash(s) {
		return errors.New("is not 64 lowercase hex digits")
	}
	_, err := hex.Decode(dst, []byte(s))
	return err
}
