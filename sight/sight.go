// Package sight works out what a piece can see, for fog of war: how far a
// piece of each kind looks, how cover hides what stands in it, and what
// blocks a line of sight, on a table (its features) or a hex map (its
// terrain and elevation). The numbers are a rule set's data (Rules, read
// from YAML by Parse); the procedures are here, once for every rule set.
package sight

import (
	"fmt"
	"math"
	"slices"

	"orderly/battle"
	"orderly/geom"
	"orderly/geom/hex"
	"orderly/terrain"
)

// Rules are a rule set's spotting data. None of our sources gives spotting
// ranges, so a rule set ships example values and says so (Example); what
// blocks a line of sight comes from the sources where they say it (NES-7's
// woods, farmette and town; LOB's obstacles within four hexes).
type Rules struct {
	// Example says the numbers are example values, not the sources'.
	Example bool
	// Range is how far a piece of each kind sees, in the space's unit
	// (inches on a table, hexes on a map), by the scenario's unit type, or
	// general for generals, leaders and HQs, messenger for messengers;
	// Default for any other kind. A range of 0 sees nothing.
	Range   map[string]float64
	Default float64
	// Cover is, by the terrain a piece stands in (a hex terrain, or a
	// table feature's type), the farthest it can be spotted from.
	Cover map[string]float64
	// Blocks lists the hex terrains that block a line of sight. On a table
	// a feature blocks by its own flag (battle.Feature.BlocksSight).
	Blocks []string
	// Into is how far a line of sight may run inside a table's
	// sight-blocking area (from either end) before it is blocked: a piece
	// at the edge of a wood sees out, and is seen, as the cover allows.
	Into float64
	// Crests lists the table feature types that are high ground: a line
	// across one is blocked unless one of its ends stands on it.
	Crests []string
	// Over says a hex map's blocking terrain is seen over from higher
	// ground: an obstacle blocks only if its hex, one level up for the
	// obstacle, stands above both ends. Without it an obstacle always
	// blocks. Near is the range within which an obstacle blocks anyway
	// (LOB: four hexes).
	Over bool
	Near float64
}

// Mark is something on the field that may see or be seen: a piece, or
// something a rule set keeps beside them (NB's messengers).
type Mark struct {
	ID   string
	Side string
	Kind string // a unit type, general or messenger: a key of Rules.Range
	At   geom.Point
}

// Sees is how far a mark of kind sees.
func (r *Rules) Sees(kind string) float64 {
	if d, ok := r.Range[kind]; ok {
		return d
	}
	return r.Default
}

// Farthest is the farthest any mark sees: the longest range of any kind,
// or the default's if longer.
func (r *Rules) Farthest() float64 {
	far := r.Default
	for _, d := range r.Range {
		far = max(far, d)
	}
	return far
}

// Field is the ground a game is played on, as sight needs it: a table's
// features or a hex map's terrain.
type Field struct {
	r     *Rules
	space geom.Space
	feats []*battle.Feature
	t     *terrain.Map
}

// On is the ground of sc under r.
func On(r *Rules, sc *battle.Scenario) *Field {
	return &Field{r: r, space: sc.Space(), feats: sc.Field.Features, t: sc.Terrain}
}

// OnMap is a hex map's ground under r, for a line of sight alone.
func OnMap(r *Rules, t *terrain.Map) *Field { return &Field{r: r, space: t.Grid, t: t} }

// Rules is the data the field is read with.
func (f *Field) Rules() *Rules { return f.r }

// Spots reports whether a spots b: b is within a's range, and within the
// range its cover allows, and the line between them is clear. Why names
// what stops it ("out of range", "woods at 0412"), or is empty.
func (f *Field) Spots(a, b Mark) (ok bool, why string) { return f.spots(a, b, true) }

// Spotted is Spots without the reason: what the engine asks many times
// after every event.
func (f *Field) Spotted(a, b Mark) bool {
	ok, _ := f.spots(a, b, false)
	return ok
}

func (f *Field) spots(a, b Mark, say bool) (bool, string) {
	d := f.space.Dist(a.At, b.At)
	reach := f.r.Sees(a.Kind)
	switch {
	case reach <= 0:
		if say {
			return false, fmt.Sprintf("a %s looks out for nothing", a.Kind)
		}
		return false, ""
	case d > reach+1e-9:
		if say {
			return false, fmt.Sprintf("%s is %s away, farther than a %s sees (%s)", b.ID, f.space.Unit().Of(round(d)), a.Kind, f.space.Unit().Of(reach))
		}
		return false, ""
	}
	if c, what, ok := f.cover(b.At); ok && d > c+1e-9 {
		if say {
			return false, fmt.Sprintf("%s stands in %s, seen from %s at most", b.ID, what, f.space.Unit().Of(c))
		}
		return false, ""
	}
	if clear, by := f.clear(a.At, b.At, say); !clear {
		return false, by
	}
	return true, ""
}

