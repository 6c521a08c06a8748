package web_test

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"orderly/game"
	"orderly/rules"
	"orderly/rules/bp"
	"orderly/rules/nb"
	"orderly/table"
	"orderly/web"
)

// The page renders what the server describes and computes no rule
// (DESIGN: the seam). The tests below read every script of the page and
// refuse the marks of rule arithmetic, each list taken from the Go side so
// that it follows the rules as they grow:
//   - a rule set's table id (a table is the server's to roll and read);
//   - the engagement reach as a number (the board gives it, NB-6);
//   - a distance of the rules in words (12″): the engagement reach
//     (NB-6), the proximity (BP-3, BP-7); the board gives them;
//   - a declared modifier's bounds as an input's min or max (BP-1): the
//     board gives them;
//   - a command range or radius, a speed or a reach used in arithmetic or
//     compared with anything but zero (messengers, engagement and who is
//     within a radius are the server's, NB-3, NB-6, NES-3, LOB-2);
//   - a list of formations (the board gives each unit type's);
//   - a switch over event types, or an object keyed by them (the server
//     sums each event up); or a switch over formations.

// jsToken is one token of a script: kind is 'i' (identifier or keyword),
// 'n' (number), 's' (string literal, text its value), 't' (a template
// literal's text between substitutions), 'r' (regular expression) or 'p'
// (punctuation).
type jsToken struct {
	kind byte
	text string
	line int
}

// punctuators, longest first, so that the lexer takes the longest match.
var punctuators = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
	"{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?", ":", "=", ".", "@", "#",
}

// regexAfter are the keywords after which a slash starts a regular
// expression, not a division.
var regexAfter = []string{"return", "typeof", "case", "in", "of", "new", "delete", "void", "throw", "else", "do", "instanceof", "yield", "await"}

// lexJS splits a script into tokens, dropping comments and white space.
// It knows what the page's scripts use: strings, template literals with
// nested substitutions, regular expressions, numbers with exponents.
func lexJS(src string) ([]jsToken, error) {
	l := &jsLexer{src: src, line: 1}
	if err := l.run(0); err != nil {
		return nil, err
	}
	return l.out, nil
}

type jsLexer struct {
	src  string
	pos  int
	line int
	out  []jsToken
}

func (l *jsLexer) emit(kind byte, text string) {
	l.out = append(l.out, jsToken{kind: kind, text: text, line: l.line})
}

func (l *jsLexer) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", l.line, fmt.Sprintf(format, args...))
}

// run lexes until the end, or, inside a template substitution (depth >
// 0), until the brace that closes it.
func (l *jsLexer) run(depth int) error {
	braces := 0
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		rest := l.src[l.pos:]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
		case strings.HasPrefix(rest, "//"):
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case strings.HasPrefix(rest, "/*"):
			end := strings.Index(rest[2:], "*/")
			if end < 0 {
				return l.errorf("a comment is not closed")
			}
			l.line += strings.Count(rest[:end+4], "\n")
			l.pos += end + 4
		case c == '\'' || c == '"':
			if err := l.quoted(c); err != nil {
				return err
			}
		case c == '`':
			if err := l.template(depth); err != nil {
				return err
			}
		case c == '/' && l.regexHere():
			if err := l.regex(); err != nil {
				return err
			}
		case c >= '0' && c <= '9' || c == '.' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9':
			l.number()
		case c == '_' || c == '$' || c >= 0x80 || unicode.IsLetter(rune(c)):
			start := l.pos
			for l.pos < len(l.src) {
				d := l.src[l.pos]
				if d == '_' || d == '$' || d >= 0x80 || unicode.IsLetter(rune(d)) || unicode.IsDigit(rune(d)) {
					l.pos++
					continue
				}
				break
			}
			l.emit('i', l.src[start:l.pos])
		default:
			i := slices.IndexFunc(punctuators, func(p string) bool { return strings.HasPrefix(rest, p) })
			if i < 0 {
				return l.errorf("unexpected character %q", c)
			}
			p := punctuators[i]
			if depth > 0 && p == "}" {
				if braces == 0 {
					l.pos++
					return nil // the substitution ends
				}
				braces--
			}
			if p == "{" {
				braces++
			}
			l.emit('p', p)
			l.pos += len(p)
		}
	}
	if depth > 0 {
		return l.errorf("a template substitution is not closed")
	}
	return nil
}

