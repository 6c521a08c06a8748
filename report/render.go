package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"orderly/game"
	"orderly/luck"
)

// Formats lists the forms a report is written in.
func Formats() []string { return []string{"html", "json", "text"} }

// Write writes rep in format (one of Formats).
func Write(w io.Writer, rep *Report, format string) error {
	switch format {
	case "html":
		return HTML(w, rep)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	case "text":
		return Text(w, rep)
	}
	return fmt.Errorf("format %q is not known; allowed: %s", format, strings.Join(Formats(), ", "))
}

// turnName is a turn's name: "before the first turn" for turn 0.
func turnName(n int) string {
	if n <= 0 {
		return "Before the first turn"
	}
	return "Turn " + strconv.Itoa(n)
}

// at is a stage's turn as an order's life shows it.
func at(t int) string {
	switch {
	case t == 0:
		return "-"
	case t < 0:
		return "0"
	}
	return strconv.Itoa(t)
}

// delay is an order's delay in words.
func delay(o Order) string {
	if o.Delay < 0 {
		return "-"
	}
	return game.Count(o.Delay, "turn", "turns")
}

// rollLine is one roll as a line of text.
func rollLine(r Roll) string {
	who := r.Side
	if r.Subject != "" {
		who += ", " + r.Subject
	}
	s := fmt.Sprintf("%s (%s): %s rolled %d, total %d: %s", r.Title, who, r.Dice, r.Natural, r.Total, r.Result)
	if r.Pool {
		s = fmt.Sprintf("%s (%s): a pool of %s, total %d: %s", r.Title, who, r.Dice, r.Total, r.Result)
	}
	if r.Key != "" {
		s += "  [" + r.Key + "]"
	}
	return s
}

