package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"orderly/server"
)

// A map people can read (issue 15, part 4): every rule set's demo, for
// the umpire and a side, on a laptop (1280x800), a small laptop
// (1024x768) and a 10" tablet held upright (768x1024, touch), each
// screenshot as readable-RULES-SEAT-WxH.png and checked from the DOM:
//   - no two visible labels overlap (getBoundingClientRect of each);
//   - no control (the map tools, the hint, the unit card, a banner, the
//     key under the map) covers a piece's centre, and every piece is on
//     the map shown;
//   - every piece's hit target is at least 24 px square, on the tablet
//     zoomed all the way out too;
//   - a side sees its own base edge at the bottom: its own pieces lie in
//     the bottom half of the map on average (the umpire: north at the top);
//     every text on the map reads upright;
//   - no position shown has more than one decimal (a piece moved to
//     (26.04, 29.97) reads (26, 30));
//   - on the tablet, zoomed in until the units' ids and the hexes'
//     numbers show, labels still do not overlap and text reads upright;
//   - NB's umpire: a refusal's banner lies in the side panel (over no
//     piece, nor the panel's tabs) and clears when the next step begins.
//
// TestReadableSheet checks the printed order sheet: grid squares on a
// table, hex labels on a hex map.

// readableSize is a window the map is checked in.
type readableSize struct {
	w, h  int
	touch bool
}

var readableSizes = []readableSize{{1280, 800, false}, {1024, 768, false}, {768, 1024, true}}

// mapReport is what the page shows, as readableJS measures it.
type mapReport struct {
	Zoom     string                `json:"zoom"`
	Labels   int                   `json:"labels"`
	Overlaps []string              `json:"overlaps"`
	Pieces   int                   `json:"pieces"`
	Covered  []string              `json:"covered"`
	Offmap   []string              `json:"offmap"`
	Small    []string              `json:"small"`
	Tilted   []string              `json:"tilted"`
	Decimals []string              `json:"decimals"`
	Mean     map[string][2]float64 `json:"mean"` // each side's pieces' mean centre, as fractions of the map's width and height
	Card     bool                  `json:"card"`
}

