package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// TestKeyedKnownAnswer pins the stream: a d6 under a fixed key and label
// is derived by hand from HMAC-SHA256 here, independently of Keyed.
func TestKeyedKnownAnswer(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	k := NewKeyed(key, "orderly/roll/v1/7/nb/order-delay")
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("orderly/roll/v1/7/nb/order-delay\x00\x00\x00\x00\x00"))
	block := mac.Sum(nil)
	for i := range 4 {
		w := binary.BigEndian.Uint64(block[8*i:])
		want := 1 + int(w%6) // 2^64 mod 6 = 4, so a word is rejected with odds 4 in 2^64
		got, err := k.Face(6, 1)
		if err != nil || got != want {
			t.Fatalf("face %d: got %d, %v; want %d", i, got, err, want)
		}
	}
	// The fifth face comes from the second block.
	mac.Reset()
	mac.Write([]byte("orderly/roll/v1/7/nb/order-delay\x00\x00\x00\x00\x01"))
	block = mac.Sum(nil)
	if got, _ := k.Face(10, 0); got != int(binary.BigEndian.Uint64(block)%10) {
		t.Errorf("fifth face %d", got)
	}
}

// TestKeyedDeterministicAndFair checks that the same key and label give
// the same faces, other labels or keys other faces, and that the faces of
// a d6 are spread evenly (chi-squared, 5 degrees of freedom).
func TestKeyedDeterministicAndFair(t *testing.T) {
	key := make([]byte, 32)
	draw := func(key []byte, label string, n int) []int {
		k := NewKeyed(key, label)
		out := make([]int, n)
		for i := range out {
			f, err := k.Face(6, 1)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = f
		}
		return out
	}
	a, b := draw(key, "x", 60000), draw(key, "x", 60000)
	c := draw(key, "y", 60000)
	key2 := append([]byte{1}, key[1:]...)
	d := draw(key2, "x", 60000)
	same := func(x, y []int) int {
		n := 0
		for i := range x {
			if x[i] == y[i] {
				n++
			}
		}
		return n
	}
	if same(a, b) != len(a) {
		t.Fatal("the same key and label gave different faces")
	}
	if n := same(a, c); n > len(a)/5 {
		t.Errorf("labels x and y agree on %d of %d faces", n, len(a))
	}
	if n := same(a, d); n > len(a)/5 {
		t.Errorf("two keys agree on %d of %d faces", n, len(a))
	}
	var count [7]int
	for _, f := range a {
		count[f]++
	}
	chi := 0.0
	for f := 1; f <= 6; f++ {
		d := float64(count[f]) - 10000
		chi += d * d / 10000
	}
	if chi > 20.5 { // p < 0.001 at 5 degrees of freedom
		t.Errorf("d6 faces %v: chi-squared %.1f", count[1:], chi)
	}
	if _, err := NewKeyed(key, "x").Face(0, 1); err == nil {
		t.Error("a die of no sides was rolled")
	}
}

func TestCommitment(t *testing.T) {
	// SHA-256 of the empty string.
	if got := Commitment(nil); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("Commitment(nil) = %s", got)
	}
}
