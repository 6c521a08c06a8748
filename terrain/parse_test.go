package terrain_test

import (
	"errors"
	"math/bits"
	"strings"
	"testing"
	"unicode/utf8"

	"orderly/geom/hex"
	"orderly/terrain"
)

// kinds is the rule set of the parse tests: four terrains, three hexside
// features (slope the steep one) and three roads, the first the least.
var kinds = terrain.Kinds{
	Hexes: []terrain.Kind{{"clear", '.'}, {"woods", 'w'}, {"town", 't'}, {"marsh", 'm'}},
	Sides: []string{"stream", "hedge", "slope"},
	Roads: []string{"path", "road", "highway"},
	Steep: "slope",
}

const (
	stream = iota
	hedge
	slope
)

const (
	path = iota
	road
	highway
)

// grid is 8 columns by 12 rows, labelled 0101..0812.
var grid = hex.Map{Columns: 8, Rows: 12, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2}}

// letters and levels are the grids of the parse tests, a string a row and
// a character a column, written without spaces.
var letters = []string{
	"........",
	".ww.....",
	".www..m.",
	"....m...",
	"..t.....",
	"........",
	"ww......",
	"......tt",
	"..m.....",
	"........",
	"w.......",
	"...t...m",
}

var levels = []string{
	"00011000",
	"00122100",
	"01233210",
	"00122100",
	"00011000",
	"00000000",
	"00000009",
	"00000000",
	"00000000",
	"00000000",
	"00000000",
	"98765432",
}

