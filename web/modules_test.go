package web_test

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"orderly/rules"
	"orderly/web"
)

// The page has one module per rule set, js/rules/ID.js, which app.js
// imports by the id the board names (rulesModule): no list of rule sets
// on the page. app.js and the modules every rule set shares name no rule
// set, so that adding one touches only its module.

// moduleIDs lists the rule sets with a page module: the scripts directly
// under js/rules/.
func moduleIDs(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(web.FS(), "js/rules/*.js")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range names {
		ids = append(ids, strings.TrimSuffix(path.Base(n), ".js"))
	}
	return ids
}

// namesRuleSet lists the rule-set ids src names as a word, in any case
// (nb, NB-13, './rules/nb.js'), each with its line.
func namesRuleSet(src string, ids []string) []string {
	var out []string
	for _, id := range ids {
		re := regexp.MustCompile(`(?i)(^|[^\p{L}\p{N}_])` + regexp.QuoteMeta(id) + `($|[^\p{L}\p{N}_])`)
		for i, line := range strings.Split(src, "\n") {
			if re.MatchString(line) {
				out = append(out, fmt.Sprintf("line %d names %s: %s", i+1, id, strings.TrimSpace(line)))
			}
		}
	}
	return out
}

// rulesID is what app.js accepts as a rules id before it imports
// js/rules/ID.js (RULES_ID there).
var rulesID = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

// TestModulePerRuleSet: every rule set the server plays has a page
// module under a name app.js imports, and the page holds no index of
// them: app.js finds a module by its id alone.
func TestModulePerRuleSet(t *testing.T) {
	t.Parallel()
	ids := moduleIDs(t)
	for _, id := range rules.Procedures() {
		if !slices.Contains(ids, id) {
			t.Errorf("rule set %s has no page module js/rules/%s.js", id, id)
		}
	}
	for _, id := range ids {
		if !rulesID.MatchString(id) {
			t.Errorf("js/rules/%s.js: app.js imports a module only by an id matching %s", id, rulesID)
		}
	}
	if _, err := fs.Stat(web.FS(), "js/rules/index.js"); err == nil {
		t.Error("js/rules/index.js is back: the page finds a rule set's module by its id (app.js, rulesModule), with no list to join")
	}
	app, err := fs.ReadFile(web.FS(), "js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RULES_ID = /" + rulesID.String() + "/;", "await import(`./rules/${id}.js`)"} {
		if !strings.Contains(string(app), want) {
			t.Errorf("js/app.js does not find a module by its id as %q", want)
		}
	}
}

// TestSharedScriptsNameNoRuleSet reads app.js and every script shared by
// the rule sets (those outside js/rules/) and fails on any that names a
// rule set, in code or in a comment: what differs by rule set is in its
// module.
func TestSharedScriptsNameNoRuleSet(t *testing.T) {
	t.Parallel()
	ids := moduleIDs(t)
	if len(ids) < 5 {
		t.Fatalf("page modules for %v only", ids)
	}
	n := 0
	err := fs.WalkDir(web.FS(), "js", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".js") || strings.HasPrefix(name, "js/rules/") {
			return err
		}
		n++
		src, err := fs.ReadFile(web.FS(), name)
		if err != nil {
			return err
		}
		for _, m := range namesRuleSet(string(src), ids) {
			t.Errorf("%s: %s", name, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("read %d shared scripts; the page has more", n)
	}
}

// TestNamesRuleSetCaught checks that the check above catches what app.js
// used to hold and lets alone words that only contain an id.
func TestNamesRuleSetCaught(t *testing.T) {
	t.Parallel()
	ids := []string{"nb", "bp", "cd", "nes", "lob"}
	for _, src := range []string{
		`if (app.info.rules === 'lob') {`,
		`import { CommandPanel } from './bp.js';`,
		`h('button', { title: 'NB-13' })`,
		`// The command panel of a hex game (NES, LOB).`,
		"const cd = u.stamina === undefined;",
	} {
		if len(namesRuleSet(src, ids)) == 0 {
			t.Errorf("%q: not caught", src)
		}
	}
	clean := "const lobby = 'nest'; abcd(); const nbsp = '\u00a0'; // cdn, bpm, globe"
	if got := namesRuleSet(clean, ids); len(got) > 0 {
		t.Errorf("the clean sample gave %q", got)
	}
}

// ruleWords are the fields of one rule set's (or two's) pieces that its
// module reads, never a shared script: a general's fate, attachment and
// replacement (NB-13, NB-15), a formation's reserve (NB-9, NB-10), a
// unit's stamina (BP), combat value (CD), brigade and staff rating (BP
// and CD, rules/common/table-units.js); a general's quality (NB-5), a
// unit's detachment and combat flag (NB-12) and its status (NB's and the
// hex rule sets'; read as u.status, since orders and answers have a status
// too); a unit disordered, shaken or engaged (BP and CD).
var ruleWords = regexp.MustCompile(`(\.|\[['"])(fate|attached|replaced|reserve|stamina|cw|brigade|staff|quality|detachment|combat|disordered|shaken|engaged)\b|\bu\.status\b`)

// TestSharedScriptsReadNoRuleWords fails on a shared script that reads one
// of ruleWords as a property: what only a rule set's pieces carry is
// drawn by its module's hooks (a map view's generalMarks, unitSize,
// footprintText; the order of battle's generalChips).
func TestSharedScriptsReadNoRuleWords(t *testing.T) {
	t.Parallel()
	err := fs.WalkDir(web.FS(), "js", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".js") || strings.HasPrefix(name, "js/rules/") {
			return err
		}
		src, err := fs.ReadFile(web.FS(), name)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := ruleWords.FindString(line); m != "" {
				t.Errorf("%s: line %d reads %s: %s", name, i+1, m, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRuleWordsCaught checks that the check above catches the reads the
// shared scripts used to hold and lets alone prose and longer names.
func TestRuleWordsCaught(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"if (g.fate) cls.push('fallen');",
		"const valued = u.stamina === undefined;",
		"if (fm.reserve !== 'off-board') continue;",
		"x.groups[selUnit.brigade]",
		"`, CW ${u.cw ?? '—'}`",
		"g['attached']",
		"` · ${g.quality}, ${num(g.range)}″`",
		"u.status !== 'formed' ? h('span.st') : null",
		"if (u.detachment) lines.push('detachment');",
		"if ((u.engaged || []).length) cls.push('st-engaged');",
		"${u.shaken ? ', shaken' : ''}",
	} {
		if !ruleWords.MatchString(src) {
			t.Errorf("%q: not caught", src)
		}
	}
	for _, src := range []string{
		"// the reserves will come on, say; a brigade's staff",
		"this.attachedTo(g); u.fated; x.reserves",
		"const r = { staffing: 1 };",
		"if (o.status === 'carried') status = o.status;",
		"// a unit disordered, shaken or engaged in combat",
	} {
		if m := ruleWords.FindString(src); m != "" {
			t.Errorf("%q: caught %q", src, m)
		}
	}
}
