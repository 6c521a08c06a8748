package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// okabeIto is the Okabe–Ito palette, written out here rather than taken
// from plot.go so that a change of palette there fails the tests.
var okabeIto = []string{"#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}

// legendStroke is the colour of the legend's frame in an SVG chart.
const legendStroke = "#999999"

// rect is an axis-aligned box in the SVG's points, y upwards (the chart
// is drawn under a flip, so paths are in plot coordinates).
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) overlaps(o rect) bool {
	return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1
}

func (r rect) contains(x, y float64) bool {
	return r.x0-0.01 <= x && x <= r.x1+0.01 && r.y0-0.01 <= y && y <= r.y1+0.01
}

// svgPath is one <path> of an SVG chart: its box, its fill ("" when it
// is only stroked) and its stroke.
type svgPath struct {
	box          rect
	fill, stroke string
}

// svgText is one <text>: where it starts, in plot coordinates (its own
// transform flips y back), its size in points and what it says; turned
// tells whether it sits in a rotated group.
type svgText struct {
	x, y   float64
	size   float64
	text   string
	turned string
}

// svgChart is what the tests read back from an SVG file.
type svgChart struct {
	w, h  float64
	paths []svgPath
	texts []svgText
}

var (
	svgSizeRE  = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)
	svgPathRE  = regexp.MustCompile(`<path d="([^"]*)"(?:\s+style="([^"]*)")?`)
	svgTextRE  = regexp.MustCompile(`<text x="([-0-9.e]+)" y="([-0-9.e]+)"[^>]*?font-size:([0-9.]+)px[^>]*>([^<]*)</text>`)
	svgRotRE   = regexp.MustCompile(`<g transform="rotate\(([-0-9.]+)\)">`)
	svgPointRE = regexp.MustCompile(`[ML]([-0-9.e]+),([-0-9.e]+)`)
)

// readSVG parses the parts of an SVG chart written by vgsvg that the
// tests look at.
func readSVG(t *testing.T, file string) svgChart {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	var c svgChart
	m := svgSizeRE.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("%s: no <svg width=... height=...>", file)
	}
	c.w, _ = strconv.ParseFloat(m[1], 64)
	c.h, _ = strconv.ParseFloat(m[2], 64)
	for _, m := range svgPathRE.FindAllStringSubmatch(s, -1) {
		p := svgPath{box: rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}, fill: "#000000"}
		for _, pt := range svgPointRE.FindAllStringSubmatch(m[1], -1) {
			x, _ := strconv.ParseFloat(pt[1], 64)
			y, _ := strconv.ParseFloat(pt[2], 64)
			p.box = rect{math.Min(p.box.x0, x), math.Min(p.box.y0, y), math.Max(p.box.x1, x), math.Max(p.box.y1, y)}
		}
		for _, kv := range strings.Split(m[2], ";") {
			k, v, _ := strings.Cut(kv, ":")
			switch k {
			case "fill":
				p.fill = v
			case "stroke":
				p.stroke = v
			}
		}
		if p.fill == "none" {
			p.fill = ""
		}
		c.paths = append(c.paths, p)
	}
	// Texts, each with the rotation of the group it is in (vgsvg opens a
	// group per rotation and closes it after the text).
	for _, part := range strings.Split(s, "</g>") {
		open := svgRotRE.FindAllStringSubmatchIndex(part, -1)
		for _, m := range svgTextRE.FindAllStringSubmatchIndex(part, -1) {
			x, _ := strconv.ParseFloat(part[m[2]:m[3]], 64)
			y, _ := strconv.ParseFloat(part[m[4]:m[5]], 64)
			size, _ := strconv.ParseFloat(part[m[6]:m[7]], 64)
			turned := ""
			if len(open) > 0 && open[len(open)-1][0] < m[0] {
				r := open[len(open)-1]
				turned = part[r[2]:r[3]]
			}
			c.texts = append(c.texts, svgText{x: x, y: -y, size: size, text: part[m[8]:m[9]], turned: turned})
		}
	}
	return c
}

// bars are the chart's palette-filled rectangles standing on the zero
// line (the bottom most of them share); swatches are the others (the
// legend's).
func (c svgChart) bars() (bars, swatches []svgPath) {
	var filled []svgPath
	bottoms := map[float64]int{}
	for _, p := range c.paths {
		if p.fill != "" && slices.Contains(okabeIto, p.fill) {
			filled = append(filled, p)
			bottoms[p.box.y0]++
		}
	}
	zero, most := 0.0, 0
	for y, n := range bottoms {
		if n > most || n == most && y < zero {
			zero, most = y, n
		}
	}
	for _, p := range filled {
		if p.box.y0 == zero && p.box.y1 > p.box.y0 {
			bars = append(bars, p)
		} else if p.box.y0 != zero {
			swatches = append(swatches, p)
		}
	}
	return bars, swatches
}

