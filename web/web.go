// Package web is the browser side of orderly serve: plain ES modules, SVG
// and CSS, embedded in the binary, with no build step.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var files embed.FS

// FS is the page's files, at the root (index.html, play.html, js/, css/).
func FS() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the directory is embedded above; Sub cannot fail
	}
	return sub
}
