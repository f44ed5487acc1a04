import Foundation
import ReelCore
import ReelMedia

/// Everything `reel live` needs to know, validated before anything starts.
public struct LiveSettings: Sendable {
    /// The capture source.
    public var source: SourceSpec
    /// The origin base URL (e.g. http://127.0.0.1:8080/), or nil for local output only.
    public var origin: URL?
    /// Bearer token for the origin's PUTs.
    public var token: String?
    /// The bucket to publish to instead of an HTTP origin (`--origin s3://BUCKET/PREFIX`).
    public var s3: S3Target.Configuration?
    /// The stream id (`[A-Za-z0-9_-]{1,128}`).
    public var streamID: String
    /// Quality preset or auto (measure the uplink first); unused with a ``ladder``.
    public var quality: QualityPreset.Selection
    /// ABR (`--ladder`): the renditions to encode and publish, each in its own folder below the
    /// stream, with a multivariant playlist naming them; nil publishes one rendition at ``quality``.
    public var ladder: Ladder?
    /// Landscape instead of the default portrait.
    public var landscape: Bool
    /// Segment length (and key-frame interval) in seconds.
    public var segmentSeconds: Double
    /// The archive MP4 path, or nil for no archive.
    public var archivePath: String?
    /// The x265 speed preset of the archive (faster presets keep up on smaller machines).
    public var archivePreset = EncoderPreset.ultrafast
    /// The names of the presets x265 knows, fastest first (what `--archive-preset` accepts).
    public static let encoderPresets = EncoderPreset.allCases.map(\.rawValue)
    /// Stop after this many seconds of capture (nil: until stopped).
    public var duration: Double?
    /// A local folder receiving the same layout as the origin.
    public var outputDirectory: URL?
    /// Deliver file sources as fast as the consumers take them, without dropping anything.
    public var fast: Bool
    /// Where segments wait until every target has them.
    public var spoolDirectory: URL
    /// Delete a stream with the same id on the targets before starting (`--replace`); without
    /// it, an id that is already there ends the run before capture.
    public var replace = false
    /// LL-HLS (`--low-latency`): the nominal part length in seconds (rounded to whole frames);
    /// nil publishes regular HLS.
    public var partSeconds: Double?
    /// The part length `--low-latency` uses unless `--part-seconds` says otherwise: ten frames
    /// at 30 fps, inside the 200–500 ms LL-HLS deployments use.
    public static let defaultPartSeconds = 1.0 / 3.0
    /// A sliding-window playlist (`--window`): the playlist lists only the segments of about the
    /// last this many seconds (whole segments, at least ``minimumWindowSegments``); nil lists
    /// every segment in an EVENT playlist (the default of docs/behaviour.md §2,
    /// Playlist).
    public var windowSeconds: Double?
    /// Faces hidden in the stream before it is encoded (`--privacy`); nil streams the picture as
    /// captured.
    public var privacy: LivePrivacy?
    /// With ``privacy``: the archive records the covered picture too (`--privacy-archive`);
    /// without it the archive keeps the picture as captured.
    public var privacyArchive = false

    /// The fewest segments a sliding window lists: a player starts three segments back from
    /// the live edge and needs as many again to ride out a slow reload.
    public static let minimumWindowSegments = 6

    /// The segments a sliding window lists (nil without one): `windowSeconds` in whole segments.
    public var windowSegments: Int? {
        windowSeconds.map { max(Self.minimumWindowSegments, Int(($0 / segmentSeconds).rounded(.up))) }
    }

    /// Settings with defaults: medium quality, portrait, 2 s segments.
    public init(source: SourceSpec, origin: URL? = nil, token: String? = nil, streamID: String = LiveSettings.newStreamID(),
                quality: QualityPreset.Selection = .preset(.medium), landscape: Bool = false, segmentSeconds: Double = 2,
                archivePath: String? = nil, duration: Double? = nil, outputDirectory: URL? = nil, fast: Bool = false,
                spoolDirectory: URL? = nil) {
        self.source = source
        self.origin = origin
        self.token = token
        self.streamID = streamID
        self.quality = quality
        self.landscape = landscape
        self.segmentSeconds = segmentSeconds
        self.archivePath = archivePath
        self.duration = duration
        self.outputDirectory = outputDirectory
        self.fast = fast
        self.spoolDirectory = spoolDirectory ?? LiveSettings.defaultSpool(streamID: streamID)
    }