// regexHere tells a regular expression from a division by the token
// before the slash.
func (l *jsLexer) regexHere() bool {
	if len(l.out) == 0 {
		return true
	}
	prev := l.out[len(l.out)-1]
	switch prev.kind {
	case 'n', 's', 't', 'r':
		return false
	case 'i':
		return slices.Contains(regexAfter, prev.text)
	}
	return prev.text != ")" && prev.text != "]" && prev.text != "}"
}

func (l *jsLexer) quoted(q byte) error {
	var b strings.Builder
	for l.pos++; l.pos < len(l.src); l.pos++ {
		c := l.src[l.pos]
		switch {
		case c == q:
			l.pos++
			l.emit('s', b.String())
			return nil
		case c == '\\' && l.pos+1 < len(l.src):
			l.pos++
			b.WriteByte(l.src[l.pos])
		case c == '\n':
			return l.errorf("a string is not closed on its line")
		default:
			b.WriteByte(c)
		}
	}
	return l.errorf("a string is not closed")
}

func (l *jsLexer) template(depth int) error {
	var b strings.Builder
	for l.pos++; l.pos < len(l.src); l.pos++ {
		c := l.src[l.pos]
		switch {
		case c == '`':
			l.pos++
			l.emit('t', b.String())
			return nil
		case c == '\\' && l.pos+1 < len(l.src):
			l.pos++
			b.WriteByte(l.src[l.pos])
		case c == '$' && strings.HasPrefix(l.src[l.pos:], "${"):
			l.emit('t', b.String())
			b.Reset()
			l.pos += 2
			if err := l.run(depth + 1); err != nil {
				return err
			}
			l.pos-- // the loop steps past the closing brace's successor otherwise
		default:
			if c == '\n' {
				l.line++
			}
			b.WriteByte(c)
		}
	}
	return l.errorf("a template literal is not closed")
}

func (l *jsLexer) regex() error {
	start := l.pos
	class := false
	for l.pos++; l.pos < len(l.src); l.pos++ {
		switch c := l.src[l.pos]; {
		case c == '\\':
			l.pos++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '\n':
			return l.errorf("a regular expression is not closed on its line")
		case c == '/' && !class:
			l.pos++
			for l.pos < len(l.src) && unicode.IsLetter(rune(l.src[l.pos])) {
				l.pos++
			}
			l.emit('r', l.src[start:l.pos])
			return nil
		}
	}
	return l.errorf("a regular expression is not closed")
}

func (l *jsLexer) number() {
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		exp := (c == '+' || c == '-') && l.pos > start && (l.src[l.pos-1] == 'e' || l.src[l.pos-1] == 'E') && !strings.HasPrefix(l.src[start:], "0x")
		if c == '.' || c == '_' || exp || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)) {
			l.pos++
			continue
		}
		break
	}
	l.emit('n', l.src[start:l.pos])
}

// numberValue is the value of a number token, or false for one this test
// does not read (hex, big integers).
func numberValue(text string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	return v, err == nil
}

// ruleVocab is what the page's scripts must not hold, read from the rule
// sets and the engine.
type ruleVocab struct {
	tables     []string       // every table id of every rule set
	reaches    []float64      // the engagement reaches (NB-6), refused as numbers anywhere
	distances  []float64      // the rules' distances: engagement reach (NB-6), proximity (BP-3)
	bounds     map[string]int // a declared modifier's bounds by min and max (BP-1)
	shapes     []string       // the formations a unit may stand in, in any rule set
	eventTypes []string       // every event type the engine records
}

