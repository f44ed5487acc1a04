import Foundation
import ReelCore
import ReelLive

/// `reel publish ID`: publishes a stream's spool that a `reel live` left behind (killed, power
/// cut, or ended while the origin was down), then closes the playlist with ENDLIST.
enum PublishCommand {
    static let streamID = Positional("ID", help: "The stream id whose spool to publish (reel live names the spools waiting when it starts).")

    static let window = Option.value("window", as: Duration.self,
                                     help: "List only the segments of about the last this long (default: the --window the live run had, as its spool records it; none: every segment).")

    static let spec = CommandSpec(
        name: "publish",
        summary: "Publish a stream's spool that a reel live left behind, then close its playlist with ENDLIST.",
        discussion: """
            reel live writes every file to a spool ($XDG_STATE_HOME/reel/spool/ID, default \
            ~/.local/state/reel/spool/ID) before uploading it, and removes the spool once every \
            target has everything. A run that was killed (SIGKILL, power cut) or ended while the origin \
            was down leaves it there; reel live names the spools waiting when it starts. reel publish \
            uploads the spool's init segment and every segment in order, with the same rules as a live \
            run (the playlist lists only uploaded segments without a gap, retries), then the playlist \
            with #EXT-X-ENDLIST, and removes the spool only when every target acknowledged everything. \
            Give the target again (--origin with --token or REEL_TOKEN, or s3:// with the --s3-* options, \
            and/or --output): the spool records no URL and no credentials. Files already on the origin \
            are uploaded again with the same bytes, so publishing twice is harmless. A stream that had a \
            --window keeps it: the spool records it.
            """,
        options: [LiveCommand.origin, LiveCommand.token, LiveCommand.s3Endpoint, LiveCommand.s3Region, LiveCommand.s3Profile,
                  LiveCommand.s3Addressing, LiveCommand.output, window],
        positionals: [streamID],
        examples: [
            "reel publish desk --origin http://127.0.0.1:8080/ --token $TOKEN",
            "reel publish 20261203-141500-a1b2c3 --origin s3://my-streams/live --s3-region eu-west-1",
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let id = arguments.positional(streamID) ?? ""
        guard LiveSettings.isValidStreamID(id) else { throw arguments.refused("the stream id must be 1 to 128 of A-Z a-z 0-9 _ -, got '\(id)'") }
        let folder = LiveSettings.defaultSpool(streamID: id)
        guard let spool = SpooledStream(directory: folder) else {
            let others = SpooledStream.waiting(in: LiveSettings.defaultSpoolRoot).map(\.streamID)
            ErrorPrinter.failure(arguments.commandPath, "nothing of stream ID \(id) waits to be published: there is no spool \(folder.path)"
                                 + (others.isEmpty ? " (no spool waits)" : " (waiting: \(others.joined(separator: ", ")))"))
            return 1
        }
        guard !spool.isInUse else {
            ErrorPrinter.failure(arguments.commandPath, "a running reel is publishing stream ID \(id) from \(folder.path) right now: wait for it to end")
            return 1
        }
        let targets = try makeTargets(arguments)
        let windowSeconds = try arguments.seconds(window)
        var complete = true
        // A ladder's rungs one after the other, then its multivariant playlist.
        for part in spool.isLadder ? spool.rungs : [spool] {
            complete = await publish(part, to: targets.all, windowSeconds: windowSeconds, arguments) && complete
        }
        if spool.isLadder && spool.rungs.isEmpty {
            print("publishing the multivariant playlist of \(id) from \(folder.path): every rung was published before")
        }
        for line in await spool.publishMultivariant(to: targets.all) {
            print(line)
            complete = false
        }
        if spool.isLadder && spool.multivariantPlaylist == nil {
            ErrorPrinter.warning(arguments.commandPath, "the run ended before every rung had a segment, so there is no multivariant "
                                 + "playlist: players can play each rung's playlist (streams/\(id)/RUNG/playlist.m3u8)")
        }
        if let remote = targets.remote { print("playlist: \(remote.url(forPath: try StreamLayout(streamID: id).playlistPath).absoluteString)") }
        guard complete else {
            ErrorPrinter.failure(arguments.commandPath, "not everything reached every target; the spool stays in \(folder.path): "
                                 + "run reel publish \(id) again once the target is back")
            return 1
        }
        return 0
    }

    /// Publishes one spool (a stream's, or a ladder rung's) and prints what happened; false
    /// when not everything reached every target.
    static func publish(_ spool: SpooledStream, to targets: [any PublishTarget], windowSeconds: Double?,
                        _ arguments: ParsedArguments) async -> Bool {
        let plan = spool.recovery()
        let name = spool.rung.map { "rung \($0) of \(spool.streamID)" } ?? spool.streamID
        print("publishing \(name) from \(spool.directory.path): init and \(plan.segments.count == 1 ? "1 segment" : "\(plan.segments.count) segments"), then the playlist with ENDLIST")
        if !plan.stranded.isEmpty {
            ErrorPrinter.warning(arguments.commandPath, "segment files \(plan.stranded.map(String.init).joined(separator: ", ")) follow a missing "
                                 + "segment, so no playlist can list them without a gap; they stay in the spool")
        }
        let report: HLSPublisher.Report
        do {
            // The window given, else the one the live run recorded in its spool.
            let window = windowSeconds.map {
                max(LiveSettings.minimumWindowSegments, Int(($0 / Double(plan.targetDuration)).rounded(.up)))
            } ?? spool.recordedWindow
            report = try await spool.publish(to: targets, plan: plan, window: window)
        } catch {
            ErrorPrinter.failure(arguments.commandPath, ErrorSentence.reason(error))
            return false
        }
        let prefix = spool.rung.map { "\($0): " } ?? ""
        for line in report.targets.map(\.description) + report.problems { print(prefix + line) }
        return report.isComplete
    }

    /// The origin (HTTP or S3) and/or folder from the options, as reel live builds them.
    static func makeTargets(_ arguments: ParsedArguments) throws -> (remote: (any RemotePublishTarget)?, all: [any PublishTarget]) {
        let bucket = try LiveCommand.bucketConfiguration(arguments)
        var originURL: URL?
        if bucket == nil, let text = arguments.string(LiveCommand.origin) {
            guard let url = LiveSettings.originURL(text) else {
                throw arguments.invalid(LiveCommand.origin, expected: "an http:// or https:// URL, or s3://BUCKET/PREFIX")
            }
            originURL = url
        }
        let output = arguments.string(LiveCommand.output).map { URL(fileURLWithPath: UserFolders.absolute($0)) }
        guard originURL != nil || bucket != nil || output != nil else {
            throw arguments.refused("give the target again: --origin URL (with --token or REEL_TOKEN), --origin s3://BUCKET/PREFIX, "
                                    + "or --output DIR; the spool records no URL and no credentials")
        }
        let token = arguments.string(LiveCommand.token) ?? (bucket == nil ? ProcessInfo.processInfo.environment["REEL_TOKEN"] : nil)
        return try LiveSettings.targets(origin: originURL, token: token, s3: bucket, outputDirectory: output)
    }
}
