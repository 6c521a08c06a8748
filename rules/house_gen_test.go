package rules_test

import (
	"fmt"
	"slices"
	"strings"
)

// choices reads fuzz bytes as a stream of choices (0 once they run out).
type choices struct{ b []byte }

func (c *choices) n(k int) int {
	if len(c.b) == 0 || k <= 1 {
		return 0
	}
	v := int(c.b[0])
	c.b = c.b[1:]
	return v % k
}

func (c *choices) pick(xs []string) string { return xs[c.n(len(xs))] }

func (c *choices) coin() bool { return c.n(2) == 1 }

var (
	genNations   = []string{"french", "british", "russian-1792-1808", "russian-1809-1814", "prussian-1792-1806", "prussian-1813-1815", "austrian-1792-1806", "austrian-1807-1815", "other", "spanish"}
	genQualities = []string{"excellent", "good", "average", "poor", "superior"}
	genDice      = []string{"1d6", "1d10", "1d10z", "2d6", "1d20", "1d6+4", "1d6-3", "3d6", "1d4+8", "1d100", "2d10z"}
	genResults   = map[string][]string{
		"nb/order-delay":     {"delay-4", "delay-3", "delay-2", "delay-1", "immediate"},
		"nb/reserve-entry":   {"turn-5", "turn-6", "turn-7", "turn-8", "turn-9", "turn-10"},
		"nb/reserve-arrival": {"late-2", "late-1", "on-time", "early-1"},
	}
	genParams = []string{"nation", "quality", "weather", "bonus", "tired"}
)

// genHouse builds well-formed house rules for NB's tables out of fuzz
// bytes, so that the fuzzer reaches the checks of what the procedures can
// use (raw bytes seldom make valid YAML that changes a table): dice,
// parameters (new, changed, of another kind, required), results with or
// without values, bands, naturals, a derived modifier, and the
// orders-per-turn lookup with fewer, more or other nations and cells.
func genHouse(data []byte) string {
	c := &choices{data}
	var b strings.Builder
	var lookups []string
	b.WriteString("tables:\n")
	tables := 0
	for range 1 + c.n(3) {
		id := c.pick([]string{"nb/order-delay", "nb/reserve-entry", "nb/reserve-arrival", "nb/orders-per-turn"})
		if id == "nb/orders-per-turn" {
			lookups = append(lookups, genLookup(c))
			continue
		}
		tables++
		fmt.Fprintf(&b, "  - id: %s\n", id)
		keys := slices.Clone(genResults[id])
		var results []string
		if c.coin() {
			fmt.Fprintf(&b, "    dice: %s\n", c.pick(genDice))
		}
		if c.coin() {
			b.WriteString("    params:\n")
			for range 1 + c.n(2) {
				b.WriteString(genParam(c))
			}
		}
		if c.coin() {
			// A new result, with or without a value.
			k := "house-" + fmt.Sprint(c.n(3))
			keys = append(keys, k)
			results = append(results, genResult(c, k))
		}
		for range c.n(3) {
			results = append(results, genResult(c, c.pick(keys[:len(genResults[id])])))
		}
		if len(results) > 0 {
			b.WriteString("    results:\n")
			for _, r := range results {
				b.WriteString(r)
			}
		}
		if c.coin() {
			b.WriteString("    bands:\n")
			cut := -6 + c.n(8)
			fmt.Fprintf(&b, "      \"<=%d\": %s\n", cut, c.pick(keys))
			for range c.n(4) {
				next := cut + 1 + c.n(6)
				fmt.Fprintf(&b, "      \"%d..%d\": %s\n", cut+1, next, c.pick(keys))
				cut = next
			}
			fmt.Fprintf(&b, "      \">=%d\": %s\n", cut+1, c.pick(keys))
		}
		if c.n(4) == 0 {
			fmt.Fprintf(&b, "    naturals: {%d: %s}\n", c.n(21), c.pick(keys))
		}
		if c.n(4) == 0 {
			b.WriteString("    derived:\n      - {name: roads, lookup: house/roads, args: [quality]}\n")
			vals := genSubset(c, genQualities)
			cells := make([]string, len(vals))
			for i, v := range vals {
				cells[i] = fmt.Sprintf("%s: %q", v, fmt.Sprint(c.n(5)-2))
			}
			lookups = append(lookups, fmt.Sprintf("  - id: house/roads\n    title: Roads\n    rule: NB-10\n    params:\n      - {name: quality, kind: enum, values: [%s]}\n    cells: {%s}\n",
				strings.Join(vals, ", "), strings.Join(cells, ", ")))
		}
	}
	out := b.String()
	if tables == 0 {
		out = ""
	}
	if len(lookups) > 0 {
		out += "lookups:\n" + strings.Join(lookups, "")
	}
	return out
}

