package server

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/store"
)

// A token is 32 random bytes in unpadded base64url: 256 bits, so a token
// cannot be guessed, and only its SHA-256 is stored (a slow hash adds
// nothing to a secret this long).
const tokenBytes = 32

func newToken(r io.Reader) (token string, hash []byte, err error) {
	b := make([]byte, tokenBytes)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", nil, fmt.Errorf("make a token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token), nil
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// bearer reads the token from the Authorization header. Tokens are never
// taken from a URL, where logs and browser history would keep them.
func bearer(r *http.Request) (string, *Error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", errorf(Unauthorized, "the request has no Authorization header; send the seat's token as Authorization: Bearer TOKEN")
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", errorf(Unauthorized, "the Authorization header is not of the form Bearer TOKEN")
	}
	return strings.TrimSpace(token), nil
}

// authorize checks that seat s may give command c, filling in the side a
// side's seat acts for. A side acts only for itself, and names only
// pieces it can see: one it cannot gets the answer a piece that does not
// exist gets. A commander acts only on formations under his, as the rule
// set names them (game.Subjecter), and on nothing it cannot name. Only the
// umpire ends a step at once, and only he places a piece (game.Place): a
// seat's place is refused here, before a rule set is asked about
// arguments that are the engine's, not its own. A side takes back (and
// withdraws the Ready of) itself only; the umpire acts for any side by
// naming it.
func authorize(s store.Seat, rules game.Rules, g *game.Game, c *game.Command) *Error {
	if s.Role == store.Umpire {
		if c.Side == "" {
			c.Side = game.Umpire
		}
		return nil
	}
	if c.Side == "" {
		c.Side = s.Side
	}
	if c.Side != s.Side {
		return errorf(Forbidden, "this seat plays %s and cannot give commands for %s", s.Side, quote(c.Side))
	}
	if c.Verb == game.End {
		return errorf(Forbidden, "a side finishes a step with ready; only the umpire ends a step at once")
	}
	if c.Verb == game.Place {
		return errorf(Forbidden, "only the umpire places a piece where he likes; a side moves its pieces by its own commands")
	}
	if c.Verb == game.TakeBack && s.Role == store.Commander {
		// The log says which side gave a command, not which of its seats:
		// a commander might take back another's (issue 36).
		return errorf(Forbidden, "a commander's seat takes nothing back; the side's own seat or the umpire may take back the side's last command")
	}
	if err := rules.Unseen(g.State(), s.Side, c); err != nil {
		return asError(err)
	}
	if s.Role != store.Commander {
		return nil
	}
	sub, ok := rules.(game.Subjecter)
	if !ok {
		return errorf(Forbidden, "rule set %s does not say what a command touches, so a commander's seat may give none", rules.ID())
	}
	st := g.State()
	names, err := sub.Subjects(st, c)
	if err != nil {
		return errorf(Forbidden, "%v", err)
	}
	sc := g.Scenario()
	for _, id := range names {
		if !under(sc, id, s.Formation) {
			return errorf(Forbidden, "%s is not under %s, the formation this seat commands", quote(id), s.Formation)
		}
	}
	return nil
}

// under reports whether id (a formation, or a unit or general by the
// formation it belongs to or commands) is top or below it, short of the
// army (game.Under).
func under(sc *battle.Scenario, id, top string) bool { return game.Under(sc, id, top) }
