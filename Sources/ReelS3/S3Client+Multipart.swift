import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension S3Client {
    /// Begins a multipart upload of the object `key` with the caller's `headers` (e.g.
    /// `Content-Type`, `x-amz-meta-NAME`, which the object gets when completed) and
    /// `x-amz-checksum-algorithm: SHA256`, so every part is checked against its SHA-256;
    /// returns the upload id.
    public func createMultipartUpload(key: String, headers: [(name: String, value: String)] = []) async throws -> String {
        let answer = try await send("POST", address(ofKey: key), query: [("uploads", "")],
                                    headers: headers + [("x-amz-checksum-algorithm", "SHA256"), ("Content-Length", "0")], body: Data())
        try check(answer, key: key)
        guard let id = S3Multipart.uploadID(inInitiateAnswer: String(decoding: answer.body, as: UTF8.self)) else {
            throw unreadable(answer, what: "the new upload's id", key: key)
        }
        return id
    }

    /// Uploads part `number` (1 to 10 000; every part but the last at least 5 MiB) of an
    /// upload, with `Content-MD5` and `x-amz-checksum-sha256` so the server refuses a body that
    /// does not match them; returns the part as Complete wants it (its ETag and SHA-256).
    public func uploadPart(key: String, uploadID: String, number: Int, body: Data) async throws -> S3Multipart.Part {
        try await uploadPart(key: key, uploadID: uploadID, number: number, body: body, checksums: S3Multipart.Checksums(of: body))
    }

    /// ``uploadPart(key:uploadID:number:body:)`` with the checksums given (a test sends wrong ones).
    func uploadPart(key: String, uploadID: String, number: Int, body: Data, checksums: S3Multipart.Checksums) async throws -> S3Multipart.Part {
        let headers = [(name: "Content-Length", value: String(body.count)), (name: "Content-MD5", value: checksums.md5),
                       (name: "x-amz-checksum-sha256", value: checksums.sha256)]
        let answer = try await send("PUT", address(ofKey: key), query: [("partNumber", String(number)), ("uploadId", uploadID)],
                                    headers: headers, body: body)
        try check(answer, key: key)
        guard let etag = answer.response.value(forHTTPHeaderField: "ETag"), !etag.isEmpty else {
            throw unreadable(answer, what: "the part's ETag", key: key)
        }
        return S3Multipart.Part(number: number, etag: etag, size: Int64(body.count), checksumSHA256: checksums.sha256)
    }

    /// Completes an upload from its `parts` (any order; the object is their bytes by number)
    /// and returns the object's ETag. S3 may answer 200 and fail in the body (`<Error>`): that
    /// is an ``S3Error`` too (retryable when its code says so, e.g. `InternalError`).
    @discardableResult
    public func completeMultipartUpload(key: String, uploadID: String, parts: [S3Multipart.Part]) async throws -> String {
        let body = Data(S3Multipart.completeRequest(parts: parts).utf8)
        let answer = try await send("POST", address(ofKey: key), query: [("uploadId", uploadID)],
                                    headers: [("Content-Type", "application/xml"), ("Content-Length", String(body.count))], body: body)
        try check(answer, key: key)
        switch S3Multipart.completion(String(decoding: answer.body, as: UTF8.self)) {
        case .completed(let etag):
            return etag
        case .failed:
            throw S3Error(status: answer.status, body: answer.body, response: answer.response, key: key, configuration: configuration)
        case .unreadable:
            throw unreadable(answer, what: "the answer to CompleteMultipartUpload", key: key)
        }
    }

    /// Aborts an upload: its parts are deleted and no object is made. One that is not there
    /// (404 `NoSuchUpload`: completed or aborted already) counts as aborted.
    public func abortMultipartUpload(key: String, uploadID: String) async throws {
        let answer = try await send("DELETE", address(ofKey: key), query: [("uploadId", uploadID)], body: nil)
        guard let error = failure(answer, key: key), !error.isMissingObject else { return }
        throw error
    }

    /// Every upload begun under `prefix` and neither completed nor aborted (page after page).
    public func listMultipartUploads(prefix: String) async throws -> [S3Multipart.Upload] {
        var uploads: [S3Multipart.Upload] = []
        var markers: (key: String?, upload: String?) = (nil, nil)
        repeat {
            let query = S3Multipart.UploadPage.query(prefix: prefix, keyMarker: markers.key, uploadIDMarker: markers.upload)
            let answer = try await send("GET", bucketAddress, query: query, body: nil)
            try check(answer, key: prefix)
            guard let page = S3Multipart.UploadPage(xml: String(decoding: answer.body, as: UTF8.self)) else {
                throw unreadable(answer, what: "the list of uploads", key: prefix)
            }
            uploads += page.uploads
            markers = page.isTruncated && page.nextKeyMarker != nil ? (page.nextKeyMarker, page.nextUploadIDMarker) : (nil, nil)
        } while markers.key != nil
        return uploads
    }

    /// The parts an upload holds so far, by number (page after page).
    public func listParts(key: String, uploadID: String) async throws -> [S3Multipart.Part] {
        var parts: [S3Multipart.Part] = []
        var marker: Int?
        repeat {
            let answer = try await send("GET", address(ofKey: key), query: S3Multipart.PartPage.query(uploadID: uploadID, marker: marker), body: nil)
            try check(answer, key: key)
            guard let page = S3Multipart.PartPage(xml: String(decoding: answer.body, as: UTF8.self)) else {
                throw unreadable(answer, what: "the list of parts", key: key)
            }
            parts += page.parts
            marker = page.isTruncated ? page.nextPartNumberMarker.flatMap { $0 > (marker ?? 0) ? $0 : nil } : nil
        } while marker != nil
        return parts
    }
}
