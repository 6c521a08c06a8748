package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func checkPlotFile(name string) error {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".svg", ".png":
		return nil
	}
	return badf("--plot %s: the file must end in .svg or .png", name)
}

// plotBars draws grouped bars: one group per entry of groups, one bar per
// result within each group (series[group][result]). With one unnamed group
// the results themselves are the categories on the x axis.
func plotBars(file, title string, groups, results []string, series [][]float64) error {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "probability"
	p.Y.Min = 0
	single := len(groups) == 1 && groups[0] == ""
	if single {
		vals := plotter.Values(series[0])
		b, err := plotter.NewBarChart(vals, vg.Points(24))
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		b.Color = plotutil.Color(0)
		b.LineStyle.Width = 0
		p.Add(b)
		p.NominalX(results...)
	} else {
		width := vg.Points(math.Max(2, math.Min(14, 60/float64(len(results)))))
		for j, r := range results {
			vals := make(plotter.Values, len(groups))
			for i := range groups {
				vals[i] = series[i][j]
			}
			b, err := plotter.NewBarChart(vals, width)
			if err != nil {
				return fmt.Errorf("plot: %w", err)
			}
			b.Color = plotutil.Color(j)
			b.LineStyle.Width = 0
			b.Offset = width * vg.Length(float64(j)-float64(len(results)-1)/2)
			p.Add(b)
			p.Legend.Add(r, b)
		}
		p.Legend.Top = true
		p.NominalX(groups...)
		if len(groups) > 6 {
			p.X.Tick.Label.Rotation = math.Pi / 4
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YCenter
		}
	}
	n := len(results)
	if !single {
		n = len(groups) * len(results) / 2
	}
	w := vg.Length(math.Max(400, math.Min(1800, float64(n)*24+120)))
	h := vg.Length(300)
	if len(groups) > 6 {
		h = 400
	}
	if err := p.Save(w, h, file); err != nil {
		return fmt.Errorf("plot %s: %w", file, err)
	}
	return nil
}
