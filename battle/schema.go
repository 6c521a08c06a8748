package battle

import (
	_ "embed"
	"slices"
)

//go:embed scenario.schema.json
var schema []byte

// Schema returns the JSON Schema (draft 2020-12) of a scenario file, the
// format that Load reads. The quality, nation and order values it lists are
// those of the NB rule set. The caller may change the returned slice; it is
// a copy.
func Schema() []byte { return slices.Clone(schema) }
