package nb

// slab hands out event payloads in blocks, so that a game makes a few
// allocations for its payloads instead of one per event. A payload lives
// as long as the game's log; reset starts again at the first block, which
// is right only when the game's memory is reused for a new game (a Monte
// Carlo run: game.Start.Reuse), whose old events are no longer read.
type slab struct {
	blocks [][]Data
	block  int // the block in use
	used   int // payloads handed out of it
}

// next returns a payload holding d.
func (b *slab) next(d *Data) *Data {
	if b.block == len(b.blocks) || b.used == len(b.blocks[b.block]) {
		if b.block < len(b.blocks) {
			b.block++
		}
		if b.block == len(b.blocks) {
			// Blocks grow from 32 payloads to 256 as a game goes on.
			size := 256
			if n := len(b.blocks); n < 3 {
				size = 32 << n
			}
			b.blocks = append(b.blocks, make([]Data, size))
		}
		b.used = 0
	}
	p := &b.blocks[b.block][b.used]
	b.used++
	*p = *d
	return p
}

// reset hands out the same memory again, from the first block.
func (b *slab) reset() { b.block, b.used = 0, 0 }
