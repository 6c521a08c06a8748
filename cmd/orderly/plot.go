package main

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// checkPlotFile checks the name given to --plot before any work is done.
func checkPlotFile(name string) error {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".svg", ".png":
		return nil
	}
	return badf("--plot %s: the file must end in .svg or .png", name)
}

// palette is the Okabe–Ito qualitative palette (Okabe and Ito, "Color
// Universal Design", 2002): eight colours that people with any common
// colour-vision deficiency tell apart. The order keeps neighbours far
// apart in hue and lightness, since neighbouring series stand side by
// side in a group of bars.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	{0x00, 0x00, 0x00, 0xFF}, // black
}

// Colours and line widths of the parts of a chart other than the bars.
var (
	outlineStyle = draw.LineStyle{Color: color.Gray{Y: 0x33}, Width: vg.Points(0.5)}
	gridColour   = color.Gray{Y: 0xE0}
	legendFrame  = draw.LineStyle{Color: color.Gray{Y: 0x99}, Width: vg.Points(0.5)}
)

// Sizes of a chart, in points.
const (
	chartMinWidth  = 480  // narrowest canvas
	chartMaxWidth  = 2000 // widest canvas: beyond it the bars get thinner
	chartMaxHeight = 1600 // tallest canvas
	chartDataH     = 260  // least height of the area of the bars
	chartMaxDataH  = 400  // the bars' area is a fifth of the width as tall, up to this
	chartMargin    = 10   // white space around everything
	legendGap      = 16   // between the plotting area and the legend
	legendPad      = 5    // inside the legend's frame
	titleGap       = 6    // under the title
	legendMaxH     = 1000 // a taller legend is set in more columns
	maxLabelRunes  = 40   // longer category labels are cut
	maxTitleLines  = 3    // a longer title is cut
	hatchSpacing   = 3    // between the hatch lines of series beyond the palette
	minOutlined    = 2    // narrower bars have no outline
)

// Font sizes, in points: none below 10.
const (
	titleFontSize = 13
	labelFontSize = 11
	tickFontSize  = 10
)

// seriesStyle is how the bars of one series look: a fill from the palette
// and, once the palette is used up, a hatching over it (1 "/", 2 "\",
// 3 both), so that up to 32 series stay distinct.
type seriesStyle struct {
	fill  color.RGBA
	hatch int
}

// styleOf gives the style of series i.
func styleOf(i int) seriesStyle {
	n := len(palette)
	return seriesStyle{fill: palette[i%n], hatch: (i / n) % 4}
}

// draw fills r, hatches it if the style says so and outlines it unless
// it is too narrow for an outline to leave the fill seen.
func (s seriesStyle) draw(c draw.Canvas, r vg.Rectangle) {
	pts := []vg.Point{r.Min, {X: r.Min.X, Y: r.Max.Y}, r.Max, {X: r.Max.X, Y: r.Min.Y}}
	c.FillPolygon(s.fill, pts)
	if s.hatch != 0 {
		ink := draw.LineStyle{Color: color.White, Width: vg.Points(0.75)}
		if luminance(s.fill) > 0.4 {
			ink.Color = color.Black
		}
		if s.hatch&1 != 0 {
			c.StrokeLines(ink, hatchLines(r, 1)...)
		}
		if s.hatch&2 != 0 {
			c.StrokeLines(ink, hatchLines(r, -1)...)
		}
	}
	if r.Size().X >= minOutlined {
		c.StrokeLines(outlineStyle, append(pts, r.Min))
	}
}

// luminance is the relative luminance of c (0 black, 1 white), near
// enough to choose an ink that shows on it.
func luminance(c color.RGBA) float64 {
	return (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)) / 255
}

