package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"orderly/store"
)

// testRoundTrip: games, seats, seeds and events come back as they went
// in, every field of them, and Games lists the games oldest first.
func testRoundTrip(t *testing.T, c contract) {
	s := c.open(t)
	in := createFour(t, s)

	got, err := s.Game(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	sameGame(t, "Game(g1)", got, in.g1)
	if got, err = s.Game(context.Background(), "g3"); err != nil {
		t.Fatal(err)
	}
	in.g3.Version = 1
	sameGame(t, "Game(g3)", got, in.g3)

	roundTripEvents(t, s, in.g0Events)
	in.g0.Version, in.g1.Version, in.g2.Version = 3, 6, 0
	roundTripGames(t, s, []store.Game{in.g0, in.g1, in.g2, in.g3})

	for _, seat := range seatsOf("g1", in.seats1...) {
		got, err := s.Seat(context.Background(), seat.Hash)
		if err != nil {
			t.Fatalf("Seat(%s): %v", seat.Label, err)
		}
		if !reflect.DeepEqual(got, seat) {
			t.Errorf("Seat(%s) = %+v, want %+v", seat.Label, got, seat)
		}
	}
	// The hashes do not sort in this order: the order is the one given.
	sameSeats(t, s, "g1", seatsOf("g1", in.seats1...))
	sameSeats(t, s, "g0", nil)
	sameSeats(t, s, "g2", seatsOf("g2", in.seats2...))
	sameSeats(t, s, "g3", seatsOf("g3", in.seats3...))

	sameSeeds(t, s, "g1", seedsOf("g1", in.seeds1...))
	sameSeeds(t, s, "g0", seedsOf("g0", in.seeds0...))
	sameSeeds(t, s, "g2", seedsOf("g2", in.seeds2...))
	sameSeeds(t, s, "g3", nil)
}

// fourGames are the games testRoundTrip stores, as they went in.
type fourGames struct {
	g0, g1, g2, g3         store.Game
	seats1, seats2, seats3 []store.Seat
	seeds0, seeds1, seeds2 []store.Seed
	g0Events               []json.RawMessage
}

// createFour stores four games: g1; g0, made later but older, with events
// and seeds and no seats; g2, as old as g1 and made after it; and g3,
// with every optional field and some of its seats.
func createFour(t *testing.T, s store.Store) fourGames {
	ctx := context.Background()
	var in fourGames
	in.g1, in.seats1, in.seeds1 = Create(t, s, "g1")
	// g0 is made later but is older: Games goes by Created. The Version
	// given is not the store's business: the version is len(events).
	in.g0, _, _ = NewGame("g0")
	in.g0.Created = in.g1.Created.Add(-time.Hour)
	in.g0.Version = 99
	// The store keeps an event's bytes as they are, spaces, key order and
	// escapes included.
	in.g0Events = []json.RawMessage{Event("setup 1"), json.RawMessage(` { "z": 1,  "a" : ["é", "\u00e9"] }`)}
	in.seeds0 = []store.Seed{Seed(1), Seed(2)}
	if err := s.Create(ctx, in.g0, nil, in.seeds0, in.g0Events); err != nil {
		t.Fatal(err)
	}
	// g2 has the same Created as g1 and is made after it.
	in.g2, in.seats2, in.seeds2 = Create(t, s, "g2")
	// g3 has every optional field, and a Created in another location.
	in.g3, in.seats3, _ = NewGame("g3")
	in.g3.Created = in.g1.Created.Add(time.Minute).In(time.FixedZone("CET", 3600))
	in.g3.Scenario = []byte("{\"title\": \"Möckern\"}\n")
	in.g3.Origin = store.OriginDemo
	in.g3.Tables, in.g3.TablesFile = []byte("tables:\n  - id: lob/play\n"), "my-tables.yaml"
	in.g3.Fog, in.g3.Dice = "strict", "mixed"
	in.g3.Genesis = 2
	in.seats3 = in.seats3[2:]
	if err := s.Create(ctx, in.g3, in.seats3, nil, []json.RawMessage{Event("setup")}); err != nil {
		t.Fatal(err)
	}
	return in
}

// roundTripEvents appends six events to g1 in batches and one to g0 (whose
// first two were g0Events), and reads back every game's events from
// several points, and the versions.
func roundTripEvents(t *testing.T, s store.Store, g0Events []json.RawMessage) {
	var want []json.RawMessage
	v := 0
	for _, n := range []int{2, 1, 3} {
		var batch []json.RawMessage
		for range n {
			batch = append(batch, Event("g1 event %d", len(want)+len(batch)+1))
		}
		v = MustAppend(t, s, "g1", v, batch...)
		want = append(want, batch...)
	}
	SameEvents(t, "Events(g1, 0)", MustEvents(t, s, "g1", 0), want)
	SameEvents(t, "Events(g1, -1)", MustEvents(t, s, "g1", -1), want)
	SameEvents(t, "Events(g1, 4)", MustEvents(t, s, "g1", 4), want[4:])
	SameEvents(t, "Events(g1, 6)", MustEvents(t, s, "g1", 6), nil)
	SameEvents(t, "Events(g1, 9)", MustEvents(t, s, "g1", 9), nil)
	if v := MustVersion(t, s, "g1"); v != 6 {
		t.Errorf("g1's version is %d, want 6", v)
	}

	SameEvents(t, "Events(g0, 0)", MustEvents(t, s, "g0", 0), g0Events)
	if v := MustVersion(t, s, "g0"); v != 2 {
		t.Errorf("g0's version is %d, want 2", v)
	}
	MustAppend(t, s, "g0", 2, Event("g0 event 3"))
	SameEvents(t, "Events(g0, 1)", MustEvents(t, s, "g0", 1), []json.RawMessage{g0Events[1], Event("g0 event 3")})
	SameEvents(t, "Events(g2, 0)", MustEvents(t, s, "g2", 0), nil)
	SameEvents(t, "Events(g3, 0)", MustEvents(t, s, "g3", 0), []json.RawMessage{Event("setup")})
}

// roundTripGames checks that Games lists want, in that order, every field
// of each as it went in.
func roundTripGames(t *testing.T, s store.Store, want []store.Game) {
	games, err := s.Games(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range games {
		ids = append(ids, g.ID)
	}
	if want := []string{"g0", "g1", "g2", "g3"}; strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Fatalf("Games() = %v, want %v", ids, want)
	}
	for i, want := range want {
		sameGame(t, "Games()["+want.ID+"]", games[i], want)
	}
}

// testReveal: Reveal marks the secret seeds revealed and adds the next
// one if the game is at the version given and the next seed follows it;
// else it is a conflict and changes nothing.
func testReveal(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	Create(t, s, "g")
	Create(t, s, "other")
	MustAppend(t, s, "g", 0, Event("1"), Event("2"), Event("3"))

	before := seedsOf("g", Seed(1))
	for _, tc := range []struct {
		name    string
		game    string
		version int
		next    store.Seed
		want    error
	}{
		{"stale version", "g", 2, Seed(3), store.ErrConflict},
		{"future version", "g", 4, Seed(5), store.ErrConflict},
		{"next from too early", "g", 3, Seed(3), store.ErrConflict},
		{"next from too late", "g", 3, Seed(5), store.ErrConflict},
		{"unknown game", "nope", 3, Seed(4), store.ErrNotFound},
	} {
		err := s.Reveal(ctx, tc.game, tc.version, tc.next)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: Reveal = %v, want %v", tc.name, err, tc.want)
		}
	}
	sameSeeds(t, s, "g", before)

	if err := s.Reveal(ctx, "g", 3, Seed(4)); err != nil {
		t.Fatalf("Reveal: %v", err)
	}
	// A second reveal at the same version is someone else's, too late.
	if err := s.Reveal(ctx, "g", 3, Seed(4)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("second Reveal at 3 = %v, want ErrConflict", err)
	}
	MustAppend(t, s, "g", 3, Event("4"), Event("5"))
	if err := s.Reveal(ctx, "g", 5, Seed(6)); err != nil {
		t.Fatalf("Reveal at 5: %v", err)
	}
	want := seedsOf("g", Seed(1), Seed(4), Seed(6))
	want[0].Revealed, want[1].Revealed = 3, 5
	sameSeeds(t, s, "g", want)
	sameSeeds(t, s, "other", seedsOf("other", Seed(1)))
	if v := MustVersion(t, s, "g"); v != 5 {
		t.Errorf("Reveal changed the version to %d", v)
	}
	SameEvents(t, "events after reveals", MustEvents(t, s, "g", 0), []json.RawMessage{Event("1"), Event("2"), Event("3"), Event("4"), Event("5")})
}