func loadVocab(t *testing.T) ruleVocab {
	t.Helper()
	engines := ruleSets(t)
	v := ruleVocab{tables: engines.set.IDs(), eventTypes: []string{game.StepBegun, game.SideReady, game.GameOver, game.CommandRejected},
		distances: []float64{bp.Proximity}, bounds: map[string]int{"min": bp.Declared.Min, "max": bp.Declared.Max}}
	for _, r := range engines.rules {
		if re, ok := r.(game.Reacher); ok {
			v.reaches = append(v.reaches, re.Reach())
			v.distances = append(v.distances, re.Reach())
		}
		// Every rule set's formations, each unit type's (game.Shaper).
		for _, shapes := range r.Shapes() {
			v.shapes = append(v.shapes, shapes...)
		}
		lt, ok := r.(interface{ EventTypes() []string })
		if !ok {
			t.Fatalf("rule set %s does not list its event types", r.ID())
		}
		v.eventTypes = append(v.eventTypes, lt.EventTypes()...)
	}
	slices.Sort(v.shapes)
	v.shapes = slices.Compact(v.shapes)
	if len(v.tables) < 5 || !slices.Contains(v.tables, "nb/order-delay") || len(v.reaches) == 0 || len(v.distances) < 2 || slices.Contains(v.distances, 0) {
		t.Fatalf("the rule sets give %d table ids (%v) and the distances %v: not what this test expects to refuse", len(v.tables), v.tables, v.distances)
	}
	if !slices.Contains(v.shapes, "square") || !slices.Contains(v.shapes, "march-column") || !slices.Contains(v.eventTypes, nb.OrderRead) || !slices.Contains(v.eventTypes, "ordered") {
		t.Fatalf("the formations %v and event types %v lack NB's or BP's", v.shapes, v.eventTypes)
	}
	return v
}

// engines is every registered rule set made over one set of tables.
type engines struct {
	set   *table.Set
	rules []game.Rules
}

