package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"orderly/store"
)

// fault marks err as store.ErrUnavailable when it says the database
// cannot do the call just now, rather than anything about the data: the
// server cannot be reached or is starting or stopping (a refused or lost
// connection, SQLSTATE class 08, 57P01 to 57P03), it is out of a resource
// (class 53: 53100 is a full disk), its disk failed (58030), or the store
// is closed. A cancelled call is not: the caller gave up.
func fault(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if unavailable(err) {
		return store.Unavailable(err)
	}
	return err
}

// unavailable reports whether err is one fault marks.
func unavailable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "53"):
			return true
		}
		switch pe.Code {
		case "57P01", "57P02", "57P03", "58030":
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne):
		return true
	case errors.Is(err, ErrClosed), errors.Is(err, pgconn.ErrConnClosed):
		return true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	// pgx says a call that failed before anything reached the server
	// may be tried again: a connection it could not make or use.
	return pgconn.SafeToRetry(err)
}
