package hex

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"orderly/geom"
)

// A map is a geom.Space whose positions are written as labels.
var _ geom.Labeled = Map{}

func mustMap(t *testing.T, cols, rows int, l Layout) Map {
	t.Helper()
	m, err := NewMap(cols, rows, l)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMapKnownAnswers: labels, positions and distances on a 30 by 20
// map numbered from 1, worked out by hand from how printed maps lie.
func TestMapKnownAnswers(t *testing.T) {
	m := mustMap(t, 30, 20, Layout{Offset: OddQ, First: 1, Digits: 2})
	if m.Kind() != geom.KindHex || m.Unit() != geom.Hexes {
		t.Errorf("kind %s, unit %s", m.Kind(), m.Unit())
	}
	for _, c := range []struct {
		label string
		at    geom.Point
	}{{"0101", geom.Pt(1, 1)}, {"0412", geom.Pt(4, 12)}, {"4-12", geom.Pt(4, 12)}, {"3020", geom.Pt(30, 20)}, {"1-20", geom.Pt(1, 20)}} {
		p, err := m.Parse(c.label)
		if err != nil || p != c.at {
			t.Errorf("Parse(%s) = %v, %v; want %v", c.label, p, err, c.at)
		}
	}
	if f := m.Format(geom.Pt(4, 12)); f != "0412" {
		t.Errorf("Format(4, 12) = %q", f)
	}
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"0101", "0101", 0},
		{"0101", "0102", 1}, // down the column
		{"0101", "0110", 9},
		{"0101", "0201", 1}, // column 2 stands half a hex lower: 0201 is down and right
		{"0101", "0202", 2},
		{"0102", "0201", 1}, // up and right
		{"0101", "0301", 2},
		{"0101", "0501", 4}, // along a printed row, zig-zag
		{"0412", "0412", 0},
		{"0105", "0104", 1},
	} {
		a, _ := m.Parse(c.a)
		b, _ := m.Parse(c.b)
		if d := m.Dist(a, b); d != c.want {
			t.Errorf("Dist(%s, %s) = %v, want %v", c.a, c.b, d, c.want)
		}
		if d := m.Dist(b, a); d != c.want {
			t.Errorf("Dist(%s, %s) = %v, want %v", c.b, c.a, d, c.want)
		}
	}
	// In even-q the first column stands lower: 0201 is up and right of
	// 0101, and 0202 down and right.
	e := mustMap(t, 10, 10, Layout{Offset: EvenQ, First: 1})
	for _, l := range []string{"0201", "0202"} {
		a, _ := e.Parse("0101")
		b, _ := e.Parse(l)
		if d := e.Dist(a, b); d != 1 {
			t.Errorf("even-q: Dist(0101, %s) = %v, want 1", l, d)
		}
	}
	for _, c := range []struct {
		p  geom.Point
		on bool
	}{
		{geom.Pt(1, 1), true}, {geom.Pt(30, 20), true}, {geom.Pt(4, 12), true},
		{geom.Pt(0, 5), false}, {geom.Pt(31, 1), false}, {geom.Pt(1, 21), false},
		{geom.Pt(4.5, 2), false}, {geom.Pt(math.NaN(), 2), false}, {geom.Pt(math.Inf(1), 2), false},
	} {
		if got := m.Contains(c.p); got != c.on {
			t.Errorf("Contains(%v) = %v, want %v", c.p, got, c.on)
		}
		if _, ok := m.Hex(c.p); ok != c.on {
			t.Errorf("Hex(%v) reports %v, want %v", c.p, ok, c.on)
		}
	}
	if b := m.Bounds(); b != (geom.Rect{Min: geom.Pt(1, 1), Max: geom.Pt(30, 20)}) {
		t.Errorf("Bounds = %v", b)
	}
	if e := m.Extent(); e != "the map (columns 01..30, rows 01..20)" {
		t.Errorf("Extent = %q", e)
	}
	for p, want := range map[geom.Point]string{geom.Pt(4.5, 2): "(4.5, 2)", geom.Pt(-1, 2): "(-1, 2)", geom.Pt(100, 2): "(100, 2)", geom.Pt(31, 1): "3101"} {
		if got := m.Format(p); got != want {
			t.Errorf("Format(%v) = %q, want %q", p, got, want)
		}
	}
	// Three digits from 0.
	z := mustMap(t, 120, 5, Layout{Offset: OddR, First: 0, Digits: 3})
	if p, err := z.Parse("119004"); err != nil || p != geom.Pt(119, 4) || z.Format(p) != "119004" {
		t.Errorf("Parse(119004) = %v, %v", p, err)
	}
	if e := z.Extent(); e != "the map (columns 000..119, rows 000..004)" {
		t.Errorf("Extent = %q", e)
	}
}

