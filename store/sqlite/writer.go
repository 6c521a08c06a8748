package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"orderly/store"
)

// op is what a write request does.
type op int

const (
	opAppend op = iota
	opCreate
	opReveal
	opReissue
	opDelete
)

// request is one write for the writer goroutine.
type request struct {
	ctx     context.Context // only checked before the request joins a transaction
	op      op
	game    string
	version int               // Append: the expected version; Reveal: the version revealed at
	events  []json.RawMessage // Append: the events to add; Create: the first events
	g       store.Game
	seats   []store.Seat
	seeds   []store.Seed // Create: the game's seeds
	seed    store.Seed   // Reveal: the next seed
	old     []byte       // Reissue: the seat's hash now
	hash    []byte       // Reissue: its new hash
	at      time.Time    // Append, Reveal: when, by the store's clock (the game's Played)

	res   result      // the outcome, kept until the batch is committed
	reply chan result // buffered, so the writer never waits on it
}

// result is a request's outcome: the game's new version, or an error that
// concerns this request alone (store.ErrConflict and the like).
type result struct {
	version int
	err     error
}

// writeStmts are the writer connection's prepared statements.
type writeStmts struct {
	begin, commit, rollback            *sql.Stmt
	savepoint, release, rollbackTo     *sql.Stmt
	version, insertEvent, setVersion   *sql.Stmt
	insertGame, insertSeat, insertSeed *sql.Stmt
	seedExists, revealSeeds, reissue   *sql.Stmt
	setPlayed                          *sql.Stmt
	deleteEvents, deleteSeats          *sql.Stmt
	deleteSeeds, deleteGame            *sql.Stmt
}

func (s *writeStmts) all() []*sql.Stmt {
	return []*sql.Stmt{
		s.begin, s.commit, s.rollback,
		s.savepoint, s.release, s.rollbackTo,
		s.version, s.insertEvent, s.setVersion,
		s.insertGame, s.insertSeat, s.insertSeed,
		s.seedExists, s.revealSeeds, s.reissue,
		s.setPlayed,
		s.deleteEvents, s.deleteSeats,
		s.deleteSeeds, s.deleteGame,
	}
}

func (s *writeStmts) prepare(ctx context.Context, c *sql.Conn) error {
	return prepareAll(ctx, c.PrepareContext, []prep{
		{&s.begin, `BEGIN IMMEDIATE`},
		{&s.commit, `COMMIT`},
		{&s.rollback, `ROLLBACK`},
		{&s.savepoint, `SAVEPOINT request`},
		{&s.release, `RELEASE request`},
		{&s.rollbackTo, `ROLLBACK TO request`},
		{&s.version, `SELECT version FROM games WHERE id = ?`},
		{&s.insertEvent, `INSERT INTO events (game, seq, data) VALUES (?, ?, ?)`},
		{&s.setVersion, `UPDATE games SET version = ?, played = ? WHERE id = ?`},
		{&s.insertGame, `INSERT INTO games (id, title, rules, file, scenario, created, played, version, origin, tables, tables_file, fog, dice, genesis) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`},
		{&s.insertSeat, `INSERT INTO seats (hash, game, role, side, formation, label, n) VALUES (?, ?, ?, ?, ?, ?, ?)`},
		{&s.insertSeed, `INSERT INTO seeds (game, from_seq, secret, commitment, revealed) VALUES (?, ?, ?, ?, ?)`},
		{&s.seedExists, `SELECT 1 FROM seeds WHERE game = ? AND from_seq = ?`},
		{&s.revealSeeds, `UPDATE seeds SET revealed = ? WHERE game = ? AND revealed = 0`},
		{&s.reissue, `UPDATE seats SET hash = ? WHERE game = ? AND hash = ?`},
		{&s.setPlayed, `UPDATE games SET played = ? WHERE id = ?`},
		{&s.deleteEvents, `DELETE FROM events WHERE game = ?`},
		{&s.deleteSeats, `DELETE FROM seats WHERE game = ?`},
		{&s.deleteSeeds, `DELETE FROM seeds WHERE game = ?`},
		{&s.deleteGame, `DELETE FROM games WHERE id = ?`},
	})
}

