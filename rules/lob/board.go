package lob

import (
	"orderly/geom"
	"orderly/geom/hex"
)

// within lists the hexes of map m at most r hexes from centre (the map's
// own count of hexes, LOB-2), for a page to shade a command radius
// without counting hexes itself.
func within(m hex.Map, centre geom.Point, r int) []geom.Point {
	c, ok := m.Hex(centre)
	if !ok || r < 0 {
		return nil
	}
	var out []geom.Point
	for n := 0; n <= r; n++ {
		for _, h := range hex.Ring(c, n) {
			if p := m.Point(h); m.Contains(p) {
				out = append(out, p)
			}
		}
	}
	return out
}
