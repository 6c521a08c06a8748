package report

import (
	"fmt"
	"hash/fnv"
	"html"
	"math"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/hex"
)

// The map of the end of a turn is a generic drawing of the scenario's
// space and the core state's pieces: a table's outline and features, or a
// hex map's grid with its terrain; each piece a mark in its side's colour
// with a short name. It reads no rule set's state and no page script.

// mapWidth is the drawing's width in SVG units (pixels at 100%).
const mapWidth = 720.0

// sideColours are the sides' colours, in scenario order.
var sideColours = []string{"#2a5599", "#b03a2e", "#2e7d32", "#8e44ad", "#b9770e", "#455a64"}

// terrainColours colour the terrains and features whose names say what
// they are; any other gets a grey of its own.
var terrainColours = []struct{ word, colour string }{
	{"wood", "#9fc59a"}, {"forest", "#9fc59a"}, {"orchard", "#b5d3a0"},
	{"town", "#c9b8a6"}, {"village", "#c9b8a6"}, {"build", "#c9b8a6"}, {"farm", "#d8cbb0"},
	{"marsh", "#b8d3cf"}, {"swamp", "#b8d3cf"}, {"water", "#9cc3e6"}, {"lake", "#9cc3e6"}, {"river", "#6fa8dc"},
	{"stream", "#6fa8dc"}, {"creek", "#6fa8dc"}, {"brook", "#6fa8dc"}, {"ford", "#a9cbe8"},
	{"hill", "#e0cf9e"}, {"ridge", "#d6c08a"}, {"slope", "#e0cf9e"}, {"rough", "#d9c7a7"}, {"crop", "#eae3b5"},
	{"field", "#eae3b5"}, {"road", "#a0785a"}, {"track", "#b8977a"}, {"wall", "#7a6a5a"}, {"hedge", "#6d8f5f"},
	{"clear", "#f4f1e4"}, {"open", "#f4f1e4"},
}

// colourOf is the colour a terrain or feature named name is drawn in.
func colourOf(name string) string {
	n := strings.ToLower(name)
	for _, c := range terrainColours {
		if strings.Contains(n, c.word) {
			return c.colour
		}
	}
	h := fnv.New32a()
	h.Write([]byte(n))
	v := 200 + int(h.Sum32()%40)
	return fmt.Sprintf("#%02x%02x%02x", v, v, v-12)
}

// drawing is a scenario's map, its ground drawn once.
type drawing struct {
	sc     *battle.Scenario
	sides  map[string]int
	scale  float64 // SVG units per inch, or per hex width
	w, h   float64
	ground string
	// at places a position of the space in the drawing; size is a piece's
	// mark size.
	at   func(p geom.Point) (x, y float64)
	size float64
}

func newDrawing(sc *battle.Scenario) *drawing {
	d := &drawing{sc: sc, sides: map[string]int{}}
	for i, s := range sc.Sides {
		d.sides[s.ID] = i
	}
	if sc.Map != nil {
		d.hexes(*sc.Map)
	} else {
		d.table(sc.Field)
	}
	return d
}

// f writes a number for the SVG: two decimals at most, no trailing zeros.
func f(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// table draws a table's outline and its features.
func (d *drawing) table(fd battle.Field) {
	w, h := fd.Width, fd.Depth
	if w <= 0 || h <= 0 {
		w, h = 72, 48
	}
	d.scale = mapWidth / w
	d.w, d.h = mapWidth, h*d.scale
	d.at = func(p geom.Point) (float64, float64) { return p.X * d.scale, p.Y * d.scale }
	d.size = math.Max(8, math.Min(18, 2*d.scale))
	var b strings.Builder
	fmt.Fprintf(&b, `<rect class="ground" x="0" y="0" width="%s" height="%s" fill="#f4f1e4" stroke="#333" stroke-width="2"/>`, f(d.w), f(d.h))
	for _, ft := range fd.Features {
		col := colourOf(ft.Type + " " + ft.Name)
		title := html.EscapeString(strings.TrimSpace(ft.Name + " (" + ft.Type + ")"))
		switch {
		case len(ft.Area) > 0:
			fmt.Fprintf(&b, `<polygon class="feature" points="%s" fill="%s" fill-opacity="0.8" stroke="#777" stroke-width="0.5"><title>%s</title></polygon>`, d.points(ft.Area), col, title)
			for _, bl := range ft.Blocks {
				fmt.Fprintf(&b, `<polygon points="%s" fill="#8d7b6a"/>`, d.points(bl))
			}
		case len(ft.Course) > 0:
			width := math.Max(2, ft.Width*d.scale)
			fmt.Fprintf(&b, `<polyline class="feature" points="%s" fill="none" stroke="%s" stroke-width="%s" stroke-linecap="round"><title>%s</title></polyline>`, d.points(ft.Course), col, f(width), title)
		}
	}
	d.ground = b.String()
}

// points writes a list of positions.
func (d *drawing) points(ps []geom.Point) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		x, y := d.at(p)
		out[i] = f(x) + "," + f(y)
	}
	return strings.Join(out, " ")
}

