package hex

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Offset is how a printed map lays its cells out in columns and rows:
// flat-topped hexes in columns with the odd (OddQ) or even (EvenQ)
// columns half a hex lower, or pointy-topped hexes in rows with the odd
// (OddR) or even (EvenR) rows half a hex to the right. Most wargame maps
// are OddQ or EvenQ.
type Offset int

// The offset layouts.
const (
	OddQ Offset = iota
	EvenQ
	OddR
	EvenR
)

var offsetNames = []string{"odd-q", "even-q", "odd-r", "even-r"}

func (o Offset) String() string {
	if o < 0 || int(o) >= len(offsetNames) {
		return fmt.Sprintf("offset(%d)", int(o))
	}
	return offsetNames[o]
}

// Offsets lists the names of the offset layouts, in the order of their
// values: odd-q, even-q, odd-r, even-r.
func Offsets() []string { return slices.Clone(offsetNames) }

// ParseOffset reads an offset layout by name: odd-q, even-q, odd-r, even-r.
func ParseOffset(s string) (Offset, error) {
	for i, n := range offsetNames {
		if s == n {
			return Offset(i), nil
		}
	}
	return 0, fmt.Errorf("hex layout %q is not known; allowed: %s", s, strings.Join(offsetNames, ", "))
}

// Layout is how a map prints its cell labels: the column number then the
// row number, each with Digits digits (0412: column 4, row 12), the first
// column and row numbered First. Axial (0, 0) is the first column's first
// row.
type Layout struct {
	Offset Offset
	First  int // the number of the first column and row: usually 1
	Digits int // digits of each number: usually 2 (0 means 2)
}

// LabelDigits is the digits of each number in a label: Digits, or 2 if
// Digits is 0.
func (l Layout) LabelDigits() int { return l.digits() }

func (l Layout) digits() int {
	if l.Digits <= 0 {
		return 2
	}
	return l.Digits
}

// ToOffset is h's column and row, counted from 0.
func (l Layout) ToOffset(h Hex) (col, row int) {
	switch l.Offset {
	case EvenQ:
		return h.Q, h.R + (h.Q+(h.Q&1))/2
	case OddR:
		return h.Q + (h.R-(h.R&1))/2, h.R
	case EvenR:
		return h.Q + (h.R+(h.R&1))/2, h.R
	}
	return h.Q, h.R + (h.Q-(h.Q&1))/2
}

// FromOffset is the cell at column col and row row, counted from 0.
func (l Layout) FromOffset(col, row int) Hex {
	switch l.Offset {
	case EvenQ:
		return Hex{col, row - (col+(col&1))/2}
	case OddR:
		return Hex{col - (row-(row&1))/2, row}
	case EvenR:
		return Hex{col - (row+(row&1))/2, row}
	}
	return Hex{col, row - (col-(col&1))/2}
}

// Label is the label printed on cell h, or an error if its column or row
// would be numbered below First or need more digits than the layout has.
func (l Layout) Label(h Hex) (string, error) {
	col, row := l.ToOffset(h)
	c, r, d := col+l.First, row+l.First, l.digits()
	max := 1
	for range d {
		max *= 10
	}
	if col < 0 || row < 0 || c >= max || r >= max {
		return "", fmt.Errorf("cell %s is off the printed map: column %d, row %d do not fit %d digits from %d", h, c, r, d, l.First)
	}
	return fmt.Sprintf("%0*d%0*d", d, c, d, r), nil
}

// Parse reads a printed label: the column then the row, Digits digits
// each (0412), or the two numbers with a hyphen between (4-12).
func (l Layout) Parse(label string) (Hex, error) {
	d := l.digits()
	colText, rowText, dashed := strings.Cut(label, "-")
	if !dashed {
		if len(label) != 2*d {
			return Hex{}, fmt.Errorf("hex %q is not a label of %d digits (column then row, e.g. %s) or column-row", clip(label), 2*d, example(d))
		}
		colText, rowText = label[:d], label[d:]
	}
	col, err1 := number(colText)
	row, err2 := number(rowText)
	if err1 != nil || err2 != nil {
		return Hex{}, fmt.Errorf("hex %q is not a label of %d digits (column then row, e.g. %s) or column-row", clip(label), 2*d, example(d))
	}
	if col < l.First || row < l.First {
		return Hex{}, fmt.Errorf("hex %q is off the map: columns and rows are numbered from %d", clip(label), l.First)
	}
	return l.FromOffset(col-l.First, row-l.First), nil
}

func number(s string) (int, error) {
	if s == "" || len(s) > 9 || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("not a number")
	}
	return strconv.Atoi(s)
}

func example(d int) string {
	return fmt.Sprintf("%0*d%0*d", d, 4, d, 12)
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:17] + "..."
	}
	return s
}

// ColumnName is the printed number of column col (counted from 0), such
// as 04.
func (l Layout) ColumnName(col int) string { return fmt.Sprintf("%0*d", l.digits(), col+l.First) }

// RowName is the printed number of row row (counted from 0), such as 12.
func (l Layout) RowName(row int) string { return fmt.Sprintf("%0*d", l.digits(), row+l.First) }
