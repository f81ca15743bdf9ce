package mcp

// This file defines the protocol revisions the server speaks and how a
// version is chosen: by the initialize handshake for the legacy era, by each
// request's _meta for the stateless 2026-07-28 revision.

// The stateless revision: no handshake, every request names its version.
const modernVersion = "2026-07-28"

// legacyVersions are the handshake-era revisions, newest first.
var legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// supportedVersions is what server/discover and -32022 errors list: the
// stateless revision first, then the handshake era.
var supportedVersions = append([]string{modernVersion}, legacyVersions...)

// negotiate picks the legacy revision to answer initialize with: the one the
// client asked for when it is known, else our newest legacy revision. It
// never echoes an unknown version and never answers with the stateless one.
func negotiate(requested string) string {
	for _, v := range legacyVersions {
		if v == requested {
			return v
		}
	}
	return legacyVersions[0]
}

// atLeast reports whether revision v is min or newer. Revisions are dates,
// so they order as strings.
func atLeast(v, min string) bool { return v >= min }

// _meta keys of the stateless revision.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)