// hexes draws a hex map's grid, each hex in its terrain's colour.
func (d *drawing) hexes(m hex.Map) {
	flat := m.Layout.Offset == hex.OddQ || m.Layout.Offset == hex.EvenQ
	sq3 := math.Sqrt(3)
	var cw, ch float64 // the width and height of the map in hex sizes
	if flat {
		cw, ch = 1.5*float64(m.Columns)+0.5, sq3*(float64(m.Rows)+0.5)
	} else {
		cw, ch = sq3*(float64(m.Columns)+0.5), 1.5*float64(m.Rows)+0.5
	}
	r := mapWidth / cw
	d.scale = r
	d.w, d.h = mapWidth, ch*r
	first := float64(m.Layout.First)
	d.at = func(p geom.Point) (float64, float64) {
		col, row := int(p.X-first), int(p.Y-first)
		if flat {
			down := col&1 == 1
			if m.Layout.Offset == hex.EvenQ {
				down = col&1 == 0
			}
			y := sq3 * r * (float64(row) + 0.5)
			if down {
				y += sq3 * r / 2
			}
			return r + 1.5*r*float64(col), y
		}
		right := row&1 == 1
		if m.Layout.Offset == hex.EvenR {
			right = row&1 == 0
		}
		x := sq3 * r * (float64(col) + 0.5)
		if right {
			x += sq3 * r / 2
		}
		return x, r + 1.5*r*float64(row)
	}
	d.size = math.Max(8, math.Min(20, 0.9*r))
	corner := func(x, y float64, i int) (float64, float64) {
		a := math.Pi / 3 * float64(i)
		if !flat {
			a += math.Pi / 6
		}
		return x + r*math.Cos(a), y + r*math.Sin(a)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<rect class="ground" x="0" y="0" width="%s" height="%s" fill="#fff" stroke="#333" stroke-width="1"/>`, f(d.w), f(d.h))
	tm := d.sc.Terrain
	for row := 0; row < m.Rows; row++ {
		for col := 0; col < m.Columns; col++ {
			p := geom.Pt(float64(col)+first, float64(row)+first)
			x, y := d.at(p)
			fill := "#f4f1e4"
			var title string
			if tm != nil {
				if i, ok := tm.At(p); ok {
					name := tm.TerrainName(i)
					if tm.Terrain(i) != 0 {
						fill = colourOf(name)
					}
					title = name
				}
			}
			pts := make([]string, 6)
			for i := range 6 {
				cx, cy := corner(x, y, i)
				pts[i] = f(cx) + "," + f(cy)
			}
			fmt.Fprintf(&b, `<polygon class="hex" points="%s" fill="%s" stroke="#bbb" stroke-width="0.6">`, strings.Join(pts, " "), fill)
			fmt.Fprintf(&b, `<title>%s %s</title></polygon>`, m.Format(p), html.EscapeString(title))
		}
	}
	d.ground = b.String()
}

// short is a piece's name cut to fit beside its mark.
func short(name string) string {
	const most = 12
	if r := []rune(name); len(r) > most {
		return strings.TrimSpace(string(r[:most-1])) + "…"
	}
	return name
}

// svg draws the map at the end of turn: the ground, then every piece on
// the table in its side's colour (units as squares, generals as circles)
// with its short name. Pieces on one hex are spread so that none hides
// another.
func (d *drawing) svg(s *game.State, name func(string) string, turn int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="%s %s %s %s" width="%s" height="%s" role="img">`,
		f(-4), f(-4), f(d.w+8), f(d.h+8), f(d.w+8), f(d.h+8))
	fmt.Fprintf(&b, `<title>%s, the end of turn %d</title>`, html.EscapeString(d.title()), turn)
	b.WriteString(d.ground)
	stack := map[[2]float64]int{}
	for _, p := range s.Pieces {
		if !p.OnTable {
			continue
		}
		x, y := d.at(p.At)
		k := [2]float64{x, y}
		n := stack[k]
		stack[k] = n + 1
		y += float64(n) * (d.size + 2)
		col := "#555"
		if i, ok := d.sides[p.Side]; ok {
			col = sideColours[i%len(sideColours)]
		}
		nm := name(p.ID)
		label := html.EscapeString(short(nm))
		b.WriteString(`<g class="piece">`)
		fmt.Fprintf(&b, `<title>%s (%s)</title>`, html.EscapeString(nm), html.EscapeString(p.Side))
		if d.sc.General(p.ID) != nil {
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="#fff" stroke="%s" stroke-width="2"/>`, f(x), f(y), f(d.size/3), col)
		} else {
			s := d.size
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#111" stroke-width="0.6"/>`, f(x-s/2), f(y-s/2), f(s), f(s*0.7), col)
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="9" font-family="sans-serif" fill="#111">%s</text>`, f(x+d.size/2+2), f(y+3), label)
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// title is the scenario's title for the drawing.
func (d *drawing) title() string {
	if d.sc.Title != "" {
		return d.sc.Title
	}
	return d.sc.Name
}