// testConflict: an append at any version but the game's is ErrConflict,
// names the game and writes nothing.
func testConflict(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	Create(t, s, "g")
	MustAppend(t, s, "g", 0, Event("a"))

	for _, tc := range []struct {
		version int
		events  []json.RawMessage
	}{
		{0, []json.RawMessage{Event("stale")}},
		{0, []json.RawMessage{Event("stale 1"), Event("stale 2")}},
		{2, []json.RawMessage{Event("ahead")}},
		{-1, []json.RawMessage{Event("negative")}},
		{0, nil},
	} {
		v, err := s.Append(ctx, "g", tc.version, tc.events)
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("Append(g, %d, %d events) = %d, %v; want ErrConflict", tc.version, len(tc.events), v, err)
		} else if !strings.Contains(err.Error(), "game g") {
			t.Errorf("the error does not name the game: %v", err)
		}
	}
	SameEvents(t, "after conflicts", MustEvents(t, s, "g", 0), []json.RawMessage{Event("a")})
	if v := MustVersion(t, s, "g"); v != 1 {
		t.Errorf("version %d after conflicts, want 1", v)
	}
	// An empty append at the right version changes nothing and succeeds.
	if v, err := s.Append(ctx, "g", 1, nil); err != nil || v != 1 {
		t.Errorf("empty Append = %d, %v; want 1, nil", v, err)
	}
	// An empty event is refused, and the events with it.
	if _, err := s.Append(ctx, "g", 1, []json.RawMessage{Event("x"), nil}); err == nil {
		t.Error("an empty event was accepted")
	}
	SameEvents(t, "after an empty event", MustEvents(t, s, "g", 0), []json.RawMessage{Event("a")})
	if v := MustVersion(t, s, "g"); v != 1 {
		t.Errorf("version %d after an empty event, want 1", v)
	}
	MustAppend(t, s, "g", 1, Event("b"))
}