// readableJS measures the page for mapReport.
const readableJS = `(() => {
	const out = { zoom: '', labels: 0, overlaps: [], pieces: 0, covered: [], offmap: [], small: [], tilted: [], decimals: [], mean: {}, card: false };
	const svg = document.getElementById('map');
	out.zoom = svg.dataset.zoom || '';
	const mr = svg.getBoundingClientRect();
	const shown = (el) => {
		if (!el || !el.getClientRects().length) return false;
		for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
			const cs = getComputedStyle(e);
			if (cs.display === 'none' || cs.visibility === 'hidden' || Number(cs.opacity) === 0) return false;
		}
		return true;
	};
	const onMap = (r) => r.right > mr.left && r.left < mr.right && r.bottom > mr.top && r.top < mr.bottom;
	const name = (el) => (el.textContent || '').trim().slice(0, 40);
	// Labels: every visible one on the map shown, none over another.
	const labels = [...svg.querySelectorAll('.lbl')].filter((el) => shown(el) && name(el)).map((el) => ({ el, r: el.getBoundingClientRect() }))
		.filter((l) => l.r.width > 0 && l.r.height > 0 && onMap(l.r));
	out.labels = labels.length;
	for (let i = 0; i < labels.length; i++) {
		for (let j = i + 1; j < labels.length; j++) {
			const a = labels[i].r, b = labels[j].r;
			const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left), dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
			if (dx > 0.5 && dy > 0.5 && out.overlaps.length < 20) out.overlaps.push(name(labels[i].el) + ' / ' + name(labels[j].el) + ' (' + dx.toFixed(1) + 'x' + dy.toFixed(1) + ' px)');
		}
	}
	// Text reads upright on the screen.
	for (const el of svg.querySelectorAll('text')) {
		if (!shown(el) || !name(el)) continue;
		const m = el.getScreenCTM();
		if (m && (Math.abs(m.b) > 1e-6 || Math.abs(m.c) > 1e-6 || m.a <= 0) && out.tilted.length < 20) out.tilted.push(name(el));
	}
	// Pieces: their centres clear of every control, their hit targets.
	const controls = [...document.querySelectorAll('.map-tools, #map-hint, #selection, #banner, .map-foot, .tool, .panel')].filter(shown).map((el) => ({ el, r: el.getBoundingClientRect() }));
	out.card = shown(document.getElementById('selection'));
	const sums = {};
	for (const p of svg.querySelectorAll('#viewport [data-unit], #viewport [data-general], #viewport [data-messenger], #viewport [data-hq]')) {
		if (!shown(p)) continue;
		const kind = p.dataset.unit ? 'unit' : p.dataset.general ? 'general' : p.dataset.messenger ? 'messenger' : 'hq';
		const id = p.dataset[kind];
		const body = p.querySelector('.body, .box, .ring, .hx-flag') || p;
		const r = body.getBoundingClientRect();
		const c = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
		out.pieces++;
		const what = kind + ' ' + id;
		if (c.x < mr.left || c.x > mr.right || c.y < mr.top || c.y > mr.bottom) { out.offmap.push(what); continue; }
		for (const k of controls) {
			if (c.x >= k.r.left && c.x <= k.r.right && c.y >= k.r.top && c.y <= k.r.bottom) out.covered.push(what + ' under ' + (k.el.id || k.el.className));
		}
		const hits = [...p.querySelectorAll('.hit'), ...svg.querySelectorAll('#layer-hits [data-hit="' + kind + ':' + CSS.escape(id) + '"]')]
			.filter((e) => getComputedStyle(e).pointerEvents !== 'none' && getComputedStyle(e).fill !== 'none').map((e) => e.getBoundingClientRect());
		if (!hits.length) { out.small.push(what + ': no hit area'); } else {
			const u = hits.reduce((a, b) => ({ left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) }));
			const w = u.right - u.left, h = u.bottom - u.top;
			if ((w < 24 || h < 24) && out.small.length < 20) out.small.push(what + ' ' + w.toFixed(1) + 'x' + h.toFixed(1) + ' px');
		}
		const side = p.dataset.side || '';
		if (!side) continue;
		const s = sums[side] || (sums[side] = [0, 0, 0]);
		s[0] += (c.x - mr.left) / mr.width; s[1] += (c.y - mr.top) / mr.height; s[2]++;
	}
	for (const [side, s] of Object.entries(sums)) out.mean[side] = [s[0] / s[2], s[1] / s[2]];
	// Positions and distances for people: at most one decimal.
	const texts = [document.body.innerText, ...[...document.querySelectorAll('#map title, #log, #selection, #sheet-body')].map((e) => e.textContent)];
	for (const t of texts) {
		for (const m of t.matchAll(/\((-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\)|(\d+\.\d{2,})″/g)) {
			if (/\.\d{2,}/.test(m[0]) && out.decimals.length < 10) out.decimals.push(m[0]);
		}
	}
	return out;
})()`

// settle waits until the page has drawn: two frames, and the labels laid
// out for the zoom shown.
func (p *page) settle() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		p.fail("wait for a frame: %v", err)
	}
	p.until("the labels laid out for the zoom", `(() => { const s = document.getElementById('map'); const m = s.getScreenCTM(); return m && Math.abs(m.a - Number(s.dataset.laid)) < 1e-9; })()`)
}

// view saves a screenshot of the window as NAME.png. Unlike shot, it does
// not capture beyond the window: the page is the window's height, and
// capturing beyond it makes Chrome lay the page out at another size for a
// moment, which the map answers by laying its labels out again.
func (p *page) view(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Logf("%s: screenshot %s: %v", p.name, name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(p.dir, name+".png"), buf, 0o644); err != nil {
		p.t.Errorf("save screenshot: %v", err)
	}
}

// report measures the page.
func (p *page) report() mapReport {
	p.t.Helper()
	raw := eval[json.RawMessage](p, readableJS)
	var r mapReport
	if err := json.Unmarshal(raw, &r); err != nil {
		p.fail("the report %s: %v", raw, err)
	}
	return r
}

