import ReelCore

/// Which address a request comes from when proxies stand in front of the server.
///
/// The socket's peer is the client, unless the peer is a proxy the server was told to trust
/// (`--trusted-proxy`). Then `X-Forwarded-For` is read from the right: each proxy appends the
/// address it received the request from, so the rightmost address that is not itself a
/// trusted proxy is the client. Anything a client wrote there itself sits further left and is
/// never used. A header that is missing or malformed where it matters leaves the proxy's own
/// address, so a broken proxy configuration never lets a client choose its address.
public struct ForwardedClient: Sendable, Hashable {
    /// Addresses of proxies whose `X-Forwarded-For` is believed, as the server prints them
    /// (`127.0.0.1`, `::1`).
    public var trustedProxies: Set<String>

    public init(trustedProxies: Set<String> = []) {
        self.trustedProxies = trustedProxies
    }

    /// Whether `peer` is a trusted proxy.
    public func trusts(_ peer: String) -> Bool { trustedProxies.contains(peer) }

    /// The client for a request from socket address `peer` with this `X-Forwarded-For` value.
    public func client(peer: String, forwardedFor: String?) -> String {
        guard trusts(peer), let forwardedFor else { return peer }
        for entry in forwardedFor.split(separator: ",", omittingEmptySubsequences: false).reversed() {
            let address = String(entry.trimmingASCIISpaces())
            guard Self.looksLikeAddress(address) else { return peer }
            if !trusts(address) { return address }
        }
        return peer
    }

    /// An IPv4 or IPv6 address as proxies write them: hex digits, dots and colons, 2 to 45
    /// characters (no ports, brackets or names).
    static func looksLikeAddress(_ text: String) -> Bool {
        (2...45).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                 UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: ":"): true
            default: false
            }
        }
    }
}
