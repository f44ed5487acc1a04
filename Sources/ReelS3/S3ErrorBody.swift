import Foundation
import ReelCore

/// S3's XML error answer (`<Error><Code>…</Code><Message>…</Message>…</Error>`) as a value.
public struct S3ErrorBody: Sendable, Hashable {
    /// `SignatureDoesNotMatch`, `NoSuchBucket`, `RequestTimeTooSkewed`, …; empty when absent.
    public var code: String
    /// S3's sentence; empty when absent.
    public var message: String
    /// `RequestTimeTooSkewed`: the time the request said (`x-amz-date`, as sent).
    public var requestTime: String?
    /// `RequestTimeTooSkewed`: the server's time (ISO 8601).
    public var serverTime: String?
    /// `PermanentRedirect` and `AuthorizationHeaderMalformed`: the bucket's region, when given.
    public var region: String?

    /// Reads the fields from an error body; nil when there is no `<Code>` (not an S3 error: an
    /// HTML page from a proxy, an empty body).
    public init?(xml: String) {
        guard let code = Self.element("Code", in: xml) else { return nil }
        self.code = code
        message = Self.element("Message", in: xml) ?? ""
        requestTime = Self.element("RequestTime", in: xml)
        serverTime = Self.element("ServerTime", in: xml)
        region = Self.element("Region", in: xml)
    }

    /// An error body from its fields.
    public init(code: String, message: String, requestTime: String? = nil, serverTime: String? = nil, region: String? = nil) {
        self.code = code
        self.message = message
        self.requestTime = requestTime
        self.serverTime = serverTime
        self.region = region
    }

    /// For `RequestTimeTooSkewed`: the server's time minus the request's, in seconds (positive
    /// when this machine's clock is behind); nil when either time is missing or unreadable.
    public var skewSeconds: Int64? {
        guard let serverTime, let requestTime, let server = TimestampFormat.secondsSince1970(serverTime),
              let request = TimestampFormat.secondsSince1970(requestTime) else { return nil }
        return server - request
    }

    /// The text of the first `<name>…</name>`, with XML's five entities and numeric
    /// references decoded; nil when absent.
    static func element(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(name)>"), let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex) else {
            return nil
        }
        return decodeEntities(String(xml[open.upperBound..<close.lowerBound])).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#NN;` / `&#xHH;`.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                result += rest[amp...]
                return result
            }
            let entity = rest[rest.index(after: amp)..<semi]
            let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"][String(entity)]
            var numeric: String?
            if entity.hasPrefix("#x"), let value = UInt32(entity.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) {
                numeric = String(Character(scalar))
            } else if entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(value) {
                numeric = String(Character(scalar))
            }
            result += named ?? numeric ?? String(rest[amp...semi])
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }
}