// testNotFound: every method asked about a game or seat that does not
// exist says ErrNotFound.
func testNotFound(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	Create(t, s, "g")

	notFound := map[string]error{}
	_, notFound["Append"] = s.Append(ctx, "nope", 0, []json.RawMessage{Event("x")})
	_, notFound["Append of nothing"] = s.Append(ctx, "nope", 0, nil)
	_, notFound["Events"] = s.Events(ctx, "nope", 0, 0)
	_, notFound["Events in a page"] = s.Events(ctx, "nope", 0, 10)
	_, notFound["Game"] = s.Game(ctx, "nope")
	_, notFound["Seats"] = s.Seats(ctx, "nope")
	_, notFound["Seeds"] = s.Seeds(ctx, "nope")
	_, notFound["Seat"] = s.Seat(ctx, Hash("nope"))
	notFound["Reveal"] = s.Reveal(ctx, "nope", 0, Seed(1))
	notFound["Reissue"] = s.Reissue(ctx, "nope", Hash("nope/umpire"), Hash("x"))
	notFound["Reissue of another game's seat"] = s.Reissue(ctx, "nope", Hash("g/umpire"), Hash("x"))
	for name, err := range notFound {
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s of an unknown game or seat = %v, want ErrNotFound", name, err)
		}
	}
	if n, err := s.Count(ctx); err != nil || n != 1 {
		t.Errorf("Count = %d, %v; want 1", n, err)
	}
	if _, err := s.Seat(ctx, Hash("g/umpire")); err != nil {
		t.Errorf("Seat(g/umpire) after the failed calls: %v", err)
	}
}

