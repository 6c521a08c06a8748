package terrain

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"orderly/geom/hex"
	"orderly/strict"
)

// Text is the terrain of a map as a designer types it.
type Text struct {
	// Terrain is a grid of letters (Kinds.Hexes), a line for each row of
	// the map from the first, a letter for each column; spaces between
	// letters are ignored. Empty: every hex has the first terrain.
	Terrain string
	// Elevation is a grid of digits 0..9 laid out the same. Empty: every
	// hex is at level 0.
	Elevation string
	// Sides lists, for each hexside feature, the hexsides that carry it:
	// pairs of neighbouring hexes' labels such as 0412/0413, separated by
	// spaces or commas.
	Sides map[string]string
	// Roads lists, for each kind of road, its chains: each the labels of
	// hexes along the road, each a neighbour of the one before.
	Roads map[string][]string
}

// Error is a problem in the text form: the field it is in (terrain,
// elevation, hexsides.stream, roads.major-road[2]), the line of that
// field's text it is on (counted from 0; -1 when it is not one line), and
// what is wrong.
type Error struct {
	Field string
	Line  int
	Msg   string
}

func (e *Error) Error() string { return e.Field + ": " + e.Msg }

// MaxItems bounds the hexsides of one feature and the hexes of one road
// chain, and MaxChains the chains of one kind of road: far above a printed
// map, so that no text makes the reader loop without end.
const (
	MaxItems  = 1 << 16
	MaxChains = 1 << 12
)

