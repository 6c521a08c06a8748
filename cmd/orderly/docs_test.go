package main

// The documents' tests: every command shown with its output in README.md and
// docs/*.md is run and compared with what orderly prints (TestDocs; -update
// rewrites the shown outputs in place, as it rewrites the golden files),
// every link to a file or an anchor resolves (TestDocLinks), and every
// mechanic the rule sets cite has exactly one row in a feature table, in its
// rule set's guide (TestDocFeatures).

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"orderly/rules"
)

// repoRoot is where the documents are, seen from this package's directory.
const repoRoot = "../.."

// notRunMark, on the line before a fenced block, says why the commands it
// shows are not run (a server's fresh links, a made-up game id): the text
// after the colon must give the reason.
const notRunMark = "<!-- not run:"

// docFiles lists README.md and docs/*.md, relative to the repository root.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		rel, err := filepath.Rel(repoRoot, d)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	if len(files) < 2 {
		t.Fatalf("no docs/*.md beside README.md")
	}
	return files
}

// shownCommand is one `$ orderly ...` line of a fenced block and the output
// shown under it.
type shownCommand struct {
	file    string
	line    int // 1-based line of the command
	args    []string
	shown   []string // the output lines as the document shows them
	from    int      // 0-based index of the first output line in the file
	through int      // 0-based index one past the last output line
}

// fence reports whether line opens or closes a fenced block.
func fence(line string) bool { return strings.HasPrefix(line, "```") }

// parseShown finds the shown commands of one document. A fenced block with a
// line beginning "$ " is a shown-output block: each such line is a command
// and the lines up to the next one (or the fence) its output. Such a block
// is run unless the line before its fence is a not-run mark with a reason;
// a command other than orderly in a block that is run, or text before the
// block's first command, is an error.
func parseShown(file string, lines []string) ([]shownCommand, []error) {
	var cmds []shownCommand
	var errs []error
	for i := 0; i < len(lines); i++ {
		if !fence(lines[i]) {
			continue
		}
		open := i
		end := open + 1
		for end < len(lines) && !fence(lines[end]) {
			end++
		}
		i = end
		body := lines[open+1 : min(end, len(lines))]
		if !slices.ContainsFunc(body, func(l string) bool { return strings.HasPrefix(l, "$ ") }) {
			continue
		}
		if prev := previousText(lines, open); strings.HasPrefix(prev, notRunMark) {
			why := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(prev, notRunMark), "-->"))
			if why == "" {
				errs = append(errs, fmt.Errorf("%s:%d: the not-run mark gives no reason", file, open))
			}
			continue
		}
		var cur *shownCommand
		for k, l := range body {
			idx := open + 1 + k
			if strings.HasPrefix(l, "$ ") {
				if cur != nil {
					cmds = append(cmds, *cur)
				}
				cur = nil
				rest, ok := strings.CutPrefix(l, "$ orderly ")
				if !ok {
					errs = append(errs, fmt.Errorf("%s:%d: %q is not an orderly command, so it cannot be checked; mark its block %s why -->", file, idx+1, l, notRunMark))
					continue
				}
				args, err := splitWords(rest)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s:%d: %v", file, idx+1, err))
					continue
				}
				cur = &shownCommand{file: file, line: idx + 1, args: args, from: idx + 1, through: idx + 1}
				continue
			}
			if cur == nil {
				if k == 0 || !strings.HasPrefix(body[0], "$ ") {
					errs = append(errs, fmt.Errorf("%s:%d: a block of shown output must begin with its command (\"$ orderly ...\"), or be marked %s why -->", file, idx+1, notRunMark))
					break
				}
				continue // the output of a command that could not be parsed
			}
			cur.shown = append(cur.shown, l)
			cur.through = idx + 1
		}
		if cur != nil {
			cmds = append(cmds, *cur)
		}
	}
	return cmds, errs
}

// previousText is the nearest line above index i that is not blank.
func previousText(lines []string, i int) string {
	for j := i - 1; j >= 0; j-- {
		if s := strings.TrimSpace(lines[j]); s != "" {
			return s
		}
	}
	return ""
}