// TestMapRoundTrip: on a map in every layout, every hex's label parses to
// its position and back, Hex and Point are inverse, and Dist between any
// two hexes is geom/hex's Distance between their cells.
func TestMapRoundTrip(t *testing.T) {
	for o := OddQ; o <= EvenR; o++ {
		for _, first := range []int{0, 1} {
			m := mustMap(t, 12, 9, Layout{Offset: o, First: first})
			var cells []Hex
			for col := first; col < first+12; col++ {
				for row := first; row < first+9; row++ {
					p := geom.Pt(float64(col), float64(row))
					label := m.Format(p)
					if want := fmt.Sprintf("%02d%02d", col, row); label != want {
						t.Fatalf("%v from %d: Format(%v) = %s, want %s", o, first, p, label, want)
					}
					back, err := m.Parse(label)
					if err != nil || back != p {
						t.Fatalf("%v from %d: Parse(%s) = %v, %v", o, first, label, back, err)
					}
					h, ok := m.Hex(p)
					if !ok || m.Point(h) != p {
						t.Fatalf("%v from %d: Hex(%v) = %s, %v; back %v", o, first, p, h, ok, m.Point(h))
					}
					if l, err := m.Layout.Label(h); err != nil || l != label {
						t.Fatalf("%v from %d: the layout labels %s %s, %v; the map %s", o, first, h, l, err, label)
					}
					cells = append(cells, h)
				}
			}
			for _, a := range cells {
				for _, b := range cells {
					if d := m.Dist(m.Point(a), m.Point(b)); d != float64(Distance(a, b)) {
						t.Fatalf("%v from %d: Dist(%v, %v) = %v, Distance = %d", o, first, m.Point(a), m.Point(b), d, Distance(a, b))
					}
				}
			}
		}
	}
}

// TestMapErrors: a bad label or a bad map is one sentence that says what
// is allowed.
func TestMapErrors(t *testing.T) {
	m := mustMap(t, 30, 20, Layout{Offset: OddQ, First: 1})
	for label, want := range map[string]string{
		"3101":   `hex "3101" is off the map; allowed: columns 01..30, rows 01..20`,
		"0121":   `hex "0121" is off the map; allowed: columns 01..30, rows 01..20`,
		"99-99":  `hex "99-99" is off the map; allowed: columns 01..30, rows 01..20`,
		"0012":   `hex "0012" is off the map: columns and rows are numbered from 1`,
		"041":    `hex "041" is not a label of 4 digits (column then row, e.g. 0412) or column-row`,
		"04a2":   `hex "04a2" is not a label of 4 digits`,
		"":       `hex "" is not a label of 4 digits`,
		"-1-1":   `hex "-1-1" is not a label`,
		"004012": `hex "004012" is not a label of 4 digits`,
	} {
		p, err := m.Parse(label)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", label, p)
			continue
		}
		if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): %q, want %q", label, err, want)
		}
	}
	for _, c := range []struct {
		cols, rows int
		l          Layout
		want       string
	}{
		{0, 5, Layout{}, "a map has 1..999 columns, not 0"},
		{5, 1000, Layout{Digits: 3}, "a map has 1..999 rows, not 1000"},
		{100, 5, Layout{First: 1}, "100 columns by 5 rows numbered from 1 need 100, which does not fit labels of 2 digits a number; allowed: numbers up to 99"},
		{5, 5, Layout{Offset: Offset(7)}, "hex layout offset(7) is not known"},
		{5, 5, Layout{First: -1}, "the first column and row are numbered 0..99, not -1"},
		{5, 5, Layout{Digits: 4}, "a label has 1..3 digits a number, not 4"},
	} {
		if _, err := NewMap(c.cols, c.rows, c.l); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewMap(%d, %d, %+v) = %v, want %q", c.cols, c.rows, c.l, err, c.want)
		}
	}
	if _, err := NewMap(99, 99, Layout{First: 1}); err != nil {
		t.Errorf("a 99 by 99 map: %v", err)
	}
	if got := Offsets(); strings.Join(got, ",") != "odd-q,even-q,odd-r,even-r" {
		t.Errorf("Offsets = %v", got)
	}
}