// legend is the box of the legend's frame, if there is one.
func (c svgChart) legend(t *testing.T) (rect, bool) {
	t.Helper()
	var frames []rect
	for _, p := range c.paths {
		if p.fill == "" && p.stroke == legendStroke {
			frames = append(frames, p.box)
		}
	}
	if len(frames) > 1 {
		t.Fatalf("%d legend frames", len(frames))
	}
	if len(frames) == 0 {
		return rect{}, false
	}
	return frames[0], true
}

// plotCLI runs orderly with --plot FILE (made in a temporary directory)
// and reads the chart back.
func plotCLI(t *testing.T, name string, args ...string) (svgChart, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	_, errs, st := cli(t, append(args, "--plot", file)...)
	if st != 0 {
		t.Fatalf("orderly %s: status %d: %s", strings.Join(args, " "), st, errs)
	}
	return readSVG(t, file), errs
}

// plotDirect draws a chart with plotBars and reads it back.
func plotDirect(t *testing.T, title string, groups, series []string, values [][]float64) svgChart {
	t.Helper()
	file := filepath.Join(t.TempDir(), "chart.svg")
	var errb bytes.Buffer
	a := &app{out: &bytes.Buffer{}, err: &errb}
	if err := a.plotBars(file, title, groups, series, values); err != nil {
		t.Fatal(err)
	}
	return readSVG(t, file)
}

// chartCases are charts drawn through the command line: a single series,
// groups of few and of many series, long turned labels, and a sim.
var chartCases = []struct {
	name   string
	args   []string
	series int
}{
	{"single", []string{"odds", "nb/order-delay", "nation=french"}, 1},
	{"dice", []string{"odds", "2d6"}, 1},
	{"rating", []string{"odds", "bp/command", "--vary", "rating=5..10"}, 5},
	{"grid", []string{"odds", "nb/order-delay", "--vary", "nation", "--vary", "quality"}, 5},
	{"pool", []string{"odds", "bp/shooting", "--vary", "dice=4,8,12"}, 13},
	{"sim", []string{"sim", demoScenario, "--plan", demoPlan, "--runs", "50"}, 0}, // 0: as many as the note says
}

// TestPlotLegendOutsideBars checks that the legend's frame overlaps no
// bar, holds one swatch and one name per series, lies on the canvas, and
// is left out for a single series: for the charts of the command line and
// for one whose bars all reach the top, so that a legend anywhere over the
// plotting area would cover some.
func TestPlotLegendOutsideBars(t *testing.T) {
	for _, c := range chartCases {
		t.Run(c.name, func(t *testing.T) {
			ch, note := plotCLI(t, c.name+".svg", c.args...)
			n := c.series
			if n == 0 { // sim: the number the note gives
				fmt.Sscanf(note[strings.LastIndex(note, ", ")+2:], "%d series", &n)
			}
			checkLegend(t, ch, n)
		})
	}
	for _, n := range []int{1, 3, 12} {
		t.Run(fmt.Sprintf("tall-%d", n), func(t *testing.T) {
			groups := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
			series := make([]string, n)
			values := make([][]float64, len(groups))
			for j := range series {
				series[j] = fmt.Sprintf("result %d", j+1)
			}
			for i := range groups {
				values[i] = slices.Repeat([]float64{0.5}, n) // 50%: the top of the axis
			}
			checkLegend(t, plotDirect(t, "all bars as tall", groups, series, values), n)
		})
	}
}

// checkLegend checks the legend of a chart of n series.
func checkLegend(t *testing.T, ch svgChart, n int) {
	t.Helper()
	bars, swatches := ch.bars()
	if len(bars) == 0 {
		t.Fatal("no bars found")
	}
	frame, ok := ch.legend(t)
	if n == 1 {
		if ok || len(swatches) > 0 {
			t.Errorf("one series has a legend: frame %v, %d swatches", ok, len(swatches))
		}
		return
	}
	if !ok {
		t.Fatal("no legend frame")
	}
	if frame.x0 < 0 || frame.y0 < 0 || frame.x1 > ch.w || frame.y1 > ch.h {
		t.Errorf("legend %+v is off the %gx%g canvas", frame, ch.w, ch.h)
	}
	for _, b := range bars {
		if b.box.overlaps(frame) {
			t.Errorf("legend %+v covers a bar %+v", frame, b.box)
		}
	}
	if len(swatches) != n {
		t.Errorf("%d swatches for %d series", len(swatches), n)
	}
	for _, s := range swatches {
		if !frame.contains(s.box.x0, s.box.y0) || !frame.contains(s.box.x1, s.box.y1) {
			t.Errorf("swatch %+v outside the legend %+v", s.box, frame)
		}
	}
	var names int
	for _, tx := range ch.texts {
		if frame.contains(tx.x, tx.y) {
			names++
		}
	}
	if names != n {
		t.Errorf("%d names in the legend for %d series", names, n)
	}
}