// testExists: a taken game id is ErrExists and leaves the game as it was;
// so is a seat hash taken by another game's seat or twice in one Create,
// and nothing of the new game is kept.
func testExists(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	g, seats, seeds := Create(t, s, "g")
	MustAppend(t, s, "g", 0, Event("a"))

	// A taken id: ErrExists, and the game as it was.
	imp, impSeats, _ := NewGame("g")
	imp.Title, imp.Fog = "impostor", "strict"
	impSeats = impSeats[:1]
	impSeats[0].Hash = Hash("impostor")
	if err := s.Create(ctx, imp, impSeats, []store.Seed{Seed(1), Seed(2)}, []json.RawMessage{Event("impostor")}); !errors.Is(err, store.ErrExists) {
		t.Errorf("Create of a taken id = %v, want ErrExists", err)
	}
	got, err := s.Game(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	g.Version = 1
	sameGame(t, "the game after an impostor", got, g)
	SameEvents(t, "its events", MustEvents(t, s, "g", 0), []json.RawMessage{Event("a")})
	sameSeats(t, s, "g", seatsOf("g", seats...))
	sameSeeds(t, s, "g", seedsOf("g", seeds...))
	if _, err := s.Seat(ctx, Hash("impostor")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the failed Create left its seat: %v", err)
	}

	// A seat hash of another game's seat.
	h, hSeats, hSeeds := NewGame("h")
	hSeats = append(hSeats, store.Seat{Hash: Hash("g/red"), Role: store.Side, Side: "red", Label: "stolen"})
	if err := s.Create(ctx, h, hSeats, hSeeds, []json.RawMessage{Event("setup")}); !errors.Is(err, store.ErrExists) {
		t.Errorf("Create with another game's seat hash = %v, want ErrExists", err)
	}
	if seat, err := s.Seat(ctx, Hash("g/red")); err != nil || seat.Game != "g" || seat.Label != "Red" {
		t.Errorf("the taken seat is now %+v, %v", seat, err)
	}
	// A seat hash twice in one Create.
	_, hSeats, _ = NewGame("h")
	hSeats = append(hSeats, store.Seat{Hash: Hash("h/red"), Role: store.Side, Side: "blue", Label: "twin"})
	if err := s.Create(ctx, h, hSeats, hSeeds, nil); !errors.Is(err, store.ErrExists) {
		t.Errorf("Create with a seat hash twice = %v, want ErrExists", err)
	}
	if _, err := s.Game(ctx, "h"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game(h) after failed Creates = %v, want ErrNotFound", err)
	}
	for _, seat := range hSeats[:3] {
		if _, err := s.Seat(ctx, seat.Hash); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a failed Create left its seat %s: %v", seat.Label, err)
		}
	}
	if n, err := s.Count(ctx); err != nil || n != 1 {
		t.Errorf("Count after failed Creates = %d, %v; want 1", n, err)
	}
}

