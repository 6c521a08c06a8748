package server

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

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

// viewer is who the engine shows the game to: the umpire, or a side.
func viewer(s store.Seat) string {
	if s.Role == store.Umpire {
		return game.Umpire
	}
	return s.Side
}

// authorize checks that seat s may give command c, filling in the side a
// side's seat acts for. A side acts only for itself; a commander only for
// the pieces under his formation; only the umpire ends a step at once.
func authorize(s store.Seat, st *game.State, c *game.Command) *Error {
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
		return errorf(Forbidden, "this seat plays %s and cannot give commands for %s", s.Side, c.Side)
	}
	if c.Verb == "end" {
		return errorf(Forbidden, "a side finishes a step with ready; only the umpire ends a step at once")
	}
	if s.Role != store.Commander {
		return nil
	}
	in := func(formation string) bool {
		for f := range st.Lineage(formation) {
			if f.ID == s.Formation {
				return true
			}
		}
		return false
	}
	out := func(kind, id string) *Error {
		return errorf(Forbidden, "%s %s is not under %s, the formation this seat commands", kind, id, s.Formation)
	}
	general := func(id string) *Error {
		if g := st.General(id); g != nil && !in(g.Commands) {
			return out("general", id)
		}
		return nil
	}
	unit := func(id string) *Error {
		if u := st.Unit(id); u != nil && !in(u.Division) {
			return out("unit", id)
		}
		return nil
	}
	var errs []*Error
	switch c.Verb {
	case "write":
		if c.Write != nil {
			for _, f := range c.Write.For {
				if st.Formation(f) != nil && !in(f) {
					errs = append(errs, out("formation", f))
				}
			}
		}
	case "move":
		for _, m := range c.Moves {
			if m.Unit != "" {
				errs = append(errs, unit(m.Unit))
			} else {
				errs = append(errs, general(m.General))
			}
		}
	case "attach", "detach", "remove", "replace":
		errs = append(errs, general(c.General))
	case "redirect":
		if m := st.Messenger(c.Messenger); m != nil {
			errs = append(errs, general(m.To))
		}
		errs = append(errs, general(c.To))
	case "complete":
		if st.Formation(c.Formation) != nil && !in(c.Formation) {
			errs = append(errs, out("formation", c.Formation))
		}
	case "react", "combat", "rout", "rally":
		for _, u := range c.Units {
			errs = append(errs, unit(u))
		}
	}
	if i := slices.IndexFunc(errs, func(e *Error) bool { return e != nil }); i >= 0 {
		return errs[i]
	}
	return nil
}
