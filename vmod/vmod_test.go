package vmod

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"orderly/geom"
	"orderly/geom/hex"
)

// vassalCentre is where VASSAL's HexGrid centres the hex of raw column i
// and row j (as its hexPointCenterFromRawIndex does: whole pixels,
// truncated, the odd columns half of dy lower), with across and down
// exchanged for a sideways grid. Written here from the formula, to test
// this package against.
func vassalCentre(x0, y0, dx, dy float64, sideways bool, i, j int) (x, y int) {
	x = int(dx*float64(i) + x0)
	if i%2 == 0 {
		y = int(dy*float64(j) + y0)
	} else {
		y = int(dy*float64(j) + float64(int(dy/2)) + y0)
	}
	if sideways {
		x, y = y, x
	}
	return x, y
}

// centre is where the map read puts the centre of the hex of printed
// column c and row r (counted from 0), in the image's pixels: by the
// format's numbers, x0 and y0 the first hex's centre, and its layout: in
// odd-q the second, fourth, ... columns lie half a hex lower than the
// first, in even-q the first, third, ... lower (so the second higher than
// the first); odd-r and even-r the same with rows shifted east.
func centre(m *Map, c, r int) (x, y float64) {
	im := m.Image
	x = im.X0 + float64(c)*im.DX
	y = im.Y0 + float64(r)*im.DY
	half := 0.5
	if strings.HasPrefix(m.Layout, "even") {
		half = -0.5
	}
	switch {
	case strings.HasSuffix(m.Layout, "q") && c%2 == 1:
		y += half * im.DY
	case strings.HasSuffix(m.Layout, "r") && r%2 == 1:
		x += half * im.DX
	}
	return x, y
}

// TestCentresLandOnVassals: for grids upright and sideways, with the
// first hex in an even or an odd raw column, every hex of the map read
// is centred within a pixel of where VASSAL centres the same hex, and
// the map holds exactly the hexes whose centres lie on the image.
func TestCentresLandOnVassals(t *testing.T) {
	for _, c := range []struct {
		x0, y0, dx, dy float64
		sideways       bool
		layout         string
		cols, rows     int
	}{
		{40, 38, 56, 64, false, "odd-q", 7, 4},
		{-16, 38, 56, 64, false, "even-q", 7, 4}, // raw column 0 is off the image: the first is column 1, odd
		{10, 20, 55.4256, 64, false, "odd-q", 8, 4},
		{38, 40, 56, 64, true, "odd-r", 4, 7},
		{-18, 40, 56, 64, true, "even-r", 4, 7}, // raw row 0 is off the image: the first is row 1, odd
	} {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			g := grid{x0: c.x0, y0: c.y0, dx: c.dx, dy: c.dy, sideways: c.sideways}
			w, h := 400.0, 300.0
			if c.sideways {
				w, h = 300, 400
			}
			m, err := g.hexMap(w, h)
			if err != nil {
				t.Fatal(err)
			}
			if m.Layout != c.layout || m.Columns != c.cols || m.Rows != c.rows {
				t.Fatalf("map %s %dx%d, want %s %dx%d", m.Layout, m.Columns, m.Rows, c.layout, c.cols, c.rows)
			}
			// The raw index of the map's first hex: the first whose
			// centre is on the image.
			i0 := int(math.Ceil((-edge - c.x0) / c.dx))
			j0 := -1000
			for j := -50; j < 50 && j0 == -1000; j++ {
				ok := true
				for i := i0; i <= i0+1; i++ {
					x, y := vassalCentre(c.x0, c.y0, c.dx, c.dy, c.sideways, i, j)
					if x < -1 || y < -1 {
						ok = false
					}
				}
				if ok {
					j0 = j
				}
			}
			for col := range m.Columns {
				for row := range m.Rows {
					i, j := i0+col, j0+row
					if c.sideways {
						i, j = i0+row, j0+col
					}
					vx, vy := vassalCentre(c.x0, c.y0, c.dx, c.dy, c.sideways, i, j)
					x, y := centre(m, col, row)
					if math.Abs(x-float64(vx)) > 1 || math.Abs(y-float64(vy)) > 1 {
						t.Errorf("hex %d,%d at (%.1f, %.1f), VASSAL's raw %d,%d at (%d, %d)", col, row, x, y, i, j, vx, vy)
					}
					if x < -1 || y < -1 || x > w+1 || y > h+1 {
						t.Errorf("hex %d,%d at (%.1f, %.1f) is off the image", col, row, x, y)
					}
				}
			}
			// The layout agrees with geom/hex: the map's hexes in its
			// layout are neighbours where their centres are one step apart.
			l, err := hex.ParseOffset(m.Layout)
			if err != nil {
				t.Fatal(err)
			}
			hm, err := hex.NewMap(m.Columns, m.Rows, hex.Layout{Offset: l, First: 1})
			if err != nil {
				t.Fatal(err)
			}
			step := math.Max(c.dx, c.dy) * 1.2
			for col := range m.Columns {
				for row := range m.Rows {
					for col2 := range m.Columns {
						for row2 := range m.Rows {
							x1, y1 := centre(m, col, row)
							x2, y2 := centre(m, col2, row2)
							near := math.Hypot(x1-x2, y1-y2) < step && (col != col2 || row != row2)
							d := hm.Dist(geom.Pt(float64(col+1), float64(row+1)), geom.Pt(float64(col2+1), float64(row2+1)))
							if near != (d == 1) {
								t.Fatalf("hexes %d,%d and %d,%d: centres %.1f apart, distance %v on the map", col, row, col2, row2, math.Hypot(x1-x2, y1-y2), d)
							}
						}
					}
				}
			}
		})
	}
}

