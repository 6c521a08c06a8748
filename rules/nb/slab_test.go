package nb

import "testing"

// TestSlab: payloads stay put as blocks are added, however many there
// are, and reset hands out the same memory again.
func TestSlab(t *testing.T) {
	var b slab
	var ps []*Data
	for i := range 100000 {
		ps = append(ps, b.next(&Data{Acts: i}))
	}
	for i, p := range ps {
		if p.Acts != i {
			t.Fatalf("payload %d holds %d", i, p.Acts)
		}
	}
	blocks := len(b.blocks)
	b.reset()
	if p := b.next(&Data{Acts: -1}); p != ps[0] || ps[0].Acts != -1 {
		t.Error("reset does not hand out the first payload again")
	}
	for range 99999 {
		b.next(&Data{})
	}
	if len(b.blocks) != blocks {
		t.Errorf("a second game of the same size made %d blocks more", len(b.blocks)-blocks)
	}
}
