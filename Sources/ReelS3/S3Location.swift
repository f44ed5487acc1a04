import Foundation

/// Where a stream goes in object storage: `s3://BUCKET/PREFIX`, the endpoint and the
/// addressing style, and from those the host and path of each object.
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// How the bucket appears in a request.
    public enum Addressing: String, Sendable, Hashable, CaseIterable {
        /// `http://endpoint/BUCKET/KEY`: what S3-compatible servers (MinIO, Ceph, moto) expect.
        case path
        /// `https://BUCKET.endpoint/KEY`: AWS's own (path-style is being retired there).
        case virtualHost = "virtual-host"
    }

    /// Why an `s3://` location cannot be used.
    public struct Error: Swift.Error, Hashable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var description: String
    }

    /// The bucket name.
    public let bucket: String
    /// The key prefix without leading or trailing `/` (may be empty).
    public let prefix: String

    /// `s3://BUCKET/PREFIX`.
    public var description: String { prefix.isEmpty ? "s3://\(bucket)/" : "s3://\(bucket)/\(prefix)/" }

    /// Parses `s3://BUCKET[/PREFIX]`; the bucket must follow S3's naming rules (3 to 63 of
    /// `a-z 0-9 . -`, starting and ending with a letter or digit, no `..`, not an IP address).
    public init(parsing text: String) throws(Error) {
        guard text.hasPrefix("s3://") else {
            throw Error(description: "\"\(text)\" is not an S3 location: write s3://BUCKET/PREFIX, e.g. s3://my-streams/live")
        }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        try Self.checkBucket(bucket)
        let prefix = rest.dropFirst(bucket.count).split(separator: "/", omittingEmptySubsequences: true)
        if prefix.contains(where: { $0 == "." || $0 == ".." }) {
            throw Error(description: "the S3 prefix in \"\(text)\" has a \".\" or \"..\" part: give a plain path such as s3://\(bucket)/live")
        }
        self.init(bucket: bucket, prefix: prefix.joined(separator: "/"))
    }

    private init(bucket: String, prefix: String) {
        self.bucket = bucket
        self.prefix = prefix
    }

    /// Throws when `name` breaks S3's bucket naming rules, saying which.
    static func checkBucket(_ name: String) throws(Error) {
        func fail(_ why: String) -> Error {
            Error(description: "\"\(name)\" is not a valid S3 bucket name: \(why) (S3's rules: 3 to 63 of a-z 0-9 . -, starting and ending with a letter or digit)")
        }
        if name.isEmpty { throw Error(description: "no bucket in the S3 location: write s3://BUCKET/PREFIX") }
        guard (3...63).contains(name.utf8.count) else { throw fail("it has \(name.utf8.count) characters") }
        let allowed = name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }
        guard allowed else { throw fail(name.contains { $0.isUppercase } ? "upper-case letters are not allowed" : "it has a character other than a-z 0-9 . -") }
        guard let first = name.first, let last = name.last, first.isLetter || first.isNumber, last.isLetter || last.isNumber else {
            throw fail("it must start and end with a letter or digit")
        }
        if name.contains("..") { throw fail("two dots in a row") }
        if name.split(separator: ".").count == 4 && name.split(separator: ".").allSatisfy({ UInt8($0) != nil }) { throw fail("it looks like an IP address") }
    }

    /// The object key of a stream path (`streams/{id}/seg/000001.m4s`): PREFIX/path.
    public func key(forPath path: String) -> String {
        let trimmed = path.drop { $0 == "/" }
        return prefix.isEmpty ? String(trimmed) : "\(prefix)/\(trimmed)"
    }

    /// An endpoint: scheme, host and port (no path), e.g. `http://127.0.0.1:9000`.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// `http` or `https`.
        public var scheme: String
        /// The host name or address.
        public var host: String
        /// The port when not the scheme's default.
        public var port: Int?

        /// AWS's own endpoint for a region: `https://s3.REGION.amazonaws.com`.
        public static func aws(region: String) -> Endpoint { Endpoint(scheme: "https", host: "s3.\(region).amazonaws.com", port: nil) }

        /// Parses `http(s)://HOST[:PORT][/]`; nil for anything else (a path, a query, another scheme).
        public init?(parsing text: String) {
            let lower = text.lowercased()
            guard let scheme = ["https", "http"].first(where: { lower.hasPrefix($0 + "://") }) else { return nil }
            var rest = text.dropFirst(scheme.count + 3)
            if rest.hasSuffix("/") { rest = rest.dropLast() }
            guard !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("@") else { return nil }
            var host = String(rest), port: Int?
            if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
                guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else { return nil }
                host = String(rest[..<colon])
                port = (scheme == "http" && number == 80) || (scheme == "https" && number == 443) ? nil : number
            }
            guard !host.isEmpty else { return nil }
            self.init(scheme: scheme, host: host, port: port)
        }

        /// An endpoint from its parts.
        public init(scheme: String, host: String, port: Int?) {
            self.scheme = scheme
            self.host = host
            self.port = port
        }

        /// `host[:port]`, the `Host` header.
        public var authority: String { port.map { "\(host):\($0)" } ?? host }
        /// `scheme://host[:port]`.
        public var description: String { "\(scheme)://\(authority)" }
        /// Whether this is AWS's S3 (where virtual-host addressing is the default).
        public var isAWS: Bool { host.hasSuffix(".amazonaws.com") || host == "amazonaws.com" }
    }

    /// The addressing to use when none is asked for: virtual-host on AWS's own endpoint,
    /// path-style on any other (S3-compatible servers expect it; no wildcard DNS needed).
    public static func defaultAddressing(for endpoint: Endpoint) -> Addressing { endpoint.isAWS ? .virtualHost : .path }

    /// Where one object is: the `Host` header (`authority`), the encoded path that is both
    /// the request's path and SigV4's canonical URI, and the URL text.
    public struct ObjectAddress: Sendable, Hashable {
        /// `Host`: `host[:port]`.
        public var authority: String
        /// The path, each segment URI-encoded once: `/bucket/prefix/streams/a/playlist.m3u8`.
        public var path: String
        /// `scheme://authority/path`.
        public var url: String
    }

    /// The bucket's own address (for ListObjectsV2): path-style `/BUCKET`, virtual-host `/`.
    public func bucketAddress(endpoint: Endpoint, addressing: Addressing) -> ObjectAddress {
        let authority = addressing == .path ? endpoint.authority : "\(bucket).\(endpoint.authority)"
        let path = addressing == .path ? "/\(bucket)" : "/"
        return ObjectAddress(authority: authority, path: path, url: "\(endpoint.scheme)://\(authority)\(path)")
    }

    /// The address of `key` in this bucket at `endpoint`.
    public func address(ofKey key: String, endpoint: Endpoint, addressing: Addressing) -> ObjectAddress {
        let encodedKey = SigV4.uriEncode(key, keepSlash: true)
        let authority: String, path: String
        switch addressing {
        case .path:
            authority = endpoint.authority
            path = "/\(bucket)/\(encodedKey)"
        case .virtualHost:
            authority = "\(bucket).\(endpoint.authority)"
            path = "/\(encodedKey)"
        }
        return ObjectAddress(authority: authority, path: path, url: "\(endpoint.scheme)://\(authority)\(path)")
    }
}
