// Package vmod reads the board of a VASSAL module (a .vmod: a ZIP holding
// buildFile.xml and images/) into a hex map document of the scenario
// format: the board's image as the map's backdrop and its hex grid as the
// map's columns, rows and layout, with the grid's numbers (x0, y0, dx,
// dy) placing each hex of the map on the image where VASSAL centres it
// (issue 35). Everything is read from memory: nothing in the archive
// names a file here.
package vmod

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"orderly/geom/hex"
	"orderly/strict"
)

// Bounds of a module.
const (
	MaxModule  = 64 << 20   // bytes of the .vmod
	MaxEntries = 20000      // entries in the ZIP
	MaxBuild   = 8 << 20    // bytes of buildFile.xml
	MaxDepth   = 100        // nesting of its elements
	MaxTokens  = 500_000    // XML tokens read
	MaxEntry   = 48 << 20   // bytes of the board's image as stored
	MaxPixels  = 25_000_000 // pixels of an image decoded to be scaled (some 200 MB of memory while it is)
	// MaxImage and MaxSide bound the image the map carries, as the
	// scenario format does (battle.MaxImage, and 8192 pixels a side): a
	// larger board image is scaled down to fit.
	MaxImage = 4 << 20
	MaxSide  = 8192
)

// Map is a hex map document (the scenario format's map) with its image.
type Map struct {
	Columns int    `json:"columns" yaml:"columns"`
	Rows    int    `json:"rows" yaml:"rows"`
	Layout  string `json:"layout" yaml:"layout"`
	First   int    `json:"first" yaml:"first"`
	Digits  int    `json:"digits" yaml:"digits"`
	Image   *Image `json:"image" yaml:"image"`
}

// Image is the map's backdrop (the format's map.image): the image as a
// data URL, and the grid on it in the image's pixels: the centre of the
// first hex (x0, y0) and the steps between centres (dx, dy; see the
// format: in q layouts dx is between columns and dy down a column, in r
// layouts dx is along a row and dy between rows).
type Image struct {
	Data string  `json:"data" yaml:"data"`
	X0   float64 `json:"x0" yaml:"x0"`
	Y0   float64 `json:"y0" yaml:"y0"`
	DX   float64 `json:"dx" yaml:"dx"`
	DY   float64 `json:"dy" yaml:"dy"`

	Type          string `json:"-" yaml:"-"` // image/png, image/jpeg or image/gif
	Width, Height int    `json:"-" yaml:"-"` // pixels
	Bytes         []byte `json:"-" yaml:"-"`
	Scaled        bool   `json:"-" yaml:"-"` // scaled down from the module's
}

// Module is what Read makes of a module.
type Module struct {
	// Board is the name of the board read.
	Board string
	// Boards lists the names of the module's boards with a hex grid, in
	// the order of buildFile.xml.
	Boards []string
	Map    *Map
}

// board is a board of buildFile.xml.
type board struct {
	name, image string
	grid        *grid
}

// grid is a HexGrid's attributes as VASSAL reads them.
type grid struct {
	x0, y0, dx, dy float64
	sideways       bool
}

// Read reads the board named want of the module data (the first board
// with a hex grid when want is empty). Every refusal is one sentence
// saying what is wrong and what is allowed.
func Read(data []byte, want string) (*Module, error) {
	if len(data) > MaxModule {
		return nil, fmt.Errorf("the module is %d bytes; allowed: at most %d", len(data), MaxModule)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("the module does not read as a ZIP archive (a .vmod is one): %v", err)
	}
	if len(zr.File) > MaxEntries {
		return nil, fmt.Errorf("the module has %d entries; allowed: at most %d", len(zr.File), MaxEntries)
	}
	build := entry(zr, "buildFile.xml")
	if build == nil {
		build = entry(zr, "buildFile")
	}
	if build == nil {
		return nil, errors.New("the module has no buildFile.xml (nor buildFile); is it a VASSAL module?")
	}
	xmlText, err := readEntry(build, MaxBuild)
	if err != nil {
		return nil, err
	}
	boards, err := readBoards(xmlText)
	if err != nil {
		return nil, err
	}
	var with []board
	for _, b := range boards {
		if b.grid != nil {
			with = append(with, b)
		}
	}
	m := &Module{}
	for _, b := range with {
		m.Boards = append(m.Boards, b.name)
	}
	if len(with) == 0 {
		if len(boards) == 0 {
			return nil, errors.New("the module has no board; a board with a hex grid is needed")
		}
		return nil, fmt.Errorf("no board of the module has a hex grid (boards: %s); a board with a hex grid is needed", names(boards))
	}
	pick := with[0]
	if want != "" {
		i := slices.IndexFunc(with, func(b board) bool { return b.name == want })
		if i < 0 {
			return nil, fmt.Errorf("the module has no board %s with a hex grid; allowed: %s", strict.Quote(want, 60), names(with))
		}
		pick = with[i]
	}
	m.Board = pick.name
	if pick.image == "" {
		return nil, fmt.Errorf("board %s has no image; a board with an image is needed", strict.Quote(pick.name, 60))
	}
	f := entry(zr, "images/"+pick.image)
	if f == nil {
		return nil, fmt.Errorf("board %s names the image %s, which the module does not hold under images/", strict.Quote(pick.name, 60), strict.Quote(pick.image, 60))
	}
	raw, err := readEntry(f, MaxEntry)
	if err != nil {
		return nil, err
	}
	img, err := fit(raw)
	if err != nil {
		return nil, fmt.Errorf("board %s: %w", strict.Quote(pick.name, 60), err)
	}
	g := pick.grid.scaled(float64(img.Width)/float64(img.srcW), float64(img.Height)/float64(img.srcH))
	mp, err := g.hexMap(float64(img.Width), float64(img.Height))
	if err != nil {
		return nil, fmt.Errorf("board %s: %w", strict.Quote(pick.name, 60), err)
	}
	mp.Image.Data = "data:" + img.Type + ";base64," + base64.StdEncoding.EncodeToString(img.data)
	mp.Image.Type, mp.Image.Width, mp.Image.Height, mp.Image.Bytes = img.Type, img.Width, img.Height, img.data
	mp.Image.Scaled = img.Width != img.srcW || img.Height != img.srcH
	m.Map = mp
	return m, nil
}

