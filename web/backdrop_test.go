package web_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// TestBrowserBackdrop: a game whose scenario has a backdrop image draws
// it under the map, fetched with the seat's token: on a hex map fitted so
// that the image's grid (the first hex's centre x0, y0 and the steps dx,
// dy in its pixels) lies on the page's hexes; on a table at its corner and
// its pixels per inch.
func TestBrowserBackdrop(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1800, 1400))); err != nil {
		t.Fatal(err)
	}
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
	umpire := func(src, file string) string {
		made, err := s.srv.Create(ctx, server.Setup{Source: src, File: file})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range made.Seats {
			if st.Role == "umpire" {
				return st.Token
			}
		}
		t.Fatal("no umpire's seat")
		return ""
	}
	nes, err := os.ReadFile("../examples/nes/nes-demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	hexSrc := strings.Replace(string(nes), "map:\n  columns: 32\n", "map:\n  image: {data: \""+url+"\", x0: 40, y0: 30, dx: 50, dy: 58}\n  columns: 32\n", 1)
	b := browser(t, ctx, 1024, 768)
	p := newPage(t, b, "backdrop", dir)
	p.open(s.ts.URL, umpire(hexSrc, "nes-backdrop.yaml"))
	p.until("the backdrop drawn", `(document.querySelector('#map image.backdrop')?.getAttribute('href') || '').startsWith('blob:')`)
	// Where the image puts the centres of hexes 0101 and 0201 (x0 + dx)
	// and 0102 (y0 + dy), against the page's centres of those hexes.
	got := eval[[]float64](p, `(() => {
	  const im = document.querySelector('#map image.backdrop');
	  const a = (k) => Number(im.getAttribute(k));
	  const kx = a('width') / 1800, ky = a('height') / 1400;
	  const centre = (label) => {
	    const pts = document.querySelector('#map [data-hex="' + label + '"]').getAttribute('points').split(' ').map((p) => p.split(',').map(Number));
	    return [pts.reduce((s, p) => s + p[0], 0) / 6, pts.reduce((s, p) => s + p[1], 0) / 6];
	  };
	  const c1 = centre('0101'), c2 = centre('0201'), c3 = centre('0102');
	  return [a('x') + 40 * kx - c1[0], a('y') + 30 * ky - c1[1], a('x') + 90 * kx - c2[0], a('y') + 88 * ky - c3[1]];
	})()`)
	for i, d := range got {
		if math.Abs(d) > 1e-3 { // the corners are written to 3 decimals
			p.fail("the image's grid is off the page's hexes by %v (check %d of %v)", d, i, got)
		}
	}
	p.shot("backdrop-hex")

	nb, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tableSrc := strings.Replace(string(nb), "grid: {columns: 8, rows: 4}}", "grid: {columns: 8, rows: 4}, image: {data: \""+url+"\", scale: 20, at: [3, 2]}}", 1)
	// Another game in the same page: leave it first, for a join link that
	// differs only in its fragment is not a new page.
	p.do("leave the game", chromedp.Navigate("about:blank"))
	p.open(s.ts.URL, umpire(tableSrc, "nb-backdrop.yaml"))
	p.until("the backdrop drawn on the table", `(document.querySelector('#map image.backdrop')?.getAttribute('href') || '').startsWith('blob:')`)
	if box := eval[[]float64](p, `['x', 'y', 'width', 'height'].map((k) => Number(document.querySelector('#map image.backdrop').getAttribute(k)))`); len(box) != 4 || box[0] != 3 || box[1] != 2 || box[2] != 90 || box[3] != 70 {
		p.fail("the table's backdrop lies at %v, want [3 2 90 70] (1800 by 1400 pixels at 20 an inch)", box)
	}
	p.shot("backdrop-table")
	p.checkConsole()
}
