// Package store keeps games durably: each game's scenario, its append-only
// event log, its seats and its dice seeds. The log is appended with
// optimistic concurrency on the game's version (its number of events), so
// two writers can never interleave or double events: the second is told
// its version is stale and must reload and try again.
//
// The store knows nothing of the rules: events are opaque JSON documents.
// store/sqlite is the embedded default.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"orderly/dice"
)

// Errors the store returns; wrap-checked with errors.Is.
var (
	// ErrConflict is an append whose expected version is not the game's.
	ErrConflict = errors.New("the game has moved on since it was read")
	// ErrNotFound is a game or seat that does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists is a game id that is already taken.
	ErrExists = errors.New("already exists")
	// ErrUnavailable is a store that cannot do the call just now: its
	// database cannot be reached (stopped, restarting, the connection
	// lost), its disk is full, or it is closed. It says nothing about the
	// data, and the same call may succeed later. A write that fails with
	// it changed nothing, except an Append or Reveal whose connection was
	// lost as it committed: that may have been committed all the same,
	// and only reading the store again tells.
	ErrUnavailable = errors.New("the store is unavailable just now")
)

// Unavailable is err marked as the store being unavailable: errors.Is
// finds ErrUnavailable in it, and errors.As and Unwrap the cause. It is
// err itself if err is nil or marked already.
func Unavailable(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) {
		return err
	}
	return &unavailable{err}
}

type unavailable struct{ error }

func (e *unavailable) Unwrap() error { return e.error }

func (e *unavailable) Is(target error) bool { return target == ErrUnavailable }

// Game is a game's record, without its events.
type Game struct {
	ID       string
	Title    string
	Rules    string
	File     string // the scenario's file name, for error messages
	Scenario []byte // the scenario file as given (YAML or JSON)
	Created  time.Time
	// Played is when the game last changed: made, appended to or its
	// seeds revealed, by the store's clock. Create takes it as given (a
	// game copied from another store), or now when it is zero.
	Played  time.Time
	Version int    // the number of events in the log
	Origin  string // OriginDemo for the game orderly serve --demo keeps; else empty
	// Tables is the text of the game's own tables file (table YAML), read
	// over the server's tables for this game alone, and TablesFile its
	// name for messages; empty for a game on the server's tables.
	Tables     []byte
	TablesFile string
	// Fog is the game's fog of war mode (game.FogOn, game.FogStrict), or
	// empty for none.
	Fog string
	// Dice is where its dice are thrown (game.DiceTable, game.DiceMixed),
	// or empty for the server.
	Dice string
	// Genesis is how its hash chain's start is made (game.GenesisV1,
	// game.GenesisV2), fixed when the game is made or imported: 1 for
	// the games stored before it was kept.
	Genesis int
}

// OriginDemo marks the demo game that orderly serve --demo reuses.
const OriginDemo = "demo"

// Roles of a seat.
const (
	Umpire    = "umpire"
	Side      = "side"
	Commander = "commander"
)

// Seat is one join link of a game. Only the SHA-256 of its token is kept:
// the token itself is shown once, when the game is made.
type Seat struct {
	Hash      []byte // SHA-256 of the token, 32 bytes; unique over all games
	Game      string
	Role      string // Umpire, Side or Commander
	Side      string // the side, for Side and Commander seats
	Formation string // the formation commanded, for Commander seats
	Label     string // what the join page calls the seat
}

// Seed is a game's dice seed as the store keeps it: the seed (dice.Seed,
// whose Key the store always holds, 32 bytes), the game it is of, and
// when it was revealed.
type Seed struct {
	dice.Seed
	Game     string
	Revealed int // the game's version when the seed was revealed; 0 while secret
}

// Store is where games are kept. Every method is safe for concurrent use.
type Store interface {
	// Create records a new game, its seats, its seeds and its first events
	// (the setup's, or an imported log), all or nothing; its version is
	// len(events). A taken game id is ErrExists.
	Create(ctx context.Context, g Game, seats []Seat, seeds []Seed, events []json.RawMessage) error
	// Append adds events to a game's log if its version is still version,
	// durably, and returns the new version. Otherwise it changes nothing
	// and returns ErrConflict (or ErrNotFound). The events are numbered
	// version+1, version+2, ...
	Append(ctx context.Context, game string, version int, events []json.RawMessage) (int, error)
	// Events returns a game's events after the first since, in order: at
	// most limit of them (all when limit is 0), so that a long log can be
	// read in pages.
	Events(ctx context.Context, game string, since, limit int) ([]json.RawMessage, error)
	// Game returns one game's record.
	Game(ctx context.Context, id string) (Game, error)
	// Games returns every game's record, oldest first.
	Games(ctx context.Context) ([]Game, error)
	// Count is the number of games.
	Count(ctx context.Context) (int, error)
	// Seat returns the seat whose token hashes to hash.
	Seat(ctx context.Context, hash []byte) (Seat, error)
	// Seats returns a game's seats, in the order they were made.
	Seats(ctx context.Context, game string) ([]Seat, error)
	// Reissue gives the seat of game whose token hashes to old the new
	// hash: the old token stops working at once. ErrNotFound if the game
	// has no such seat; ErrExists if the new hash is taken.
	Reissue(ctx context.Context, game string, old, new []byte) error
	// Seeds returns a game's seeds, oldest first.
	Seeds(ctx context.Context, game string) ([]Seed, error)
	// Reveal marks every secret seed of the game revealed at version and
	// adds next, whose From must be version+1, all or nothing.
	Reveal(ctx context.Context, game string, version int, next Seed) error
	// Delete removes a game with its log, seats and seeds, all or
	// nothing: its tokens stop working at once and its id may be made
	// again. A game that does not exist is ErrNotFound.
	Delete(ctx context.Context, game string) error
	// Close releases the store.
	Close() error
}

