import Foundation
import ReelCore
import ReelLive
import ReelMedia
import ReelRuntime

/// The live page's work: ReelLive's ``LiveSession`` (what `reel live` runs) from the studio,
/// one at a time, with the source lent by the record page's camera (no recording and no
/// preview meanwhile: one source, one user). Its status line is published as `live` events;
/// a stop (the page's, or the studio stopping) publishes the last segment and the ENDLIST
/// playlist and closes the archive, as Ctrl-C does for `reel live`.
final class StudioLive: Sendable {
    /// What the page shows: `GET /api/live` and each `live` event. The token is never in it.
    struct Snapshot: Encodable, Sendable {
        var state = StudioLiveState.idle
        @NullWhenNil var streamID: String? = nil
        @NullWhenNil var source: String? = nil
        @NullWhenNil var origin: String? = nil
        @NullWhenNil var output: String? = nil
        @NullWhenNil var quality: String? = nil
        var landscape = false
        @NullWhenNil var playlistURL: String? = nil
        @NullWhenNil var viewerURL: String? = nil
        @NullWhenNil var archivePath: String? = nil
        var elapsed = 0.0
        var segmentsPublished = 0, segmentsProduced = 0, backlog = 0, droppedFrames = 0
        var bitRate = 0.0
        var failedAttempts = 0
        @NullWhenNil var archiveFrames: Int? = nil
        /// Archive frames left out on purpose because its encoder could not keep up (the count
        /// `reel live`'s summary gives); nil without an archive.
        @NullWhenNil var archiveSkippedFrames: Int? = nil
        /// Faces hidden in the stream (`reel live --privacy`): mosaic or mask; nil when they are
        /// streamed as captured.
        @NullWhenNil var privacy: String? = nil
        /// The archive records the covered picture too (`--privacy-archive`).
        var privacyArchive = false
        /// With `privacy`: pictures that left the hold before their detections, covered with the
        /// last boxes widened or whole (detection fell behind real time), and whether the detector
        /// failed (every picture since covered whole); the counts `reel live`'s status line gives.
        var privacyLatePictures = 0, privacyWholePictures = 0
        var privacyFailed = false
        /// `reel live`'s information lines (source, stream, playlist, archive…), newest last.
        var lines: [String] = []
        var warnings: [String] = []
        /// Why it failed, or what it made.
        @NullWhenNil var message: String? = nil

    }

    /// Information lines kept at most.
    static let maxLines = 20

    private let camera: StudioCamera
    private let settings: StudioSettings
    private let publish: @Sendable (Snapshot) -> Void
    private let snapshot = Locked(Snapshot())
    /// The running session and its run (the last one's, once it ended).
    private let running = Locked<(session: LiveSession, run: Task<Void, Never>)?>(nil)

    init(camera: StudioCamera, settings: StudioSettings, publish: @escaping @Sendable (Snapshot) -> Void) {
        self.camera = camera
        self.settings = settings
        self.publish = publish
    }

    var current: Snapshot { snapshot.withLock { $0 } }

    /// Starts `reel live` as `request` asks; refused while one runs or the source is busy.
    func start(_ request: LiveRequest) throws(StudioRefusal) -> Snapshot {
        guard running.withLock({ $0 == nil }) else { throw StudioRefusal(status: 409, message: "a live stream is running; stop it first") }
        let source = try camera.liveSource(request.source)
        let live = try request.settings(source: source.spec, folders: settings.folders)
        try camera.lend(source.text, to: .live)
        let sourceText = source.text
        let started = Snapshot(state: .starting, streamID: live.streamID, source: sourceText, origin: live.origin?.absoluteString,
                               output: live.outputDirectory?.path, quality: request.quality ?? "medium", landscape: live.landscape,
                               playlistURL: live.playlistURL?.absoluteString, viewerURL: live.viewerURL?.absoluteString,
                               archivePath: live.archivePath, privacy: live.privacy?.rawValue, privacyArchive: live.privacyArchive)
        snapshot.withLock { $0 = started }
        let session = LiveSession(settings: live, reporter: StudioLiveReporter(update: { [self] change in update(change) }))
        let claimed = running.withLock { now -> Bool in
            guard now == nil else { return false }
            now = (session, Task.detached { [self] in
                let report = await session.run()
                // The source goes back before the page hears that the stream ended.
                camera.returned(by: .live)
                running.withLock { $0 = nil }
                update { $0.state = report.succeeded ? .finished : .failed }
            })
            return true
        }
        guard claimed else {
            camera.returned(by: .live)
            throw StudioRefusal(status: 409, message: "a live stream is running; stop it first")
        }
        publish(started)
        return started
    }

