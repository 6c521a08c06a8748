package web_test

import (
	"strings"
	"testing"

	"orderly/server"
)

// bpTerrain is bpDuel with terrain on its table: a wood, a wall, a
// stream, a hill and a village with its blocks.
var bpTerrain = strings.Replace(bpDuel, "field: {width: 72, depth: 48}", `field:
  width: 72
  depth: 48
  features:
    - {id: wood, name: Bossu wood, type: light-woods, area: [[10, 10], [20, 10], [20, 20], [10, 20]], disruptive: d1}
    - {id: wall, type: linear-obstacle, line: [[30, 20], [44, 20]]}
    - {id: brook, type: river, line: [[0, 40], [72, 40]], width: 1}
    - {id: hill, type: steep-slope, area: [[50, 10], [60, 10], [55, 18]], disruptive: d2}
    - id: village
      type: town
      area: [[50, 28], [62, 28], [62, 36], [50, 36]]
      blocks:
        - [[51, 29], [55, 29], [55, 33], [51, 33]]
        - [[56, 29], [61, 29], [61, 33], [56, 33]]`, 1)

// TestBrowserFeatures: the terrain a scenario puts on a table is drawn on
// the page's map from the board: each feature by its type, a town with its
// blocks, its name and rating in its title.
func TestBrowserFeatures(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	made, err := s.srv.Create(ctx, server.Setup{Source: bpTerrain, File: "bp-terrain.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	tok := ""
	for _, st := range made.Seats {
		if st.Side == "french" {
			tok = st.Token
		}
	}
	b := browser(t, ctx, 1024, 768)
	p := newPage(t, b, "features", dir)
	p.open(s.ts.URL, tok)
	p.until("the terrain drawn", `document.querySelectorAll('#map [data-feature]').length === 5`)
	for typ, n := range map[string]int{"light-woods": 1, "linear-obstacle": 1, "river": 1, "steep-slope": 1, "town": 1} {
		if got := eval[int](p, `document.querySelectorAll('#map [data-type="`+typ+`"]').length`); got != n {
			p.fail("%d features of type %s drawn, want %d", got, typ, n)
		}
	}
	if n := eval[int](p, `document.querySelectorAll('#map [data-feature="village"] .ft-block').length`); n != 2 {
		p.fail("the village has %d blocks drawn, want 2", n)
	}
	if title := eval[string](p, `document.querySelector('#map [data-feature="wood"] title').textContent`); title != "Bossu wood, light woods, D1, cover" {
		p.fail("the wood's title is %q", title)
	}
	p.shot("features")
	p.checkConsole()
}
