import Foundation
import ReelCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Looks a book up by ISBN-13: openBD first, the National Diet Library's OpenSearch when openBD
/// does not know it, answers cached on disk (``BookLookupCache``). Plain HTTP GETs with a
/// timeout, through FoundationNetworking's URLSession.
public struct BookLookup: Sendable {
    /// The services' base addresses and the timeout.
    public struct Settings: Sendable, Equatable {
        /// openBD's base; asked `{openBD}/get?isbn=ISBN`.
        public var openBD: URL
        /// The NDL search's base; asked `{ndl}/api/opensearch?isbn=ISBN`.
        public var ndl: URL
        /// Seconds before a request is given up.
        public var timeout: TimeInterval

        /// The public services, 10 s each.
        public static let `default` = Settings(openBD: URL(string: "https://api.openbd.jp/v1")!,
                                               ndl: URL(string: "https://ndlsearch.ndl.go.jp")!, timeout: 10)

        /// Settings with the given bases and timeout.
        public init(openBD: URL, ndl: URL, timeout: TimeInterval) {
            self.openBD = openBD
            self.ndl = ndl
            self.timeout = timeout
        }
    }

    /// What a lookup came to.
    public enum Outcome: Sendable, Equatable {
        /// A service knew the book; `cachedAt` is set when the answer came from the cache.
        case found(BookRecord, cachedAt: Date?)
        /// Both services answered and neither knows the ISBN.
        case notFound
    }

    /// No service could say.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// No service found the book and at least one could not be reached or answered
        /// nonsense: each failure, named.
        case unreachable([String])

        public var description: String {
            switch self {
            case .unreachable(let failures):
                "the book services could not be asked (offline?): " + failures.joined(separator: "; ")
                    + "; check the network (and --openbd/--ndl, REEL_OPENBD_URL/REEL_NDL_URL when set)"
            }
        }
    }

    /// The addresses and timeout.
    public var settings: Settings
    /// Where answers are kept, nil for none.
    public var cache: BookLookupCache?

    /// A lookup with `settings`, caching in `cache`.
    public init(settings: Settings = .default, cache: BookLookupCache?) {
        self.settings = settings
        self.cache = cache
    }

    /// The book with ISBN `isbn` (13 digits, already checked).
    public func lookUp(isbn: String, now: Date = Date()) async throws(Error) -> Outcome {
        if let entry = cache?.entry(for: isbn, now: now) {
            return entry.record.map { .found($0, cachedAt: entry.lookedUpAt) } ?? .notFound
        }
        var failures: [String] = []
        let services: [(String, URL, (Data, String) throws -> BookRecord?)] = [
            ("openBD", Self.address(settings.openBD, "get", isbn), { try OpenBDAnswer.parse($0, isbn: $1) }),
            ("National Diet Library", Self.address(settings.ndl, "api/opensearch", isbn), { try NDLSearchAnswer.parse($0, isbn: $1) }),
        ]
        for (name, url, parse) in services {
            do {
                let data = try await get(url)
                if let record = try parse(data, isbn) {
                    try? cache?.store(.init(isbn: isbn, lookedUpAt: now, record: record))
                    return .found(record, cachedAt: nil)
                }
            } catch {
                failures.append("\(name) (\(url.absoluteString)): \(ErrorSentence.reason(error, url: url))")
            }
        }
        guard failures.isEmpty else { throw .unreachable(failures) }
        try? cache?.store(.init(isbn: isbn, lookedUpAt: now, record: nil))
        return .notFound
    }

    /// The bytes at `url` (a 200 answer), or an error naming the status or the network failure
    /// (Foundation's errors pass through; ``ReelCore/ErrorSentence`` words them).
    public func get(_ url: URL) async throws -> Data {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: settings.timeout)
        request.setValue("reel (study materials)", forHTTPHeaderField: "User-Agent")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = settings.timeout
        configuration.timeoutIntervalForResource = settings.timeout * 2
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw Failure(description: "the answer is not HTTP") }
        guard http.statusCode == 200 else { throw Failure(description: "answered HTTP \(http.statusCode)") }
        return data
    }

    /// `{base}/{path}?isbn=ISBN`.
    static func address(_ base: URL, _ path: String, _ isbn: String) -> URL {
        var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "isbn", value: isbn)]
        return components.url!
    }

    /// An answer that is not a 200.
    struct Failure: Swift.Error, CustomStringConvertible {
        var description: String
    }
}