// hatchLines gives the diagonal lines y = slope·x + k (slope ±1) that
// cross r, k on a fixed grid so that the lines of neighbouring bars line
// up, each cut to r.
func hatchLines(r vg.Rectangle, slope float64) [][]vg.Point {
	x0, x1 := r.Min.X.Points(), r.Max.X.Points()
	y0, y1 := r.Min.Y.Points(), r.Max.Y.Points()
	// k = y - slope·x over the corners of r.
	kmin := math.Min(y0-slope*x0, y0-slope*x1)
	kmax := math.Max(y1-slope*x0, y1-slope*x1)
	var lines [][]vg.Point
	for k := math.Ceil(kmin/hatchSpacing) * hatchSpacing; k <= kmax; k += hatchSpacing {
		// x where the line meets y0 and y1, cut to [x0, x1].
		xa, xb := (y0-k)/slope, (y1-k)/slope
		lo, hi := math.Max(x0, math.Min(xa, xb)), math.Min(x1, math.Max(xa, xb))
		if lo >= hi {
			continue
		}
		lines = append(lines, []vg.Point{
			{X: vg.Length(lo), Y: vg.Length(slope*lo + k)},
			{X: vg.Length(hi), Y: vg.Length(slope*hi + k)},
		})
	}
	return lines
}

// bars is one series of a bar chart: one bar per category, shifted by
// offset from the category's centre. It draws nothing for a zero.
type bars struct {
	values []float64 // in percent
	width  vg.Length
	offset vg.Length
	style  seriesStyle
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, v := range b.values {
		if v <= 0 {
			continue
		}
		x := trX(float64(i)) + b.offset
		b.style.draw(c, vg.Rectangle{
			Min: vg.Point{X: x - b.width/2, Y: trY(0)},
			Max: vg.Point{X: x + b.width/2, Y: trY(v)},
		})
	}
}

// Thumbnail implements plot.Thumbnailer: the legend's swatch.
func (b *bars) Thumbnail(c *draw.Canvas) { b.style.draw(*c, c.Rectangle) }

// barChart is what plotBars draws: chances in groups of bars.
type barChart struct {
	title  string
	groups []string    // the categories on the x axis
	series []string    // one bar per series in each group, and a legend entry
	values [][]float64 // values[group][series], chances 0..1
}

// plotBars draws grouped bars to file (.svg or .png): one group per entry
// of groups, one bar per result within each group (series[group][result]).
// With one unnamed group the results themselves are the categories on the
// x axis. It then notes on the app's error stream where the chart went, so
// that standard output stays as the command makes it (pure JSON with --json).
func (a *app) plotBars(file, title string, groups, results []string, series [][]float64) error {
	ch := barChart{title: title, groups: groups, series: results, values: series}
	if len(groups) == 1 && groups[0] == "" {
		ch.groups, ch.series = results, []string{""}
		ch.values = make([][]float64, len(results))
		for i := range results {
			ch.values[i] = []float64{series[0][i]}
		}
	}
	if len(ch.groups) == 0 || len(ch.series) == 0 {
		return badf("--plot %s: there is nothing to draw: no results", file)
	}
	w, h, err := ch.save(file)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	size := fmt.Sprintf("%gx%g pt", math.Round(w.Points()), math.Round(h.Points()))
	if strings.EqualFold(filepath.Ext(file), ".png") {
		size += fmt.Sprintf(", %dx%d px", pixels(w), pixels(h))
	}
	fmt.Fprintf(a.err, "wrote the chart to %s (%s, %d series)\n", abs, size, len(ch.series))
	return nil
}

// pixels is the size in pixels of l points in a PNG.
func pixels(l vg.Length) int { return int(l/vg.Inch*vgimg.DefaultDPI + 0.5) }

// save lays the chart out, draws it and writes it to file, and returns
// the canvas's size.
func (ch barChart) save(file string) (w, h vg.Length, err error) {
	l := ch.layout()
	var canvas vg.CanvasWriterTo
	switch strings.ToLower(filepath.Ext(file)) {
	case ".svg":
		canvas = vgsvg.New(l.w, l.h)
	case ".png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.New(l.w, l.h)}
	default:
		return 0, 0, badf("--plot %s: the file must end in .svg or .png", file)
	}
	l.draw(draw.New(canvas))
	f, err := os.Create(file)
	if err != nil {
		return 0, 0, bad(fmt.Errorf("--plot %s: cannot write the chart: %w", file, err))
	}
	_, err = canvas.WriteTo(f)
	if err = errors.Join(err, f.Close()); err != nil {
		return 0, 0, fmt.Errorf("--plot %s: writing the chart: %w", file, err)
	}
	return l.w, l.h, nil
}

