// Package examples holds the bundled scenarios and scripts, embedded so
// that the server can offer them (the demo among them) with nothing to
// install.
package examples

import (
	"embed"
	"io/fs"
)

//go:embed nb/*.yaml bp/*.yaml nes/*.yaml cd/*.yaml lob/*.yaml
var files embed.FS

// FS is every bundled example, under nb/, bp/, nes/, cd/ and lob/ (with
// lob/example-tables.yaml, the example values of the tables LOB players
// supply, which the bundled LOB games are played on).
func FS() fs.FS { return files }
