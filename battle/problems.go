package battle

import (
	"errors"

	"orderly/strict"
)

// MaxProblems is the most problems the loader lists of one scenario.
const MaxProblems = 50

// Problems is every problem the loader found in a scenario, in the order
// it met them, at most MaxProblems. As an error it is the first of them,
// word for word: what the loader said before it listed more than one.
// errors.As finds the first problem of a type; Unwrap lists them all.
type Problems []error

func (p Problems) Error() string { return p[0].Error() }

// Unwrap lists the problems.
func (p Problems) Unwrap() []error { return p }

// List returns every problem of an error of the loader: the Problems it
// is or wraps, else the error alone.
func List(err error) []error {
	var p Problems
	if errors.As(err, &p) {
		return p
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// problems collects problems as the loader meets them.
type problems struct {
	list Problems
}

// note records err if it is a problem of the file (a *strict.Error, or a
// *PathError of a piece) and reports whether reading may go on past it;
// any other error (a mistake in the format's definition) stops the
// reading.
func (p *problems) note(err error) bool {
	var se *strict.Error
	var pe *PathError
	if p == nil || !errors.As(err, &se) && !errors.As(err, &pe) {
		return false
	}
	if len(p.list) < MaxProblems {
		p.list = append(p.list, err)
	}
	return true
}

// err is the problems found as an error, or nil.
func (p *problems) err() error {
	switch len(p.list) {
	case 0:
		return nil
	case 1:
		return p.list[0]
	}
	return p.list
}
