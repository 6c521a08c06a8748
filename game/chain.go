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
// the README gives the construction):
//
//	genesis  = SHA-256("orderly/genesis/v1" || 0x00 || SHA-256(scenario source) || first seed's commitment, as its 64 hex digits)
//	digest_n = HMAC-SHA256(key of the seed of event n, "orderly/event/v1/n" || 0x00 || JSON of event n with its hash empty)
//	hash_n   = hex(SHA-256("orderly/chain/v1" || 0x00 || hash_{n-1} as 32 bytes || digest_n)), hash_0 = genesis
//
// The digest is keyed so that a side shown the hashes of the events it
// may see cannot try the possible contents of the hidden events between
// them (a secret roll has few); once a seed is revealed anyone can follow
// its part of the chain. A seat that notes a hash it was shown (its head)
// can later tell whether an exported log is the one it played.
type Chain struct {
	genesis [sha256.Size]byte
	first   string // the first seed's commitment, which the genesis binds
	seeds   []Seed
}

// NewChain makes the chain of a game from its scenario file's text, the
// text of its own tables file when it has one (a game played on the
// server's tables has none, and its genesis is as before), and its seeds
// (as for Committed; keys may be nil, but an event under a seed without a
// key cannot be hashed).
func NewChain(source []byte, seeds []Seed, tables ...[]byte) (*Chain, error) {
	if err := checkSeeds(seeds); err != nil {
		return nil, err
	}
	src := sha256.Sum256(source)
	h := sha256.New()
	h.Write([]byte("orderly/genesis/v1\x00"))
	h.Write(src[:])
	for _, t := range tables {
		if len(t) > 0 {
			sum := sha256.Sum256(t)
			h.Write([]byte("tables\x00"))
			h.Write(sum[:])
		}
	}
	h.Write([]byte(seeds[0].Commitment))
	c := &Chain{first: seeds[0].Commitment, seeds: slices.Clone(seeds)}
	h.Sum(c.genesis[:0])
	return c, nil
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
