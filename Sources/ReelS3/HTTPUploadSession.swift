import Foundation
import ReelCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client Reel's uploads share (``S3Client``, and ReelLive's `HTTPOriginTarget`): one
/// URLSession with no cache, bounded timeouts and up to six connections per host; an exchange
/// either returns an HTTP answer or fails with a ``Failure`` in Reel's words. Answers too large
/// to hold are received piece by piece (``receive(_:url:into:)``).
public struct HTTPUploadSession: Sendable {
    /// No HTTP answer came back.
    public enum Failure: Error, Hashable {
        /// Refused, host not found, connection lost: `reason` is worded by ``ReelCore/ErrorSentence``.
        case unreachable(url: URL, reason: String)
        /// No progress for the request timeout.
        case timedOut(url: URL, seconds: TimeInterval)
        /// The answer was not HTTP.
        case invalidResponse(url: URL)
    }

    /// Seconds without progress after which a request fails.
    public let requestTimeout: TimeInterval
    /// Seconds after which a request fails even while progressing.
    public let resourceTimeout: TimeInterval
    let box: SessionBox

    /// A session whose requests fail after `requestTimeout` s without progress, or
    /// `resourceTimeout` s in all.
    public init(requestTimeout: TimeInterval, resourceTimeout: TimeInterval) {
        self.requestTimeout = requestTimeout
        self.resourceTimeout = resourceTimeout
        box = SessionBox(Self.configuration(requestTimeout: requestTimeout, resourceTimeout: resourceTimeout))
    }

    /// No cache, the timeouts, six connections per host.
    static func configuration(requestTimeout: TimeInterval, resourceTimeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = resourceTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 6
        return configuration
    }

    /// A request for `url`, never answered from a cache.
    public func request(_ url: URL, method: String) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
        request.httpMethod = method
        return request
    }

    /// Sends `request` (uploading `body` when given) and returns the answer's body and head.
    public func exchange(_ request: URLRequest, url: URL, body: Data?) async throws -> (Data, HTTPURLResponse) {
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
    public static func map(_ error: any Swift.Error, url: URL, timeout: TimeInterval) -> any Swift.Error {
        let ns = error as NSError
        guard ns.domain == "NSURLErrorDomain" else { return Failure.unreachable(url: url, reason: ErrorSentence.reason(error, url: url)) }
        switch ns.code {
        case -999: return CancellationError()  // URLError.cancelled
        case -1001: return Failure.timedOut(url: url, seconds: timeout)  // URLError.timedOut
        default: return Failure.unreachable(url: url, reason: ErrorSentence.reason(error, url: url))
        }
    }

    /// An answer's first 300 bytes (an HTML error page too) reduced to its words, for a one-line message.
    public static func plainText(_ data: Data) -> String {
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
    public static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 408 || status == 425 || status == 429
    }
}

/// Owns the two URLSessions and lets their tasks finish when the last copy goes away: one
/// collects every answer whole (its tasks call no delegate), the other hands answers piece by
/// piece to a ``ReceiveRouter`` (its own, so the first never meets a delegate).
final class SessionBox: Sendable {
    let session: URLSession
    let receiving: URLSession
    let router = ReceiveRouter()

    init(_ configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1  // one task's pieces in order
        receiving = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
        receiving.finishTasksAndInvalidate()
    }
}