    /// A settings problem a user can fix.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// What is wrong and what to do.
        public var description: String
    }

    /// Checks the combination of settings.
    public func validate() throws {
        if origin == nil && s3 == nil && outputDirectory == nil {
            throw Error(description: "nowhere to publish: give --origin URL (or s3://BUCKET/PREFIX) and/or --output DIR")
        }
        if origin != nil && s3 != nil {
            throw Error(description: "give one --origin: an http(s):// origin or an s3:// bucket, not both")
        }
        if s3 != nil && token != nil {
            throw Error(description: "--token (or REEL_TOKEN) is for an HTTP origin; an s3:// bucket is signed with an AWS access key instead (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or --s3-profile)")
        }
        if let origin, !(origin.scheme == "http" || origin.scheme == "https") || origin.host == nil {
            throw Error(description: "--origin must be an http:// or https:// URL, got '\(origin.absoluteString)'")
        }
        if !LiveSettings.isValidStreamID(streamID) {
            throw Error(description: "--stream-id must be 1 to 128 of A-Z a-z 0-9 _ -, got '\(streamID)'")
        }
        if !(segmentSeconds >= 1 && segmentSeconds <= 10) {
            throw Error(description: "--segment-seconds must be between 1 and 10")
        }
        if let partSeconds {
            if !(partSeconds >= 0.1 && partSeconds <= 1 && partSeconds < segmentSeconds) {
                throw Error(description: "--part-seconds must be between 0.1 and 1 and shorter than --segment-seconds (LL-HLS parts are usually 0.2 to 0.5 s)")
            }
            if s3 != nil {
                throw Error(description: "--low-latency needs an origin that holds a player's blocking playlist request until the next part exists (reel serve does); an S3 bucket answers at once, so players would poll it many times a second. Publish to reel serve (a CDN may sit in front of it), or leave out --low-latency")
            }
        }
        if let windowSeconds, !(windowSeconds >= Double(Self.minimumWindowSegments) * segmentSeconds) {
            throw Error(description: "--window must be at least \(Self.minimumWindowSegments) segments long (\((Double(Self.minimumWindowSegments) * segmentSeconds).formatted()) s with --segment-seconds \(segmentSeconds.formatted())): a player starts three segments back from the live edge and needs as many again")
        }
        if let duration, !(duration > 0) {
            throw Error(description: "--duration must be a positive number of seconds")
        }
        if ladder != nil, case .auto = quality {
            throw Error(description: "--ladder encodes every rung it lists, so --quality auto has nothing to pick: give one or the other")
        }
        if privacyArchive && privacy == nil {
            throw Error(description: "--privacy-archive covers the archive's faces as the stream's are covered: give --privacy mosaic or --privacy mask with it")
        }
        if case .auto = quality, origin == nil && s3 == nil {
            throw Error(description: "--quality auto measures the uplink to the origin: give --origin, or pick low, medium or high")
        }
    }

    /// An origin base URL as a user types it, with a trailing slash added; nil unless it is
    /// http:// or https:// with a host.
    public static func originURL(_ text: String) -> URL? {
        guard let url = URL(string: text.hasSuffix("/") ? text : text + "/"), url.scheme == "http" || url.scheme == "https",
              url.host != nil else { return nil }
        return url
    }

    /// Where players read the stream on the origin: `streams/{id}/playlist.m3u8`.
    public var playlistURL: URL? {
        guard let origin, let layout = try? StreamLayout(streamID: streamID) else { return nil }
        return origin.appendingPathComponent(layout.playlistPath)
    }

    /// The viewer page of Reel's origin (`reel serve`) for the stream: `watch/{id}` (another
    /// origin, such as nginx, has none: players take ``playlistURL``).
    public var viewerURL: URL? {
        guard let origin, LiveSettings.isValidStreamID(streamID) else { return nil }
        return origin.appendingPathComponent("watch/\(streamID)")
    }

    /// The archive's default place: `reel/reel-{id}.mp4` in the videos folder.
    public static func defaultArchivePath(streamID: String, videosFolder: String) -> String {
        URL(fileURLWithPath: videosFolder).appendingPathComponent("reel/reel-\(streamID).mp4").path
    }

    /// Whether `id` is a valid stream id.
    public static func isValidStreamID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
        }
    }

    /// A fresh id: UTC date and time plus a random suffix, e.g. 20261130-031500-a1b2c3.
    public static func newStreamID(now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let suffix = String(UInt32.random(in: 0...0xFFFFFF), radix: 16)
        return formatter.string(from: now) + "-" + String(repeating: "0", count: 6 - suffix.count) + suffix
    }

    /// `$XDG_STATE_HOME/reel/spool/{id}` (default `~/.local/state/reel/spool/{id}`).
    public static func defaultSpool(streamID: String) -> URL {
        defaultSpoolRoot.appendingPathComponent(streamID)
    }

    /// `$XDG_STATE_HOME/reel/spool` (default `~/.local/state/reel/spool`): one folder per stream.
    public static var defaultSpoolRoot: URL {
        let folders = XDGDirectories(environment: ProcessInfo.processInfo.environment, accountHome: NSHomeDirectory())
        return URL(fileURLWithPath: folders.state).appendingPathComponent("reel/spool")
    }

    /// The targets for an HTTP origin or a bucket, and an output folder: the remote one (if any)
    /// first. Used by `reel live` and `reel publish`.
    public static func targets(origin: URL?, token: String?, s3: S3Target.Configuration?,
                               outputDirectory: URL?) throws -> (remote: (any RemotePublishTarget)?, all: [any PublishTarget]) {
        var remote: (any RemotePublishTarget)?
        if let origin {
            remote = try HTTPOriginTarget(baseURL: origin, token: token)
        } else if let s3 {
            remote = S3Target(configuration: s3)
        }
        var all: [any PublishTarget] = remote.map { [$0] } ?? []
        if let outputDirectory { all.append(DirectoryTarget(root: outputDirectory)) }
        return (remote, all)
    }
}
