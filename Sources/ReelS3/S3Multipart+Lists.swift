import Foundation
import ReelCore

extension S3Multipart {
    /// One page of ListMultipartUploads (`<ListMultipartUploadsResult>`): the uploads, and
    /// where the next page starts.
    public struct UploadPage: Sendable, Hashable {
        /// Every `<Upload>` on the page, in the order given.
        public var uploads: [Upload]
        /// `<IsTruncated>true`: more follow.
        public var isTruncated: Bool
        /// `<NextKeyMarker>`, the next page's `key-marker`.
        public var nextKeyMarker: String?
        /// `<NextUploadIdMarker>`, the next page's `upload-id-marker`.
        public var nextUploadIDMarker: String?

        /// Reads the answer; nil when it is not a `ListMultipartUploadsResult`.
        public init?(xml: String) {
            guard xml.contains("<ListMultipartUploadsResult") else { return nil }
            uploads = S3XML.blocks("Upload", in: xml).compactMap { entry in
                guard let key = S3XML.exactElement("Key", in: entry), let id = S3XML.element("UploadId", in: entry) else { return nil }
                let initiated = S3XML.element("Initiated", in: entry).flatMap(TimestampFormat.secondsSince1970)
                return Upload(key: key, uploadID: id, initiated: initiated.map { Date(timeIntervalSince1970: TimeInterval($0)) })
            }
            isTruncated = S3XML.element("IsTruncated", in: xml) == "true"
            nextKeyMarker = S3XML.exactElement("NextKeyMarker", in: xml).flatMap { $0.isEmpty ? nil : $0 }
            nextUploadIDMarker = S3XML.element("NextUploadIdMarker", in: xml).flatMap { $0.isEmpty ? nil : $0 }
        }

        /// The query of a request for the uploads under `prefix`, after the markers when given.
        public static func query(prefix: String, keyMarker: String?, uploadIDMarker: String?) -> [(name: String, value: String)] {
            var query = [(name: "uploads", value: ""), (name: "prefix", value: prefix)]
            if let keyMarker { query.append((name: "key-marker", value: keyMarker)) }
            if let uploadIDMarker { query.append((name: "upload-id-marker", value: uploadIDMarker)) }
            return query
        }
    }

    /// One page of ListParts (`<ListPartsResult>`): the parts stored so far, and where the
    /// next page starts.
    public struct PartPage: Sendable, Hashable {
        /// Every `<Part>` on the page, by number.
        public var parts: [Part]
        /// `<IsTruncated>true`: more follow.
        public var isTruncated: Bool
        /// `<NextPartNumberMarker>`, the next page's `part-number-marker`.
        public var nextPartNumberMarker: Int?

        /// Reads the answer; nil when it is not a `ListPartsResult` (moto 5 names it
        /// `ListPartsResponse`, taken as well).
        public init?(xml: String) {
            guard xml.contains("<ListPartsResult") || xml.contains("<ListPartsResponse") else { return nil }
            parts = S3XML.blocks("Part", in: xml).compactMap { entry in
                guard let number = S3XML.element("PartNumber", in: entry).flatMap({ Int($0) }), let etag = S3XML.element("ETag", in: entry) else {
                    return nil
                }
                let size = S3XML.element("Size", in: entry).flatMap { Int64($0) } ?? 0
                return Part(number: number, etag: etag, size: size, checksumSHA256: S3XML.element("ChecksumSHA256", in: entry))
            }
            isTruncated = S3XML.element("IsTruncated", in: xml) == "true"
            nextPartNumberMarker = S3XML.element("NextPartNumberMarker", in: xml).flatMap { Int($0) }
        }

        /// The query of a request for the parts of `uploadID`, after `marker` when given.
        public static func query(uploadID: String, marker: Int?) -> [(name: String, value: String)] {
            var query = [(name: "uploadId", value: uploadID)]
            if let marker { query.append((name: "part-number-marker", value: String(marker))) }
            return query
        }
    }
}
