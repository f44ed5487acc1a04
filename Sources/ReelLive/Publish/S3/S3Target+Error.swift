import ReelCore
import ReelS3

extension S3Target {
    /// Why a request to the bucket failed: ReelS3's ``ReelS3/S3Error``, worded for the live
    /// stream by ``ReelS3/S3Usage/liveStream``. Never holds the secret.
    public typealias Error = S3Error
}

/// The publisher stops publishing to a bucket whose error says retrying cannot help.
extension S3Error: PublishTargetError {}

extension S3Usage {
    /// `reel live --origin s3://…`: the bucket is named by `--origin`; the stream needs to put,
    /// read (a stream id must be new) and delete objects and list the bucket (`--replace`);
    /// the publisher retries while streaming.
    public static let liveStream = S3Usage(
        locationOption: "--origin", objectActions: ["s3:PutObject", "s3:GetObject", "s3:DeleteObject"], bucketActions: ["s3:ListBucket"],
        why: "Reel reads the playlist to check that a stream id is new, and lists an old stream to --replace it",
        reelRetries: true, retriesWhile: "while streaming")
}

extension S3Client.Configuration {
    /// A configuration for the live stream (``ReelS3/S3Usage/liveStream``); `endpoint` nil
    /// means AWS's own endpoint for `region`, `addressing` nil the endpoint's default.
    public init(location: S3Location, endpoint: S3Location.Endpoint?, addressing: S3Location.Addressing?, region: String,
                credentials: AWSCredentials) {
        self.init(location: location, endpoint: endpoint, addressing: addressing, region: region, credentials: credentials, usage: .liveStream)
    }
}
