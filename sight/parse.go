package sight

import (
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"

	"orderly/strict"
)

// maxRange is the farthest range a sight file may give: a table is at most
// a few hundred inches, a map a few hundred hexes.
const maxRange = 1000

// Parse reads a rule set's sight data: a mapping with example (true when
// the numbers are example values), range (by kind, with default),
// cover (by terrain), blocks (hex terrains), into, crests, over and near.
func Parse(file string, data []byte) (*Rules, error) {
	r := strict.Reader{File: file}
	n, err := r.Parse(data)
	if err != nil {
		return nil, err
	}
	f, err := r.Fields(n, "sight", "example", "range", "cover", "blocks", "into", "crests", "over", "near")
	if err != nil {
		return nil, err
	}
	if f["range"] == nil {
		return nil, r.Errf(n, "sight: range is missing: how far each kind of piece sees, with a default")
	}
	out := &Rules{Range: map[string]float64{}, Cover: map[string]float64{}}
	if err := flags(r, f, out); err != nil {
		return nil, err
	}
	def, err := distances(r, f, "range", out.Range, out)
	if err != nil {
		return nil, err
	}
	if !def {
		return nil, r.Errf(f["range"], "sight.range: default is missing: how far a piece of a kind not named sees")
	}
	if _, err := distances(r, f, "cover", out.Cover, out); err != nil {
		return nil, err
	}
	if out.Blocks, err = words(r, f, "blocks"); err != nil {
		return nil, err
	}
	if out.Crests, err = words(r, f, "crests"); err != nil {
		return nil, err
	}
	for _, k := range []string{"into", "near"} {
		if v := f[k]; v != nil {
			d, err := distance(r, v, "sight."+k)
			if err != nil {
				return nil, err
			}
			if k == "into" {
				out.Into = d
			} else {
				out.Near = d
			}
		}
	}
	return out, nil
}

// flags reads the sight data's example and over switches into out.
func flags(r strict.Reader, f map[string]*yaml.Node, out *Rules) error {
	var err error
	if v := f["example"]; v != nil {
		if out.Example, err = r.Bool(v, "sight.example"); err != nil {
			return err
		}
	}
	if v := f["over"]; v != nil {
		if out.Over, err = r.Bool(v, "sight.over"); err != nil {
			return err
		}
	}
	return nil
}

// distance reads a distance from 0 to maxRange.
func distance(r strict.Reader, v *yaml.Node, where string) (float64, error) {
	s, err := r.Str(v, where)
	if err != nil {
		return 0, err
	}
	d, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(d) || d < 0 || d > maxRange {
		return 0, r.Errf(v, "%s: want a distance from 0 to %d, got %q", where, maxRange, s)
	}
	return d, nil
}

// distances reads the mapping of names to distances under key into into; a
// range's default goes to out.Default, and def says whether it was given.
func distances(r strict.Reader, f map[string]*yaml.Node, key string, into map[string]float64, out *Rules) (def bool, err error) {
	v := f[key]
	if v == nil {
		return false, nil
	}
	pairs, err := r.Pairs(v, "sight."+key)
	if err != nil {
		return false, err
	}
	for _, p := range pairs {
		k, err := r.Word(p[0], "sight."+key)
		if err != nil {
			return false, err
		}
		d, err := distance(r, p[1], fmt.Sprintf("sight.%s.%s", key, k))
		if err != nil {
			return false, err
		}
		if key == "range" && k == "default" {
			out.Default, def = d, true
			continue
		}
		into[k] = d
	}
	return def, nil
}

// words reads the list of words under key, nil if it is not given.
func words(r strict.Reader, f map[string]*yaml.Node, key string) ([]string, error) {
	v := f[key]
	if v == nil {
		return nil, nil
	}
	items, err := r.List(v, "sight."+key)
	if err != nil {
		return nil, err
	}
	var ws []string
	for i, it := range items {
		w, err := r.Word(it, fmt.Sprintf("sight.%s[%d]", key, i))
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	return ws, nil
}
