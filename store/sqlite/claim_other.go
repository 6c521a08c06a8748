//go:build !unix

package sqlite

import "io"

// claim is a no-op where the system has no flock: the file is not
// claimed, and a second server on it is not refused.
func claim(string) (io.Closer, error) { return nop{}, nil }

type nop struct{}

func (nop) Close() error { return nil }