// testCreateAllOrNothing: a Create that fails, however late, keeps
// nothing of the game, and its id is then free to use.
func testCreateAllOrNothing(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	g, seats, seeds := Create(t, s, "g")
	before, err := s.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	events := []json.RawMessage{Event("setup 1"), Event("setup 2"), Event("setup 3")}

	for _, tc := range []struct {
		name   string
		change func(seats []store.Seat, events []json.RawMessage) ([]store.Seat, []json.RawMessage)
	}{
		{"a taken seat hash last", func(seats []store.Seat, events []json.RawMessage) ([]store.Seat, []json.RawMessage) {
			return append(seats, store.Seat{Hash: Hash("g/blue"), Role: store.Umpire, Label: "stolen"}), events
		}},
		{"a seat hash twice", func(seats []store.Seat, events []json.RawMessage) ([]store.Seat, []json.RawMessage) {
			return append(seats, seats[0]), events
		}},
		{"an empty event last", func(seats []store.Seat, events []json.RawMessage) ([]store.Seat, []json.RawMessage) {
			return seats, append(events, json.RawMessage{})
		}},
	} {
		h, hSeats, _ := NewGame("h")
		hSeats, hEvents := tc.change(hSeats, append([]json.RawMessage(nil), events...))
		if err := s.Create(ctx, h, hSeats, []store.Seed{Seed(1), Seed(4)}, hEvents); err == nil {
			t.Fatalf("%s: Create succeeded", tc.name)
		}
		if _, err := s.Game(ctx, "h"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: Game(h) = %v, want ErrNotFound", tc.name, err)
		}
		if es, err := s.Events(ctx, "h", 0, 0); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: Events(h) = %s, %v; want ErrNotFound", tc.name, es, err)
		}
		if got, err := s.Seats(ctx, "h"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: Seats(h) = %+v, %v; want ErrNotFound", tc.name, got, err)
		}
		if got, err := s.Seeds(ctx, "h"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: Seeds(h) = %+v, %v; want ErrNotFound", tc.name, got, err)
		}
		for _, seat := range hSeats[:3] {
			if _, err := s.Seat(ctx, seat.Hash); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: the failed Create left its seat %s: %v", tc.name, seat.Label, err)
			}
		}
		if n, err := s.Count(ctx); err != nil || n != 1 {
			t.Errorf("%s: Count = %d, %v; want 1", tc.name, n, err)
		}
		after, err := s.Games(ctx)
		if err != nil || len(after) != len(before) {
			t.Fatalf("%s: Games = %+v, %v; want %+v", tc.name, after, err, before)
		}
		sameGame(t, tc.name+": Games()[0]", after[0], before[0])
		sameSeats(t, s, "g", seatsOf("g", seats...))
		sameSeeds(t, s, "g", seedsOf("g", seeds...))
	}
	sameGame(t, "Game(g)", mustGame(t, s, "g"), g)

	// And the id is free to use.
	h, hSeats, _ := NewGame("h")
	hSeeds := []store.Seed{Seed(1), Seed(4)}
	if err := s.Create(ctx, h, hSeats, hSeeds, events); err != nil {
		t.Fatalf("Create(h) after the failed ones: %v", err)
	}
	h.Version = len(events)
	sameGame(t, "Game(h)", mustGame(t, s, "h"), h)
	SameEvents(t, "Events(h)", MustEvents(t, s, "h", 0), events)
	sameSeats(t, s, "h", seatsOf("h", hSeats...))
	sameSeeds(t, s, "h", seedsOf("h", hSeeds...))
}

