import Foundation

/// The bearer token that authorizes PUT and DELETE on the origin.
///
/// Reel creates it as 256 random bits in hex; an operator may supply any token of 16 to 512
/// printable ASCII characters without spaces. Comparison takes the same time whatever the
/// presented value, so response timing tells an attacker nothing about how much of a guess
/// was right.
public struct OriginToken: Sendable {
    private let bytes: [UInt8]

    /// The token's text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A token from `text` (surrounding white space and newlines removed); throws when it is
    /// too short, too long or has characters a header cannot carry.
    public init(_ text: String) throws(Error) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = Array(trimmed.utf8)
        guard (16...512).contains(bytes.count) else { throw .badLength(bytes.count) }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .badCharacters }
        self.bytes = bytes
    }

    /// A new token: 32 bytes from `generator` (use the system generator, which is
    /// cryptographically secure on Linux) as 64 lowercase hex digits.
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> OriginToken {
        var hex = ""
        for _ in 0..<4 {
            let word = generator.next()
            let digits = String(word, radix: 16)
            hex += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return try! OriginToken(hex)
    }

    /// Whether `presented` is this token, in time that depends only on the lengths.
    public func matches(_ presented: some StringProtocol) -> Bool {
        let other = Array(presented.utf8)
        var difference = UInt8(truncatingIfNeeded: bytes.count ^ other.count) | (bytes.count == other.count ? 0 : 1)
        for index in 0..<max(bytes.count, other.count) {
            let a = index < bytes.count ? bytes[index] : 0
            let b = index < other.count ? other[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }

    /// The token in an `Authorization: Bearer TOKEN` header value, or `nil` when the header is
    /// missing or uses another scheme.
    public static func bearer(fromAuthorization header: String?) -> Substring? {
        guard let header else { return nil }
        let value = header.trimmingASCIISpaces()
        guard value.count > 7, value.prefix(7).lowercased() == "bearer " else { return nil }
        let token = value.dropFirst(7).trimmingASCIISpaces()
        return token.isEmpty ? nil : token
    }

    /// Why a token cannot be used.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// Fewer than 16 or more than 512 characters.
        case badLength(Int)
        /// Spaces, control characters or non-ASCII.
        case badCharacters

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .badLength(let count):
                "the token has \(count) characters; use 16 to 512 (delete the token file to have a new 64-character one made)"
            case .badCharacters:
                "the token may only hold printable ASCII without spaces (delete the token file to have a new one made)"
            }
        }
    }
}