// FuzzMapParse: a label is a hex of the map, formatted back to the same
// numbers, or refused in one line; never a panic.
func FuzzMapParse(f *testing.F) {
	for _, s := range []string{"0101", "0412", "3020", "3101", "4-12", "0-0", "99999-1", "0a01", ""} {
		f.Add(s)
	}
	m := Map{Columns: 30, Rows: 20, Layout: Layout{Offset: EvenQ, First: 1}}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := m.Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: %q", s, err)
			}
			return
		}
		if !m.Contains(p) {
			t.Fatalf("%q parsed to %v, off the map", s, p)
		}
		if back, err := m.Parse(m.Format(p)); err != nil || back != p {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, p, m.Format(p), back, err)
		}
	})
}

// TestWithin: the hexes Within gives are exactly the map's hexes at most r
// from the centre by Dist, each once; at a corner the radius is clipped to
// the map (a radius of 1 at 0101 is 0101 with its 2 neighbours on the map
// and 0201, half a hex lower: 3 of 7 hexes off it); off the map or with a
// negative radius, none.
func TestWithin(t *testing.T) {
	m := mustMap(t, 12, 10, Layout{Offset: OddQ, First: 1, Digits: 2})
	for _, c := range []struct {
		at string
		r  int
	}{{"0101", 0}, {"0101", 1}, {"0101", 3}, {"0605", 2}, {"1210", 4}, {"0605", 20}} {
		centre, err := m.Parse(c.at)
		if err != nil {
			t.Fatal(err)
		}
		got := map[geom.Point]bool{}
		for _, p := range m.Within(centre, c.r) {
			if got[p] || !m.Contains(p) {
				t.Errorf("Within(%s, %d): %v twice or off the map", c.at, c.r, p)
			}
			got[p] = true
		}
		want := 0
		for x := 1; x <= 12; x++ {
			for y := 1; y <= 10; y++ {
				p := geom.Pt(float64(x), float64(y))
				if in := m.Dist(centre, p) <= float64(c.r); in != got[p] {
					t.Errorf("Within(%s, %d) has %v: %v; Dist %v", c.at, c.r, p, got[p], m.Dist(centre, p))
				} else if in {
					want++
				}
			}
		}
		if len(got) != want {
			t.Errorf("Within(%s, %d): %d hexes, want %d", c.at, c.r, len(got), want)
		}
	}
	corner, _ := m.Parse("0101")
	if n := len(m.Within(corner, 1)); n != 3 {
		t.Errorf("Within(0101, 1): %d hexes, want 3 (0101, 0102, 0201)", n)
	}
	if got := m.Within(geom.Pt(40, 40), 2); got != nil {
		t.Errorf("Within off the map = %v", got)
	}
	if got := m.Within(corner, -1); got != nil {
		t.Errorf("Within with a negative radius = %v", got)
	}
}