// write is the writer goroutine: it commits batches of requests until Close.
func (d *DB) write() {
	defer close(d.done)
	batch := make([]*request, 0, d.cfg.maxBatch)
	versions := make(map[string]int)
	for {
		// Close comes first: a closing store starts no new batch.
		select {
		case <-d.quit:
			return
		default:
		}
		select {
		case <-d.quit:
			return
		case r := <-d.reqs:
			batch = append(batch[:0], r)
		}
		// Take whatever else is already waiting, without waiting for more.
	fill:
		for len(batch) < d.cfg.maxBatch {
			select {
			case r := <-d.reqs:
				batch = append(batch, r)
			default:
				break fill
			}
		}
		d.commit(batch, versions)
		clear(batch)
	}
}

// commit runs the batch in one transaction and answers every request in it.
// versions caches, for this transaction, the version of each game it has
// read or written, so requests for the same game see each other.
func (d *DB) commit(batch []*request, versions map[string]int) {
	clear(versions)
	// A request whose caller has given up before it joins the transaction is
	// answered so at once: its outcome is certain, nothing written.
	live := batch[:0]
	for _, r := range batch {
		if err := r.ctx.Err(); err != nil {
			r.reply <- result{err: err}
			continue
		}
		live = append(live, r)
	}
	if len(live) == 0 {
		return
	}
	d.batches.Add(1)
	if len(live) > 1 {
		d.grouped.Add(1)
	}
	for n := int64(len(live)); ; {
		l := d.largest.Load()
		if n <= l || d.largest.CompareAndSwap(l, n) {
			break
		}
	}

	if err := d.begin(); err != nil {
		d.fail(live, err)
		return
	}
	for _, r := range live {
		res, err := d.apply(r, versions)
		if err != nil {
			d.abort(live, err)
			return
		}
		r.res = res
	}
	if d.cfg.beforeCommit != nil {
		if err := d.cfg.beforeCommit(len(live)); err != nil {
			d.abort(live, err)
			return
		}
	}
	if _, err := d.ws.commit.Exec(); err != nil {
		d.abort(live, err)
		return
	}
	for _, r := range live {
		r.reply <- r.res
	}
}

// begin starts the batch's transaction. Should a failed ROLLBACK have left
// one open, it is rolled back and begun again.
func (d *DB) begin() error {
	_, err := d.ws.begin.Exec()
	if err == nil {
		return nil
	}
	if _, rerr := d.ws.rollback.Exec(); rerr != nil {
		return err
	}
	_, err = d.ws.begin.Exec()
	return err
}

// abort rolls the transaction back and fails the whole batch with err.
func (d *DB) abort(batch []*request, err error) {
	// The rollback can fail only if SQLite has already rolled back (as it
	// does on some I/O errors), which is the same outcome.
	_, _ = d.ws.rollback.Exec()
	d.fail(batch, err)
}

func (d *DB) fail(batch []*request, err error) {
	err = fmt.Errorf("a transaction of %d writes failed and none was kept: %w", len(batch), err)
	for _, r := range batch {
		r.reply <- result{err: err}
	}
}

// apply does one request inside the batch's transaction. An error of the
// request alone (conflict, not found, a constraint violated) is in the
// result and leaves nothing of the request in the transaction; an error
// returned is one the whole transaction must be abandoned for.
func (d *DB) apply(r *request, versions map[string]int) (result, error) {
	var (
		res result
		err error
	)
	switch r.op {
	case opAppend:
		res, err = d.appendEvents(r, versions)
	case opCreate:
		res, err = d.create(r, versions)
	case opReveal:
		res, err = d.reveal(r, versions)
	case opReissue:
		return d.reissue(r) // the game's version is not its business
	case opDelete:
		delete(versions, r.game) // a later request in the batch reads it afresh
		return d.remove(r)
	default:
		return result{}, fmt.Errorf("unknown write %d", r.op)
	}
	if err != nil || res.err != nil {
		delete(versions, r.game) // the next request for it reads it afresh
	} else {
		versions[r.game] = res.version
	}
	return res, err
}

