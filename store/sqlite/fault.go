package sqlite

import (
	"errors"

	"orderly/store"
)

// SQLite's primary result codes that say the file cannot be read or
// written just now rather than anything about the data.
const (
	sqliteBusy     = 5  // another process holds the file past the busy timeout
	sqliteLocked   = 6  // a table is locked
	sqliteNoMem    = 7  // out of memory
	sqliteIOErr    = 10 // the disk failed a read or a write
	sqliteFull     = 13 // the disk (or the file's size limit) is full
	sqliteCantOpen = 14 // the file, or its journal, cannot be opened
)

// fault marks err as store.ErrUnavailable when SQLite says the file
// cannot be used just now (a full disk, an I/O error, a lock held too
// long by another process), or the store is closed.
func fault(err error) error {
	if err == nil {
		return nil
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch coded.Code() & 0xff {
		case sqliteBusy, sqliteLocked, sqliteNoMem, sqliteIOErr, sqliteFull, sqliteCantOpen:
			return store.Unavailable(err)
		}
		return err
	}
	if errors.Is(err, ErrClosed) {
		return store.Unavailable(err)
	}
	return err
}