// chartLayout is a chart ready to draw: the plot, its legend and where
// they go on a canvas of w by h.
type chartLayout struct {
	w, h    vg.Length
	title   string // wrapped to the canvas's width
	titleSt text.Style
	p       *plot.Plot
	legend  []plot.Legend // one per column; none for a single series
	legendW vg.Length     // width of the legend's frame; 0 without one
	legendH vg.Length     // height of the legend's frame
	left    vg.Length     // room left of the plot for the first tick label
}

// layout sizes the chart: each group of bars gets a slot wide enough for
// its bars (and its label, when that fits), the canvas grows with the
// slots within chartMinWidth..chartMaxWidth, long labels are turned, the
// legend stands right of the plotting area, and the title wraps.
func (ch barChart) layout() *chartLayout {
	l := &chartLayout{p: plot.New()}
	p := l.p
	p.BackgroundColor = nil
	k := len(ch.series)
	series, top := ch.makeBars()
	ch.yAxis(p, top)
	labels, labelW := ch.xAxis(p)

	// The legend, right of the plotting area, in columns of at most
	// legendMaxH; none for one series.
	legendBlock := vg.Length(0)
	if k > 1 {
		l.legend, l.legendW, l.legendH = legendColumns(ch.series, series)
		legendBlock = legendGap + l.legendW
	}

	slot, overH := l.slots(k, labels, labelW, legendBlock)

	// The grid goes first, under the bars, which fill three quarters of
	// their slot at most.
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal = draw.LineStyle{Color: gridColour, Width: vg.Points(0.5)}
	p.Add(grid)
	_, maxBarW := barWidths(k)
	bw := min(maxBarW, slot*3/4/vg.Length(k))
	for j, b := range series {
		b.width = bw
		b.offset = bw * vg.Length(float64(j)-float64(k-1)/2)
		p.Add(b)
	}

	l.setTitle(ch.title, overH)
	return l
}

// makeBars makes the chart's plotters, one per series, in percent and not yet
// sized, and returns them with the tallest bar.
func (ch barChart) makeBars() ([]*bars, float64) {
	series := make([]*bars, len(ch.series))
	top := 0.0
	for j := range ch.series {
		series[j] = &bars{values: make([]float64, len(ch.groups)), style: styleOf(j)}
		for i := range ch.groups {
			series[j].values[i] = 100 * ch.values[i][j]
			top = math.Max(top, series[j].values[i])
		}
	}
	return series, top
}

// yAxis sets the y axis: chance in percent, from 0 to a round number at or
// above top, the tallest bar.
func (ch barChart) yAxis(p *plot.Plot, top float64) {
	ticks := percentTicks(top)
	p.Y.Min, p.Y.Max = 0, ticks.top
	p.Y.Tick.Marker = ticks
	p.Y.Label.Text = "chance"
	if len(ch.series) == 1 && ch.series[0] != "" {
		p.Y.Label.Text = "chance of " + ch.series[0]
	}
	p.Y.Label.TextStyle.Font.Size = labelFontSize
	p.Y.Tick.Label.Font.Size = tickFontSize
}