// build is a module of boards, each a name, an image's size and a grid
// element (or none).
func build(t testing.TB, boards ...[4]string) []byte {
	t.Helper()
	var xml strings.Builder
	xml.WriteString(`<?xml version="1.0" encoding="UTF-8"?><VASSAL.build.GameModule><VASSAL.build.module.Map><VASSAL.build.module.map.BoardPicker>`)
	files := map[string][]byte{}
	for k, b := range boards {
		var w, h int
		fmt.Sscanf(b[1]+" "+b[2], "%d %d", &w, &h)
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 13), uint8(x ^ y), 255})
			}
		}
		var pic bytes.Buffer
		if err := png.Encode(&pic, img); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("b%d.png", k)
		files["images/"+name] = pic.Bytes()
		fmt.Fprintf(&xml, `<VASSAL.build.module.map.boardPicker.Board image="%s" name="%s">%s</VASSAL.build.module.map.boardPicker.Board>`, name, b[0], b[3])
	}
	xml.WriteString(`</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.build.GameModule>`)
	files["buildFile.xml"] = []byte(xml.String())
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, name := range []string{"buildFile.xml", "images/b0.png", "images/b1.png", "images/b2.png"} {
		if files[name] == nil {
			continue
		}
		fw, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(files[name]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

const hexGrid = `<VASSAL.build.module.map.boardPicker.board.HexGrid dx="56" dy="64" x0="40" y0="38" sideways="false" visible="true"/>`

// TestBoards: the first board with a hex grid is read unless one is named;
// the list names only boards with a grid; a zone's grid is not the
// board's; a named board that is not there is refused with the list.
func TestBoards(t *testing.T) {
	zoned := `<VASSAL.build.module.map.boardPicker.board.ZonedGrid><VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="z">` + hexGrid + `</VASSAL.build.module.map.boardPicker.board.mapgrid.Zone></VASSAL.build.module.map.boardPicker.board.ZonedGrid>`
	bg := `<VASSAL.build.module.map.boardPicker.board.ZonedGrid>` + hexGrid + `</VASSAL.build.module.map.boardPicker.board.ZonedGrid>`
	mod := build(t, [4]string{"Flat", "40", "30", zoned}, [4]string{"North", "400", "300", hexGrid}, [4]string{"South", "200", "300", bg})
	m, err := Read(mod, "")
	if err != nil {
		t.Fatal(err)
	}
	if m.Board != "North" || strings.Join(m.Boards, ",") != "North,South" || m.Map.Columns != 7 || m.Map.Rows != 4 {
		t.Errorf("read %s of %v: %+v", m.Board, m.Boards, m.Map)
	}
	m, err = Read(mod, "South")
	if err != nil || m.Board != "South" || m.Map.Columns != 3 || m.Map.Image.Width != 200 {
		t.Errorf("South: %v %+v", err, m)
	}
	if _, err := Read(mod, "East"); err == nil || err.Error() != `the module has no board "East" with a hex grid; allowed: "North", "South"` {
		t.Errorf("East: %v", err)
	}
	if _, err := Read(build(t, [4]string{"Flat", "40", "30", zoned}), ""); err == nil || err.Error() != `no board of the module has a hex grid (boards: "Flat"); a board with a hex grid is needed` {
		t.Errorf("no grid: %v", err)
	}
}

// TestScaledDown: an image over MaxSide pixels a side is scaled down to
// it, and the grid with it, so that the hexes keep their place on the
// picture.
func TestScaledDown(t *testing.T) {
	if testing.Short() {
		t.Skip("draws a large image")
	}
	mod := build(t, [4]string{"Big", "9000", "300", hexGrid})
	m, err := Read(mod, "")
	if err != nil {
		t.Fatal(err)
	}
	im := m.Map.Image
	if im.Width != MaxSide || im.Height != 273 || !im.Scaled || len(im.Bytes) > MaxImage {
		t.Fatalf("image %dx%d scaled %v, %d bytes", im.Width, im.Height, im.Scaled, len(im.Bytes))
	}
	sx, sy := float64(MaxSide)/9000, 273.0/300
	if math.Abs(im.X0-40*sx) > 1e-9 || math.Abs(im.DX-56*sx) > 1e-9 || math.Abs(im.Y0-38*sy) > 1e-9 || math.Abs(im.DY-64*sy) > 1e-9 {
		t.Errorf("grid %+v, want scaled by %v, %v", im, sx, sy)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(im.Bytes))
	if err != nil || cfg.Width != MaxSide {
		t.Errorf("the image written: %v %+v", err, cfg)
	}
}

// TestBounds: what is too large or not a module is refused in one
// sentence, before it is read whole.
func TestBounds(t *testing.T) {
	zipOf := func(files map[string]string) []byte {
		var out bytes.Buffer
		zw := zip.NewWriter(&out)
		for n, d := range files {
			fw, _ := zw.Create(n)
			_, _ = fw.Write([]byte(d))
		}
		_ = zw.Close()
		return out.Bytes()
	}
	deep := strings.Repeat("<a>", MaxDepth+1) + strings.Repeat("</a>", MaxDepth+1)
	var huge bytes.Buffer // over MaxPixels, and over MaxSide to be scaled
	if err := png.Encode(&huge, image.NewGray(image.Rect(0, 0, 9000, 2800))); err != nil {
		t.Fatal(err)
	}
	entries := map[string]string{}
	for i := range MaxEntries + 1 {
		entries[fmt.Sprint(i)] = ""
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte("not a zip"), "the module does not read as a ZIP archive"},
		{zipOf(map[string]string{"x.txt": "x"}), "the module has no buildFile.xml (nor buildFile)"},
		{zipOf(map[string]string{"buildFile.xml": deep}), "buildFile.xml nests elements more than 100 deep"},
		{zipOf(map[string]string{"buildFile.xml": strings.Repeat(" ", MaxBuild+1)}), `the module's "buildFile.xml" is 8388609 bytes; allowed: at most 8388608`},
		{zipOf(map[string]string{"buildFile": "<Board name='a' image='a.png'>" + hexGrid + "</Board>"}), `board "a" names the image "a.png", which the module does not hold under images/`},
		{zipOf(map[string]string{"buildFile.xml": "<Board name='a' image='a.png'>" + hexGrid + "</Board>", "images/a.png": "<svg/>"}), `board "a": its image is not a PNG, JPEG or GIF`},
		{zipOf(map[string]string{"buildFile.xml": "<Board name='a'><HexGrid dx='0.5'/></Board>"}), `board "a": its hex grid has dx 0.5 and dy 64 pixels; allowed: 2 to 10000 each`},
		{bytes.Repeat([]byte{0}, MaxModule+1), "the module is 67108865 bytes; allowed: at most 67108864"},
		{zipOf(entries), "the module has 20001 entries; allowed: at most 20000"},
		{zipOf(map[string]string{"buildFile.xml": "<Board name='a' image='a.png'>" + hexGrid + "</Board>", "images/a.png": huge.String()}),
			`board "a": its image is 9000 by 2800 pixels, too large to scale here; allowed: at most 25000000 pixels in all`},
	} {
		_, err := Read(c.data, "")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("got %v, want %s...", err, c.want)
		}
	}
}

// FuzzVmod: any bytes are read or refused with one sentence, never a
// panic, and a map read is one the format allows.
func FuzzVmod(f *testing.F) {
	f.Add(build(f, [4]string{"North", "40", "30", hexGrid}))
	f.Add(build(f, [4]string{"S", "30", "40", strings.Replace(hexGrid, `"false"`, `"true"`, 1)}))
	f.Add([]byte("PK"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(data, "")
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("two lines: %v", err)
			}
			return
		}
		if _, err := hex.NewMap(m.Map.Columns, m.Map.Rows, hex.Layout{First: 1, Digits: m.Map.Digits}); err != nil {
			t.Errorf("map %+v: %v", m.Map, err)
		}
		if len(m.Map.Image.Bytes) > MaxImage || m.Map.Image.Width > MaxSide || m.Map.Image.Height > MaxSide {
			t.Errorf("image %dx%d, %d bytes", m.Map.Image.Width, m.Map.Image.Height, len(m.Map.Image.Bytes))
		}
	})
}
