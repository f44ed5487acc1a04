import Foundation
import ReelCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client the network targets share (``HTTPOriginTarget``, ``S3Target``): one
/// URLSession with no cache, bounded timeouts and up to six connections per host; an exchange
/// either returns an HTTP answer or fails with a ``Failure`` in Reel's words.
struct HTTPUploadSession: Sendable {
    /// No HTTP answer came back.
    enum Failure: Error, Hashable {
        /// Refused, host not found, connection lost: `reason` is worded by ``ReelCore/ErrorSentence``.
        case unreachable(url: URL, reason: String)
        /// No progress for the request timeout.
        case timedOut(url: URL, seconds: TimeInterval)
        /// The answer was not HTTP.
        case invalidResponse(url: URL)
    }

    /// Seconds without progress after which a request fails.
    let requestTimeout: TimeInterval
    private let box: SessionBox

    /// A session whose requests fail after `requestTimeout` s without progress, or
    /// `resourceTimeout` s in all.
    init(requestTimeout: TimeInterval, resourceTimeout: TimeInterval) {
        self.requestTimeout = requestTimeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = resourceTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 6
        box = SessionBox(URLSession(configuration: configuration))
    }

    /// A request for `url`, never answered from a cache.
    func request(_ url: URL, method: String) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
        request.httpMethod = method
        return request
    }

    /// Sends `request` (uploading `body` when given) and returns the answer's body and head.
    func exchange(_ request: URLRequest, url: URL, body: Data?) async throws -> (Data, HTTPURLResponse) {
        let data: Data
        let response: URLResponse
        do {
            if let body {
                (data, response) = try await box.session.upload(for: request, from: body)
            } else {
                (data, response) = try await box.session.data(for: request)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Self.map(error, url: url, timeout: requestTimeout)
        }
        guard let http = response as? HTTPURLResponse else { throw Failure.invalidResponse(url: url) }
        return (data, http)
    }

    /// A failed exchange in Reel's words (``ReelCore/ErrorSentence``): never Foundation's
    /// `NSURLErrorDomain` dump.
    static func map(_ error: any Swift.Error, url: URL, timeout: TimeInterval) -> any Swift.Error {
        let ns = error as NSError
        guard ns.domain == "NSURLErrorDomain" else { return Failure.unreachable(url: url, reason: ErrorSentence.reason(error, url: url)) }
        switch ns.code {
        case -999: return CancellationError()  // URLError.cancelled
        case -1001: return Failure.timedOut(url: url, seconds: timeout)  // URLError.timedOut
        default: return Failure.unreachable(url: url, reason: ErrorSentence.reason(error, url: url))
        }
    }

    /// An answer's first 300 bytes (an HTML error page too) reduced to its words, for a one-line message.
    static func plainText(_ data: Data) -> String {
        let text = String(decoding: data.prefix(300), as: UTF8.self)
        var result = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true; result.append(" ") } else if character == ">" { inTag = false } else if !inTag { result.append(character) }
        }
        return result.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether sending the same request again may succeed: 5xx, 408 Request Timeout, 425
    /// Too Early, 429 Too Many Requests.
    static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 408 || status == 425 || status == 429
    }
}

/// Owns a URLSession and lets its tasks finish when the last target copy goes away.
private final class SessionBox: Sendable {
    let session: URLSession
    init(_ session: URLSession) { self.session = session }
    deinit { session.finishTasksAndInvalidate() }
}
