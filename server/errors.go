package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"orderly/game"
	"orderly/store"
	"orderly/strict"
)

// Code is the kind of an API error; each maps to one HTTP status, here and
// nowhere else.
type Code string

// Error codes of the API.
const (
	Invalid      Code = "invalid"      // 400: the request is malformed or has a bad value
	Unauthorized Code = "unauthorized" // 401: no token, or one no seat has
	Forbidden    Code = "forbidden"    // 403: the seat may not do or see this
	NotFound     Code = "not-found"    // 404
	Conflict     Code = "conflict"     // 409: the game moved on; try again
	TooLarge     Code = "too-large"    // 413
	Rejected     Code = "rejected"     // 422: the rules refused the command; nothing changed
	Unavailable  Code = "unavailable"  // 503: the store failed; nothing changed
	Internal     Code = "internal"     // 500
	Unsupported  Code = "unsupported"  // 415: the body is not JSON
	NotAllowed   Code = "not-allowed"  // 405
	TooMany      Code = "too-many"     // 429
	Gone         Code = "game-over"    // 409 as well: the game has ended
	Full         Code = "game-full"    // 409 as well: the game has as many events as the server allows
	Confirm      Code = "confirm"      // 409 as well: the request needs confirming (details say why)
	Verification Code = "verification" // 422: an imported game does not check out
	WrongHost    Code = "wrong-host"   // 421: the server does not answer to the Host header's name
	Dice         Code = "dice"         // 422 as well: the command needs dice thrown at the table (need says which)
	Busy         Code = "busy"         // 503 as well: the server has more commands than it can work on now; nothing changed
)

var statuses = map[Code]int{
	Invalid: http.StatusBadRequest, Unauthorized: http.StatusUnauthorized, Forbidden: http.StatusForbidden,
	NotFound: http.StatusNotFound, Conflict: http.StatusConflict, TooLarge: http.StatusRequestEntityTooLarge,
	Rejected: http.StatusUnprocessableEntity, Unavailable: http.StatusServiceUnavailable,
	Internal: http.StatusInternalServerError, Unsupported: http.StatusUnsupportedMediaType,
	NotAllowed: http.StatusMethodNotAllowed, TooMany: http.StatusTooManyRequests, Gone: http.StatusConflict,
	Full: http.StatusConflict, Confirm: http.StatusConflict,
	Verification: http.StatusUnprocessableEntity, WrongHost: http.StatusMisdirectedRequest,
	Dice: http.StatusUnprocessableEntity, Busy: http.StatusServiceUnavailable,
}

// Error is an API error: a code, one sentence for people, and for a
// rejected command the SPEC ID of the rule behind it. Details list what a
// Confirm error asks to be confirmed.
type Error struct {
	Code    Code     `json:"code"`
	Msg     string   `json:"message"`
	Rule    string   `json:"rule,omitempty"`
	Details []string `json:"details,omitempty"`
	// Override names the piece of a refused move that the umpire may move
	// all the same, giving the move again with a reason.
	Override string `json:"override,omitempty"`
	// Need is, for a Dice error, the roll whose dice are to be thrown at
	// the table: the page asks for them and sends the command again with
	// them under dice.
	Need *Need `json:"need,omitempty"`

	retry time.Duration // for TooMany, Busy and a store unavailable: when to try again
}

// MaxMessage is the most characters an error message has: one line, with
// any text the client sent quoted and cut short.
const MaxMessage = 400

func (e *Error) Error() string { return e.Msg }

// Status is the HTTP status of the error.
func (e *Error) Status() int {
	if s, ok := statuses[e.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// storeRetry is the Retry-After of an answer that the store is
// unavailable: a database restarting is back within a few seconds.
const storeRetry = 2 * time.Second

// outage is a 503 for a store that cannot be read or written just now
// (store.ErrUnavailable), with Retry-After.
func outage(format string, args ...any) *Error {
	e := errorf(Unavailable, format, args...)
	e.retry = storeRetry
	return e
}

// tooMany is a 429 that says when to try again.
func tooMany(wait time.Duration, format string, args ...any) *Error {
	e := errorf(TooMany, format, args...)
	e.retry = wait
	return e
}

// asError turns any error into an API error: the engine's rejections keep
// their reason and rule; the store's sentinels get their codes (a store
// unavailable, or a failed read of it, is 503 with Retry-After); anything
// else is internal, and its text is not shown.
func asError(err error) *Error {
	var e *Error
	var ge *game.Error
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &e):
		return e
	case errors.As(err, &ge):
		return &Error{Code: Rejected, Msg: ge.Msg, Rule: ge.Rule, Override: ge.Piece}
	case errors.As(err, &mb):
		return errorf(TooLarge, "the request body is over the limit of %d bytes", mb.Limit)
	case errors.Is(err, store.ErrNotFound):
		return errorf(NotFound, "no such game")
	case errors.Is(err, store.ErrConflict):
		return errorf(Conflict, "the game moved on while the command was saved; send it again")
	case errors.Is(err, store.ErrUnavailable), errors.As(err, new(*storeError)):
		return outage("the store cannot be reached just now; nothing was changed, try again in a moment")
	}
	return errorf(Internal, "the server failed; nothing was changed")
}

// Need is a roll to be thrown at the table: the engine's NeedDice, with
// the table's title and the subject's name for people.
type Need struct {
	game.NeedDice
	Title string `json:"title"` // the table's
	Name  string `json:"name"`  // what it is rolled for
}

type errorBody struct {
	Error *Error `json:"error"`
}

func writeError(w http.ResponseWriter, e *Error) {
	out := *e
	out.Msg = strict.Line(e.Msg, MaxMessage)
	out.Details = nil
	for i, d := range e.Details {
		if i == 20 {
			out.Details = append(out.Details, fmt.Sprintf("and %d more", len(e.Details)-i))
			break
		}
		out.Details = append(out.Details, strict.Line(d, MaxMessage))
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	if e.retry > 0 {
		h.Set("Retry-After", strconv.Itoa(int(max(e.retry.Round(time.Second), time.Second)/time.Second)))
	}
	w.WriteHeader(e.Status())
	_ = json.NewEncoder(w).Encode(errorBody{&out})
}