// TestPlotColours checks that each series has its own fill from the
// Okabe–Ito palette (beyond eight series the fills come round again,
// hatched), that side-by-side bars never share a fill, and that bars are
// outlined.
func TestPlotColours(t *testing.T) {
	for _, c := range chartCases {
		t.Run(c.name, func(t *testing.T) {
			ch, _ := plotCLI(t, c.name+".svg", c.args...)
			for _, p := range ch.paths {
				if p.fill != "" && p.fill != "#FFFFFF" && !slices.Contains(okabeIto, p.fill) {
					t.Errorf("fill %s is not in the Okabe–Ito palette", p.fill)
				}
			}
			bars, swatches := ch.bars()
			// Swatches top to bottom are the series in order.
			slices.SortFunc(swatches, func(a, b svgPath) int { return cmp.Compare(b.box.y1, a.box.y1) })
			fills := map[string]bool{}
			for _, s := range swatches {
				fills[s.fill] = true
			}
			if want := min(len(swatches), len(okabeIto)); len(fills) != want {
				t.Errorf("%d fills for %d series, want %d distinct", len(fills), len(swatches), want)
			}
			for i, s := range swatches {
				hatched := ch.strokesInside(s.box, "#333333")
				if (i >= len(okabeIto)) != (hatched > 0) {
					t.Errorf("series %d (%s): %d hatch lines", i+1, s.fill, hatched)
				}
				if i > 0 && s.fill == swatches[i-1].fill {
					t.Errorf("series %d and %d share %s", i, i+1, s.fill)
				}
			}
			if len(swatches) > 0 {
				for _, b := range bars {
					if !fills[b.fill] {
						t.Errorf("bar fill %s is no series' fill", b.fill)
					}
				}
			}
			slices.SortFunc(bars, func(a, b svgPath) int { return cmp.Compare(a.box.x0, b.box.x0) })
			for i := 1; i < len(bars); i++ {
				if touching := bars[i].box.x0-bars[i-1].box.x1 < 0.01; touching && bars[i].fill == bars[i-1].fill {
					t.Errorf("side-by-side bars at x=%g share %s", bars[i].box.x0, bars[i].fill)
				}
			}
			for _, b := range bars[:min(len(bars), 20)] {
				if b.box.x1-b.box.x0 >= 2 && !ch.outlined(b.box) {
					t.Errorf("bar %+v has no outline", b.box)
				}
			}
		})
	}
}

// strokesInside counts the stroked paths within r other than in colour
// not (the outline).
func (c svgChart) strokesInside(r rect, not string) int {
	n := 0
	for _, p := range c.paths {
		if p.fill == "" && p.stroke != "" && p.stroke != not && r.contains(p.box.x0, p.box.y0) && r.contains(p.box.x1, p.box.y1) {
			n++
		}
	}
	return n
}

// outlined tells whether a thin dark line goes round r.
func (c svgChart) outlined(r rect) bool {
	for _, p := range c.paths {
		if p.fill == "" && p.stroke == "#333333" && math.Abs(p.box.x0-r.x0) < 0.01 && math.Abs(p.box.x1-r.x1) < 0.01 &&
			math.Abs(p.box.y0-r.y0) < 0.01 && math.Abs(p.box.y1-r.y1) < 0.01 {
			return true
		}
	}
	return false
}