// version is a game's version in the transaction, and whether it exists.
func (d *DB) version(game string, versions map[string]int) (int, bool, error) {
	if v, ok := versions[game]; ok {
		return v, true, nil
	}
	var v int
	err := d.ws.version.QueryRow(game).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	versions[game] = v
	return v, true, nil
}

// atomically runs f so that if its result holds an error, nothing f wrote is
// kept: in a savepoint if sp, or else relying on f to fail, if at all, on
// its first and only write, which SQLite undoes alone.
func (d *DB) atomically(sp bool, f func() (result, error)) (result, error) {
	if !sp {
		return f()
	}
	if _, err := d.ws.savepoint.Exec(); err != nil {
		return result{}, err
	}
	res, err := f()
	if err != nil {
		return result{}, err
	}
	if res.err != nil {
		if _, err := d.ws.rollbackTo.Exec(); err != nil {
			return result{}, err
		}
	}
	if _, err := d.ws.release.Exec(); err != nil {
		return result{}, err
	}
	return res, nil
}

// isConstraint reports whether err is SQLite's SQLITE_CONSTRAINT, of any kind.
func isConstraint(err error) bool {
	const sqliteConstraint = 19
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == sqliteConstraint
}

// appendEvents adds r's events if the game is at r.version. The version is
// checked under the write lock, so no other writer, in this process or
// another, can have added events since; the events' primary key is a second
// guard, and a violation of it is a conflict for this request alone.
func (d *DB) appendEvents(r *request, versions map[string]int) (result, error) {
	cur, refused, err := d.expect(r, versions)
	switch {
	case err != nil || refused != nil:
		return result{err: refused}, err
	case len(r.events) == 0:
		return result{version: cur}, nil
	}
	// One event is one INSERT, which SQLite undoes alone if it fails; more
	// need a savepoint to be undone together.
	return d.atomically(len(r.events) > 1, func() (result, error) {
		for i, e := range r.events {
			seq := cur + 1 + i
			if _, err := d.ws.insertEvent.Exec(r.game, seq, []byte(e)); err != nil {
				if isConstraint(err) {
					return result{err: fmt.Errorf("event %d: %w (%v)", seq, store.ErrConflict, err)}, nil
				}
				return result{}, err
			}
		}
		next := cur + len(r.events)
		if _, err := d.ws.setVersion.Exec(next, r.at.UnixNano(), r.game); err != nil {
			return result{}, err
		}
		return result{version: next}, nil
	})
}

// nonNil is b, or an empty slice for nil, which SQLite would take for NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// create records r's game, its seats, seeds and first events.
func (d *DB) create(r *request, versions map[string]int) (result, error) {
	_, ok, err := d.version(r.game, versions)
	switch {
	case err != nil:
		return result{}, err
	case ok:
		return result{err: store.ErrExists}, nil
	}
	g := r.g
	// Every constraint violated fails this request alone, undone by the
	// savepoint.
	violated := func(err error, what string, args ...any) (result, error) {
		if isConstraint(err) {
			return result{err: fmt.Errorf("%s: %w", fmt.Sprintf(what, args...), err)}, nil
		}
		return result{}, err
	}
	return d.atomically(true, func() (result, error) {
		if _, err := d.ws.insertGame.Exec(g.ID, g.Title, g.Rules, g.File, nonNil(g.Scenario), g.Created.UnixNano(), g.Played.UnixNano(), g.Origin, nonNil(g.Tables), g.TablesFile, g.Fog, g.Dice, g.Genesis); err != nil {
			return violated(err, "the game")
		}
		for i, s := range r.seats {
			if _, err := d.ws.insertSeat.Exec(s.Hash, g.ID, s.Role, s.Side, s.Formation, s.Label, i); err != nil {
				if isConstraint(err) {
					return result{err: fmt.Errorf("seat %d (%s): its hash is taken: %w", i+1, s.Label, store.ErrExists)}, nil
				}
				return result{}, err
			}
		}
		for _, s := range r.seeds {
			if err := d.insertSeed(g.ID, s); err != nil {
				return violated(err, "the seed from event %d", s.From)
			}
		}
		for i, e := range r.events {
			if _, err := d.ws.insertEvent.Exec(g.ID, i+1, []byte(e)); err != nil {
				return violated(err, "event %d", i+1)
			}
		}
		if len(r.events) > 0 {
			if _, err := d.ws.setVersion.Exec(len(r.events), g.Played.UnixNano(), g.ID); err != nil {
				return result{}, err
			}
		}
		return result{version: len(r.events)}, nil
	})
}