func genParam(c *choices) string {
	name := c.pick(genParams)
	var f []string
	f = append(f, "name: "+name)
	kind := ""
	switch c.n(4) {
	case 1:
		kind = "enum"
	case 2:
		kind = "int"
	case 3:
		kind = "bool"
	}
	if kind != "" {
		f = append(f, "kind: "+kind)
	}
	if c.n(3) == 0 {
		f = append(f, "required: true")
	}
	switch kind {
	case "", "enum":
		pool := genQualities
		switch name {
		case "nation":
			pool = genNations
		case "weather", "bonus", "tired":
			pool = []string{"dry", "wet", "snow"}
		}
		vals := genSubset(c, pool)
		mods := make([]string, len(vals))
		for i, v := range vals {
			mods[i] = fmt.Sprintf("%s: %d", v, c.n(7)-3)
		}
		if len(vals) > 0 {
			f = append(f, "values: {"+strings.Join(mods, ", ")+"}")
		}
		if c.coin() && len(vals) > 0 && !slices.Contains(f, "required: true") {
			f = append(f, "default: "+vals[0])
		}
	case "int":
		lo := c.n(3)
		f = append(f, fmt.Sprintf("min: %d", lo), fmt.Sprintf("max: %d", lo+c.n(10)), fmt.Sprintf("per: %d", c.n(5)-2))
		if c.coin() && !slices.Contains(f, "required: true") {
			f = append(f, fmt.Sprintf("default: %q", fmt.Sprint(lo)))
		}
	case "bool":
		f = append(f, fmt.Sprintf("mod: %d", c.n(5)-2))
		if c.coin() && !slices.Contains(f, "required: true") {
			f = append(f, `default: "false"`)
		}
	}
	return "      - {" + strings.Join(f, ", ") + "}\n"
}

func genResult(c *choices, key string) string {
	switch c.n(3) {
	case 0:
		return fmt.Sprintf("      - {key: %s}\n", key)
	case 1:
		return fmt.Sprintf("      - {key: %s, value: %d}\n", key, c.n(15)-3)
	}
	return fmt.Sprintf("      - {key: %s, value: %d}\n", key, []int{-1000000, 1000000, 0, 1}[c.n(4)])
}

func genSubset(c *choices, pool []string) []string {
	var out []string
	for _, v := range pool {
		if c.n(4) != 0 {
			out = append(out, v)
		}
	}
	return out
}

func genLookup(c *choices) string {
	var b strings.Builder
	b.WriteString("  - id: nb/orders-per-turn\n")
	name := "nation"
	if c.n(4) == 0 {
		name = "country"
	}
	nations := genSubset(c, genNations)
	if len(nations) == 0 {
		nations = []string{"other"}
	}
	second := c.n(3) == 0
	fmt.Fprintf(&b, "    params:\n      - {name: %s, kind: enum, values: [%s]}\n", name, strings.Join(nations, ", "))
	if second {
		def := ""
		if c.coin() {
			def = ", default: dry"
		}
		fmt.Fprintf(&b, "      - {name: weather, kind: enum, values: [dry, wet]%s}\n", def)
	}
	cell := func() string {
		return fmt.Sprintf("%q", c.pick([]string{"0", "1", "2", "3", "9", "lots", "-1", "1/2"}))
	}
	b.WriteString("    cells:\n")
	for _, n := range nations {
		if second {
			fmt.Fprintf(&b, "      %s: {dry: %s, wet: %s}\n", n, cell(), cell())
		} else {
			fmt.Fprintf(&b, "      %s: %s\n", n, cell())
		}
	}
	return b.String()
}
