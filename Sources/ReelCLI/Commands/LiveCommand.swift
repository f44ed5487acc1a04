import Foundation
import ReelCore
import ReelLive
import ReelMedia
import ReelS3

/// `reel live`: capture, encode, cut fMP4 HLS and publish it by HTTP PUT, with a local archive.
enum LiveCommand {
    static let source = Option.value("source", short: "s", placeholder: "SRC", default: "test",
                                     help: "test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN.")
    static let audio = Option.value("audio", placeholder: "DEV",
                                    help: "Microphone for a v4l2 camera: alsa:NAME, pulse:NAME or none (default none).")
    static let origin = Option.value("origin", placeholder: "URL",
                                     help: "Origin base URL the stream is PUT to (e.g. http://127.0.0.1:8080/), or an S3 bucket: s3://BUCKET/PREFIX.")
    static let token = Option.value("token", placeholder: "TOKEN", help: "Bearer token for the origin's PUTs (or REEL_TOKEN in the environment); not for s3://.")
    static let s3Endpoint = BucketOptions.endpoint
    static let s3Region = BucketOptions.region
    static let s3Profile = BucketOptions.profile
    static let s3Addressing = BucketOptions.addressing
    static let streamID = Option.value("stream-id", placeholder: "ID", help: "Stream id, [A-Za-z0-9_-]{1,128} (default: date, time and a random suffix).")
    static let quality = Option.value("quality", short: "q", default: "medium", choices: QualityPreset.Selection.choices,
                                      help: "low 480x854 0.9 Mbps, medium 720x1280 1.5 Mbps, high 720x1280 2.5 Mbps, or auto (measure the uplink first).")
    static let ladder = Option.value("ladder", placeholder: "RUNGS",
                                     help: "ABR: encode every rung from the one capture, e.g. low,medium,high or 640x360@800k,1280x720@2.5M (at most 4); players switch between them. Instead of --quality.")
    static let landscape = Option.flag("landscape", help: "Landscape output (sizes swapped); portrait is the default.")
    static let segmentSeconds = Option.value("segment-seconds", as: Double.self, default: "2", help: "Segment length and key-frame interval.")
    static let archive = Option.value("archive", placeholder: "FILE.mp4",
                                      help: "Also record an HEVC 1080x1920 archive here (default: reel-{id}.mp4 in the XDG videos folder).")
    static let noArchive = Option.flag("no-archive", help: "Record no archive.")
    static let archivePreset = Option.value("archive-preset", default: "ultrafast", choices: LiveSettings.encoderPresets,
                                            help: "x265 speed preset of the archive. When the machine cannot keep up, Reel lowers the archive's frame rate and says so.")
    static let duration = Option.value("duration", short: "d", as: Duration.self, help: "Stop after this long (e.g. 30, 90s, 5m); default: until Ctrl-C.")
    static let output = Option.value("output", short: "o", placeholder: "DIR", help: "Write the same layout into this folder, instead of or beside an origin.")
    static let fast = Option.flag("fast", help: "Deliver a file source as fast as the encoders take it (nothing dropped).")
    static let privacy = Option.value("privacy", placeholder: "MODE", choices: LivePrivacy.allCases.map(\.rawValue),
                                      help: "Hide faces in the stream itself, before it is encoded: mosaic or mask (a solid grey fill), as reel export hides them. Each picture waits up to 1 s for the detections after it, so the stream runs up to 1 s later; when detection falls behind, pictures are covered more widely, or whole. Faces smaller than about 50 px high at 720p are not found live (reel export finds them). Needs the CenterFace model (make setup). The archive keeps the picture as captured unless --privacy-archive.")
    static let privacyArchive = Option.flag("privacy-archive", help: "With --privacy: record the covered picture in the archive too (by default the archive keeps the faces).")
    static let quiet = Option.flag("quiet", help: "No status line; only the start and the summary.")
    static let replace = Option.flag("replace", help: "Delete a stream with the same id on the origin or folder first (without it, an id already there is refused).")
    static let lowLatency = Option.flag("low-latency", help: "LL-HLS: also publish each segment in parts (streams/{id}/part/NNNNNN.P.m4s) and list them, for players in lowLatencyMode; needs an origin that holds blocking playlist requests (reel serve).")
    static let window = Option.value("window", as: Duration.self,
                                     help: "List only the segments of about the last this long in the playlist (e.g. 10m; at least 6 segments); older segments stay on the origin, unlisted. Default: every segment (an EVENT playlist, which grows all stream long).")
    static let partSeconds = Option.value("part-seconds", as: Double.self, help: "LL-HLS part length, rounded to whole frames (default 0.333: ten frames at 30 fps); implies --low-latency.")

