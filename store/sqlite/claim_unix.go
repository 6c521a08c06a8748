//go:build unix

package sqlite

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// claim takes the server's lock of the database file at path: an
// exclusive flock on the lock file beside it (lockName), made if missing.
// It never waits: a lock another holds is ErrClaimed. The kernel releases
// a flock when the last descriptor of its holder closes, so the lock ends
// with its process however that ends, SIGKILL included; it is advisory,
// and SQLite's own locks (fcntl, on the database file) do not meet it.
// The lock file is left in place when the lock ends: removing it would
// let a process that opened it just before hold a lock on a file no
// longer there, beside a second server holding the new one.
func claim(path string) (io.Closer, error) {
	name := lockName(path)
	f, err := os.OpenFile(name, os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("claim the file: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is locked: %w", name, ErrClaimed)
		}
		return nil, fmt.Errorf("claim the file: lock %s: %w", name, err)
	}
	return f, nil
}
