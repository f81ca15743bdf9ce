package mcp

// Sessions that survive a restart and move between instances. Clients of
// the handshake era do not start a new session when theirs is answered
// 404 (the Go SDK, mcp-go and both TypeScript SDKs keep failing), so with
// a session key (Options.SessionKey) a session's id carries what the
// session was started with, signed:
//
//	[instance.]<24 random bytes, hex>.<base64url of the ticket>.<base64url of its MAC>
//
// An instance that does not hold the session (it was restarted, or the
// proxy sent the request to another one) checks the MAC and takes the
// session up under the same id: revision, client capabilities and the
// handshake done. Roots are asked again at first use, as in a new
// session; the log level comes back to its default and resource
// subscriptions are not carried (they change after the id is given). A
// session ended with DELETE is not taken up again by the instance that
// ended it.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// deriveKey makes a key for one use from the session key.
func deriveKey(key []byte, use string) [32]byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(use))
	var k [32]byte
	copy(k[:], m.Sum(nil))
	return k
}

// A ticket is what a session id carries.
type ticket struct {
	Version string          `json:"v"`
	Caps    json.RawMessage `json:"c,omitempty"`
}

// maxTicketCaps bounds the capabilities a session id carries whole; past
// it, only the members the server acts on are kept, so that an id stays
// short enough for a header.
const maxTicketCaps = 1024

// ticketMACLen is how much of the HMAC-SHA256 an id keeps.
const ticketMACLen = 16

func (s *Server) hasSessionKey() bool { return s.opts.SessionKey != nil }

// ticketID makes a session id that carries t after base (the random part,
// with its instance prefix).
func (s *Server) ticketID(base string, t ticket) string {
	if len(t.Caps) > maxTicketCaps {
		t.Caps = knownCaps(t.Caps)
	}
	p, err := json.Marshal(t)
	if err != nil {
		return base
	}
	body := base + "." + base64.RawURLEncoding.EncodeToString(p)
	return body + "." + base64.RawURLEncoding.EncodeToString(s.ticketMAC(body))
}

func (s *Server) ticketMAC(body string) []byte {
	m := hmac.New(sha256.New, s.ticketKey[:])
	m.Write([]byte(body))
	return m.Sum(nil)[:ticketMACLen]
}

// strict64 decodes what the server encodes with base64.RawURLEncoding, and
// only that: the lenient decoding takes a last character whose unused bits
// are not zero, so that 16 spellings of a session id were one session (and
// a variant of an id ended with DELETE was taken up again).
var strict64 = base64.RawURLEncoding.Strict()

// openTicket reads the ticket of a session id made by ticketID under the
// same key; ok is false for any other id.
func (s *Server) openTicket(id string) (t ticket, ok bool) {
	if !s.hasSessionKey() {
		return t, false
	}
	i := strings.LastIndexByte(id, '.')
	if i < 0 {
		return t, false
	}
	body, sig := id[:i], id[i+1:]
	mac, err := strict64.DecodeString(sig)
	if err != nil || !hmac.Equal(mac, s.ticketMAC(body)) {
		return t, false
	}
	dot := strings.LastIndexByte(body, '.')
	p, err := strict64.DecodeString(body[dot+1:])
	if dot < 0 || err != nil || json.Unmarshal(p, &t) != nil || !isLegacyVersion(t.Version) {
		return ticket{}, false
	}
	return t, true
}

// knownCaps keeps the members of a capabilities object the server acts
// on.
func knownCaps(caps json.RawMessage) json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, name := range []string{"roots", "sampling", "elicitation"} {
		if v := objectMember(caps, name); v != nil && len(v) <= maxTicketCaps/4 {
			out[name] = v
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// ticket says what a session id should carry: the revision and
// capabilities initialize settled.
func (c *conn) ticket() ticket {
	c.mu.Lock()
	defer c.mu.Unlock()
	return ticket{Version: c.version, Caps: c.clientCaps}
}

// restore gives a new conn the state of a session taken up from its id:
// as after initialize and notifications/initialized.
func (c *conn) restore(t ticket) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.operateLocked()
	c.version = t.Version
	if len(t.Caps) > 0 && t.Caps[0] == '{' {
		c.clientCaps = append([]byte(nil), t.Caps...)
		roots := objectMember(c.clientCaps, "roots")
		c.roots.wanted = roots != nil && roots[0] == '{'
	}
}
