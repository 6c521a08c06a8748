package main

import (
	"io"
	"strings"
	"unicode/utf8"
)

// grid lays out text in columns: the first left-aligned columns hold labels,
// the rest are right-aligned numbers.
type grid struct {
	rows     [][]string
	left     int  // how many leading columns are left-aligned
	lastLeft bool // the last column is left-aligned too (a bar)
}

func (g *grid) add(cells ...string) { g.rows = append(g.rows, cells) }

func (g *grid) write(w io.Writer, indent string) error {
	var widths []int
	for _, r := range g.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range g.rows {
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i < g.left || (g.lastLeft && i == len(r)-1) {
				b.WriteString(c)
				if i < len(r)-1 {
					b.WriteString(pad)
				}
			} else {
				b.WriteString(pad + c)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