// names lists boards' names for a message.
func names(bs []board) string {
	var out []string
	for _, b := range bs {
		out = append(out, strict.Quote(b.name, 60))
		if len(out) == 20 {
			out = append(out, "...")
			break
		}
	}
	return strings.Join(out, ", ")
}

// entry is the archive's file name, or nil.
func entry(zr *zip.Reader, name string) *zip.File {
	for _, f := range zr.File {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// readEntry reads a file of the archive, at most max bytes whatever its
// header says.
func readEntry(f *zip.File, max int64) ([]byte, error) {
	if f.UncompressedSize64 > uint64(max) {
		return nil, fmt.Errorf("the module's %s is %d bytes; allowed: at most %d", strict.Quote(f.Name, 60), f.UncompressedSize64, max)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("the module's %s cannot be read: %v", strict.Quote(f.Name, 60), err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		return nil, fmt.Errorf("the module's %s cannot be read: %v", strict.Quote(f.Name, 60), err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("the module's %s is more than %d bytes; allowed: at most %d", strict.Quote(f.Name, 60), max, max)
	}
	return data, nil
}

// readBoards reads the boards of buildFile.xml, each with its hex grid:
// a HexGrid (or a module's own kind of one, whose element's name ends in
// HexGrid) directly under the board, or under the board's ZonedGrid as
// its background grid. A grid of a zone is the zone's, not the board's.
func readBoards(text []byte) ([]board, error) {
	dec := xml.NewDecoder(bytes.NewReader(text))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	dec.CharsetReader = func(charset string, in io.Reader) (io.Reader, error) { return in, nil }
	var stack []string
	var boards []board
	cur := -1 // index of the board being read
	for n := 0; ; n++ {
		if n > MaxTokens {
			return nil, fmt.Errorf("buildFile.xml has more than %d XML tokens; allowed: at most %d", MaxTokens, MaxTokens)
		}
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("buildFile.xml does not read as XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			stack = append(stack, name)
			if len(stack) > MaxDepth {
				return nil, fmt.Errorf("buildFile.xml nests elements more than %d deep; allowed: at most %d", MaxDepth, MaxDepth)
			}
			switch {
			case isBoard(name):
				boards = append(boards, board{name: attr(t, "name"), image: attr(t, "image")})
				cur = len(boards) - 1
			case strings.HasSuffix(name, "HexGrid") && cur >= 0 && boards[cur].grid == nil && underBoard(stack[:len(stack)-1]):
				g, err := readGrid(t)
				if err != nil {
					return nil, fmt.Errorf("board %s: %w", strict.Quote(boards[cur].name, 60), err)
				}
				boards[cur].grid = g
			}
		case xml.EndElement:
			if len(stack) > 0 {
				if isBoard(stack[len(stack)-1]) {
					cur = -1
				}
				stack = stack[:len(stack)-1]
			}
		}
	}
	return boards, nil
}

// isBoard reports whether an element is a board.
func isBoard(name string) bool {
	return name == "VASSAL.build.module.map.boardPicker.Board" || name == "Board" || strings.HasSuffix(name, ".Board")
}

// underBoard reports whether the element under the stack's end is the
// board's own grid: the board is its parent, or its parent is a
// ZonedGrid whose parent is the board.
func underBoard(stack []string) bool {
	n := len(stack)
	switch {
	case n >= 1 && isBoard(stack[n-1]):
		return true
	case n >= 2 && strings.HasSuffix(stack[n-1], "ZonedGrid") && isBoard(stack[n-2]):
		return true
	}
	return false
}

// attr is an attribute's value, or "".
func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// readGrid reads a HexGrid's attributes, with VASSAL's defaults for those
// left out: the first centre at (0, 32), dy 64 and, when dx is not given,
// dx the width of a regular hex of height dy (dy times the square root of
// 3, halved), as VASSAL sets it.
func readGrid(t xml.StartElement) (*grid, error) {
	g := &grid{x0: 0, y0: 32, dy: 64}
	dx := math.NaN()
	for _, a := range t.Attr {
		var err error
		switch a.Name.Local {
		case "x0":
			g.x0, err = number(a.Value, "x0")
		case "y0":
			g.y0, err = number(a.Value, "y0")
		case "dx":
			dx, err = number(a.Value, "dx")
		case "dy":
			g.dy, err = number(a.Value, "dy")
		case "sideways":
			g.sideways = strings.EqualFold(strings.TrimSpace(a.Value), "true")
		}
		if err != nil {
			return nil, err
		}
	}
	g.dx = dx
	if math.IsNaN(dx) {
		g.dx = math.Sqrt(3) / 2 * g.dy
	}
	if g.dx < 2 || g.dy < 2 || g.dx > 10000 || g.dy > 10000 {
		return nil, fmt.Errorf("its hex grid has dx %s and dy %s pixels; allowed: 2 to 10000 each", num(g.dx), num(g.dy))
	}
	return g, nil
}

// number reads a number attribute.
func number(s, name string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e6 {
		return 0, fmt.Errorf("its hex grid's %s is %s; allowed: a number", name, strict.Quote(s, 30))
	}
	return x, nil
}

// num writes a number briefly.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// scaled is the grid on an image scaled by sx across and sy down.
func (g grid) scaled(sx, sy float64) grid {
	if g.sideways {
		// The grid's x runs down the image and its y across.
		sx, sy = sy, sx
	}
	g.x0, g.dx = g.x0*sx, g.dx*sx
	g.y0, g.dy = g.y0*sy, g.dy*sy
	return g
}

// edge is how far outside the image a hex's centre may lie and still be
// on the map: VASSAL puts centres on whole pixels.
const edge = 1.0

// hexMap is the map of the hexes whose centres lie on an image of w by h
// pixels.
//
// VASSAL's HexGrid numbers hexes by raw column i and row j from the hex
// centred at (x0, y0): hex (i, j) is centred at x0 + i*dx across and
// y0 + j*dy down, and half of dy lower again when i is odd (a column i
// with i%2 != 0 in Java, negative odd columns too), so its hexes are
// flat-topped in columns. A sideways grid is the same with the image's
// across and down exchanged: its hexes are pointy-topped in rows, row i
// of them centred x0 + i*dx down the image, and odd rows half of dy to
// the east. VASSAL rounds each centre down to a whole pixel; the map here
// keeps the exact numbers, so its centres lie within a pixel of
// VASSAL's.
func (g grid) hexMap(w, h float64) (*Map, error) {
	across, down := w, h
	if g.sideways {
		across, down = h, w
	}
	i0 := int(math.Ceil((-edge - g.x0) / g.dx))
	i1 := int(math.Floor((across + edge - g.x0) / g.dx))
	if i1 < i0 {
		return nil, errors.New("no column of its hex grid lies on the image")
	}
	// Rows whose centres lie on the image in every column: in even
	// columns and, half of dy lower, in odd ones.
	j0, j1 := math.MinInt, math.MaxInt
	for i := i0; i <= min(i1, i0+1); i++ {
		shift := 0.0
		if odd(i) {
			shift = g.dy / 2
		}
		j0 = max(j0, int(math.Ceil((-edge-g.y0-shift)/g.dy)))
		j1 = min(j1, int(math.Floor((down+edge-g.y0-shift)/g.dy)))
	}
	if j1 < j0 {
		return nil, errors.New("no row of its hex grid lies on the image")
	}
	lines, steps := i1-i0+1, j1-j0+1
	first := &Image{
		X0: g.x0 + float64(i0)*g.dx,
		Y0: g.y0 + float64(j0)*g.dy,
		DX: g.dx, DY: g.dy,
	}
	if odd(i0) {
		first.Y0 += g.dy / 2
	}
	m := &Map{First: 1, Image: first}
	if g.sideways {
		m.Columns, m.Rows = steps, lines
		m.Layout = "odd-r"
		if odd(i0) {
			m.Layout = "even-r"
		}
		first.X0, first.Y0 = first.Y0, first.X0
		first.DX, first.DY = g.dy, g.dx
	} else {
		m.Columns, m.Rows = lines, steps
		m.Layout = "odd-q"
		if odd(i0) {
			m.Layout = "even-q"
		}
	}
	m.Digits = 2
	if max(m.Columns, m.Rows) > 99 {
		m.Digits = 3
	}
	if max(m.Columns, m.Rows) > hex.MaxSide || m.Columns*m.Rows > hex.MaxCells {
		return nil, fmt.Errorf("its hex grid has %d columns by %d rows on the image; allowed: at most %d a side and %d hexes", m.Columns, m.Rows, hex.MaxSide, hex.MaxCells)
	}
	return m, nil
}

// odd reports whether raw column i is one VASSAL shifts: i%2 != 0.
func odd(i int) bool { return i%2 != 0 }

// sniff is the type of an image's bytes, or "".
func sniff(data []byte) string {
	switch t := http.DetectContentType(data); t {
	case "image/png", "image/jpeg", "image/gif":
		return t
	}
	return ""
}
