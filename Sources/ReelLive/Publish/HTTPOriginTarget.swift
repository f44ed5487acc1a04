import Foundation
import ReelCore
import ReelS3
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Publishes with plain HTTP PUT to an origin: Reel's own, nginx with WebDAV PUT, or anything
/// that stores PUT bodies and serves them back.
///
/// Each PUT sends `Content-Length` and `Content-Type`, and `Authorization: Bearer TOKEN` when a
/// token is given (so does the DELETE of the uplink probe's upload). Status 2xx is success; 401 and 403 are ``Error/unauthorized(url:status:tokenGiven:)``
/// (not retryable); any other status, a refused connection or a timeout is retryable.
public struct HTTPOriginTarget: RemotePublishTarget {
    /// The URL that stream paths are resolved against, e.g. `http://127.0.0.1:8080/`.
    public let baseURL: URL
    /// `origin` and the base URL.
    public var name: String { "origin \(baseURL.absoluteString)" }

    private let token: String?
    private let session: HTTPUploadSession

    /// A target for `baseURL` (http or https).
    ///
    /// - Parameters:
    ///   - token: sent as `Authorization: Bearer TOKEN` on every PUT when not `nil`.
    ///   - requestTimeout: seconds without progress after which a PUT fails (retryable).
    ///   - resourceTimeout: seconds after which a PUT fails even while progressing.
    public init(baseURL: URL, token: String? = nil, requestTimeout: TimeInterval = 15, resourceTimeout: TimeInterval = 120) throws {
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https", baseURL.host != nil else {
            throw Error.invalidBaseURL(baseURL.absoluteString)
        }
        self.baseURL = baseURL
        self.token = token
        session = HTTPUploadSession(requestTimeout: requestTimeout, resourceTimeout: resourceTimeout)
    }

    /// The full URL of a stream path.
    public func url(forPath path: String) -> URL {
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return URL(string: "\(base)/\(trimmed)")!
    }

    /// PUTs `body` to ``url(forPath:)``.
    public func put(path: String, body: Data, contentType: String) async throws {
        let url = url(forPath: path)
        var request = request(url, method: "PUT")
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.setValue(String(body.count), forHTTPHeaderField: "Content-Length")
        let (data, http) = try await exchange(request, url: url, body: body)
        switch http.statusCode {
        case 200..<300:
            return
        case 401, 403:
            throw Error.unauthorized(url: url, status: http.statusCode, tokenGiven: token != nil)
        default:
            throw Error.httpStatus(url: url, status: http.statusCode, detail: Self.plainText(data))
        }
    }

    /// DELETEs ``url(forPath:)`` with the token. 2xx is success, and so are 404 and 410: the
    /// file is not there.
    public func delete(path: String) async throws {
        let url = url(forPath: path)
        let (data, http) = try await exchange(request(url, method: "DELETE"), url: url, body: nil)
        switch http.statusCode {
        case 200..<300, 404, 410: return
        default: throw Error.deleteRefused(url: url, status: http.statusCode, detail: Self.plainText(data))
        }
    }

    /// HEADs ``url(forPath:)``: 2xx is there, 404 and 410 are not; 401/403 and any other status throw.
    public func fileExists(path: String) async throws -> Bool {
        let url = url(forPath: path)
        let (data, http) = try await exchange(request(url, method: "HEAD"), url: url, body: nil)
        switch http.statusCode {
        case 200..<300: return true
        case 404, 410: return false
        case 401, 403: throw Error.unauthorized(url: url, status: http.statusCode, tokenGiven: token != nil)
        default: throw Error.httpStatus(url: url, status: http.statusCode, detail: Self.plainText(data))
        }
    }

    /// DELETEs the stream's folder: `DELETE streams/{id}` (Reel's origin deletes a stream in one
    /// request), then, if the stream is still there, the WebDAV collection `streams/{id}/` (nginx
    /// answers 409 to a folder without the slash). Done once neither the playlist nor the init
    /// segment is there any more; ``Error/streamNotDeleted(url:status:detail:)`` otherwise.
    public func deleteStream(_ layout: StreamLayout) async throws {
        var refusal: (status: Int, detail: String) = (0, "")
        for path in [layout.streamDirectory, layout.streamDirectory + "/"] {
            let url = url(forPath: path)
            let (data, http) = try await exchange(request(url, method: "DELETE"), url: url, body: nil)
            switch http.statusCode {
            case 401, 403: throw Error.unauthorized(url: url, status: http.statusCode, tokenGiven: token != nil)
            case 200..<300, 404, 410: break
            default: refusal = (http.statusCode, Self.plainText(data))
            }
            if try await !fileExists(path: layout.playlistPath), try await !fileExists(path: layout.initPath) { return }
        }
        throw Error.streamNotDeleted(url: url(forPath: layout.streamDirectory + "/"), status: refusal.status, detail: refusal.detail)
    }

    /// A request for `url` with the token, never from a cache.
    private func request(_ url: URL, method: String) -> URLRequest {
        var request = session.request(url, method: method)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    /// Sends `request` (uploading `body` when given) and returns the answer; a failure without
    /// an HTTP answer becomes ``Error/unreachable(url:reason:)`` or ``Error/timedOut(url:seconds:)``.
    private func exchange(_ request: URLRequest, url: URL, body: Data?) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await session.exchange(request, url: url, body: body)
        } catch let failure as HTTPUploadSession.Failure {
            switch failure {
            case .unreachable(let url, let reason): throw Error.unreachable(url: url, reason: reason)
            case .timedOut(let url, let seconds): throw Error.timedOut(url: url, seconds: seconds)
            case .invalidResponse(let url): throw Error.invalidResponse(url: url)
            }
        }
    }

    private static func plainText(_ data: Data) -> String { HTTPUploadSession.plainText(data) }

    /// Why a PUT to the origin failed.
    public enum Error: PublishTargetError, Hashable {
        /// The base URL is not an http(s) URL with a host.
        case invalidBaseURL(String)
        /// HTTP 401 or 403: the token is missing, wrong or not allowed to write here. Not retryable.
        case unauthorized(url: URL, status: Int, tokenGiven: Bool)
        /// Any other non-2xx status: retryable for 5xx, 408, 425 and 429 (the origin or the way
        /// there may recover); any other 4xx is an answer about the request itself (wrong URL,
        /// method not allowed, too large, conflict), which the same request will get again.
        case httpStatus(url: URL, status: Int, detail: String)
        /// No HTTP exchange happened (refused, host not found, connection lost); retryable.
        case unreachable(url: URL, reason: String)
        /// No progress for the request timeout; retryable.
        case timedOut(url: URL, seconds: TimeInterval)
        /// The answer was not HTTP.
        case invalidResponse(url: URL)
        /// A DELETE (of the uplink probe's upload) was answered with a status other than 2xx,
        /// 404 or 410: the origin keeps the file.
        case deleteRefused(url: URL, status: Int, detail: String)
        /// `--replace`: the origin kept the old stream (it refused DELETE of the stream's folder,
        /// or answered it and still serves the playlist); `status` 0 when every DELETE was answered
        /// with success. Not retryable.
        case streamNotDeleted(url: URL, status: Int, detail: String)

        /// `false` for ``unauthorized(url:status:tokenGiven:)``, ``invalidBaseURL(_:)`` and a
        /// 4xx status other than 408, 425 and 429.
        public var isRetryable: Bool {
            switch self {
            case .unauthorized, .invalidBaseURL, .streamNotDeleted: false
            case .httpStatus(_, let status, _), .deleteRefused(_, let status, _): Self.isRetryable(status: status)
            case .unreachable, .timedOut, .invalidResponse: true
            }
        }

        /// Whether sending the same request again may succeed: 5xx, 408 Request Timeout, 425
        /// Too Early, 429 Too Many Requests.
        public static func isRetryable(status: Int) -> Bool { HTTPUploadSession.isRetryable(status: status) }

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .invalidBaseURL(let text):
                return "\"\(text)\" is not an origin URL: give an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080/."
            case .unauthorized(let url, let status, let tokenGiven):
                let what = status == 401 ? "HTTP 401 Unauthorized" : "HTTP 403 Forbidden"
                let advice = tokenGiven
                    ? "the upload token was refused. Check that the token given to reel matches the origin's."
                    : "the origin wants an upload token and none was given. Give reel the origin's token (--token TOKEN or REEL_TOKEN)."
                return "The origin refused the upload of \(url.absoluteString) with \(what): \(advice) Retrying will not help."
            case .httpStatus(let url, let status, let detail):
                let hint: String
                switch status {
                case 404, 405, 501: hint = " Check the origin URL and that the server accepts PUT there (nginx: dav_methods PUT DELETE; create_full_put_path on)."
                case 411: hint = " The server wants a Content-Length."
                case 413: hint = " The body is larger than the server allows (nginx: client_max_body_size)."
                case 507: hint = " The origin's disk is full: free space there (e.g. delete old streams); Reel keeps the segments and retries."
                case 500..<600: hint = " The origin had a problem; Reel retries."
                default: hint = ""
                }
                let body = detail.isEmpty ? "" : " (\(detail.prefix(120)))"
                let final = Self.isRetryable(status: status) ? "" : " Retrying will not help."
                return "The origin answered HTTP \(status) to the upload of \(url.absoluteString)\(body).\(hint)\(final)"
            case .unreachable(let url, let reason):
                return "Could not reach the origin for \(url.absoluteString): \(reason). Check that the origin is running and the URL (host and port) is right; Reel retries while streaming."
            case .timedOut(let url, let seconds):
                return "The upload of \(url.absoluteString) made no progress for \(Int(seconds)) s. The uplink may be too slow or the origin stuck; Reel retries."
            case .invalidResponse(let url):
                return "The answer from \(url.absoluteString) was not an HTTP response. Is the URL an HTTP origin?"
            case .deleteRefused(let url, let status, let detail):
                let body = detail.isEmpty ? "" : " (\(detail.prefix(120)))"
                let advice = status == 401 || status == 403
                    ? "The origin must let the upload token DELETE what it PUT"
                    : "The origin must allow DELETE with the upload token"
                return "The origin answered HTTP \(status) to DELETE \(url.absoluteString)\(body), so the file stays there. "
                    + "\(advice) (nginx: dav_methods PUT DELETE; Reel's origin does), or delete the file by hand."
            case .streamNotDeleted(let url, let status, let detail):
                let body = detail.isEmpty ? "" : " (\(detail.prefix(120)))"
                let answer = status == 0 ? "answered DELETE \(url.absoluteString) with success but still serves the stream"
                    : "answered HTTP \(status) to DELETE \(url.absoluteString)\(body)"
                return "The origin \(answer), so the old stream stays. "
                    + "Let the upload token DELETE a stream's folder (nginx: dav_methods PUT DELETE; Reel's origin does), "
                    + "delete the stream by hand, or pick another --stream-id."
            }
        }
    }
}