// spaced writes a grid with spaces and tabs between (and around) the
// characters of its rows, in a different way on each row.
func spaced(rows []string) string {
	var b strings.Builder
	for r, row := range rows {
		switch r % 4 {
		case 0:
			b.WriteString(row)
		case 1:
			b.WriteString(strings.Join(strings.Split(row, ""), " "))
		case 2:
			b.WriteString("  " + strings.Join(strings.Split(row, ""), "\t") + "  ")
		case 3:
			b.WriteString(row[:3] + "   " + row[3:] + " ")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func validText() terrain.Text {
	return terrain.Text{
		Terrain:   spaced(letters),
		Elevation: spaced(levels),
		Sides: map[string]string{
			"stream": "0101/0102, 0202/0302\n0403/0404",
			"hedge":  "0505/0605 0102/0101",
			"slope":  "0301/0302",
		},
		Roads: map[string][]string{
			"highway": {"0104 0204 0304"},
			"road":    {"0304 0404", "0204,0304,0305"},
			"path":    {"0404 0304", "0701 0702 0703"},
		},
	}
}

// at is the index of the hex labelled label.
func at(t testing.TB, m *terrain.Map, label string) int {
	t.Helper()
	p, err := m.Grid.Parse(label)
	if err != nil {
		t.Fatalf("label %s: %v", label, err)
	}
	i, ok := m.At(p)
	if !ok {
		t.Fatalf("label %s is not a hex of the map", label)
	}
	return i
}

func mustParse(t *testing.T, g hex.Map, k terrain.Kinds, text terrain.Text) *terrain.Map {
	t.Helper()
	m, err := terrain.Parse(g, k, text)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if m == nil {
		t.Fatal("Parse gave no map and no error")
	}
	return m
}

func TestParseTerrain(t *testing.T) {
	m := mustParse(t, grid, kinds, validText())
	if m.Len() != 8*12 {
		t.Fatalf("Len = %d, want 96", m.Len())
	}
	for _, c := range []struct{ label, name string }{
		{"0101", "clear"}, {"0202", "woods"}, {"0302", "woods"}, {"0403", "woods"},
		{"0703", "marsh"}, {"0504", "marsh"}, {"0305", "town"}, {"0107", "woods"},
		{"0207", "woods"}, {"0307", "clear"}, {"0708", "town"}, {"0808", "town"},
		{"0111", "woods"}, {"0412", "town"}, {"0812", "marsh"}, {"0712", "clear"},
	} {
		if got := m.TerrainName(at(t, m, c.label)); got != c.name {
			t.Errorf("hex %s is %s, want %s", c.label, got, c.name)
		}
	}
	// Every hex, against the grid as written without spaces.
	index := map[rune]int{}
	for i, k := range kinds.Hexes {
		index[k.Letter] = i
	}
	for row, line := range letters {
		for col, r := range line {
			i := row*8 + col
			if got := m.Terrain(i); got != index[r] {
				t.Errorf("hex %s (row %d, column %d) has terrain %d, want %d (%c)", m.Label(i), row, col, got, index[r], r)
			}
		}
	}
}

func TestParseElevation(t *testing.T) {
	m := mustParse(t, grid, kinds, validText())
	for _, c := range []struct {
		label string
		level int
	}{
		{"0101", 0}, {"0401", 1}, {"0403", 3}, {"0503", 3}, {"0203", 1}, {"0807", 9},
		{"0112", 9}, {"0412", 6}, {"0812", 2}, {"0806", 0},
	} {
		if got := m.Level(at(t, m, c.label)); got != c.level {
			t.Errorf("hex %s is at level %d, want %d", c.label, got, c.level)
		}
	}
	for row, line := range levels {
		for col, r := range line {
			if got, want := m.Level(row*8+col), int(r-'0'); got != want {
				t.Errorf("hex %s is at level %d, want %d", m.Label(row*8+col), got, want)
			}
		}
	}
}

func TestParseEmptyGrids(t *testing.T) {
	m := mustParse(t, grid, kinds, terrain.Text{Terrain: "  \n\n", Elevation: ""})
	for i := range m.Len() {
		if m.Terrain(i) != 0 || m.TerrainName(i) != "clear" || m.Level(i) != 0 || m.RoadIn(i) != terrain.None {
			t.Fatalf("hex %s of an empty text: terrain %s, level %d, road %d", m.Label(i), m.TerrainName(i), m.Level(i), m.RoadIn(i))
		}
		for d := range 6 {
			if m.Features(i, d) != 0 || m.Road(i, d) != terrain.None {
				t.Fatalf("hex %s side %d of an empty text: features %b, road %d", m.Label(i), d, m.Features(i, d), m.Road(i, d))
			}
		}
	}
}

func TestParseGridLayout(t *testing.T) {
	small := hex.Map{Columns: 3, Rows: 2, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2}}
	k := terrain.Kinds{Hexes: []terrain.Kind{{"clear", '.'}, {"woods", 'w'}}}
	for _, text := range []string{
		".w.\nw..",
		"\n\n.w.\nw..\n\n",
		". w .\r\nw . .\r\n",
		"\t.\tw\t.\t\n  w  .  .  \n   \n",
	} {
		m, err := terrain.Parse(small, k, terrain.Text{Terrain: text})
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		var got strings.Builder
		for i := range m.Len() {
			got.WriteRune(k.Hexes[m.Terrain(i)].Letter)
		}
		if got.String() != ".w.w.." {
			t.Errorf("Parse(%q) gives %s, want .w.w..", text, got.String())
		}
	}
}

// TestParseTrailingBlankCRLF: a grid typed with CRLF line ends and a
// blank line after it, as a trailing blank line with LF ends is taken.
func TestParseTrailingBlankCRLF(t *testing.T) {
	small := hex.Map{Columns: 3, Rows: 2, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2}}
	k := terrain.Kinds{Hexes: []terrain.Kind{{"clear", '.'}, {"woods", 'w'}}}
	for _, text := range []string{".w.\r\nw..\r\n\r\n", ".w.\r\nw..\r\n \r\n"} {
		if _, err := terrain.Parse(small, k, terrain.Text{Terrain: text}); err != nil {
			t.Errorf("Parse(%q): %v", text, err)
		}
	}
}

func TestParseHexsides(t *testing.T) {
	m := mustParse(t, grid, kinds, validText())
	for _, c := range []struct {
		a, b string
		d    int // the direction from a to b, known
		f    []int
	}{
		{"0101", "0102", 5, []int{stream, hedge}},
		{"0202", "0302", 1, []int{stream}},
		{"0403", "0404", 5, []int{stream}},
		{"0505", "0605", 0, []int{hedge}},
		{"0301", "0302", 5, []int{slope}},
	} {
		i, j := at(t, m, c.a), at(t, m, c.b)
		if d := m.Dir(i, j); d != c.d {
			t.Errorf("Dir(%s, %s) = %d, want %d", c.a, c.b, d, c.d)
		}
		if d := m.Dir(j, i); d != (c.d+3)%6 {
			t.Errorf("Dir(%s, %s) = %d, want %d", c.b, c.a, d, (c.d+3)%6)
		}
		var want uint16
		for _, f := range c.f {
			want |= 1 << f
			if !m.Has(i, c.d, f) {
				t.Errorf("side %s/%s seen from %s lacks %s", c.a, c.b, c.a, kinds.Sides[f])
			}
			if !m.Has(j, (c.d+3)%6, f) {
				t.Errorf("side %s/%s seen from %s lacks %s", c.a, c.b, c.b, kinds.Sides[f])
			}
		}
		for f := range kinds.Sides {
			if want&(1<<f) == 0 && (m.Has(i, c.d, f) || m.Has(j, (c.d+3)%6, f)) {
				t.Errorf("side %s/%s has %s, which the text does not give it", c.a, c.b, kinds.Sides[f])
			}
		}
		if m.Features(i, c.d) != want || m.Features(j, (c.d+3)%6) != want {
			t.Errorf("side %s/%s has features %b / %b, want %b", c.a, c.b, m.Features(i, c.d), m.Features(j, (c.d+3)%6), want)
		}
	}
	// Nothing else carries a feature: 6 features on 5 sides, each seen
	// from both hexes.
	n := 0
	for i := range m.Len() {
		for d := range 6 {
			n += bits.OnesCount16(m.Features(i, d))
		}
	}
	if n != 12 {
		t.Errorf("%d features seen across the map, want 12", n)
	}
}

func TestParseRoads(t *testing.T) {
	m := mustParse(t, grid, kinds, validText())
	for _, c := range []struct {
		a, b string
		r    int
	}{
		{"0104", "0204", highway},
		{"0204", "0304", highway}, // a road over the highway: the highway stays
		{"0304", "0404", road},    // a path, then a road over it: the road
		{"0304", "0305", road},
		{"0701", "0702", path},
		{"0702", "0703", path},
	} {
		i, j := at(t, m, c.a), at(t, m, c.b)
		d := m.Dir(i, j)
		if d < 0 {
			t.Fatalf("%s and %s do not touch", c.a, c.b)
		}
		if got := m.Road(i, d); got != c.r {
			t.Errorf("road %s->%s = %d, want %d", c.a, c.b, got, c.r)
		}
		if got := m.Road(j, (d+3)%6); got != c.r {
			t.Errorf("road %s->%s = %d, want %d", c.b, c.a, got, c.r)
		}
	}
	for _, c := range []struct {
		label string
		r     int
	}{
		{"0104", highway}, {"0204", highway}, {"0304", highway}, {"0404", road}, {"0305", road},
		{"0701", path}, {"0702", path}, {"0703", path}, {"0101", terrain.None}, {"0704", terrain.None},
	} {
		if got := m.RoadIn(at(t, m, c.label)); got != c.r {
			t.Errorf("RoadIn(%s) = %d, want %d", c.label, got, c.r)
		}
	}
	n := 0
	for i := range m.Len() {
		for d := range 6 {
			if m.Road(i, d) != terrain.None {
				n++
			}
		}
	}
	if n != 12 {
		t.Errorf("%d road crossings seen across the map, want 12 (6 sides from both hexes)", n)
	}
}

func TestParseErrors(t *testing.T) {
	rows := func(change func([]string)) string {
		r := append([]string(nil), letters...)
		change(r)
		return strings.Join(r, "\n")
	}
	levelRows := func(change func([]string)) string {
		r := append([]string(nil), levels...)
		change(r)
		return strings.Join(r, "\n")
	}
	for _, c := range []struct {
		name  string
		edit  func(*terrain.Text)
		field string
		line  int
		want  []string
	}{
		{"too few rows", func(x *terrain.Text) { x.Terrain = strings.Join(letters[:11], "\n") },
			"terrain", -1, []string{"11 lines", "12 rows", "8"}},
		{"too many rows", func(x *terrain.Text) { x.Terrain = strings.Join(append(letters, "........"), "\n") },
			"terrain", -1, []string{"13 lines", "12 rows"}},
		{"short row", func(x *terrain.Text) { x.Terrain = rows(func(r []string) { r[3] = ". . . . m . ." }) },
			"terrain", 3, []string{"row 04", "7 hexes", "8 columns"}},
		{"short row after blank lines", func(x *terrain.Text) { x.Terrain = "\n  \n" + rows(func(r []string) { r[3] = "......." }) },
			"terrain", 5, []string{"row 04", "7 hexes", "8 columns"}},
		{"long row", func(x *terrain.Text) { x.Terrain = rows(func(r []string) { r[10] = "w . . . . . . . ." }) },
			"terrain", 10, []string{"row 11", "more than 8 hexes", "8 columns"}},
		{"unknown letter", func(x *terrain.Text) { x.Terrain = rows(func(r []string) { r[11] = "...tx..m" }) },
			"terrain", 11, []string{"hex 0512", "row 12", "column 05", "'x'", "not a terrain letter", "allowed: . clear, w woods, t town, m marsh"}},
		{"unknown letter after blank lines", func(x *terrain.Text) { x.Terrain = "\n\t\n\n" + rows(func(r []string) { r[1] = "?......." }) },
			"terrain", 4, []string{"hex 0102", "row 02", "column 01", "'?'"}},
		{"invalid text", func(x *terrain.Text) { x.Terrain = rows(func(r []string) { r[2] = ".ww\xff...." }) },
			"terrain", 2, []string{"row 03", "not valid text"}},
		{"bad elevation", func(x *terrain.Text) { x.Elevation = levelRows(func(r []string) { r[6] = "0a000000" }) },
			"elevation", 6, []string{"hex 0207", "row 07", "column 02", "'a'", "not an elevation", "0..9"}},
		{"bad elevation after a blank line", func(x *terrain.Text) { x.Elevation = " \n" + levelRows(func(r []string) { r[11] = "9876543." }) },
			"elevation", 12, []string{"hex 0812", "row 12", "column 08", "'.'"}},
		{"negative elevation", func(x *terrain.Text) { x.Elevation = levelRows(func(r []string) { r[0] = "0001100-" }) },
			"elevation", 0, []string{"hex 0801", "row 01", "column 08", "'-'"}},
		{"elevation rows", func(x *terrain.Text) { x.Elevation = "0000" },
			"elevation", -1, []string{"1 lines", "12 rows"}},
		{"unknown feature", func(x *terrain.Text) { x.Sides["river"] = "0101/0102" },
			"hexsides", -1, []string{`"river"`, "not a hexside feature", "allowed: stream, hedge, slope"}},
		{"no slash", func(x *terrain.Text) { x.Sides["hedge"] = "0505/0605 01010102" },
			"hexsides.hedge", -1, []string{`"01010102"`, "not a hexside", "/"}},
		{"not touching", func(x *terrain.Text) { x.Sides["stream"] = "0101/0102 0101/0103" },
			"hexsides.stream", -1, []string{"0101/0103", "hexes 0101 and 0103 do not touch"}},
		{"same hex", func(x *terrain.Text) { x.Sides["stream"] = "0404/0404" },
			"hexsides.stream", -1, []string{"0404/0404", "do not touch"}},
		{"side off the map", func(x *terrain.Text) { x.Sides["stream"] = "0801/0901" },
			"hexsides.stream", -1, []string{"hexside 0801/0901", `"0901"`, "off the map"}},
		{"side below the first row", func(x *terrain.Text) { x.Sides["hedge"] = "0101/0100" },
			"hexsides.hedge", -1, []string{"hexside 0101/0100", `"0100"`, "off the map"}},
		{"side not a label", func(x *terrain.Text) { x.Sides["hedge"] = "0101/xy" },
			"hexsides.hedge", -1, []string{"hexside 0101/xy", `"xy"`, "not a label"}},
		{"steep on the level", func(x *terrain.Text) { x.Sides["slope"] = "0301/0302 0101/0102" },
			"hexsides.slope", -1, []string{"hexside 0101/0102", "elevation 0", "slope"}},
		{"unknown road", func(x *terrain.Text) { x.Roads["canal"] = []string{"0101 0102"} },
			"roads", -1, []string{`"canal"`, "not a kind of road", "allowed: path, road, highway"}},
		{"road of one hex", func(x *terrain.Text) { x.Roads["road"] = []string{"0304 0404", "0505"} },
			"roads.road[1]", -1, []string{"at least 2 hexes", "got 1"}},
		{"road of no hex", func(x *terrain.Text) { x.Roads["path"] = []string{" , "} },
			"roads.path[0]", -1, []string{"at least 2 hexes", "got 0"}},
		{"road gap", func(x *terrain.Text) { x.Roads["highway"] = []string{"0101 0102 0304"} },
			"roads.highway[0]", -1, []string{"hex 3 of the road", "0304", "does not touch 0102"}},
		{"road off the map", func(x *terrain.Text) { x.Roads["path"] = []string{"0701 0702", "0812 0912"} },
			"roads.path[1]", -1, []string{"hex 2 of the road", `"0912"`, "off the map"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := validText()
			c.edit(&text)
			m, err := terrain.Parse(grid, kinds, text)
			if err == nil {
				t.Fatal("Parse accepted it")
			}
			if m != nil {
				t.Error("Parse gave a map with its error")
			}
			var e *terrain.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T, not a *terrain.Error", err, err)
			}
			if e.Field != c.field || e.Line != c.line {
				t.Errorf("error at %s line %d, want %s line %d: %v", e.Field, e.Line, c.field, c.line, err)
			}
			for _, w := range c.want {
				if !strings.Contains(e.Msg, w) {
					t.Errorf("message %q does not say %q", e.Msg, w)
				}
			}
			if got := err.Error(); got != e.Field+": "+e.Msg {
				t.Errorf("Error() = %q", got)
			}
			if strings.Contains(e.Msg, "\n") {
				t.Errorf("message %q is more than one line", e.Msg)
			}
		})
	}
}

