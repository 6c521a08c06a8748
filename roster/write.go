package roster

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
)

// Write writes the sides of a scenario document (as YAML or JSON decodes
// them: maps, lists, numbers, text) as a roster of the rule set of spec:
// the header, then for each side its army commander and, top down, each
// formation's general followed by its units. What a roster has no column
// for (an order written out as a mapping keeps only its kind; a unit's
// order of battle position in lists is kept) is left out. Reading what
// Write writes gives the sides back.
func Write(spec battle.Spec, sides []any) ([]byte, error) {
	f, err := readFormat(spec)
	if err != nil {
		return nil, err
	}
	w := &writer{f: f, cols: f.columns()}
	for i, s := range sides {
		m, ok := s.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("roster: sides[%d] is not a mapping", i)
		}
		if err := w.side(m); err != nil {
			return nil, fmt.Errorf("roster: sides[%d]: %w", i, err)
		}
	}
	return w.csv()
}

// Template is the rule set's roster template: its header and the rows of
// a sample scenario's sides (a bundled one, as YAML), cut to the first
// formation of each level and two units of each, so that it is short and
// imports cleanly.
func Template(spec battle.Spec, sample []byte) ([]byte, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(sample, &doc); err != nil {
		return nil, fmt.Errorf("roster: the sample scenario: %w", err)
	}
	sides, _ := doc["sides"].([]any)
	f, err := readFormat(spec)
	if err != nil {
		return nil, err
	}
	for _, s := range sides {
		if m, ok := s.(map[string]any); ok {
			prune(f, "side", m)
		}
	}
	return Write(spec, sides)
}

// prune keeps the first formation of each list of a definition's, and
// the first two units.
func prune(f *format, def string, m map[string]any) {
	d := f.defs[def]
	kept := false
	for _, l := range d.lists {
		items, _ := m[l.key].([]any)
		keep := 1
		if l.of == "unit" {
			keep = 2
		}
		if kept && l.of != "unit" {
			keep = 0
		}
		if len(items) > keep {
			items = items[:keep]
		}
		if len(items) == 0 {
			delete(m, l.key)
			continue
		}
		m[l.key] = items
		if l.of != "unit" {
			kept = true
		}
		for _, it := range items {
			if sub, ok := it.(map[string]any); ok && l.of != "unit" {
				prune(f, l.of, sub)
			}
		}
	}
}

// writer writes rows.
type writer struct {
	f    *format
	cols []*Column
	rows []map[string]string
}

// side writes one side's rows.
func (w *writer) side(m map[string]any) error {
	base := map[string]string{}
	for _, c := range w.cols {
		if c.to == onSide {
			if v, ok := m[c.key]; ok {
				base[c.Name] = cell(v)
			}
		}
	}
	army, ok := m["army"].(map[string]any)
	if !ok {
		return fmt.Errorf("no army commander")
	}
	row := clone(base)
	row["role"] = "general"
	w.piece(row, army, "general")
	w.rows = append(w.rows, row)
	return w.lists("side", m, base)
}

// lists writes the formations and units that a mapping of definition def
// lists, each row starting from base.
func (w *writer) lists(def string, m map[string]any, base map[string]string) error {
	for _, l := range w.f.defs[def].lists {
		items, _ := m[l.key].([]any)
		for i, it := range items {
			sub, ok := it.(map[string]any)
			if !ok {
				return fmt.Errorf("%s[%d] is not a mapping", l.key, i)
			}
			if l.of == "unit" {
				row := clone(base)
				row["role"] = "unit"
				w.piece(row, sub, "unit")
				w.rows = append(w.rows, row)
				continue
			}
			b := clone(base)
			b[l.of] = cell(sub["id"])
			g, ok := sub["general"].(map[string]any)
			if !ok {
				return fmt.Errorf("%s[%d] has no general", l.key, i)
			}
			row := clone(b)
			row["role"] = "general"
			w.piece(row, g, "general")
			for _, c := range w.cols {
				if c.to != onFormation || c.props[l.of] == nil {
					continue
				}
				v, ok := sub[c.key]
				if c.key == "objective" {
					o, _ := sub["order"].(map[string]any)
					v, ok = o["objective"]
				}
				if ok {
					row[c.Name] = cell(v)
				}
			}
			w.rows = append(w.rows, row)
			if err := w.lists(l.of, sub, b); err != nil {
				return fmt.Errorf("%s[%d]: %w", l.key, i, err)
			}
		}
	}
	return nil
}

// piece fills a row's cells from a general's or unit's mapping.
func (w *writer) piece(row map[string]string, m map[string]any, kind string) {
	for _, c := range w.cols {
		if c.to == onPiece && c.props[kind] != nil {
			if v, ok := m[c.key]; ok {
				row[c.Name] = cell(v)
			}
		}
	}
}

// csv writes the header and the rows, leaving out columns no row uses
// except the side, role and id.
func (w *writer) csv() ([]byte, error) {
	var header []string
	for _, c := range w.cols {
		used := c.Name == "side" || c.Name == "role" || c.Name == "id" || c.Required
		for _, r := range w.rows {
			if r[c.Name] != "" {
				used = true
				break
			}
		}
		if used {
			header = append(header, c.Name)
		}
	}
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	if err := cw.Write(header); err != nil {
		return nil, err
	}
	for _, r := range w.rows {
		rec := make([]string, len(header))
		for i, h := range header {
			rec[i] = r[h]
		}
		if err := cw.Write(rec); err != nil {
			return nil, err
		}
	}
	cw.Flush()
	return b.Bytes(), cw.Error()
}

// cell writes a value as a cell: a position [x, y] as "x y", an order
// mapping as its kind.
func cell(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatInt(int64(v), 10)
		}
		return num(v)
	case []any:
		var parts []string
		for _, x := range v {
			parts = append(parts, cell(x))
		}
		return strings.Join(parts, " ")
	case map[string]any:
		return cell(v["kind"])
	}
	return fmt.Sprint(v)
}

// clone copies a row.
func clone(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Sample returns the text of the bundled scenario that the rule set id's
// template is made from: its demo (a scenario file named demo or ending
// in -demo in the rule set's directory of examples), or else its first
// scenario file with sides.
func Sample(examples fs.FS, id string) ([]byte, error) {
	files, err := fs.Glob(examples, id+"/*.yaml")
	if err != nil {
		return nil, fmt.Errorf("roster: the examples of %s: %w", id, err)
	}
	slices.SortStableFunc(files, func(a, b string) int {
		demo := func(f string) int {
			base := strings.TrimSuffix(path.Base(f), ".yaml")
			if base == "demo" || strings.HasSuffix(base, "-demo") {
				return 0
			}
			return 1
		}
		return demo(a) - demo(b)
	})
	for _, f := range files {
		data, err := fs.ReadFile(examples, f)
		if err != nil {
			return nil, fmt.Errorf("roster: %w", err)
		}
		var head struct {
			Rules string `yaml:"rules"`
			Sides []any  `yaml:"sides"`
		}
		if yaml.Unmarshal(data, &head) == nil && head.Rules == id && len(head.Sides) > 0 {
			return data, nil
		}
	}
	return nil, fmt.Errorf("roster: rule set %s has no bundled scenario to make a template from", id)
}