// readableSeat is a seat of a demo to check: its name in screenshots, its
// token, its side ("" for the umpire) and how its map is turned.
type readableSeat struct {
	name, token, side string
	// north is the side whose pieces the umpire sees at the top (tables);
	// west the side he sees on the left (hex maps).
	north, west string
}

// checkReadable checks a seat's page as it stands.
func checkReadable(t *testing.T, p *page, st readableSeat, where string, fit bool) mapReport {
	t.Helper()
	r := p.report()
	if r.Labels == 0 || r.Pieces == 0 {
		p.fail("%s: the map shows %d labels and %d pieces", where, r.Labels, r.Pieces)
	}
	if len(r.Overlaps) > 0 {
		p.fail("%s: labels overlap (%d shown): %v", where, r.Labels, r.Overlaps)
	}
	if len(r.Tilted) > 0 {
		p.fail("%s: text not upright: %v", where, r.Tilted)
	}
	if len(r.Decimals) > 0 {
		p.fail("%s: positions shown with more than one decimal: %v", where, r.Decimals)
	}
	if !fit {
		return r
	}
	if len(r.Covered) > 0 {
		p.fail("%s: controls cover pieces: %v", where, r.Covered)
	}
	if len(r.Offmap) > 0 {
		p.fail("%s: pieces off the map shown when it is fitted: %v", where, r.Offmap)
	}
	if len(r.Small) > 0 {
		p.fail("%s: hit targets under 24 px: %v", where, r.Small)
	}
	if st.side != "" {
		if m, ok := r.Mean[st.side]; !ok || m[1] <= 0.5 {
			p.fail("%s: the side's own pieces are not in the bottom half of the map (mean centre at %v of its width and height)", where, r.Mean[st.side])
		}
	} else if st.north != "" {
		if m, ok := r.Mean[st.north]; !ok || m[1] >= 0.5 {
			p.fail("%s: the umpire does not see %s (north) at the top (mean centre at %v)", where, st.north, m)
		}
	} else if st.west != "" {
		if m, ok := r.Mean[st.west]; !ok || m[0] >= 0.5 {
			p.fail("%s: the umpire does not see %s (west) on the left (mean centre at %v)", where, st.west, m)
		}
	}
	return r
}

// resize gives the page a window of sz.
func (p *page) resize(sz readableSize) {
	p.t.Helper()
	if sz.touch {
		p.do("resize", chromedp.EmulateViewport(int64(sz.w), int64(sz.h), chromedp.EmulateTouch))
	} else {
		p.do("resize", chromedp.EmulateViewport(int64(sz.w), int64(sz.h)))
	}
	p.until("the map to fill its pane", fmt.Sprintf(`innerWidth === %d && document.getElementById('map').getBoundingClientRect().width > 100`, sz.w))
	p.do("fit the map", chromedp.Click(chromedp.CSS(`[data-map="fit"]`)))
	p.settle()
}