// Notice is what a store shared by several processes announces when a
// change to a game commits, so that each process serving the game reads
// the change from the store: the game's new version (a reveal announces
// the version it was made at), or a seat's token that stopped working.
type Notice struct {
	Game    string
	Version int
	// Revoked is the hash of a token that a reissue has just revoked (as
	// a string of its bytes); Version is then 0.
	Revoked string
	// Seeds says the game's dice seeds changed at Version (a reveal),
	// not its log.
	Seeds bool
	// Deleted says the game was deleted (Store.Delete): every process
	// drops it and stops serving its seats. Version is then 0.
	Deleted bool
}

// Listener is told what a Watcher hears. Any field may be nil.
type Listener struct {
	// Heard is called for each notice, in the order they were sent.
	Heard func(Notice)
	// Listening is called each time listening starts (the first time, and
	// after a lost connection): notices sent before it may have been
	// missed, so the caller reads again what it holds.
	Listening func()
	// Lost is called when listening stops on an error, before it is tried
	// again.
	Lost func(error)
}

// Watcher is a store shared by several processes that announces every
// committed change (Notice). Listen listens until ctx ends, retrying a
// lost connection with a growing pause of at most pause, and returns
// ctx's error.
type Watcher interface {
	Listen(ctx context.Context, pause time.Duration, l Listener) error
}

// Paced is a store that says how many commands a server should work on at
// once, unless its host says otherwise: enough that commits arriving
// together are flushed together, few enough that they do not queue behind
// one another in the database and delay its reads.
type Paced interface {
	Slots() int
}

// Holder is a store shared by several processes that can hold a game for
// one writer at a time: while one process holds it, another's Hold waits
// and another's Append waits and then finds the version moved on. A
// process that holds a game before it works out a command reads what it
// lacks first and so is never refused as stale: for a game that several
// processes write to at once, that is cheaper than to work the command
// out, be refused, rebuild the game and work it out again.
type Holder interface {
	// Hold waits until game is free, holds it and returns the hold; a
	// game that does not exist is ErrNotFound, and a wait that lasts too
	// long is ErrConflict. The caller must Release it.
	Hold(ctx context.Context, game string) (Held, error)
}

// Held is a game held by Hold.
type Held interface {
	// Version is the game's number of events, which cannot change while
	// it is held.
	Version() int
	// Events is Store.Events of the held game.
	Events(ctx context.Context, since, limit int) ([]json.RawMessage, error)
	// Append adds events to the log at Version, durably, announces them
	// as Store.Append does, returns the new version and lets the game go.
	Append(ctx context.Context, events []json.RawMessage) (int, error)
	// Release lets the game go, unchanged if Append was not called; it
	// does nothing after Append or a second time.
	Release()
}

// CheckCreate checks what a store's Create is given before it writes
// anything: the game has an id, each seat and seed is of that game (or
// names none), each seat has a hash, and no event is empty.
func CheckCreate(g Game, seats []Seat, seeds []Seed, events []json.RawMessage) error {
	if g.ID == "" {
		return errors.New("no id")
	}
	for i, s := range seats {
		if s.Game != "" && s.Game != g.ID {
			return fmt.Errorf("seat %d is for game %s", i+1, s.Game)
		}
		if len(s.Hash) == 0 {
			return fmt.Errorf("seat %d has no hash", i+1)
		}
	}
	for i, s := range seeds {
		if s.Game != "" && s.Game != g.ID {
			return fmt.Errorf("seed %d is for game %s", i+1, s.Game)
		}
	}
	return CheckEvents(events)
}

// CheckEvents checks that no event of an append or a create is empty.
func CheckEvents(events []json.RawMessage) error {
	for i, e := range events {
		if len(e) == 0 {
			return fmt.Errorf("event %d of %d is empty", i+1, len(events))
		}
	}
	return nil
}
