package strict

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Hex reads the label of a hex on a hex map, as printed: its column then
// its row, such as "0412", or 4-12. Whether the hex is on the map is the
// map's to say.
func (r Reader) Hex(n *yaml.Node, where string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", r.Errf(n, "%s: want the label of a hex, such as \"0412\", got %s", where, KindName(n))
	}
	if len(n.Value) == 0 || len(n.Value) > 13 || strings.Trim(n.Value, "0123456789-") != "" {
		return "", r.Errf(n, "%s: %s is not the label of a hex; write its column then its row, such as \"0412\", or 4-12", where, Quote(n.Value, 20))
	}
	return n.Value, nil
}

// Route reads where a move on a hex map goes: to, the hex it ends in,
// and path, the hexes in order (at most most of them), either or both;
// a path's last hex is where it goes, and to must agree with it.
func (r Reader) Route(v, to, path *yaml.Node, where string, most int) (string, []string, error) {
	var dest string
	var err error
	if to != nil {
		if dest, err = r.Hex(to, where+".to"); err != nil {
			return "", nil, err
		}
	}
	var hexes []string
	if path != nil {
		items, err := r.List(path, where+".path")
		if err != nil {
			return "", nil, err
		}
		if len(items) == 0 || len(items) > most {
			return "", nil, r.Errf(path, "%s.path: a path has 1..%d hexes, got %d", where, most, len(items))
		}
		for i, it := range items {
			s, err := r.Hex(it, where+".path["+strconv.Itoa(i)+"]")
			if err != nil {
				return "", nil, err
			}
			hexes = append(hexes, s)
		}
		last := hexes[len(hexes)-1]
		if dest != "" && dest != last {
			return "", nil, r.Errf(path, "%s.path: the path ends at %s, not at %s where to says; give one of them, or make them agree", where, last, dest)
		}
		dest = last
	}
	if dest == "" {
		return "", nil, r.Errf(v, "%s: to is missing: the hex to move to (or path: the hexes in order)", where)
	}
	return dest, hexes, nil
}