    /// `POST /api/live/stop`: ends the stream cleanly (last segment, ENDLIST, archive closed).
    func stop() -> Snapshot {
        guard let session = running.withLock({ $0?.session }) else { return current }
        update { if $0.state == .starting || $0.state == .live { $0.state = .stopping } }
        session.requestStop(reason: "stopped from the studio")
        return current
    }

    /// Stops a running stream and waits for it (the studio is stopping).
    func shutdown() async {
        guard let (session, run) = running.withLock({ $0 }) else { return }
        session.requestStop(reason: "the studio stopped")
        await run.value
    }

    private func update(_ change: (inout Snapshot) -> Void) {
        let now = snapshot.withLock { value -> Snapshot in change(&value); return value }
        publish(now)
    }
}

/// Turns a live session's reports into changes of the snapshot.
final class StudioLiveReporter: LiveReporter, Sendable {
    private let update: @Sendable ((inout StudioLive.Snapshot) -> Void) -> Void

    init(update: @escaping @Sendable ((inout StudioLive.Snapshot) -> Void) -> Void) {
        self.update = update
    }

    func info(_ line: String) {
        update { now in
            now.lines = Array((now.lines + [line]).suffix(StudioLive.maxLines))
            if line.hasPrefix("stream:"), now.state == .starting { now.state = .live }
        }
    }

    func warning(_ line: String) {
        update { $0.warnings = Array(($0.warnings + [line]).suffix(StudioLive.maxLines)) }
    }

    func status(_ status: LiveStatus) {
        update { now in
            if now.state == .starting { now.state = .live }
            now.elapsed = status.elapsed
            now.segmentsPublished = status.segmentsPublished
            now.segmentsProduced = status.segmentsProduced
            now.backlog = status.backlog
            now.droppedFrames = status.droppedFrames
            now.bitRate = status.bitRate
            now.failedAttempts = status.failedAttempts
            now.archiveFrames = status.archiveFrames
            now.archiveSkippedFrames = status.archiveFrames == nil ? nil : status.archiveSkippedFrames
            now.privacyLatePictures = status.privacyLatePictures
            now.privacyWholePictures = status.privacyWholePictures
            now.privacyFailed = status.privacyFailed
        }
    }

    /// The figures and the outcome's words; the state follows once the source is free again.
    func finished(_ report: LiveReport) {
        update { now in
            now.state = .stopping
            now.elapsed = report.elapsed
            now.segmentsPublished = report.segmentsPublished
            now.segmentsProduced = report.segmentsProduced
            now.droppedFrames = report.droppedFrames
            now.archiveFrames = report.archivePath == nil ? nil : report.archiveFrames
            now.archiveSkippedFrames = report.archivePath == nil ? nil : report.archiveSkippedFrames
            now.privacyLatePictures = report.privacyLatePictures
            now.privacyWholePictures = report.privacyWholePictures
            now.privacyFailed = report.privacyError != nil
            let problems = [report.privacyError, report.sourceError, report.liveError, report.archiveError].compactMap { $0 }
            let leftOut = report.archiveSkippedFrames > 0
                ? "; \(Counted.noun(report.archiveSkippedFrames, "archive frame")) left out on purpose (its encoder could not keep up in real time)" : ""
            now.message = problems.isEmpty
                ? "\(Counted.noun(report.segmentsPublished, "segment")) published in \(Int(report.elapsed.rounded())) s"
                    + (report.archivePath.map { "; archive \($0)" } ?? "") + leftOut + Self.faces(report)
                : problems.joined(separator: "; ")
        }
    }
}