// TestPlotSize checks that the canvas widens with the number of groups
// within its bounds, that long labels are turned and short ones not, that
// every font is at least 10 pt, and that a long title wraps within the
// canvas.
func TestPlotSize(t *testing.T) {
	chart := func(groups int, label string, title string) svgChart {
		names := make([]string, groups)
		values := make([][]float64, groups)
		for i := range names {
			names[i] = fmt.Sprintf(label, i+1)
			values[i] = []float64{0.5, 0.3, 0.2}
		}
		return plotDirect(t, title, names, []string{"a", "b", "c"}, values)
	}
	var widths []float64
	for _, n := range []int{1, 4, 12, 24, 48, 400} {
		ch := chart(n, "%d", "t")
		if ch.w < 480 || ch.w > 2000 {
			t.Errorf("%d groups: width %g, want 480..2000", n, ch.w)
		}
		widths = append(widths, ch.w)
	}
	if !slices.IsSorted(widths) || widths[3] <= widths[2] || widths[4] <= widths[3] {
		t.Errorf("widths for 1, 4, 12, 24, 48 and 400 groups: %v; want them growing", widths)
	}

	turned := func(ch svgChart) (n int) {
		for _, tx := range ch.texts {
			if strings.HasPrefix(tx.text, "group") && tx.turned != "" {
				n++
			}
		}
		return n
	}
	if n := turned(chart(6, "group %d", "t")); n != 0 {
		t.Errorf("short labels: %d turned", n)
	}
	if n := turned(chart(30, "group %d with a long name", "t")); n != 30 {
		t.Errorf("long labels: %d of 30 turned", n)
	}

	title := strings.Repeat("a long title of many words ", 12)
	ch := chart(3, "%d", title)
	var lines int
	for _, tx := range ch.texts {
		if tx.size < 10 {
			t.Errorf("%q in %g pt, want at least 10", tx.text, tx.size)
		}
		if tx.size == 13 {
			lines++
			// The title is centred: starting at the margin or further in
			// means it fits.
			if tx.x < 9.99 {
				t.Errorf("title line %q starts at x=%g, off the %g pt canvas", tx.text, tx.x, ch.w)
			}
		}
	}
	if lines < 2 || lines > 3 {
		t.Errorf("the long title takes %d lines; want it wrapped to 2 or 3", lines)
	}
}

// wroteRE is the note --plot writes on standard error.
var wroteRE = regexp.MustCompile(`^wrote the chart to (.+) \(([0-9.]+)x([0-9.]+) pt, (?:([0-9]+)x([0-9]+) px, )?([0-9]+) series\)\n$`)

// TestPlotNote checks that --plot notes on standard error the absolute
// path of the file it wrote (given a relative one), its size and its
// series, and that standard output stays pure JSON with --json.
func TestPlotNote(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	out, errs, st := cli(t, "odds", "bp/command", "--vary", "rating=5..7", "--json", "--plot", "command.svg")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Errorf("stdout is not JSON: %v\n%s", err, out)
	}
	m := wroteRE.FindStringSubmatch(errs)
	if m == nil {
		t.Fatalf("stderr %q is not the note %v", errs, wroteRE)
	}
	if !filepath.IsAbs(m[1]) {
		t.Errorf("the note names %q, not an absolute path", m[1])
	}
	named, err1 := os.Stat(m[1])
	written, err2 := os.Stat(filepath.Join(dir, "command.svg"))
	if err1 != nil || err2 != nil || !os.SameFile(named, written) {
		t.Errorf("the note names %s, the chart is %s (%v, %v)", m[1], filepath.Join(dir, "command.svg"), err1, err2)
	}
	ch := readSVG(t, m[1])
	if w, _ := strconv.ParseFloat(m[2], 64); math.Abs(w-ch.w) > 0.5 {
		t.Errorf("the note gives width %s, the SVG %g", m[2], ch.w)
	}
	if m[6] != "5" {
		t.Errorf("the note gives %s series, want 5", m[6])
	}
}

// TestPlotPNG checks that a .png is a PNG of the size the note gives, at
// 96 pixels to 72 points.
func TestPlotPNG(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dice.png")
	_, errs, st := cli(t, "odds", "2d6", "--plot", file)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("%s does not start with the PNG signature", file)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || format != "png" {
		t.Fatalf("decode: %v, format %q", err, format)
	}
	m := wroteRE.FindStringSubmatch(errs)
	if m == nil || m[4] == "" {
		t.Fatalf("stderr %q is not the note with pixels", errs)
	}
	w, _ := strconv.ParseFloat(m[2], 64)
	h, _ := strconv.ParseFloat(m[3], 64)
	if m[4] != strconv.Itoa(cfg.Width) || m[5] != strconv.Itoa(cfg.Height) {
		t.Errorf("the note gives %sx%s px, the PNG is %dx%d", m[4], m[5], cfg.Width, cfg.Height)
	}
	if math.Abs(float64(cfg.Width)-w*96/72) > 1.5 || math.Abs(float64(cfg.Height)-h*96/72) > 1.5 {
		t.Errorf("%dx%d px for %gx%g pt; want 96 dpi", cfg.Width, cfg.Height, w, h)
	}
	if cfg.Width < 480*96/72 {
		t.Errorf("width %d px, below the least width", cfg.Width)
	}
}