    static let spec = CommandSpec(
        name: "live",
        summary: "Stream live HLS from this machine: encode, cut fMP4 segments and PUT them to an origin.",
        discussion: """
            One capture feeds the live HLS writer (H.264 + AAC, fMP4 segments with a key frame at \
            every boundary) and a local HEVC archive. Segments are PUT to the origin as \
            streams/{id}/seg/NNNNNN.m4s, then the playlist; a segment the origin refuses waits on \
            disk and is retried, so an outage loses nothing. Before capturing, a test upload to \
            streams/{id}/seg/000000.m4s checks the origin and the token (and measures the uplink for \
            --quality auto); it is deleted again with the same token, so the origin must allow DELETE \
            (nginx: dav_methods PUT DELETE). With --origin s3://BUCKET/PREFIX the files are objects \
            under PREFIX/streams/{id}/, signed with AWS Signature Version 4; the access key comes from \
            AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), or from a profile in \
            ~/.aws/credentials (AWS_SHARED_CREDENTIALS_FILE, --s3-profile or AWS_PROFILE). A stream id \
            whose playlist is already on the origin, bucket or folder is refused before capture (a cache \
            may keep immutable segments for a year, so a name never gets different bytes); --replace \
            deletes the old stream first. A run that was killed leaves its segments in the spool \
            ($XDG_STATE_HOME/reel/spool/ID); reel live names the spools waiting at start, and reel publish \
            ID publishes them. With --low-latency each segment is also published in parts of about \
            a third of a second as they are encoded, and the playlist lists them (EXT-X-PART, \
            EXT-X-PRELOAD-HINT, EXT-X-SERVER-CONTROL with blocking reload): players with LL-HLS start \
            about one second behind the capture; others play the same segments as usual. With \
            --ladder the capture is encoded once per rung, with key frames and segment boundaries at \
            the same times in every rung; each rung's files go to streams/{id}/{rung}/, and \
            streams/{id}/playlist.m3u8 becomes the multivariant playlist naming them, with the bit \
            rates measured from what was produced (published once every rung has three segments, one \
            with --low-latency). The playlist lists every segment unless --window makes it a sliding \
            window: it grows by about 80 bytes a segment and is sent again after every segment (every \
            part with --low-latency), so give long streams a window. Ctrl-C \
            (SIGINT) or SIGTERM stops cleanly: the last short segment and the ENDLIST playlist are \
            published, the archive closed.
            """,
        options: [source, audio, origin, token, s3Endpoint, s3Region, s3Profile, s3Addressing, streamID, quality, ladder, landscape, segmentSeconds, archive, noArchive, archivePreset,
                  duration, output, fast, replace, lowLatency, partSeconds, window, privacy, privacyArchive, quiet, VerboseOption.option],
        examples: [
            "reel live --source test --origin http://127.0.0.1:8080/ --duration 30",
            "reel live --source v4l2:/dev/video0 --audio pulse:default --origin https://origin.example/ --token $TOKEN",
            "reel live --source test --origin s3://my-streams/live --s3-region eu-west-1 --duration 60",
            "reel live --source test --origin s3://reel/live --s3-endpoint http://127.0.0.1:9000 --s3-profile minio",
            "reel live --source file:talk.mp4 --output ./hls --no-archive --fast",
            "reel live --source test --origin http://127.0.0.1:8080/ --low-latency --window 10m --no-archive",
            "reel live --source test --origin http://127.0.0.1:8080/ --ladder low,medium,high --no-archive",
            "reel live --source v4l2:/dev/video0 --origin http://127.0.0.1:8080/ --privacy mosaic --privacy-archive",
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let sourceArgument = try arguments.require(source)
        let sourceSpec: SourceSpec
        do {
            sourceSpec = try SourceSpec(parsing: sourceArgument, audio: arguments.string(audio))
        } catch let error as SourceSpec.Error {
            throw arguments.invalid(error.concernsAudio ? audio : source, expected: error.expected)
        }
        let qualitySelection: QualityPreset.Selection
        do {
            qualitySelection = try QualityPreset.Selection(parsing: try arguments.require(quality))
        } catch {
            throw arguments.invalid(quality, expected: "one of \(QualityPreset.Selection.choices.joined(separator: ", "))")
        }
        var originURL: URL?
        let bucket = try bucketConfiguration(arguments)
        if bucket == nil, let text = arguments.string(origin) {
            guard let url = LiveSettings.originURL(text) else { throw arguments.invalid(origin, expected: "an http:// or https:// URL, or s3://BUCKET/PREFIX") }
            originURL = url
        }
        if let conflict = arguments.conflict(archive, noArchive) ?? arguments.conflict(quality, ladder) { throw conflict }
        let id = arguments.string(streamID) ?? LiveSettings.newStreamID()
        var settings = LiveSettings(
            source: sourceSpec, origin: originURL,
            token: arguments.string(token) ?? (bucket == nil ? ProcessInfo.processInfo.environment["REEL_TOKEN"] : nil),
            streamID: id, quality: qualitySelection, landscape: arguments.flag(landscape),
            segmentSeconds: try arguments.require(segmentSeconds, as: Double.self),
            archivePath: nil, duration: try arguments.seconds(duration),
            outputDirectory: arguments.string(output).map { URL(fileURLWithPath: UserFolders.absolute($0)) },
            fast: arguments.flag(fast))
        settings.s3 = bucket
        settings.replace = arguments.flag(replace)
        if let text = arguments.string(ladder) {
            do {
                settings.ladder = try Ladder(parsing: text)
            } catch {
                throw arguments.refused("--ladder \(text): \(error)")
            }
        }
        if let seconds = try arguments.value(partSeconds, as: Double.self) {
            settings.partSeconds = seconds
        } else if arguments.flag(lowLatency) {
            settings.partSeconds = LiveSettings.defaultPartSeconds
        }
        settings.windowSeconds = try arguments.seconds(window)
        settings.privacy = arguments.string(privacy).flatMap(LivePrivacy.init(rawValue:))
        settings.privacyArchive = arguments.flag(privacyArchive)
        settings.archivePreset = try EncoderPreset(parsing: arguments.require(archivePreset))
        if !arguments.flag(noArchive) {
            settings.archivePath = arguments.string(archive).map(UserFolders.absolute) ?? defaultArchivePath(streamID: id)
        }
        do {
            try settings.validate()
        } catch let error as LiveSettings.Error {
            throw arguments.refused("\(error)")
        }
        guard spoolsAllowStart(streamID: id, arguments) else { return 1 }
        VerboseOption.apply(arguments, command: "reel live")
        let session = LiveSession(settings: settings, reporter: TerminalReporter(quiet: arguments.flag(quiet)))
        let signals = SignalTrap(signals: [SIGINT, SIGTERM]) { signal in
            session.requestStop(reason: signal == SIGINT ? "interrupted (Ctrl-C)" : "terminated (SIGTERM)")
        }
        defer { signals.cancel() }
        let report = await session.run()
        return report.succeeded ? 0 : 1
    }

    /// The bucket for `--origin s3://BUCKET/PREFIX` with the `--s3-*` options and the access key
    /// from the usual places; nil for an http(s) origin (then no `--s3-*` option may be given).
    static func bucketConfiguration(_ arguments: ParsedArguments) throws -> S3Target.Configuration? {
        if BucketOptions.isBucket(arguments.string(origin)), arguments.string(token) != nil {
            throw arguments.refused("--token is for an HTTP origin; an s3:// bucket is signed with an AWS access key instead "
                                    + "(AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or --s3-profile)")
        }
        return try BucketOptions.configuration(arguments, location: arguments.string(origin), option: origin.name, usage: .liveStream)
    }

    /// Names the spools earlier runs left behind (`reel publish ID` publishes them); false, with
    /// the reason printed, when this stream id's own spool waits (a new run would mix with it).
    static func spoolsAllowStart(streamID id: String, _ arguments: ParsedArguments) -> Bool {
        let waiting = SpooledStream.waiting(in: LiveSettings.defaultSpoolRoot)
        if let own = waiting.first(where: { $0.streamID == id }) {
            let what = own.segmentFiles.isEmpty ? "its playlist" : own.segmentFiles.count == 1 ? "1 segment" : "\(own.segmentFiles.count) segments"
            ErrorPrinter.failure(arguments.commandPath, "stream ID \(id) has \(what) waiting in the spool "
                + "\(own.directory.path) from an earlier run that did not finish publishing: publish them first with reel publish \(id) "
                + "--origin URL (or --output DIR), or pick another --stream-id")
            return false
        }
        if let line = SpoolRecovery.waitingSentence(waiting.map { ($0.streamID, $0.segmentFiles.count) }) {
            ErrorPrinter.note(arguments.commandPath, line)
        }
        return true
    }

    /// `$XDG_VIDEOS_DIR` or `~/Videos`, then `reel/reel-{id}.mp4`.
    static func defaultArchivePath(streamID: String) -> String {
        LiveSettings.defaultArchivePath(streamID: streamID, videosFolder: UserFolders.current.videos)
    }
}
