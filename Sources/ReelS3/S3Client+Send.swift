import Foundation
import ReelCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension S3Client {
    /// One exchange's answer, its body whole.
    struct Answer {
        var status: Int
        var body: Data
        var response: HTTPURLResponse
    }

    /// The bucket's own address (listings).
    var bucketAddress: S3Location.ObjectAddress {
        configuration.location.bucketAddress(endpoint: configuration.endpoint, addressing: configuration.addressing)
    }

    /// Signs (``S3Request``) and sends one request; a failure without an answer becomes an ``S3Error``.
    func send(_ method: String, _ address: S3Location.ObjectAddress, query: [(name: String, value: String)] = [],
              headers: [(name: String, value: String)] = [], body: Data?) async throws -> Answer {
        let signed = S3Request(method: method, address: address, query: query, headers: headers, body: body, signer: signer, date: Date())
        do {
            let (data, http) = try await session.exchange(request(signed), url: signed.url, body: body)
            return Answer(status: http.statusCode, body: data, response: http)
        } catch let failure as HTTPUploadSession.Failure {
            throw S3Error.network(failure, usage: configuration.usage)
        }
    }

    /// Signs and sends one GET whose body goes to `sink` as it arrives.
    func receive(_ address: S3Location.ObjectAddress, headers: [(name: String, value: String)], into sink: HTTPUploadSession.Sink,
                 key: String) async throws -> HTTPUploadSession.Received {
        let signed = S3Request(method: "GET", address: address, headers: headers, body: nil, signer: signer, date: Date())
        do {
            return try await session.receive(request(signed), url: signed.url, into: sink)
        } catch let failure as HTTPUploadSession.Failure {
            throw S3Error.network(failure, usage: configuration.usage)
        }
    }

    /// The URLRequest of a signed request, every header set.
    private func request(_ signed: S3Request) -> URLRequest {
        var request = session.request(signed.url, method: signed.method)
        for (name, value) in signed.headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// The error an answer stands for; nil for 2xx.
    func failure(_ answer: Answer, key: String) -> S3Error? {
        guard !(200..<300).contains(answer.status) else { return nil }
        return S3Error(status: answer.status, body: answer.body, response: answer.response, key: key, configuration: configuration)
    }

    /// The error a received answer stands for; nil for 2xx.
    func failure(_ received: HTTPUploadSession.Received, key: String) -> S3Error? {
        failure(Answer(status: received.response.statusCode, body: received.body, response: received.response), key: key)
    }

    /// Throws the error a non-2xx answer stands for.
    func check(_ answer: Answer, key: String) throws {
        if let error = failure(answer, key: key) { throw error }
    }

    /// A 2xx answer whose body is not the document expected (a proxy's page, a cut answer).
    func unreadable(_ answer: Answer, what: String, key: String) -> S3Error {
        .answered(status: answer.status, code: "", message: "\(what) could not be read", key: key, usage: configuration.usage)
    }

    /// ``S3Error/tooLarge(key:limit:size:)`` with the size the answer announced, if any.
    static func tooLarge(_ response: HTTPURLResponse, key: String, limit: Int) -> S3Error {
        let announced = contentRangeTotal(response) ?? response.expectedContentLength
        return .tooLarge(key: key, limit: limit, size: announced > Int64(limit) ? announced : nil)
    }

    /// Size, ETag and `x-amz-meta-*` of an object's answer (a HEAD's, or a ranged GET's).
    static func objectHead(_ response: HTTPURLResponse) -> ObjectHead {
        var metadata: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = (name as? String)?.lowercased(), name.hasPrefix("x-amz-meta-") else { continue }
            metadata[String(name.dropFirst("x-amz-meta-".count))] = "\(value)"
        }
        let length = response.value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) } ?? response.expectedContentLength
        return ObjectHead(size: contentRangeTotal(response) ?? max(0, length), etag: response.value(forHTTPHeaderField: "ETag") ?? "",
                          metadata: metadata)
    }

    /// The whole size in `Content-Range: bytes 0-0/SIZE` (a 206 answer's).
    static func contentRangeTotal(_ response: HTTPURLResponse) -> Int64? {
        guard response.statusCode == 206, let range = response.value(forHTTPHeaderField: "Content-Range"),
              let slash = range.lastIndex(of: "/") else { return nil }
        return Int64(range[range.index(after: slash)...])
    }

    /// A new empty file beside `path`, hidden and uniquely named, open for writing.
    static func createHidden(beside path: String) throws -> (path: String, handle: FileHandle) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).reel-download-\(UUID().uuidString)").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw S3Error.localFile(path: path, reason: ErrorSentence.posix(errno)) }
        return (temporary, FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }
}
