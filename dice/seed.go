package dice

// Seed is a secret key that verifiable rolls are drawn from (Keyed): the
// rolls of events numbered From and later, until the next seed's From.
// Its Commitment (hex SHA-256 of the key) is published when it is made,
// the Key itself when it is revealed; Key is nil where it is still secret.
// The engine, the store and exported games all use this one type.
type Seed struct {
	From       int    `json:"from"`
	Commitment string `json:"commitment"`
	Key        []byte `json:"key,omitempty"`
}
