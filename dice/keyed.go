package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
)

// Keyed is a roller for verifiable dice (commit-reveal): its faces follow
// from a secret key and a public label, so whoever is later given the key
// can draw the same faces again and check every roll, while nobody without
// it can foresee them.
//
// The stream is HMAC-SHA256(key, label || 0x00 || n), n = 0, 1, ... as a
// big-endian uint32, read as big-endian uint64 words. A die with s sides
// takes the next word w that is not below 2^64 mod s (so every face is
// equally likely) and shows low + w mod s.
type Keyed struct {
	mac   hash.Hash
	label []byte
	n     uint32
	block [sha256.Size]byte
	off   int
}

// NewKeyed returns the roller for one label under key.
func NewKeyed(key []byte, label string) *Keyed {
	return &Keyed{mac: hmac.New(sha256.New, key), label: append([]byte(label), 0), off: sha256.Size}
}

// Commitment is the public commitment to a key: the hex SHA-256 of it.
func Commitment(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:])
}

func (k *Keyed) word() uint64 {
	if k.off == len(k.block) {
		k.mac.Reset()
		k.mac.Write(k.label)
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], k.n)
		k.mac.Write(n[:])
		k.mac.Sum(k.block[:0])
		k.n++
		k.off = 0
	}
	w := binary.BigEndian.Uint64(k.block[k.off:])
	k.off += 8
	return w
}

// Face implements Roller.
func (k *Keyed) Face(sides, low int) (int, error) {
	if sides < 1 {
		return 0, fmt.Errorf("a die needs at least one side, got %d", sides)
	}
	s := uint64(sides)
	floor := -s % s // 2^64 mod s
	for {
		if w := k.word(); w >= floor {
			return low + int(w%s), nil
		}
	}
}
