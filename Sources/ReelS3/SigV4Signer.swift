import CCrypto
import Foundation

/// Signs S3 requests with AWS Signature Version 4: SHA-256 and HMAC-SHA256 from libcrypto,
/// the canonical text from ``SigV4``. Checked against AWS's published examples.
public struct SigV4Signer: Sendable {
    /// The key that signs.
    public let credentials: AWSCredentials
    /// The bucket's region, e.g. `us-east-1`.
    public let region: String
    /// `s3`.
    public let service: String

    /// A signer for `credentials` in `region`.
    public init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The lower-case hex SHA-256 of `data`.
    public static func sha256Hex(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        data.withUnsafeBytes { raw in
            _ = SHA256(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &digest)
        }
        return hex(digest)
    }

    /// HMAC-SHA256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], message: String) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(message.utf8)
        key.withUnsafeBufferPointer { k in
            bytes.withUnsafeBufferPointer { m in
                _ = HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &output, &length)
            }
        }
        return Array(output.prefix(Int(length)))
    }

    /// `kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, yyyyMMdd), region), service), "aws4_request")`.
    public static func signingKey(secret: String, date: String, region: String, service: String) -> [UInt8] {
        var key = hmacSHA256(key: Array("AWS4\(secret)".utf8), message: date)
        for part in [region, service, "aws4_request"] { key = hmacSHA256(key: key, message: part) }
        return key
    }

    /// Lower-case hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 15)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The headers to add to a request: `Authorization`, `x-amz-date`, `x-amz-content-sha256`
    /// and, for temporary credentials, `x-amz-security-token`. `headers` are the other headers
    /// to sign (at least `host`); `timestamp` is `yyyyMMdd'T'HHmmss'Z'`.
    public func sign(method: String, canonicalURI: String, query: [(name: String, value: String)] = [],
                     headers: [(name: String, value: String)], payloadHash: String, timestamp: String) -> [(name: String, value: String)] {
        var added: [(name: String, value: String)] = [("x-amz-content-sha256", payloadHash), ("x-amz-date", timestamp)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        let request = SigV4.canonicalRequest(method: method, canonicalURI: canonicalURI, query: query, headers: headers + added,
                                             payloadHash: payloadHash)
        let scope = SigV4.credentialScope(timestamp: timestamp, region: region, service: service)
        let toSign = SigV4.stringToSign(timestamp: timestamp, scope: scope, canonicalRequestHash: Self.sha256Hex(Data(request.text.utf8)))
        let key = Self.signingKey(secret: credentials.secretAccessKey, date: String(timestamp.prefix(8)), region: region, service: service)
        let signature = Self.hex(Self.hmacSHA256(key: key, message: toSign))
        let authorization = SigV4.authorization(accessKeyID: credentials.accessKeyID, scope: scope,
                                                signedHeaders: request.signedHeaders, signature: signature)
        return added + [("Authorization", authorization)]
    }
}