func (d *DB) insertSeed(game string, s store.Seed) error {
	_, err := d.ws.insertSeed.Exec(game, s.From, nonNil(s.Key), s.Commitment, s.Revealed)
	return err
}

// expect reads the game's version and compares it with the one r expects:
// refused is ErrNotFound or ErrConflict for this request alone, err a
// failure of the batch.
func (d *DB) expect(r *request, versions map[string]int) (cur int, refused, err error) {
	cur, ok, err := d.version(r.game, versions)
	switch {
	case err != nil:
		return 0, nil, err
	case !ok:
		return 0, store.ErrNotFound, nil
	case cur != r.version:
		return cur, fmt.Errorf("version %d is stale, the game is at %d: %w", r.version, cur, store.ErrConflict), nil
	}
	return cur, nil, nil
}

// reveal marks the game's secret seeds revealed at r.version and adds the
// next seed.
func (d *DB) reveal(r *request, versions map[string]int) (result, error) {
	cur, refused, err := d.expect(r, versions)
	switch {
	case err != nil || refused != nil:
		return result{err: refused}, err
	case r.seed.From != r.version+1:
		return result{err: fmt.Errorf("the next seed must start at event %d, not %d: %w", r.version+1, r.seed.From, store.ErrConflict)}, nil
	}
	var one int
	err = d.ws.seedExists.QueryRow(r.game, r.seed.From).Scan(&one)
	switch {
	case err == nil:
		return result{err: fmt.Errorf("a seed from event %d already exists: %w", r.seed.From, store.ErrConflict)}, nil
	case !errors.Is(err, sql.ErrNoRows):
		return result{}, err
	}
	return d.atomically(true, func() (result, error) {
		if _, err := d.ws.revealSeeds.Exec(r.version, r.game); err != nil {
			return result{}, err
		}
		if _, err := d.ws.setPlayed.Exec(r.at.UnixNano(), r.game); err != nil {
			return result{}, err
		}
		if err := d.insertSeed(r.game, r.seed); err != nil {
			if isConstraint(err) {
				return result{err: fmt.Errorf("%w (%v)", store.ErrConflict, err)}, nil
			}
			return result{}, err
		}
		return result{version: cur}, nil
	})
}

// reissue gives the seat r.old of r.game the hash r.hash; one UPDATE, so it
// needs no savepoint.
func (d *DB) reissue(r *request) (result, error) {
	res, err := d.ws.reissue.Exec(r.hash, r.game, r.old)
	switch {
	case isConstraint(err):
		return result{err: fmt.Errorf("the new hash is taken: %w", store.ErrExists)}, nil
	case err != nil:
		return result{}, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return result{}, err
	} else if n == 0 {
		return result{err: fmt.Errorf("no such seat: %w", store.ErrNotFound)}, nil
	}
	return result{}, nil
}

// remove deletes the game r.game with its events, seats and seeds, in a
// savepoint so that a failure part way keeps none of it: no such game is
// store.ErrNotFound for this request alone.
func (d *DB) remove(r *request) (result, error) {
	return d.atomically(true, func() (result, error) {
		// The game's rows are named by the others, so they go first.
		for _, del := range []*sql.Stmt{d.ws.deleteEvents, d.ws.deleteSeats, d.ws.deleteSeeds} {
			if _, err := del.Exec(r.game); err != nil {
				return result{}, err
			}
		}
		res, err := d.ws.deleteGame.Exec(r.game)
		if err != nil {
			return result{}, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return result{}, err
		} else if n == 0 {
			return result{err: fmt.Errorf("no such game: %w", store.ErrNotFound)}, nil
		}
		return result{}, nil
	})
}
