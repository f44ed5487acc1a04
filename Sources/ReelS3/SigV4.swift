import Foundation
import ReelCore

/// AWS Signature Version 4, the text half: canonical request, credential scope and string to
/// sign, as S3 wants them. Hashing and HMAC are ``SigV4Signer``'s (libcrypto); the time is
/// passed in as `yyyyMMdd'T'HHmmss'Z'`, never read from a clock.
///
/// Reference: https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
public enum SigV4 {
    /// The signing algorithm's name, first line of the string to sign and of `Authorization`.
    public static let algorithm = "AWS4-HMAC-SHA256"
    /// The hex SHA-256 of an empty body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// RFC 3986 encoding as SigV4 wants it: `A-Z a-z 0-9 - _ . ~` stay, every other byte of the
    /// UTF-8 becomes `%XX` (upper-case hex); `/` stays only when `keepSlash` (an S3 object key in
    /// a path: each segment encoded once, never twice).
    public static func uriEncode(_ text: String, keepSlash: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepSlash && byte == 0x2F) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += byte < 16 ? "%0" + hex : "%" + hex
            }
        }
        return result
    }

    /// `A-Z a-z 0-9 - _ . ~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        let upper: ClosedRange<UInt8> = 0x41...0x5A, lower: ClosedRange<UInt8> = 0x61...0x7A, digit: ClosedRange<UInt8> = 0x30...0x39
        return upper.contains(byte) || lower.contains(byte) || digit.contains(byte) || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x7E
    }

    /// The canonical query: names and values encoded (slashes too), sorted by name then value,
    /// `name=value` joined by `&`; a parameter without a value is `name=`.
    public static func canonicalQuery(_ parameters: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = parameters.map { (uriEncode($0.name), uriEncode($0.value)) }
        let sorted = encoded.sorted { (a: (name: String, value: String), b: (name: String, value: String)) -> Bool in
            a.name == b.name ? a.value < b.value : a.name < b.name
        }
        return sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    /// Canonical headers (names lower-cased, values trimmed with inner runs of spaces made one,
    /// sorted by name, each line ending in a newline; repeated names joined by commas) and the
    /// signed-headers list (`host;x-amz-date`).
    public static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> (text: String, signed: String) {
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            let trimmed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            merged[name.lowercased().trimmingCharacters(in: .whitespaces), default: []].append(trimmed)
        }
        let names = merged.keys.sorted()
        let text = names.map { "\($0):\(merged[$0]!.joined(separator: ","))\n" }.joined()
        return (text, names.joined(separator: ";"))
    }

    /// `yyyyMMdd/region/service/aws4_request`; `timestamp` is `yyyyMMdd'T'HHmmss'Z'`.
    public static func credentialScope(timestamp: String, region: String, service: String = "s3") -> String {
        "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
    }

    /// The canonical request: method, canonical URI (already encoded: see ``uriEncode(_:keepSlash:)``),
    /// canonical query, canonical headers, signed headers and the payload's hex SHA-256 (or
    /// `UNSIGNED-PAYLOAD`), one per line. Returns the text and the signed-headers list.
    public static func canonicalRequest(method: String, canonicalURI: String, query: [(name: String, value: String)] = [],
                                        headers: [(name: String, value: String)], payloadHash: String) -> (text: String, signedHeaders: String) {
        let canonical = canonicalHeaders(headers)
        let text = [method, canonicalURI.isEmpty ? "/" : canonicalURI, canonicalQuery(query), canonical.text, canonical.signed, payloadHash]
            .joined(separator: "\n")
        return (text, canonical.signed)
    }

    /// The string to sign: algorithm, timestamp, credential scope and the hex SHA-256 of the
    /// canonical request.
    public static func stringToSign(timestamp: String, scope: String, canonicalRequestHash: String) -> String {
        [algorithm, timestamp, scope, canonicalRequestHash].joined(separator: "\n")
    }

    /// The `Authorization` header's value.
    public static func authorization(accessKeyID: String, scope: String, signedHeaders: String, signature: String) -> String {
        "\(algorithm) Credential=\(accessKeyID)/\(scope),SignedHeaders=\(signedHeaders),Signature=\(signature)"
    }

    /// `date` as `yyyyMMdd'T'HHmmss'Z'` (UTC), the form of `x-amz-date`.
    public static func timestamp(_ date: Date) -> String {
        let (days, inDay) = TimestampFormat.floorDivide(Int64(date.timeIntervalSince1970.rounded(.down)), 86_400)
        let civil = TimestampFormat.CivilDate(daysSince1970: days)
        func two<N: BinaryInteger>(_ n: N) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(civil.year)\(two(civil.month))\(two(civil.day))T\(two(inDay / 3600))\(two(inDay % 3600 / 60))\(two(inDay % 60))Z"
    }
}
