package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"orderly/store"
)

// TestFault: what says the database cannot do a call just now is marked
// store.ErrUnavailable (a full disk, a server shutting down or starting,
// a lost or refused connection, a closed store); what is about the data,
// or a call its caller gave up, is not.
func TestFault(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "53100", Message: "could not extend file: No space left on device"}, true},
		{&pgconn.PgError{Code: "53300", Message: "too many connections"}, true},
		{&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, true},
		{&pgconn.PgError{Code: "57P03", Message: "the database system is starting up"}, true},
		{&pgconn.PgError{Code: "08006", Message: "connection failure"}, true},
		{&pgconn.ConnectError{}, true},
		{fmt.Errorf("receive: %w", io.ErrUnexpectedEOF), true},
		{ErrClosed, true},
		{&pgconn.PgError{Code: "23505", Message: "duplicate key"}, false},
		{&pgconn.PgError{Code: "42P01", Message: "relation does not exist"}, false},
		{store.ErrConflict, false},
		{context.Canceled, false},
		{errors.New("something else"), false},
	} {
		got := fault(fmt.Errorf("append: %w", c.err))
		if errors.Is(got, store.ErrUnavailable) != c.want {
			t.Errorf("fault(%v) = %v; unavailable %v, want %v", c.err, got, !c.want, c.want)
		}
		if !errors.Is(got, c.err) {
			t.Errorf("fault(%v) = %v, which no longer wraps it", c.err, got)
		}
	}
}
