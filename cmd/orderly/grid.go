package main

import (
	"io"
	"strings"
	"text/tabwriter"
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
		start := b.Len()
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
		line := strings.TrimRight(b.String()[start:], " ")
		rest := b.String()[:start]
		b.Reset()
		b.WriteString(rest + line + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// trimmer drops the spaces that tabwriter leaves at the ends of lines.
type trimmer struct {
	w       io.Writer
	pending []byte
}

func (t *trimmer) Write(p []byte) (int, error) {
	t.pending = append(t.pending, p...)
	for {
		i := strings.IndexByte(string(t.pending), '\n')
		if i < 0 {
			return len(p), nil
		}
		line := strings.TrimRight(string(t.pending[:i]), " ")
		if _, err := io.WriteString(t.w, line+"\n"); err != nil {
			return 0, err
		}
		t.pending = t.pending[i+1:]
	}
}

// columns returns a tabwriter for aligned text whose lines carry no
// trailing spaces; every line written to it must end in a newline.
func columns(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(&trimmer{w: w}, 0, 0, 2, ' ', 0)
}