// Text writes rep for a terminal: the summary, the lives of the orders,
// and turn by turn the stages, the rolls and the luck; no maps.
func Text(w io.Writer, rep *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "After-action report: %s (%s)\n\n", rep.Title, rep.Rules)
	b.WriteString(wrap(rep.Summary, 76, ""))
	b.WriteString("\n")
	if rep.Chronicled && len(rep.Orders) > 0 {
		b.WriteString("\nOrders (the turn of each stage; 0 before the first turn)\n")
		wo, ws := len("order"), len("side")
		for _, o := range rep.Orders {
			wo, ws = max(wo, min(len([]rune(o.Order)), 36)), max(ws, len([]rune(o.Side)))
		}
		row := func(cells ...string) {
			fmt.Fprintf(&b, "  %-*s  %-*s", wo, clip(cells[0], wo), ws, cells[1])
			for _, c := range cells[2:9] {
				fmt.Fprintf(&b, " %7s", c)
			}
			fmt.Fprintf(&b, "  %s\n", cells[9])
		}
		row("order", "side", "written", "sent", "arrived", "read", "acts", "acted", "failed", "delay")
		for _, o := range rep.Orders {
			row(o.Order, o.Side, at(o.Written), at(o.Sent), at(o.Arrived), at(o.Read), at(o.Acts), at(o.Acted), at(o.Failed), delay(o))
		}
	}
	for _, t := range rep.Turn {
		fmt.Fprintf(&b, "\n%s\n", turnName(t.Number))
		for _, s := range t.Stages {
			fmt.Fprintf(&b, "  %-8s %s\n", s.Stage, s.Text)
		}
		for _, e := range t.Log {
			fmt.Fprintf(&b, "  %s\n", e.Text)
		}
		if len(t.Rolls) > 0 {
			b.WriteString("  rolls:\n")
			for _, r := range t.Rolls {
				fmt.Fprintf(&b, "    %s\n", rollLine(r))
			}
		}
	}
	b.WriteString("\nLuck\n")
	if rep.Luck == nil || len(rep.Luck.Sides) == 0 {
		b.WriteString("  no roll of a table that says which way is lucky\n")
	} else {
		for _, s := range rep.Luck.Sides {
			fmt.Fprintf(&b, "  %s: %s\n", s.Name, s.Text)
			for _, g := range s.Tables {
				fmt.Fprintf(&b, "    %s\n", g.Text)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// clip cuts s to n runes.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// wrap folds text into lines of at most width, each after indent.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	if len(line) > len(indent) {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// HTML writes rep as one self-contained printable page: inline CSS with
// print styles and inline SVG maps, no scripts.
func HTML(w io.Writer, rep *Report) error {
	return page.Execute(w, rep)
}

// CSS is the report's styles, print styles included: inline in the page
// the report writes, and served as /css/report.css for the page that
// shows it in the browser (web/static/css/report.css, which a test keeps
// the same).
const CSS = `body { font: 15px/1.45 Georgia, "Times New Roman", serif; color: #111; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid #999; margin-top: 1.8rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .3rem; }
table { border-collapse: collapse; margin: .4rem 0; font-size: .9rem; }
th, td { border: 1px solid #bbb; padding: .15rem .4rem; text-align: left; vertical-align: top; }
th { background: #eee; }
td.n { text-align: right; }
tr.failed td, tr.extreme td { font-weight: bold; }
tr.failed td.key { color: #a00; }
.summary { font-size: 1.05rem; }
.turn { break-inside: avoid-page; }
svg.map { max-width: 100%; height: auto; border: 1px solid #ccc; }
.sides span { display: inline-block; margin-right: 1rem; }
.sides svg { vertical-align: middle; }
.report-bar { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .5rem 0; border-bottom: 1px solid #ccc; font-family: sans-serif; }
.report-bar button { font: inherit; padding: .4rem 1rem; min-height: 44px; }
@media print {
  .report-bar { display: none; }
  body { margin: 0; max-width: none; font-size: 11pt; }
  h2 { break-after: avoid-page; }
  .turn { break-before: page; }
  a { color: inherit; text-decoration: none; }
}
`

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"turn":    turnName,
	"at":      at,
	"delay":   delay,
	"svg":     func(s string) template.HTML { return template.HTML(s) }, // made by svg, every text escaped
	"colour":  func(i int) string { return sideColours[i%len(sideColours)] },
	"css":     func() template.CSS { return template.CSS(CSS) },
	"pct":     func(p float64) string { return strconv.FormatFloat(p, 'f', 0, 64) },
	"ordinal": luck.Ordinal,
}).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>After-action report: {{.Title}}</title>
<style>
{{css}}</style>
</head>
<body>
<header>
<h1>After-action report: {{.Title}}</h1>
<p class="sides">{{range $i, $s := .Sides}}<span><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="{{colour $i}}"/></svg> {{$s.Name}}</span>{{end}}</p>
</header>
<p class="summary">{{.Summary}}</p>
{{if .Outcome}}<p class="outcome"><strong>Result:</strong> {{.Outcome.Text}}</p>{{end}}
<h2>Luck</h2>
{{if .Luck.Sides}}{{range .Luck.Sides}}<h3>{{.Name}}: {{ordinal .Percentile}} percentile</h3>
<p>{{.Text}}</p>
{{if .Tables}}<table><tr><th>table</th><th>rolls</th><th>expected</th><th>got</th><th>percentile</th></tr>
{{range .Tables}}<tr><td>{{.Title}}</td><td class="n">{{.Rolls}}</td><td class="n">{{printf "%.1f" .Expected}}</td><td class="n">{{printf "%.1f" .Got}}</td><td class="n">{{pct .Percentile}}</td></tr>
{{end}}</table>{{end}}{{end}}{{else}}<p>No roll was on a table that says which way is lucky.</p>{{end}}
{{if and .Chronicled .Orders}}<h2>Orders</h2>
<p>The turn each order reached each stage of its life (0: before the first turn), and its delay from first heard of to acted on.</p>
<table><tr><th>order</th><th>side</th><th>for</th><th>written</th><th>sent</th><th>arrived</th><th>read</th><th>to act</th><th>acted</th><th>failed</th><th>delay</th></tr>
{{range .Orders}}<tr><td>{{.Order}}</td><td>{{.Side}}</td><td>{{.For}}</td><td class="n">{{at .Written}}</td><td class="n">{{at .Sent}}</td><td class="n">{{at .Arrived}}</td><td class="n">{{at .Read}}</td><td class="n">{{at .Acts}}</td><td class="n">{{at .Acted}}</td><td class="n">{{at .Failed}}</td><td>{{delay .}}</td></tr>
{{end}}</table>{{end}}
{{range .Turn}}<section class="turn" id="turn-{{.Number}}">
<h2>{{turn .Number}}</h2>
{{if .Stages}}<h3>Orders</h3><table><tr><th>phase</th><th>side</th><th>stage</th><th>what happened</th></tr>
{{range .Stages}}<tr><td>{{.Phase}}</td><td>{{.Side}}</td><td>{{.Stage}}</td><td>{{.Text}}</td></tr>
{{end}}</table>{{end}}
{{if .Log}}<h3>Events</h3><ul>{{range .Log}}<li>{{.Text}}</li>{{end}}</ul>{{end}}
{{if .Rolls}}<h3>Rolls</h3><table><tr><th>table</th><th>side</th><th>for</th><th>dice</th><th>natural</th><th>total</th><th>result</th><th></th></tr>
{{range .Rolls}}<tr class="{{.Key}}"><td>{{.Title}}</td><td>{{.Side}}</td><td>{{.Subject}}</td><td>{{.Dice}}{{if .Pool}} pool{{end}}</td><td class="n">{{if not .Pool}}{{.Natural}}{{end}}</td><td class="n">{{.Total}}</td><td>{{.Result}}</td><td class="key">{{.Key}}</td></tr>
{{end}}</table>{{end}}
<h3>The end of {{turn .Number}}</h3>
{{svg .Map}}
</section>
{{end}}
</body>
</html>
`))
