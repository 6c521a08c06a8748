package game

// Slab hands out small slices of T from larger blocks, so that a game makes
// a few allocations for the many short slices its events and state hold
// (moves, points, payloads) instead of one each. What it hands out lives
// as long as the slab; Reset hands out the same memory again, which is
// right only when nothing taken before is read any more (a Monte Carlo run
// that reuses a game's memory: Start.Reuse). The zero Slab is ready to use.
type Slab[T any] struct {
	blocks [][]T
	block  int // the block in use
	used   int // items handed out of it
}

// slabBlock is the size of a block; a longer slice is allocated by itself.
const slabBlock = 256

// Take returns n zero items, as a slice whose capacity is n (appending to
// it allocates afresh rather than spill into the next slice taken).
func (s *Slab[T]) Take(n int) []T {
	out := s.take(n)
	clear(out)
	return out
}

// take is Take without zeroing the items (they may hold an earlier game's).
func (s *Slab[T]) take(n int) []T {
	if n <= 0 {
		return nil
	}
	if n > slabBlock/4 {
		return make([]T, n)
	}
	if s.block == len(s.blocks) || s.used+n > len(s.blocks[s.block]) {
		if s.block < len(s.blocks) {
			s.block++
		}
		for s.block < len(s.blocks) && len(s.blocks[s.block]) < n {
			s.block++ // a block kept from before, too small for n
		}
		if s.block == len(s.blocks) {
			// Blocks grow from 32 items to slabBlock as a game goes on.
			size := slabBlock
			if k := len(s.blocks); k < 3 {
				size = max(32<<k, n)
			}
			s.blocks = append(s.blocks, make([]T, size))
		}
		s.used = 0
	}
	out := s.blocks[s.block][s.used : s.used+n : s.used+n]
	s.used += n
	return out
}

// One returns a pointer to a copy of v held in the slab.
func (s *Slab[T]) One(v T) *T {
	p := &s.take(1)[0]
	*p = v
	return p
}

// Copy returns a pointer to a copy of *v held in the slab.
func (s *Slab[T]) Copy(v *T) *T {
	p := &s.take(1)[0]
	*p = *v
	return p
}

// Reset hands out the slab's memory again from the start.
func (s *Slab[T]) Reset() { s.block, s.used = 0, 0 }