func TestParseBadKindsOrGrid(t *testing.T) {
	bad := kinds
	bad.Steep = "cliff"
	if _, err := terrain.Parse(grid, bad, terrain.Text{}); err == nil || !strings.Contains(err.Error(), "cliff") {
		t.Errorf("Parse with a steep slope that is no feature: %v", err)
	}
	g := grid
	g.Columns = 0
	if _, err := terrain.Parse(g, kinds, terrain.Text{}); err == nil {
		t.Error("Parse of a map of no columns gave no error")
	}
}

func TestKindsCheck(t *testing.T) {
	if err := kinds.Check(); err != nil {
		t.Fatalf("the test kinds: %v", err)
	}
	hexes := func(ks ...terrain.Kind) terrain.Kinds { return terrain.Kinds{Hexes: ks} }
	for _, c := range []struct {
		name string
		k    terrain.Kinds
		want []string
	}{
		{"no terrain", terrain.Kinds{}, []string{"no terrain"}},
		{"letter twice", hexes(terrain.Kind{"clear", '.'}, terrain.Kind{"woods", '.'}), []string{"woods", "twice"}},
		{"name twice", hexes(terrain.Kind{"clear", '.'}, terrain.Kind{"clear", 'c'}), []string{"clear", "twice"}},
		{"digit letter", hexes(terrain.Kind{"clear", '.'}, terrain.Kind{"hill", '3'}), []string{"hill", "'3'", "not a digit"}},
		{"space letter", hexes(terrain.Kind{"clear", ' '}), []string{"clear", "' '"}},
		{"wide letter", hexes(terrain.Kind{"forest", 'ü'}), []string{"forest", "'ü'"}},
		{"side twice", terrain.Kinds{Hexes: kinds.Hexes, Sides: []string{"stream", "stream"}}, []string{"stream", "twice"}},
		{"road named as a side", terrain.Kinds{Hexes: kinds.Hexes, Sides: []string{"stream"}, Roads: []string{"stream"}}, []string{"stream", "twice"}},
		{"side named as a terrain", terrain.Kinds{Hexes: kinds.Hexes, Sides: []string{"woods"}}, []string{"woods", "twice"}},
		{"steep not a side", terrain.Kinds{Hexes: kinds.Hexes, Sides: []string{"stream"}, Steep: "slope"}, []string{"slope", "not a hexside feature"}},
		{"too many features", terrain.Kinds{Hexes: kinds.Hexes, Sides: strings.Split("a b c d e f g h i j k l m n o p q", " ")}, []string{"too many", "16"}},
	} {
		err := c.k.Check()
		if err == nil {
			t.Errorf("%s: Check gave no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
		if _, err := terrain.New(grid, c.k); err == nil {
			t.Errorf("%s: New accepted the kinds", c.name)
		}
	}
	ok := terrain.Kinds{Hexes: kinds.Hexes, Sides: strings.Split("a b c d e f g h i j k l m n o p", " ")}
	if err := ok.Check(); err != nil {
		t.Errorf("16 features: %v", err)
	}
	if got := kinds.Legend(); got != ". clear, w woods, t town, m marsh" {
		t.Errorf("Legend = %q", got)
	}
}

// FuzzParse feeds Parse random text on a small map: it never panics, an
// error is always a *terrain.Error of one non-empty line, and a map it
// accepts holds together (a feature or road seen the same from both hexes
// of its side, the best road of a hex its best crossing, no steep side on
// the level).
func FuzzParse(f *testing.F) {
	f.Add("..w\nw.m\n...\n.t.", "012\n000\n999\n123", uint8(0), "0101/0102, 0202/0302", uint8(1), "0101 0102 0203")
	f.Add(". . w\n\nw.m\n...\n.t.", "0\n0\n0\n0", uint8(2), "0101/0201", uint8(0), "0101,0102")
	f.Add("", "", uint8(3), "0101-0102", uint8(3), "0101")
	f.Add("...\n...\n...\n...\n", "", uint8(1), "1-1/1-2 2-1/3-1", uint8(2), "1-1 2-1 3-1 3-2 3-3 3-4")
	f.Add("x..\n...\n...\n...", "a", uint8(0), "0404/0405", uint8(1), "0101 0303")
	f.Add("..\xff\n...\n...\n...", "0\r\n0", uint8(2), "0101/0909 /", uint8(0), "0101 0101")
	g := hex.Map{Columns: 3, Rows: 4, Layout: hex.Layout{Offset: hex.EvenQ, First: 1, Digits: 2}}
	sideNames := []string{"stream", "hedge", "slope", "river"}
	roadNames := []string{"path", "road", "highway", "canal"}
	f.Fuzz(func(t *testing.T, terrainText, elevation string, side uint8, sides string, road uint8, chain string) {
		text := terrain.Text{
			Terrain:   terrainText,
			Elevation: elevation,
			Sides:     map[string]string{sideNames[int(side)%len(sideNames)]: sides},
			Roads:     map[string][]string{roadNames[int(road)%len(roadNames)]: {chain, "0304 0303"}},
		}
		m, err := terrain.Parse(g, kinds, text)
		if err != nil {
			var e *terrain.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T, not a *terrain.Error", err, err)
			}
			if m != nil {
				t.Error("a map with an error")
			}
			if e.Msg == "" || e.Field == "" || strings.ContainsAny(err.Error(), "\n\r") || !utf8.ValidString(err.Error()) {
				t.Errorf("error %q is not one line of text", err.Error())
			}
			if e.Line < -1 || e.Line > strings.Count(terrainText, "\n")+strings.Count(elevation, "\n") {
				t.Errorf("error line %d is not a line of the text", e.Line)
			}
			return
		}
		if m == nil || m.Len() != 12 {
			t.Fatal("no map and no error")
		}
		for i := range m.Len() {
			if m.Terrain(i) >= len(kinds.Hexes) || m.Level(i) < 0 || m.Level(i) > 9 {
				t.Errorf("hex %s: terrain %d, level %d", m.Label(i), m.Terrain(i), m.Level(i))
			}
			best := terrain.None
			for d := range 6 {
				j := m.Next(i, d)
				if j < 0 {
					if m.Features(i, d) != 0 || m.Road(i, d) != terrain.None {
						t.Errorf("hex %s: the edge of the map in direction %d has a feature or road", m.Label(i), d)
					}
					continue
				}
				if m.Features(i, d) != m.Features(j, (d+3)%6) || m.Road(i, d) != m.Road(j, (d+3)%6) {
					t.Errorf("side %s/%s is not the same from both hexes", m.Label(i), m.Label(j))
				}
				if m.Has(i, d, slope) && m.Level(i) == m.Level(j) {
					t.Errorf("slope %s/%s between hexes at level %d", m.Label(i), m.Label(j), m.Level(i))
				}
				best = max(best, m.Road(i, d))
			}
			if m.RoadIn(i) != best {
				t.Errorf("hex %s: RoadIn %d, its best crossing %d", m.Label(i), m.RoadIn(i), best)
			}
		}
	})
}