// ruleSets makes every rule set of the registry (rules.Default) over the
// built-in tables and, for LOB, whose tables are the user's, the example
// file that stands in for them, so that the page may not name them
// either.
func ruleSets(t *testing.T) engines {
	t.Helper()
	reg := rules.Default()
	set, err := reg.Load("../examples/lob/example-tables.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := engines{set: set}
	for _, id := range reg.IDs() {
		r, err := reg.Engine(id, set)
		if err != nil {
			t.Fatal(err)
		}
		out.rules = append(out.rules, r)
	}
	return out
}

// measures are the fields of the state that a rule measures with: a
// general's command range, a messenger's or unit's speed, the board's
// engagement reach.
var measures = []string{"range", "speed", "reach", "radius"}

// arithmetic are the operators that compute; comparisons decide.
var (
	arithmetic  = []string{"+", "-", "*", "/", "%", "**", "+=", "-=", "*=", "/=", "%="}
	comparisons = []string{"<", ">", "<=", ">=", "==", "===", "!=", "!=="}
)

// ruleMarks lists the marks of rule arithmetic in one script, each as a
// sentence naming its line.
func (v ruleVocab) ruleMarks(src string) ([]string, error) {
	toks, err := lexJS(src)
	if err != nil {
		return nil, err
	}
	var out []string
	mark := func(tk jsToken, format string, args ...any) {
		out = append(out, fmt.Sprintf("line %d: %s", tk.line, fmt.Sprintf(format, args...)))
	}
	at := func(i int) jsToken {
		if i < 0 || i >= len(toks) {
			return jsToken{}
		}
		return toks[i]
	}
	// Arrays open at each depth, with the formations named in each.
	type array struct{ shapes []string }
	var open []*array
	for i, tk := range toks {
		switch tk.kind {
		case 's', 't':
			for _, id := range v.tables {
				if strings.Contains(tk.text, id) {
					mark(tk, "names the table %s: the server rolls and reads tables", id)
				}
			}
			for _, d := range v.distances {
				if w := strconv.FormatFloat(d, 'f', -1, 64) + "″"; strings.Contains(tk.text, w) && !strings.Contains(tk.text, "1"+w) {
					mark(tk, "words the distance %s: the board gives it", w)
				}
			}
			if tk.kind != 's' {
				break
			}
			prev, next := at(i-1), at(i+1)
			switch {
			case prev.kind == 'i' && prev.text == "case" && slices.Contains(v.eventTypes, tk.text):
				mark(tk, "switches on the event type %s: the server sums each event up", tk.text)
			case prev.kind == 'i' && prev.text == "case" && slices.Contains(v.shapes, tk.text):
				mark(tk, "switches on the formation %s: the board gives each unit type's", tk.text)
			case next.text == ":" && (prev.text == "{" || prev.text == ",") && slices.Contains(v.eventTypes, tk.text):
				mark(tk, "keys an object by the event type %s: the server sums each event up", tk.text)
			}
			if len(open) > 0 && slices.Contains(v.shapes, tk.text) && (prev.text == "[" || prev.text == ",") {
				a := open[len(open)-1]
				if a != nil {
					a.shapes = append(a.shapes, tk.text)
				}
			}
		case 'n':
			n, ok := numberValue(tk.text)
			if !ok {
				break
			}
			if slices.Contains(v.reaches, n) {
				mark(tk, "holds the number %s, the engagement reach: the board gives it (NB-6)", tk.text)
			}
			// An input's bound: min: -3, max: 3.
			sign, key := 1, at(i-2)
			if at(i-1).text == "-" {
				sign, key = -1, at(i-3)
			}
			if b, isBound := v.bounds[key.text]; isBound && key.kind == 'i' && at(i-1-max(0, -sign)).text == ":" && int(n)*sign == b {
				mark(tk, "bounds an input by %s %d, a bound of the rules: the board gives it", key.text, b)
			}
		case 'i':
			if !slices.Contains(measures, tk.text) || (at(i-1).text != "." && at(i-1).text != "?.") {
				break
			}
			if after := at(i + 1); after.text == "." || after.text == "?." || after.text == "[" || after.text == "(" {
				break // not the value itself
			}
			// The operand ends here; find where it starts (a.b[0].range).
			first := chainStart(toks, i)
			for _, side := range []struct{ op, other jsToken }{{at(first - 1), at(first - 2)}, {at(i + 1), at(i + 2)}} {
				if side.op.kind != 'p' {
					continue
				}
				unary := side.op == at(first-1) && (side.op.text == "-" || side.op.text == "+") && isUnary(side.other)
				switch {
				case slices.Contains(arithmetic, side.op.text) && !unary:
					mark(tk, "computes with a %s (%s): the server measures with it", tk.text, side.op.text)
				case slices.Contains(comparisons, side.op.text) && !(side.other.kind == 'n' && side.other.text == "0"):
					mark(tk, "compares a %s (%s): the server decides with it", tk.text, side.op.text)
				}
			}
		case 'p':
			switch tk.text {
			case "[":
				// An array literal, not an index: after an operator or
				// an opening, not after a value.
				prev := at(i - 1)
				literal := prev.kind == 0 || prev.kind == 'p' && prev.text != ")" && prev.text != "]" && prev.text != "}" ||
					prev.kind == 'i' && (prev.text == "return" || prev.text == "of" || prev.text == "in")
				if literal {
					open = append(open, &array{})
				} else {
					open = append(open, nil)
				}
			case "]":
				if len(open) == 0 {
					break
				}
				a := open[len(open)-1]
				open = open[:len(open)-1]
				if a != nil && len(a.shapes) >= 2 {
					mark(tk, "lists the formations %s: the board gives each unit type's", strings.Join(a.shapes, ", "))
				}
			}
		}
	}
	return out, nil
}

// chainStart is the index of the first token of the member chain whose
// last token is toks[i]: a.b(c)[0].range starts at a.
func chainStart(toks []jsToken, i int) int {
	first := i
	for first >= 2 && (toks[first-1].text == "." || toks[first-1].text == "?.") {
		j := first - 2
		for j >= 0 && toks[j].kind == 'p' && (toks[j].text == "]" || toks[j].text == ")") {
			depth := 0
			for ; j >= 0; j-- {
				switch toks[j].text {
				case "]", ")", "}":
					depth++
				case "[", "(", "{":
					depth--
				}
				if depth == 0 {
					break
				}
			}
			j-- // the token before the opening bracket
		}
		if j < 0 || toks[j].kind != 'i' {
			break
		}
		first = j
	}
	return first
}

// isUnary tells whether a sign after tk is a sign, not an operator.
func isUnary(tk jsToken) bool {
	return tk.kind == 0 || tk.kind == 'p' && tk.text != ")" && tk.text != "]" && tk.text != "}" || tk.kind == 'i' && slices.Contains(regexAfter, tk.text)
}

// TestPageComputesNoRule reads every script of the page and fails on any
// mark of rule arithmetic (see above): the page shows what the server
// says.
func TestPageComputesNoRule(t *testing.T) {
	t.Parallel()
	v := loadVocab(t)
	n := 0
	err := fs.WalkDir(web.FS(), "js", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".js") {
			return err
		}
		n++
		data, err := fs.ReadFile(web.FS(), name)
		if err != nil {
			return err
		}
		marks, err := v.ruleMarks(string(data))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return nil
		}
		for _, m := range marks {
			t.Errorf("%s: %s", name, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Fatalf("read %d scripts under js/; the page has more", n)
	}
}

// TestRuleMarksCaught checks that the check above would catch what the
// page used to do (the arithmetic the server now does) and lets alone
// what only looks like it.
func TestRuleMarksCaught(t *testing.T) {
	t.Parallel()
	v := loadVocab(t)
	for _, c := range []struct {
		name, src, want string
	}{
		{"a table id", `const t = 'nb/order-delay';`, "names the table nb/order-delay"},
		{"a table id in a template", "h('b', { text: `rolls on nb/reserve-arrival for ${g}` });", "names the table nb/reserve-arrival"},
		{"the reach", `if (d <= 17) engaged = true;`, "the engagement reach"},
		{"the proximity in words", "h('p', { text: `A unit within 12″ of the enemy may move` });", "words the distance 12″"},
		{"a modifier's bounds", `h('input', { type: 'number', min: -3, max: 3 });`, "bounds an input by min -3"},
		{"a radius membership", `if (this.dist(p, g.at) <= box.radius) out.push(p);`, "compares a radius (<=)"},
		{"the arrival arithmetic", `const rides = Math.max(1, Math.ceil(dist / ac.range - 1e-9));`, "computes with a range (/)"},
		{"a speed times turns", `const far = m.speed * turns;`, "computes with a speed (*)"},
		{"an engagement test", `const near = dist < m.reach;`, "compares a reach (<)"},
		{"a list of formations", `const SHAPES_HORSE = ['column', 'march-column', 'line'];`, "lists the formations column, march-column, line"},
		{"a nested list", `const s = x ? [['limbered', 'unlimbered']] : [];`, "lists the formations limbered, unlimbered"},
		{"an event switch", "switch (e.type) {\n  case 'step-begun': t = `${e.step} step`; break;\n  case 'order-read': t = 'read'; break;\n}", "switches on the event type order-read"},
		{"an event table", `const words = { 'order-read': (e) => e.text, 'moved': () => '' };`, "keys an object by the event type order-read"},
		{"a formation switch", `switch (u.formation) { case 'square': r = 1; }`, "switches on the formation square"},
		// Formations of the rule sets beyond NB's: LOB's, NES's, CD's.
		{"another rule set's formations", `const s = ['road-column', 'open-order'];`, "lists the formations road-column, open-order"},
		{"a switch on a mounted formation", `switch (u.formation) { case 'dismounted': r = 1; }`, "switches on the formation dismounted"},
	} {
		marks, err := v.ruleMarks(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.ContainsFunc(marks, func(m string) bool { return strings.Contains(m, c.want) }) {
			t.Errorf("%s: %q gave %q, want a mark with %q", c.name, c.src, marks, c.want)
		}
	}
	clean := strings.Join([]string{
		`// The engagement reach (17", NB-6) and nb/order-delay are the server's.`,
		`/* case 'order-read': ['column', 'line'] */`,
		`const re = /'[^']*' \/ 17/g; const half = a / 2;`,
		"const t = `${e.summary} ${`nested ${x['order-read']}`}` + '/';",
		`if (e.type === 'order-written') ok = true;`,
		`const r = g.range > 0 ? g.range : 0; circle({ r: m.reach, range: g.range });`,
		`const label = on ? 'line' : 'column'; const sel = h('option', { value: 'square' });`,
		`const shapes = (b.shapes || {})[u.type] || []; const v = xs[0] - ys[1];`,
		`const size = { column: [0.9, 1.4], 'march-column': [0.55, 2.0] };`,
		`const w = -m.speed; const text = num(m.speed) + '″';`,
		"const t = `within ${num(x.proximity)}″, 112″ away`; const s = x.slice(0, 12); const f = { min: x.min, max: 10 };",
	}, "\n")
	marks, err := v.ruleMarks(clean)
	if err != nil || len(marks) > 0 {
		t.Errorf("the clean sample gave %q, %v", marks, err)
	}
}
