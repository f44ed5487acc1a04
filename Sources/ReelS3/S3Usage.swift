/// What a job uses a bucket for, in the words its user knows, so that an ``S3Error`` says what
/// to do in that job's terms: the option that named the bucket, the permissions the job needs
/// and whether Reel tries again by itself. ReelS3 knows no job; each user of ``S3Client`` gives
/// its own (ReelLive's live stream: `--origin`, the publisher retries).
public struct S3Usage: Sendable, Hashable {
    /// The option that named the bucket, e.g. `--origin` for `reel live`, `--to` for a backup.
    public var locationOption: String
    /// The actions the job needs on the objects (`arn:aws:s3:::BUCKET/*`), e.g. `s3:PutObject`.
    public var objectActions: [String]
    /// The actions it needs on the bucket itself (`arn:aws:s3:::BUCKET`), e.g. `s3:ListBucket`.
    public var bucketActions: [String]
    /// Why it needs more than the obvious, a clause for the access-denied hint (after "the
    /// bucket's or the user's policy; "); nil for none.
    public var why: String?
    /// Whether Reel itself sends a request again after a failure worth retrying, so that a
    /// message may say "Reel retries" (the live publisher does).
    public var reelRetries: Bool
    /// When Reel retries, how long it keeps at it, for the unreachable endpoint's hint, e.g.
    /// `while streaming`; nil says only "Reel retries".
    public var retriesWhile: String?

    /// A usage from its parts.
    public init(locationOption: String, objectActions: [String], bucketActions: [String], why: String? = nil,
                reelRetries: Bool, retriesWhile: String? = nil) {
        self.locationOption = locationOption
        self.objectActions = objectActions
        self.bucketActions = bucketActions
        self.why = why
        self.reelRetries = reelRetries
        self.retriesWhile = retriesWhile
    }

    /// `Allow it s3:PutObject, s3:GetObject and s3:DeleteObject on arn:aws:s3:::BUCKET/* and
    /// s3:ListBucket on arn:aws:s3:::BUCKET (the bucket's or the user's policy; WHY).`
    func permissionAdvice(bucket: String) -> String {
        var grants: [String] = []
        if !objectActions.isEmpty { grants.append("\(Self.list(objectActions)) on arn:aws:s3:::\(bucket)/*") }
        if !bucketActions.isEmpty { grants.append("\(Self.list(bucketActions)) on arn:aws:s3:::\(bucket)") }
        let reason = why.map { "; \($0)" } ?? ""
        return "Allow it \(grants.joined(separator: " and ")) (the bucket's or the user's policy\(reason))."
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + words.last!
    }
}