// selectPiece taps one of the seat's pieces (any for the umpire) on a
// table, and waits for its card.
func (p *page) selectPiece(side string, touch bool) {
	p.t.Helper()
	at := eval[[]float64](p, fmt.Sprintf(`(() => { const side = %q;
		const u = [...document.querySelectorAll('#viewport [data-unit]')].find((e) => !side || e.dataset.side === side);
		const r = u.querySelector('.body').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, side))
	if touch {
		p.do("tap a piece", chromedp.TapXY(at[0], at[1]))
	} else {
		p.do("click a piece", chromedp.MouseClickXY(at[0], at[1]))
	}
	p.until("the piece's card", `!document.querySelector('#selection').hidden && document.querySelector('#map .selected')`)
	p.settle()
}

// TestReadableMaps checks every rule set's demo for the umpire and a side
// at three window sizes (see the top of this file).
func TestReadableMaps(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel) // after the demos, which run in parallel
	s := newSite(t, ctx)
	dir := artifacts(t)
	start := time.Now()

	// NB: the move step, a French unit moved to a point in hundredths of
	// an inch (as a drag by hand may leave it), shown in tenths.
	fr, al, um := s.token(t, "side", "french"), s.token(t, "side", "allies"), s.token(t, "umpire", "")
	s.command(t, fr, `{"ready":true}`)
	s.command(t, al, `{"ready":true}`)
	s.command(t, fr, `{"move":{"unit":"F-I-1-a","to":[26.04,29.97]}}`)

	made := map[string]map[string]string{}
	for _, sc := range []string{"bp-demo", "cd-demo", "nes-demo", "lob-demo"} {
		m, err := s.srv.Create(ctx, server.Setup{Scenario: sc})
		if err != nil {
			t.Fatal(err)
		}
		made[sc] = map[string]string{}
		for _, st := range m.Seats {
			made[sc][st.Role+"/"+st.Side] = st.Token
		}
	}
	demos := []struct {
		rules string
		table bool
		seats []readableSeat
	}{
		{"nb", true, []readableSeat{{name: "umpire", token: um, north: "allies"}, {name: "allies", token: al, side: "allies"}}},
		{"bp", true, []readableSeat{{name: "umpire", token: made["bp-demo"]["umpire/"], north: "british"}, {name: "british", token: made["bp-demo"]["side/british"], side: "british"}}},
		{"cd", true, []readableSeat{{name: "umpire", token: made["cd-demo"]["umpire/"], north: "austrian"}, {name: "austrian", token: made["cd-demo"]["side/austrian"], side: "austrian"}}},
		{"nes", false, []readableSeat{{name: "umpire", token: made["nes-demo"]["umpire/"], west: "french"}, {name: "french", token: made["nes-demo"]["side/french"], side: "french"}}},
		{"lob", false, []readableSeat{{name: "umpire", token: made["lob-demo"]["umpire/"], west: "union"}, {name: "confederate", token: made["lob-demo"]["side/confederate"], side: "confederate"}}},
	}
	b := browser(t, ctx, 1280, 800)
	t.Cleanup(func() {
		t.Logf("checked %d demos in %v; screenshots in %s", len(demos), time.Since(start).Round(time.Second), dir)
	})
	for _, d := range demos {
		t.Run(d.rules, func(t *testing.T) {
			t.Parallel() // each demo is a game of its own, in pages of its own
			readableDemo(t, s, b, dir, d.rules, d.table, d.seats, um)
		})
	}
}

// readableDemo checks a demo's seats at every size.
func readableDemo(t *testing.T, s *site, b tablet, dir, rules string, table bool, seats []readableSeat, um string) {
	t.Helper()
	for _, st := range seats {
		p := newPage(t, b, "readable-"+rules+"-"+st.name, dir)
		p.open(s.ts.URL, st.token)
		for _, sz := range readableSizes {
			where := fmt.Sprintf("%s %s %dx%d", rules, st.name, sz.w, sz.h)
			p.resize(sz)
			if table {
				p.selectPiece(st.side, sz.touch)
			}
			r := checkReadable(t, p, st, where, true)
			t.Logf("%s: %d labels, %d pieces, zoom %s: fine", where, r.Labels, r.Pieces, r.Zoom)
			if table && !r.Card {
				p.fail("%s: the selected piece's card is not shown", where)
			}
			p.view(fmt.Sprintf("readable-%s-%s-%dx%d", rules, st.name, sz.w, sz.h))
			if !sz.touch {
				continue
			}
			// On the tablet: zoomed all the way out, every piece keeps
			// a hit target a finger can find; zoomed in (near: the units'
			// ids and the hexes' numbers show), the labels still do not
			// overlap.
			for range 5 {
				p.do("zoom out", chromedp.Click(chromedp.CSS(`[data-map="zoom-out"]`)))
			}
			p.settle()
			if r := p.report(); len(r.Small) > 0 {
				p.fail("%s zoomed out: hit targets under 24 px: %v", where, r.Small)
			}
			p.do("fit", chromedp.Click(chromedp.CSS(`[data-map="fit"]`)))
			for i := 0; i < 8 && !eval[bool](p, `['near', 'close'].includes(document.getElementById('map').dataset.zoom)`); i++ {
				p.do("zoom in", chromedp.Click(chromedp.CSS(`[data-map="zoom-in"]`)))
				p.settle()
			}
			zr := checkReadable(t, p, st, where+" zoomed in", false)
			if zr.Zoom != "near" && zr.Zoom != "close" {
				p.fail("%s: zoomed in, the zoom is still %s", where, zr.Zoom)
			}
			p.view(fmt.Sprintf("readable-%s-%s-%dx%d-zoomed", rules, st.name, sz.w, sz.h))
			p.do("fit", chromedp.Click(chromedp.CSS(`[data-map="fit"]`)))
		}
		if rules == "nb" && st.side == "" {
			readableBanner(t, s, p, um)
		}
		p.checkConsole()
	}
}

// readableBanner: on the laptop a refusal's banner lies over the side
// panel, hiding no piece, and it clears when the next step begins.
func readableBanner(t *testing.T, s *site, p *page, umpire string) {
	t.Helper()
	p.resize(readableSizes[0])
	if got := p.text("#step"); got != "move" {
		p.fail("the NB game is in the %s step, want move", got)
	}
	from := p.pieceAt(`#map [data-unit="F-I-1-b"]`)
	a, b := p.screenOf(from[0], from[1]), p.screenOf(from[0], 51)
	p.do("drag F-I-1-b off the table", chromedp.DragAndDropXY(a[0], a[1], b[0], b[1], 12))
	p.until("the refusal", `!document.querySelector('#banner').hidden`)
	p.settle()
	if r := checkReadable(t, p, readableSeat{name: "umpire", north: "allies"}, "nb umpire with a banner", true); len(r.Covered) > 0 {
		p.fail("the banner covers pieces: %v", r.Covered)
	}
	if eval[bool](p, `(() => { const a = document.querySelector('#banner').getBoundingClientRect(), b = document.querySelector('.tabs').getBoundingClientRect();
		return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; })()`) {
		p.fail("the banner covers the panel's tabs")
	}
	p.view("readable-nb-umpire-banner")
	s.command(t, umpire, `{"end":true}`)
	p.until("the banner to clear at the next step", `document.querySelector('#banner').hidden && document.querySelector('#step').textContent !== 'move'`)
}

// TestReadableSheet: the printed order sheet reads without the screen:
// an NB objective with its grid square, where each commander stands (his
// square); on a hex map, the hex each leader stands in.
func TestReadableSheet(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	m, err := s.srv.Create(ctx, server.Setup{Scenario: "lob-demo"})
	if err != nil {
		t.Fatal(err)
	}
	lob := ""
	for _, st := range m.Seats {
		if st.Side == "union" {
			lob = st.Token
		}
	}
	s.command(t, s.token(t, "side", "french"), `{"write":{"for":["F-I"],"kind":"attack","objective":[30,20]}}`)
	b := browser(t, ctx, 1024, 768)
	for _, c := range []struct {
		name, token, row, want string
	}{
		{"french", s.token(t, "side", "french"), `#sheet tr[data-order="french-5"]`, `(30, 20) · C2`},
		{"union", lob, `#sheet tr[data-where]`, ``},
	} {
		p := newPage(t, b, "sheet-"+c.name, dir)
		p.open(s.ts.URL, c.token)
		p.do("open the sheet", chromedp.Click(chromedp.ID("print-orders")))
		p.until("the sheet", `!document.querySelector('#sheet').hidden && document.querySelector('`+c.row+`')`)
		if c.want != "" && !strings.Contains(p.text(c.row), c.want) {
			p.fail("the order's row %q lacks %q", p.text(c.row), c.want)
		}
		where := eval[[]string](p, `[...document.querySelectorAll('#sheet tr[data-where]')].map((tr) => [...tr.cells].map((td) => td.textContent).join('|'))`)
		if len(where) == 0 {
			p.fail("the sheet does not say where the commanders stand")
		}
		for _, w := range where {
			cells := strings.Split(w, "|")
			last := cells[len(cells)-1]
			ok := false
			if c.name == "french" {
				ok = len(last) == 2 && last[0] >= 'A' && last[0] <= 'H' && last[1] >= '1' && last[1] <= '4'
			} else {
				ok = len(last) == 4 && strings.Trim(last, "0123456789") == ""
			}
			if !ok {
				p.fail("the row %q does not end with a %s", w, map[bool]string{true: "grid square", false: "hex label"}[c.name == "french"])
			}
		}
		p.shot("readable-sheet-" + c.name)
		p.checkConsole()
	}
}