// splitWords splits a command line into words as a shell would for the
// plain words the documents use: spaces separate, and single or double
// quotes keep spaces in a word.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed quote in %q", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// ellipsis in shown output stands for what the document leaves out: a line
// that is only "..." for any number of lines, and "..." within a line for
// any text.
const ellipsis = "..."

// matchLines reports whether the output got is what shown shows.
func matchLines(shown, got []string) bool {
	memo := map[[2]int]bool{}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(shown) {
			return j == len(got)
		}
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		var ok bool
		if strings.TrimSpace(shown[i]) == ellipsis {
			for k := j; k <= len(got) && !ok; k++ {
				ok = match(i+1, k)
			}
		} else {
			ok = j < len(got) && matchLine(shown[i], got[j]) && match(i+1, j+1)
		}
		memo[key] = ok
		return ok
	}
	return match(0, 0)
}

// matchLine matches one line, "..." in shown standing for any text.
func matchLine(shown, got string) bool {
	shown, got = strings.TrimRight(shown, " \t"), strings.TrimRight(got, " \t")
	parts := strings.Split(shown, ellipsis)
	if len(parts) == 1 {
		return shown == got
	}
	rest, ok := strings.CutPrefix(got, parts[0])
	if !ok {
		return false
	}
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return strings.HasSuffix(rest, last)
}

// abridged reports whether shown output leaves something out.
func abridged(shown []string) bool {
	return slices.ContainsFunc(shown, func(l string) bool { return strings.Contains(l, ellipsis) })
}

// outputLines splits what a command printed into lines, as a document shows
// them (no trailing spaces).
func outputLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return lines
}

// docFixtures are the files the documents' commands name that are not in
// the repository: they are in testdata/docs and copied beside a link to
// examples/ in the directory the commands run in.
const docFixtures = "testdata/docs"