// xAxis sets the x axis, one slot per group centred on 0, 1, 2..., and
// both axes' padding (after NominalX, which sets the y axis's), and
// returns the groups' labels, cut short, and the widest's width.
func (ch barChart) xAxis(p *plot.Plot) ([]string, vg.Length) {
	n := len(ch.groups)
	p.X.Tick.Label.Font.Size = tickFontSize
	labels := make([]string, n)
	labelW := vg.Length(0)
	for i, g := range ch.groups {
		labels[i] = cutLabel(g, maxLabelRunes)
		labelW = max(labelW, p.X.Tick.Label.Width(labels[i]))
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Padding = vg.Points(4)
	p.Y.Padding = vg.Points(4)
	return labels, labelW
}

// barWidths is a bar's width and its widest, with k series: wider for a
// single one.
func barWidths(k int) (barW, maxBarW vg.Length) {
	if k == 1 {
		return vg.Points(18), vg.Points(36)
	}
	return vg.Points(10), vg.Points(16)
}

// slots sizes the canvas's width and the groups' slots: k bars side by
// side and a bar's width between groups, or wider to hold the group's
// label level; then as many as the canvas's bounds allow, turning the
// labels that do not fit. It returns the slot's width and the height the
// axes take.
func (l *chartLayout) slots(k int, labels []string, labelW, legendBlock vg.Length) (slot, overH vg.Length) {
	p, n := l.p, len(labels)
	barW, _ := barWidths(k)
	want := vg.Length(k)*barW + barW
	if labelW+8 <= 2*want {
		want = max(want, labelW+8)
	}
	lineH := p.X.Tick.Label.Height("Mg")
	var overW vg.Length
	for pass := range 3 { // later passes see the room the turned labels take
		overW, overH = plotOverhead(p)
		fixed := 2*chartMargin + overW + legendBlock + l.left
		l.w = min(chartMaxWidth, max(chartMinWidth, fixed+vg.Length(n)*want))
		slot = (l.w - fixed) / vg.Length(n)
		if slot < 2 { // a legend of hundreds of series
			slot, l.w = 2, fixed+2*vg.Length(n)
		}
		if pass < 2 {
			l.left = turnLabels(p, labels, labelW, slot, lineH)
		}
	}
	return slot, overH
}

// setTitle wraps title to the canvas, over everything, and sizes the
// canvas's height to the title, the axes' overH and the plotting area.
func (l *chartLayout) setTitle(title string, overH vg.Length) {
	l.titleSt = text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, titleFontSize),
		XAlign:  draw.XCenter,
		YAlign:  draw.YTop,
		Handler: l.p.TextHandler,
	}
	l.title = wrapTitle(title, l.titleSt, l.w-2*chartMargin, maxTitleLines)
	titleH := vg.Length(0)
	if l.title != "" {
		titleH = l.titleSt.Height(l.title) + titleGap
	}
	dataH := max(chartDataH, min(chartMaxDataH, l.w/5), l.legendH)
	l.h = min(chartMaxHeight, 2*chartMargin+titleH+overH+dataH)
}

// percentTicker marks the y axis in percent from 0 to top, every step.
type percentTicker struct{ top, step float64 }

// percentTicks chooses the y axis for bars up to tallest percent: the
// smallest round step that needs at most six marks, and the first mark at
// or above the tallest bar as the top (at most 100%).
func percentTicks(tallest float64) percentTicker {
	for _, step := range []float64{0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25} {
		if top := math.Ceil(tallest/step-1e-9) * step; top <= 6*step {
			return percentTicker{top: math.Min(100, math.Max(step, top)), step: step}
		}
	}
	return percentTicker{top: 100, step: 20}
}

// Ticks implements plot.Ticker.
func (t percentTicker) Ticks(_, _ float64) []plot.Tick {
	var ticks []plot.Tick
	for i := 0; float64(i)*t.step <= t.top+1e-9; i++ {
		v := float64(i) * t.step
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64) + "%"})
	}
	return ticks
}

// plotOverhead measures the room the axes of p take around its data area.
func plotOverhead(p *plot.Plot) (w, h vg.Length) {
	const size = 1000
	c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: size, Y: size}}}
	d := p.DataCanvas(c)
	return size - d.Size().X, size - d.Size().Y
}

