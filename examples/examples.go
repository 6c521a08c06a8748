// Package examples holds the bundled scenarios and scripts, embedded so
// that the server can offer them (the demo among them) with nothing to
// install.
package examples

import (
	"embed"
	"errors"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"time"
)

// Every directory's YAML files, by pattern: a rule set's examples are
// embedded as soon as its directory is there, with no list to keep.
//
//go:embed */*.yaml
var files embed.FS

// FS is every bundled example: each rule set's under its id (nb/, bp/,
// nes/, cd/, lob/, with lob/example-tables.yaml, the example values of the
// tables LOB players supply, which the bundled LOB games are played on),
// and the house-rule files under rules/.
func FS() fs.FS { return files }

// Of is the examples of rule set id, at the root of the FS returned (its
// directory of FS): what a rule set's registry entry gives.
func Of(id string) fs.FS {
	sub, err := fs.Sub(files, id)
	if err != nil {
		panic(err) // only for an id that is not a valid path: a programming error
	}
	return sub
}

// Join makes one FS of several, each under its own directory: dirs maps a
// directory name (a rule set's id) to the FS it holds. The registry of
// rule sets joins its entries' examples so, which is what the server
// offers.
func Join(dirs map[string]fs.FS) fs.FS { return joined(dirs) }

// joined is Join's FS: its root lists the directories, and every other
// name is read from the FS of its first element.
type joined map[string]fs.FS

// split returns the FS that holds name and the name inside it.
func (j joined) split(op, name string) (fs.FS, string, error) {
	if !fs.ValidPath(name) {
		return nil, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	dir, rest, ok := strings.Cut(name, "/")
	if !ok {
		rest = "."
	}
	sub := j[dir]
	if sub == nil {
		return nil, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return sub, rest, nil
}

// Open opens name: the root is a directory of the joined directories.
func (j joined) Open(name string) (fs.File, error) {
	if name == "." {
		entries, _ := j.ReadDir(".")
		return &root{entries: entries}, nil
	}
	sub, rest, err := j.split("open", name)
	if err != nil {
		return nil, err
	}
	f, err := sub.Open(rest)
	if err != nil || rest != "." {
		return f, err
	}
	return &top{f, dirEntry(name)}, nil // named as the root lists it, not "."
}

// top is one of the joined directories opened: its own FS calls it ".".
type top struct {
	fs.File
	name dirEntry
}

func (t *top) Stat() (fs.FileInfo, error) { return t.name, nil }

// ReadDir reads the directory as fs.ReadDirFile does.
func (t *top) ReadDir(n int) ([]fs.DirEntry, error) {
	d, ok := t.File.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: string(t.name), Err: errors.New("not a directory")}
	}
	return d.ReadDir(n)
}

// ReadDir lists directory name, the root's entries sorted by name.
func (j joined) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "." {
		var out []fs.DirEntry
		for _, d := range slices.Sorted(maps.Keys(j)) {
			out = append(out, dirEntry(d))
		}
		return out, nil
	}
	sub, rest, err := j.split("readdir", name)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(sub, rest)
}

// ReadFile reads file name.
func (j joined) ReadFile(name string) ([]byte, error) {
	sub, rest, err := j.split("read", name)
	if err != nil {
		return nil, err
	}
	return fs.ReadFile(sub, rest)
}

// dirEntry is one of the root's directories, as its entry and its info.
type dirEntry string

func (d dirEntry) Name() string               { return string(d) }
func (d dirEntry) IsDir() bool                { return true }
func (d dirEntry) Type() fs.FileMode          { return fs.ModeDir }
func (d dirEntry) Info() (fs.FileInfo, error) { return d, nil }
func (d dirEntry) Size() int64                { return 0 }
func (d dirEntry) Mode() fs.FileMode          { return fs.ModeDir | 0o555 }
func (d dirEntry) ModTime() time.Time         { return time.Time{} }
func (d dirEntry) Sys() any                   { return nil }

// root is the joined FS's root opened as a directory.
type root struct {
	entries []fs.DirEntry
	read    int
}

func (r *root) Stat() (fs.FileInfo, error) { return dirEntry("."), nil }
func (r *root) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: errors.New("is a directory")}
}
func (r *root) Close() error { return nil }

// ReadDir reads the root's entries as fs.ReadDirFile does.
func (r *root) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := r.entries[r.read:]
	if n <= 0 {
		r.read = len(r.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	r.read += len(rest)
	return rest, nil
}