// Parse reads the terrain of grid from its text form, allowing what k
// lists. Every problem is one sentence naming the row and column, or the
// hexside or road, and what is allowed.
func Parse(grid hex.Map, k Kinds, t Text) (*Map, error) {
	m, err := New(grid, k)
	if err != nil {
		return nil, err
	}
	letters := map[rune]int{}
	for i, h := range k.Hexes {
		letters[h.Letter] = i
	}
	if err := m.grid("terrain", t.Terrain, func(i int, r rune) string {
		v, ok := letters[r]
		if !ok {
			return fmt.Sprintf("%q is not a terrain letter; allowed: %s", r, k.Legend())
		}
		m.cells[i].terrain = uint8(v)
		return ""
	}); err != nil {
		return nil, err
	}
	if err := m.grid("elevation", t.Elevation, func(i int, r rune) string {
		if r < '0' || r > '9' {
			return fmt.Sprintf("%q is not an elevation; allowed: a digit 0..9", r)
		}
		m.cells[i].level = int8(r - '0')
		return ""
	}); err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(t.Sides) {
		f := slices.Index(k.Sides, name)
		field := "hexsides." + name
		if f < 0 {
			return nil, &Error{"hexsides", -1, fmt.Sprintf("%s is not a hexside feature; allowed: %s", strict.Quote(name, 40), strings.Join(k.Sides, ", "))}
		}
		if err := m.sides(field, t.Sides[name], f); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(t.Roads) {
		r := slices.Index(k.Roads, name)
		if r < 0 {
			return nil, &Error{"roads", -1, fmt.Sprintf("%s is not a kind of road; allowed: %s", strict.Quote(name, 40), strings.Join(k.Roads, ", "))}
		}
		chains := t.Roads[name]
		if len(chains) > MaxChains {
			return nil, &Error{"roads." + name, -1, fmt.Sprintf("%d chains are too many; allowed: at most %d", len(chains), MaxChains)}
		}
		for c, chain := range chains {
			if err := m.road(fmt.Sprintf("roads.%s[%d]", name, c), chain, r); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// grid reads a grid of one character a hex; set takes each and says what
// is wrong with it, if anything. An empty text leaves the map as it is.
func (m *Map) grid(field, text string, set func(i int, r rune) string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	lines := strings.Split(strings.TrimRight(text, "\n\t\r "), "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	lines = lines[first:]
	cols, rows := m.Grid.Columns, m.Grid.Rows
	l := m.Grid.Layout
	if len(lines) != rows {
		return &Error{field, -1, fmt.Sprintf("%d lines, but the map has %d rows; write a line of %d for each row, the first row first", len(lines), rows, cols)}
	}
	for row, line := range lines {
		if !utf8.ValidString(line) {
			return &Error{field, first + row, fmt.Sprintf("row %s is not valid text", l.RowName(row))}
		}
		var got []rune
		for _, r := range line {
			if r != ' ' && r != '\t' && r != '\r' {
				got = append(got, r)
			}
			if len(got) > cols {
				break
			}
		}
		if len(got) != cols {
			n := fmt.Sprint(len(got))
			if len(got) > cols {
				n = "more than " + fmt.Sprint(cols)
			}
			return &Error{field, first + row, fmt.Sprintf("row %s has %s hexes, but the map has %d columns", l.RowName(row), n, cols)}
		}
		for col, r := range got {
			i := row*cols + col
			if msg := set(i, r); msg != "" {
				return &Error{field, first + row, fmt.Sprintf("hex %s (row %s, column %s): %s", m.Label(i), l.RowName(row), l.ColumnName(col), msg)}
			}
		}
	}
	return nil
}

// items splits a list of labels or pairs, refusing one too long.
func items(field, text string) ([]string, error) {
	f := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\t' || r == '\r' })
	if len(f) > MaxItems {
		return nil, &Error{field, -1, fmt.Sprintf("%d items are too many; allowed: at most %d", len(f), MaxItems)}
	}
	return f, nil
}

// parseHex reads a label of the map.
func (m *Map) parseHex(label string) (int, error) {
	p, err := m.Grid.Parse(label)
	if err != nil {
		return 0, err
	}
	i, _ := m.At(p)
	return i, nil
}

// sides reads the hexsides of feature f.
func (m *Map) sides(field, text string, f int) error {
	list, err := items(field, text)
	if err != nil {
		return err
	}
	for _, it := range list {
		a, b, ok := strings.Cut(it, "/")
		if !ok {
			return &Error{field, -1, fmt.Sprintf("%q is not a hexside; write the two hexes' labels with a / between, such as 0412/0413", strict.Clip(it, 20))}
		}
		i, err := m.parseHex(a)
		if err != nil {
			return &Error{field, -1, fmt.Sprintf("hexside %s: %v", strict.Clip(it, 20), err)}
		}
		j, err := m.parseHex(b)
		if err != nil {
			return &Error{field, -1, fmt.Sprintf("hexside %s: %v", strict.Clip(it, 20), err)}
		}
		d := m.Dir(i, j)
		if d < 0 {
			return &Error{field, -1, fmt.Sprintf("hexside %s: hexes %s and %s do not touch, so they share no hexside", it, m.Label(i), m.Label(j))}
		}
		if k := m.Kinds; k.Steep != "" && k.Sides[f] == k.Steep && m.Level(i) == m.Level(j) {
			return &Error{field, -1, fmt.Sprintf("hexside %s: both hexes are at elevation %d, and a %s lies between two levels; raise one in elevation", it, m.Level(i), k.Steep)}
		}
		m.AddFeature(i, d, f)
	}
	return nil
}

// road reads one chain of road r.
func (m *Map) road(field, chain string, r int) error {
	list, err := items(field, chain)
	if err != nil {
		return err
	}
	if len(list) < 2 {
		return &Error{field, -1, fmt.Sprintf("a road runs through at least 2 hexes, got %d; list the labels of its hexes in order, such as \"0101 0102 0203\"", len(list))}
	}
	prev := -1
	for n, it := range list {
		i, err := m.parseHex(it)
		if err != nil {
			return &Error{field, -1, fmt.Sprintf("hex %d of the road: %v", n+1, err)}
		}
		if prev >= 0 {
			d := m.Dir(prev, i)
			if d < 0 {
				return &Error{field, -1, fmt.Sprintf("hex %d of the road, %s, does not touch %s before it; a road is a chain of neighbouring hexes", n+1, m.Label(i), m.Label(prev))}
			}
			m.AddRoad(prev, d, r)
		}
		prev = i
	}
	return nil
}
