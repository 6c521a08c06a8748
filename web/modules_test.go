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

// The page has one module per rule set, js/rules/ID.js, listed once in
// js/rules/index.js; app.js and the modules every rule set shares name no
// rule set, so that adding one touches only its module and that list.

// moduleIDs lists the rule sets with a page module: the scripts directly
// under js/rules/ but the index.
func moduleIDs(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(web.FS(), "js/rules/*.js")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range names {
		if id := strings.TrimSuffix(path.Base(n), ".js"); id != "index" {
			ids = append(ids, id)
		}
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

// TestModulePerRuleSet: every rule set the server plays has a page
// module, and the index imports each module on one line of its own.
func TestModulePerRuleSet(t *testing.T) {
	t.Parallel()
	ids := moduleIDs(t)
	for _, id := range rules.Procedures() {
		if !slices.Contains(ids, id) {
			t.Errorf("rule set %s has no page module js/rules/%s.js", id, id)
		}
	}
	index, err := fs.ReadFile(web.FS(), "js/rules/index.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		want := fmt.Sprintf("import %s from './%s.js';", id, id)
		if strings.Count(string(index), want) != 1 {
			t.Errorf("js/rules/index.js does not import the module of %s once as %q", id, want)
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