func round(d float64) float64 { return math.Round(d*10) / 10 }

// cover is the farthest a piece at p can be spotted from, and what hides
// it, if it stands in cover.
func (f *Field) cover(p geom.Point) (float64, string, bool) {
	if len(f.r.Cover) == 0 {
		return 0, "", false
	}
	if f.t != nil {
		i, ok := f.t.At(p)
		if !ok {
			return 0, "", false
		}
		name := f.t.TerrainName(i)
		c, ok := f.r.Cover[name]
		return c, name, ok
	}
	best, what, found := 0.0, "", false
	for _, ft := range f.feats {
		c, ok := f.r.Cover[ft.Type]
		if !ok || ft.Area == nil || !ft.Area.Contains(p) {
			continue
		}
		if !found || c < best {
			best, what, found = c, ft.Type, true
		}
	}
	return best, what, found
}

// Clear reports whether the line of sight from a to b is clear, and if not
// what blocks it.
func (f *Field) Clear(a, b geom.Point) (bool, string) { return f.clear(a, b, true) }

func (f *Field) clear(a, b geom.Point, say bool) (bool, string) {
	if f.t != nil {
		i, ok1 := f.t.At(a)
		j, ok2 := f.t.At(b)
		if !ok1 || !ok2 {
			return false, "off the map"
		}
		return f.clearHex(i, j, say)
	}
	return f.clearTable(a, b, say)
}

// clearTable is a table's line of sight: a sight-blocking area the line
// runs through (deeper than Into from its ends), or high ground between
// ends that stand on neither.
func (f *Field) clearTable(a, b geom.Point, say bool) (bool, string) {
	for _, ft := range f.feats {
		if ft.Area == nil {
			continue
		}
		crest := slices.Contains(f.r.Crests, ft.Type)
		if !ft.BlocksSight && !crest {
			continue
		}
		in := ft.Area.Inside(a, b)
		if in <= 1e-9 {
			continue
		}
		sa, sb := ft.Area.Contains(a), ft.Area.Contains(b)
		if crest && !sa && !sb {
			if !say {
				return false, ""
			}
			return false, fmt.Sprintf("high ground (%s)", name(ft))
		}
		if !ft.BlocksSight {
			continue
		}
		allow := 0.0
		if sa {
			allow += f.r.Into
		}
		if sb {
			allow += f.r.Into
		}
		if in > allow+1e-9 {
			if !say {
				return false, ""
			}
			return false, name(ft)
		}
	}
	return true, ""
}

func name(ft *battle.Feature) string {
	if ft.Name != "" {
		return fmt.Sprintf("%s %s", ft.Type, ft.Name)
	}
	if ft.ID != "" {
		return fmt.Sprintf("%s %s", ft.Type, ft.ID)
	}
	return ft.Type
}

// ClearHex reports whether hex j can be seen from hex i, and if not what
// blocks it: a hex between them of blocking terrain (unless seen over, see
// Rules.Over), or a hex higher than both ends. A line that runs along a
// hexside is blocked only if both sides block it. Neighbours always see
// each other.
func (f *Field) ClearHex(i, j int) (bool, string) { return f.clearHex(i, j, true) }

func (f *Field) clearHex(i, j int, say bool) (bool, string) {
	t := f.t
	lines := hex.Lines(t.Hex(i), t.Hex(j))
	top := max(t.Level(i), t.Level(j))
	near := float64(t.Distance(i, j)) <= f.r.Near
	var why string
	for _, line := range lines {
		if len(line) <= 2 {
			return true, ""
		}
		blocked := ""
		for _, h := range line[1 : len(line)-1] {
			k, ok := t.Index(h)
			if !ok {
				continue
			}
			lv := t.Level(k)
			if name := t.TerrainName(k); slices.Contains(f.r.Blocks, name) && (!f.r.Over || near || lv+1 > top) {
				blocked = "-"
				if say {
					blocked = fmt.Sprintf("%s at %s", name, t.Label(k))
				}
				break
			}
			if lv > top {
				blocked = "-"
				if say {
					blocked = fmt.Sprintf("higher ground (level %d) at %s", lv, t.Label(k))
				}
				break
			}
		}
		if blocked == "" {
			return true, ""
		}
		if why == "" {
			why = blocked
		}
	}
	if !say {
		why = ""
	}
	return false, why
}
