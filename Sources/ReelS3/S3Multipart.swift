import CCrypto
import Foundation
import ReelCore

/// S3's multipart upload as values: the parts and uploads ``S3Client`` returns and takes, each
/// part's checksums, and the XML of CreateMultipartUpload's and CompleteMultipartUpload's
/// answers and of Complete's request. Pure: no I/O, tested without a server.
///
/// An upload is created with `x-amz-checksum-algorithm: SHA256`, so S3 checks every part
/// against the SHA-256 sent with it and wants those checksums back in Complete.
/// Reference: https://docs.aws.amazon.com/AmazonS3/latest/API/API_CompleteMultipartUpload.html
public enum S3Multipart {
    /// A part stored in an upload: what UploadPart answered, or one entry of ListParts.
    public struct Part: Sendable, Hashable {
        /// 1 to 10 000.
        public var number: Int
        /// The part's ETag as S3 gave it, quotes included.
        public var etag: String
        /// Its length in bytes.
        public var size: Int64
        /// The base64 SHA-256 it was sent with, which Complete repeats; nil when a listing left it out.
        public var checksumSHA256: String?

        /// A part from its parts.
        public init(number: Int, etag: String, size: Int64, checksumSHA256: String?) {
            self.number = number
            self.etag = etag
            self.size = size
            self.checksumSHA256 = checksumSHA256
        }
    }

    /// An upload begun and neither completed nor aborted (an entry of ListMultipartUploads).
    public struct Upload: Sendable, Hashable {
        /// The object key it will make.
        public var key: String
        /// The upload id every later request names.
        public var uploadID: String
        /// When it was begun, if the answer said.
        public var initiated: Date?

        /// An upload from its parts.
        public init(key: String, uploadID: String, initiated: Date?) {
            self.key = key
            self.uploadID = uploadID
            self.initiated = initiated
        }
    }

    /// What a part is sent with so the server checks its body: `Content-MD5` and
    /// `x-amz-checksum-sha256`, both base64 of the digest.
    public struct Checksums: Sendable, Hashable {
        /// The base64 MD5 (`Content-MD5`).
        public var md5: String
        /// The base64 SHA-256 (`x-amz-checksum-sha256`).
        public var sha256: String

        /// The checksums of `body`.
        public init(of body: Data) {
            md5 = Data(Self.digest(body, EVP_md5())).base64EncodedString()
            sha256 = Data(Self.digest(body, EVP_sha256())).base64EncodedString()
        }

        /// One EVP digest of `data`.
        private static func digest(_ data: Data, _ type: OpaquePointer?) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            data.withUnsafeBytes { raw in
                _ = EVP_Digest(raw.baseAddress, raw.count, &output, &length, type, nil)
            }
            return Array(output.prefix(Int(length)))
        }
    }

    /// How a CompleteMultipartUpload answer ended: S3 may answer 200 and still fail, with an
    /// `<Error>` body, because it sends the status before it has joined the parts.
    public enum Completion: Sendable, Hashable {
        /// `<CompleteMultipartUploadResult>`: the object's ETag (empty when absent).
        case completed(etag: String)
        /// `<Error>`.
        case failed(S3ErrorBody)
        /// Neither (a cut or foreign answer).
        case unreadable
    }

    /// The upload id in CreateMultipartUpload's answer (`<InitiateMultipartUploadResult>`).
    public static func uploadID(inInitiateAnswer xml: String) -> String? {
        guard xml.contains("<InitiateMultipartUploadResult") else { return nil }
        return S3XML.element("UploadId", in: xml).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// CompleteMultipartUpload's body: the parts by ascending number, each with its ETag and,
    /// when known, its SHA-256.
    public static func completeRequest(parts: [Part]) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#
        for part in parts.sorted(by: { $0.number < $1.number }) {
            xml += "<Part>"
            if let checksum = part.checksumSHA256 { xml += "<ChecksumSHA256>\(S3XML.escape(checksum))</ChecksumSHA256>" }
            xml += "<ETag>\(S3XML.escape(part.etag))</ETag><PartNumber>\(part.number)</PartNumber></Part>"
        }
        return xml + "</CompleteMultipartUpload>"
    }

    /// Reads CompleteMultipartUpload's answer.
    public static func completion(_ xml: String) -> Completion {
        if xml.contains("<CompleteMultipartUploadResult") { return .completed(etag: S3XML.element("ETag", in: xml) ?? "") }
        if let error = S3ErrorBody(xml: xml) { return .failed(error) }
        return .unreadable
    }
}