// turnLabels sets the x tick labels level when they fit their slots,
// turned 45° when turned ones do, and upright (with only every so many
// shown) otherwise. It returns the room the first labels need left of
// the plot.
func turnLabels(p *plot.Plot, labels []string, widest, slot, lineH vg.Length) vg.Length {
	sty := &p.X.Tick.Label
	shown := labels
	switch {
	case widest+4 <= slot:
		sty.Rotation, sty.XAlign, sty.YAlign = 0, draw.XCenter, draw.YTop
	case slot*math.Sqrt2/2 >= lineH:
		sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/4, draw.XRight, draw.YCenter
	default:
		sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/2, draw.XRight, draw.YCenter
		every := int(math.Ceil(float64(lineH / slot)))
		shown = make([]string, len(labels))
		for i := 0; i < len(labels); i += every {
			shown[i] = labels[i]
		}
	}
	ticks := make([]plot.Tick, len(shown))
	for i, s := range shown {
		ticks[i] = plot.Tick{Value: float64(i), Label: s}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	// A turned label reaches left of its tick; the y axis's room and the
	// slots before it may not be enough for the first ones.
	overW, _ := plotOverhead(p)
	left := vg.Length(0)
	for i, s := range shown {
		reach := -sty.Rectangle(s).Min.X - overW - (vg.Length(i)+0.5)*slot
		left = max(left, reach)
	}
	return left
}

// newLegend is the style of a legend column.
func newLegend() plot.Legend {
	lg := plot.NewLegend()
	lg.Top, lg.Left = true, true
	lg.TextStyle.Font.Size = tickFontSize
	lg.Padding = vg.Points(3)
	lg.ThumbnailWidth = vg.Points(14)
	return lg
}

// legendColumns makes the legend of the series drawn by thumbs, in
// columns of at most legendMaxH, and gives the size of the frame around
// them all.
func legendColumns(names []string, thumbs []*bars) (cols []plot.Legend, w, h vg.Length) {
	style := newLegend()
	per := max(1, int((legendMaxH-2*legendPad)/(style.TextStyle.Height("Mg")+style.Padding)))
	for start := 0; start < len(names); start += per {
		lg := newLegend()
		for j := start; j < min(len(names), start+per); j++ {
			lg.Add(names[j], thumbs[j])
		}
		r := lg.Rectangle(draw.Canvas{})
		if start > 0 {
			w += legendGap
		}
		w += r.Size().X
		h = max(h, r.Size().Y+lg.TextStyle.FontExtents().Descent)
		cols = append(cols, lg)
	}
	return cols, w + 2*legendPad, h + 2*legendPad
}

// draw draws the laid-out chart on c.
func (l *chartLayout) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	inner := draw.Crop(c, chartMargin, -chartMargin, chartMargin, -chartMargin)
	if l.title != "" {
		inner.FillText(l.titleSt, vg.Point{X: inner.Center().X, Y: inner.Max.Y}, l.title)
		inner.Max.Y -= l.titleSt.Height(l.title) + titleGap
	}
	pc := inner
	pc.Min.X += l.left
	if l.legendW > 0 {
		pc.Max.X -= legendGap + l.legendW
	}
	l.p.Draw(pc)
	if l.legendW == 0 {
		return
	}
	// The legend's frame: right of the data area, level with its top.
	data := l.p.DataCanvas(pc)
	frame := vg.Rectangle{
		Min: vg.Point{X: pc.Max.X + legendGap, Y: data.Max.Y - l.legendH},
		Max: vg.Point{X: pc.Max.X + legendGap + l.legendW, Y: data.Max.Y},
	}
	c.StrokeLines(legendFrame, []vg.Point{frame.Min, {X: frame.Min.X, Y: frame.Max.Y}, frame.Max, {X: frame.Max.X, Y: frame.Min.Y}, frame.Min})
	x := frame.Min.X + legendPad
	for _, lg := range l.legend {
		col := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: frame.Min.Y + legendPad},
			Max: vg.Point{X: frame.Max.X - legendPad, Y: frame.Max.Y - legendPad},
		}}
		lg.Draw(col)
		x += lg.Rectangle(col).Size().X + legendGap
	}
}

// wrapTitle breaks s into lines no wider than width in sty, at most maxLines;
// what does not fit is cut with an ellipsis.
func wrapTitle(s string, sty text.Style, width vg.Length, maxLines int) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case sty.Width(line+" "+word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] += " …"
	}
	for i, ln := range lines {
		for sty.Width(ln) > width && utf8.RuneCountInString(ln) > 1 {
			r := []rune(strings.TrimSuffix(ln, "…"))
			ln = strings.TrimRight(string(r[:len(r)-1]), " ") + "…"
		}
		lines[i] = ln
	}
	return strings.Join(lines, "\n")
}

// cutLabel shortens s to at most n runes, marking the cut with an ellipsis.
func cutLabel(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