// TestDocs runs every command shown with its output in README.md and
// docs/*.md and compares what it prints (standard output and error as a
// terminal shows them) with what is shown. go test ./cmd/orderly -run
// TestDocs -update rewrites the shown outputs in place; an abridged output
// (with "...") that no longer matches is rewritten in full, to be abridged
// again by hand.
func TestDocs(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	files := docFiles(t)
	texts := map[string][]string{}
	var cmds []shownCommand
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		texts[f] = lines
		c, errs := parseShown(f, lines)
		for _, e := range errs {
			t.Error(e)
		}
		cmds = append(cmds, c...)
	}
	if len(cmds) < 30 {
		t.Fatalf("%d shown commands in the documents; the guides show more than 30", len(cmds))
	}

	dir := t.TempDir()
	fixtures, err := os.ReadDir(docFixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range fixtures {
		b, err := os.ReadFile(filepath.Join(docFixtures, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "examples"), filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)

	type edit struct {
		from, through int
		lines         []string
	}
	edits := map[string][]edit{}
	for _, c := range cmds {
		name := fmt.Sprintf("%s:%d", c.file, c.line)
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			drew := false
			a := &app{out: &buf, err: &buf, seed: func() uint64 { drew = true; return 42 }}
			// A command that does not end (a server) fails here rather
			// than holding the test; such a block is marked not run.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			a.run(ctx, c.args)
			got := outputLines(buf.String())
			if drew {
				t.Errorf("%s: orderly %s draws a fresh seed, so what it prints differs from run to run; give it --seed", name, strings.Join(c.args, " "))
			}
			if matchLines(c.shown, got) {
				return
			}
			if *update {
				edits[c.file] = append(edits[c.file], edit{c.from, c.through, got})
				if abridged(c.shown) {
					t.Logf("%s: the abridged output no longer matched and is now shown in full; abridge it again with ... lines", name)
				}
				return
			}
			t.Errorf("%s: orderly %s prints other than the document shows (go test ./cmd/orderly -run TestDocs -update rewrites it)\n--- printed\n%s\n--- shown\n%s",
				name, strings.Join(c.args, " "), strings.Join(got, "\n"), strings.Join(c.shown, "\n"))
		})
	}
	for f, es := range edits {
		lines := texts[f]
		sort.Slice(es, func(i, j int) bool { return es[i].from > es[j].from })
		for _, e := range es {
			lines = slices.Concat(lines[:e.from], e.lines, lines[e.through:])
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDocsParse checks the reading of shown outputs on a made-up document:
// what is run, what is marked not run, and what is refused.
func TestDocsParse(t *testing.T) {
	doc := strings.Split("text\n```\n$ orderly roll 2d6 --seed 5\na\nb\n$ orderly tables --x 'a b'\n```\n"+
		"<!-- not run: fresh links -->\n```\n$ orderly serve\nlink\n```\n"+
		"```\ngo test ./...\n```\n"+
		"```\n$ ls\nfile\n```\n"+
		"```\nsome text\n$ orderly tables\n```\n"+
		"<!-- not run: -->\n```\n$ orderly serve\n```\n", "\n")
	cmds, errs := parseShown("x.md", doc)
	if len(cmds) != 2 {
		t.Fatalf("%d commands, want the two of the first block: %+v", len(cmds), cmds)
	}
	if got := cmds[0]; got.line != 3 || !slices.Equal(got.args, []string{"roll", "2d6", "--seed", "5"}) || !slices.Equal(got.shown, []string{"a", "b"}) || got.from != 3 || got.through != 5 {
		t.Errorf("first command %+v", got)
	}
	if got := cmds[1]; !slices.Equal(got.args, []string{"tables", "--x", "a b"}) || len(got.shown) != 0 || got.from != got.through {
		t.Errorf("second command %+v", got)
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{`x.md:17: "$ ls" is not an orderly command`, "x.md:21: a block of shown output must begin with its command", "x.md:24: the not-run mark gives no reason"} {
		if !strings.Contains(all, want) {
			t.Errorf("no error %q among:\n%s", want, all)
		}
	}
	if len(errs) != 3 {
		t.Errorf("%d errors, want 3:\n%s", len(errs), all)
	}
}

// TestDocsMatch checks the comparison of shown and printed output.
func TestDocsMatch(t *testing.T) {
	cases := []struct {
		shown, got string
		want       bool
	}{
		{"a\nb", "a\nb", true},
		{"a\nb", "a\nc", false},
		{"a\nb", "a\nb\nc", false},
		{"a\n...\nd", "a\nb\nc\nd", true},
		{"a\n...\nd", "a\nd", true},
		{"a\n...", "a\nb", true},
		{"a\n...\nd", "a\nb\nc", false},
		{"x ... z", "x y y z", true},
		{"x ... z", "x y y", false},
		{"ab...cd...ef", "ab12cd34ef", true},
		{"ab...cd...ef", "ab12ef34cd", false},
		{"a  ", "a", true},
		{"", "", true},
	}
	for _, c := range cases {
		if got := matchLines(outputLines(c.shown), outputLines(c.got)); got != c.want {
			t.Errorf("shown %q, printed %q: match %v, want %v", c.shown, c.got, got, c.want)
		}
	}
}

// link finds markdown links [text](target) and reference definitions.
var (
	linkRE    = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	refLinkRE = regexp.MustCompile(`^\s*\[[^\]]+\]:\s*(\S+)`)
	codeRE    = regexp.MustCompile("`[^`]*`")
)

// links returns each link target of a document with its line, leaving out
// fenced blocks and inline code.
func links(lines []string) (targets []string, at []int) {
	in := false
	for i, l := range lines {
		if fence(l) {
			in = !in
			continue
		}
		if in {
			continue
		}
		l = codeRE.ReplaceAllString(l, "")
		for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
			targets, at = append(targets, m[1]), append(at, i+1)
		}
		if m := refLinkRE.FindStringSubmatch(l); m != nil {
			targets, at = append(targets, m[1]), append(at, i+1)
		}
	}
	return targets, at
}

// anchors are the ids GitHub gives a document's headings: lower case,
// punctuation dropped, spaces as hyphens, a repeated one numbered -1, -2.
func anchors(lines []string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	in := false
	for _, l := range lines {
		if fence(l) {
			in = !in
			continue
		}
		if in || !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		id := b.String()
		if n := seen[id]; n > 0 {
			ids[fmt.Sprintf("%s-%d", id, n)] = true
		} else {
			ids[id] = true
		}
		seen[id]++
	}
	return ids
}

// TestDocLinks checks that every link in README.md and docs/*.md to a file
// of the repository, or to an anchor in a document, resolves.
func TestDocLinks(t *testing.T) {
	read := func(f string) []string {
		b, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(string(b), "\n")
	}
	n := 0
	for _, f := range docFiles(t) {
		lines := read(f)
		targets, at := links(lines)
		for i, target := range targets {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			n++
			path, anchor, _ := strings.Cut(target, "#")
			to := f
			if path != "" {
				to = filepath.ToSlash(filepath.Join(filepath.Dir(f), path))
				if strings.HasPrefix(to, "../") {
					t.Errorf("%s:%d: link %s leaves the repository", f, at[i], target)
					continue
				}
				if _, err := os.Stat(filepath.Join(repoRoot, to)); err != nil {
					t.Errorf("%s:%d: link %s: no file %s", f, at[i], target, to)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(to, ".md") {
				t.Errorf("%s:%d: link %s: an anchor in a file that is not a document", f, at[i], target)
				continue
			}
			if !anchors(read(to))[anchor] {
				t.Errorf("%s:%d: link %s: %s has no heading with the anchor #%s", f, at[i], target, to, anchor)
			}
		}
	}
	if n < 20 {
		t.Errorf("%d links to files and anchors checked; README.md alone links every guide", n)
	}
}

// TestDocsAnchors checks the anchors GitHub would give headings.
func TestDocsAnchors(t *testing.T) {
	got := anchors([]string{"# orderly", "## Running it for others", "### The umpire server: `orderly serve`", "## Notes", "## Notes", "```", "# not a heading", "```"})
	for _, want := range []string{"orderly", "running-it-for-others", "the-umpire-server-orderly-serve", "notes", "notes-1"} {
		if !got[want] {
			t.Errorf("no anchor %s in %v", want, got)
		}
	}
	if got["not-a-heading"] || len(got) != 5 {
		t.Errorf("anchors %v, want 5", got)
	}
}

// specPrefixes is the prefixes of the SPEC IDs, one per registered rule
// set (nb's mechanics are NB-1, NB-2, ...), as a regular expression's
// alternatives: a rule set added to the registry is checked with no change
// here.
func specPrefixes() string {
	ids := rules.Default().IDs()
	for i, id := range ids {
		ids[i] = regexp.QuoteMeta(strings.ToUpper(id))
	}
	return strings.Join(ids, "|")
}

// featureRow is a row of a feature table: | ID | mechanic | status | note |.
var featureRow = regexp.MustCompile(`^\| ((` + specPrefixes() + `)-\d+) \| [^|]+ \| (works|partial|not yet) \|`)

// citedRE finds the SPEC IDs the rule sets cite.
var citedRE = regexp.MustCompile(`\b(` + specPrefixes() + `)-\d+\b`)

// TestDocFeatures checks that every mechanic the rule sets' code and tables
// cite has exactly one row in a feature table, in its rule set's guide
// (docs/nb.md holds NB's), and that no row names a mechanic none cites.
func TestDocFeatures(t *testing.T) {
	cited := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(repoRoot, "rules"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !(strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go")) && !strings.HasSuffix(path, ".yaml") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, id := range citedRE.FindAllString(string(b), -1) {
			cited[id] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			m := featureRow.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			at := fmt.Sprintf("%s:%d", f, i+1)
			rows[m[1]] = append(rows[m[1]], at)
			if want := "docs/" + strings.ToLower(m[2]) + ".md"; f != want {
				t.Errorf("%s: the row of %s belongs in %s", at, m[1], want)
			}
		}
	}
	for id := range cited {
		if len(rows[id]) != 1 {
			t.Errorf("%s is cited by the rule sets and has %d feature rows (%v), want 1", id, len(rows[id]), rows[id])
		}
	}
	for id, at := range rows {
		if !cited[id] {
			t.Errorf("%v: a feature row for %s, which no rule set cites", at, id)
		}
	}
	if len(cited) < 40 {
		t.Errorf("the rule sets cite %d mechanics; the catalogue has 47", len(cited))
	}
}