// testEventsInPages: Events reads a long log in pages, each the events
// after since, as many as there are up to its limit.
func testEventsInPages(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	Create(t, s, "g")
	Create(t, s, "empty")
	var all []json.RawMessage
	for i := range 25 {
		all = append(all, Event("e%d", i+1))
	}
	MustAppend(t, s, "g", 0, all...)

	var got []json.RawMessage
	for since := 0; ; {
		page, err := s.Events(ctx, "g", since, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > 10 {
			t.Fatalf("a page of %d events, over its limit of 10", len(page))
		}
		if len(page) == 0 {
			break
		}
		got = append(got, page...)
		since += len(page)
	}
	SameEvents(t, "paged", got, all)

	for _, tc := range []struct {
		since, limit int
		want         []json.RawMessage
	}{
		{0, 10, all[:10]},
		{20, 10, all[20:]},
		{3, 4, all[3:7]},
		{24, 1, all[24:]},
		{-5, 2, all[:2]},
		{0, 25, all},
		{0, 100, all},
		{10, 0, all[10:]},
		{25, 10, nil},
		{30, 5, nil},
	} {
		page, err := s.Events(ctx, "g", tc.since, tc.limit)
		if err != nil {
			t.Fatalf("Events(g, %d, %d): %v", tc.since, tc.limit, err)
		}
		SameEvents(t, "Events(g, since, limit)", page, tc.want)
	}
	if page, err := s.Events(ctx, "empty", 0, 10); err != nil || len(page) != 0 {
		t.Errorf("Events of a game without events = %s, %v; want none", page, err)
	}
}

// testCountAndOrigin: Count is the number of games, and a game's Origin is
// kept (and empty if it had none).
func testCountAndOrigin(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	if n, err := s.Count(ctx); err != nil || n != 0 {
		t.Fatalf("Count of an empty store = %d, %v", n, err)
	}
	if games, err := s.Games(ctx); err != nil || len(games) != 0 {
		t.Fatalf("Games of an empty store = %+v, %v", games, err)
	}
	Create(t, s, "a")
	g, seats, seeds := NewGame("demo")
	g.Origin = store.OriginDemo
	if err := s.Create(ctx, g, seats, seeds, nil); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Count(ctx); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want 2", n, err)
	}
	if got := mustGame(t, s, "demo"); got.Origin != store.OriginDemo {
		t.Errorf("Game(demo).Origin = %q", got.Origin)
	}
	if got := mustGame(t, s, "a"); got.Origin != "" {
		t.Errorf("a game made without an origin has %q", got.Origin)
	}
	games, err := s.Games(ctx)
	if err != nil || len(games) != 2 || games[0].Origin != "" || games[1].Origin != store.OriginDemo {
		t.Errorf("Games = %+v, %v; want a without an origin, then demo", games, err)
	}
	for i := range 3 {
		Create(t, s, fmt.Sprintf("more%d", i))
	}
	if n, err := s.Count(ctx); err != nil || n != 5 {
		t.Fatalf("Count = %d, %v; want 5", n, err)
	}
}

// testReissue: Reissue revokes the old token at once and keeps the seat
// what it was; another game's seat is ErrNotFound, a taken hash
// ErrExists, and neither changes anything.
func testReissue(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	_, seats, _ := Create(t, s, "g")
	_, hSeats, _ := Create(t, s, "h")
	if err := s.Reissue(ctx, "g", Hash("g/red"), Hash("g/red-2")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seat(ctx, Hash("g/red")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the old token still finds a seat: %v", err)
	}
	want := seatsOf("g", seats...)
	want[1].Hash = Hash("g/red-2")
	got, err := s.Seat(ctx, Hash("g/red-2"))
	if err != nil || !reflect.DeepEqual(got, want[1]) {
		t.Fatalf("the new token finds %+v, %v; want %+v", got, err, want[1])
	}
	sameSeats(t, s, "g", want)

	// A seat of another game, a hash in use, a seat no longer there:
	// refused, nothing changed.
	if err := s.Reissue(ctx, "g", Hash("h/red"), Hash("x")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("reissuing another game's seat = %v, want ErrNotFound", err)
	}
	if err := s.Reissue(ctx, "g", Hash("g/red"), Hash("y")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("reissuing a revoked token = %v, want ErrNotFound", err)
	}
	if err := s.Reissue(ctx, "g", Hash("g/blue"), Hash("h/umpire")); !errors.Is(err, store.ErrExists) {
		t.Errorf("reissuing onto a taken hash = %v, want ErrExists", err)
	}
	if err := s.Reissue(ctx, "g", Hash("g/blue"), Hash("g/umpire")); !errors.Is(err, store.ErrExists) {
		t.Errorf("reissuing onto a hash of the same game = %v, want ErrExists", err)
	}
	for _, h := range []string{"x", "y"} {
		if _, err := s.Seat(ctx, Hash(h)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a refused reissue made the seat %s: %v", h, err)
		}
	}
	sameSeats(t, s, "g", want)
	sameSeats(t, s, "h", seatsOf("h", hSeats...))

	// Appends around a reissue keep their versions.
	MustAppend(t, s, "g", 0, Event("a"))
	if err := s.Reissue(ctx, "g", Hash("g/umpire"), Hash("g/umpire-2")); err != nil {
		t.Fatal(err)
	}
	MustAppend(t, s, "g", 1, Event("b"))
	want[0].Hash = Hash("g/umpire-2")
	sameSeats(t, s, "g", want)
}