extension StudioLiveReporter {
    /// The summary's words on the faces (as `reel live`'s summary gives them): covered, and
    /// how many pictures left before their detections; empty without `--privacy`.
    static func faces(_ report: LiveReport) -> String {
        guard let mode = report.privacy else { return "" }
        let behind = report.privacyLatePictures + report.privacyWholePictures > 0
            ? "; detection fell behind real time: \(Counted.noun(report.privacyLatePictures, "picture")) covered with the last boxes widened, "
                + "\(report.privacyWholePictures) covered whole" : ""
        return "; faces covered by a \(mode.rawValue) (\(Counted.noun(report.privacyDetections, "detection")))" + behind
    }
}

/// The body of `POST /api/live`: what `reel live`'s options say.
struct LiveRequest: Decodable {
    var source: String?
    var origin: String?
    var token: String?
    var output: String?
    var quality: String?
    var landscape: Bool?
    var archive: Bool?
    /// x265's preset for the archive (`reel live --archive-preset`, ultrafast by default).
    var archivePreset: String?
    var duration: Double?
    /// Faces hidden in the stream before it is encoded (`reel live --privacy`): mosaic or mask;
    /// none or empty streams them as captured.
    var privacy: String?
    /// The archive records the covered picture too (`--privacy-archive`).
    var privacyArchive: Bool?

    /// The settings from `source`, checked as `reel live` checks them (`LiveSettings.validate`).
    func settings(source: SourceSpec, folders: XDGDirectories) throws(StudioRefusal) -> LiveSettings {
        var originURL: URL?
        if let text = origin, !text.isEmpty {
            guard let url = LiveSettings.originURL(text) else { throw StudioRefusal(status: 400, message: "origin: \(text) is not an http:// or https:// URL") }
            originURL = url
        }
        if let output, !output.isEmpty, !output.hasPrefix("/") {
            throw StudioRefusal(status: 400, message: "output: the folder must be an absolute path (/…)")
        }
        let selection: QualityPreset.Selection
        do { selection = try QualityPreset.Selection(parsing: quality ?? "medium") } catch {
            throw StudioRefusal(status: 400, message: "quality: one of \(QualityPreset.Selection.choices.joined(separator: ", "))")
        }
        let id = LiveSettings.newStreamID()
        var settings = LiveSettings(source: source, origin: originURL, token: token.flatMap { $0.isEmpty ? nil : $0 }, streamID: id,
                                    quality: selection, landscape: landscape ?? false, duration: duration,
                                    outputDirectory: output.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) },
                                    spoolDirectory: URL(fileURLWithPath: folders.state).appendingPathComponent("reel/spool/\(id)"))
        if archive ?? true { settings.archivePath = LiveSettings.defaultArchivePath(streamID: id, videosFolder: folders.videos) }
        if let archivePreset {
            do { settings.archivePreset = try EncoderPreset(parsing: archivePreset) } catch {
                throw StudioRefusal(status: 400, message: "archivePreset: \(error)")
            }
        }
        if let privacy, !privacy.isEmpty, privacy != "none" {
            guard let mode = LivePrivacy(rawValue: privacy) else { throw StudioRefusal(status: 400, message: "privacy: mosaic, mask or none") }
            settings.privacy = mode
        }
        settings.privacyArchive = privacyArchive ?? false
        do { try settings.validate() } catch { throw StudioRefusal(status: 400, message: "\(error)") }
        return settings
    }
}
