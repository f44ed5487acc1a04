import ReelRuntime
import Foundation
import ReelCore
import Synchronization

/// Connects a live session's HLS branch to the ``HLSPublisher``: builds the targets from the
/// settings (an origin or a bucket, and/or a local folder), checks the origin before the start, measures
/// the uplink for `--quality auto`, and keeps the numbers for the status line.
final class LivePublisher: HLSSegmentSink, Sendable {
    private let settings: LiveSettings
    private let layout: StreamLayout
    private let targets: [any PublishTarget]
    /// The HTTP origin or the bucket.
    private let origin: (any RemotePublishTarget)?
    private let reporter: LiveReporter
    private let publisher = Locked<HLSPublisher?>(nil)
    private let counters = Locked<(produced: Int, bytes: Int, seconds: Double)>((0, 0, 0))

    init(settings: LiveSettings, reporter: LiveReporter) throws {
        self.settings = settings
        self.reporter = reporter
        layout = try StreamLayout(streamID: settings.streamID)
        (origin, targets) = try LiveSettings.targets(origin: settings.origin, token: settings.token, s3: settings.s3,
                                                     outputDirectory: settings.outputDirectory)
    }

    /// Where players find the stream.
    var playlistLocations: [String] {
        var lines: [String] = []
        if let origin { lines.append(origin.url(forPath: layout.playlistPath).absoluteString) }
        if let folder = settings.outputDirectory { lines.append(folder.appendingPathComponent(layout.playlistPath).path) }
        return lines
    }

    /// Measures the uplink with a test PUT and picks the preset (`--quality auto`).
    func measureUplink() async throws -> QualityPreset.AutoPick {
        guard let origin else { throw LiveSettings.Error(description: "--quality auto needs --origin") }
        let measurement = try await UplinkProbe().measure(target: origin, layout: layout)
        warnIfLeftBehind(measurement, origin: origin)
        return QualityPreset.pick(uplinkBitsPerSecond: measurement.bitsPerSecond)
    }

    /// Makes sure the origin takes our PUTs before anything is captured: an unreachable origin
    /// or a refused token ends the run at once with the origin's answer. The small test upload
    /// goes to segment 0, which no playlist lists, and is deleted again.
    func checkOrigin() async throws {
        guard let origin else { return }
        do {
            warnIfLeftBehind(try await UplinkProbe(byteCount: 4096).measure(target: origin, layout: layout), origin: origin)
        } catch UplinkProbe.Error.uploadFailed(_, _, let reason, _) {
            let what = settings.s3 == nil ? "the origin does not" : "the bucket does not"
            throw LiveSettings.Error(description: "\(what) take the stream, so nothing was started. \(reason)")
        }
    }

    /// Refuses a stream id that is already on a target (its playlist or its init segment is
    /// there): a CDN keeps `immutable` segments for a year, so the same names must never carry
    /// different bytes. With `--replace` the old stream is deleted first, where the target can
    /// delete; a target that cannot ends the run here, before capture.
    func claimStreamID() async throws {
        for target in targets {
            guard try await streamExists(on: target) else { continue }
            let id = layout.streamID
            guard settings.replace else {
                throw LiveSettings.Error(description: "stream ID \(id) already exists on \(target.name): a cache may keep its "
                    + "segments for a year, so Reel never writes different bytes under the same name. Pick another --stream-id, "
                    + "or pass --replace to delete the old stream first")
            }
            do {
                try await target.deleteStream(layout)
            } catch {
                throw LiveSettings.Error(description: "--replace: could not delete the old stream \(id) on \(target.name), "
                    + "so nothing was started. \(ErrorSentence.reason(error))")
            }
            guard try await !streamExists(on: target) else {
                throw LiveSettings.Error(description: "--replace: \(target.name) still has the stream \(id) after deleting it, "
                    + "so nothing was started. Delete it by hand or pick another --stream-id")
            }
            reporter.info("replaced: the old stream \(id) on \(target.name) was deleted")
        }
    }

    /// Whether the stream's playlist or init segment is on `target`.
    private func streamExists(on target: any PublishTarget) async throws -> Bool {
        do {
            if try await target.fileExists(path: layout.playlistPath) { return true }
            return try await target.fileExists(path: layout.initPath)
        } catch {
            throw LiveSettings.Error(description: "could not check whether stream ID \(layout.streamID) already exists on "
                + "\(target.name), so nothing was started. \(ErrorSentence.reason(error))")
        }
    }

    /// A warning when the probe's upload could not be deleted (the stream goes on: no playlist
    /// lists segment 0).
    private func warnIfLeftBehind(_ measurement: UplinkProbe.Measurement, origin: any RemotePublishTarget) {
        guard let reason = measurement.leftBehind else { return }
        reporter.warning("the uplink test's upload \(origin.url(forPath: UplinkProbe.path(in: layout)).absoluteString) could not be deleted. \(reason)")
    }

    /// Starts publishing with the stream's fixed target duration, and with LL-HLS parts of
    /// at most `partTarget` when given.
    func start(targetDuration: Int, partTarget: MediaTime?) throws {
        let made = try HLSPublisher(
            settings: HLSPublisher.Settings(layout: layout, targetDuration: targetDuration, spoolDirectory: settings.spoolDirectory,
                                            lowLatency: partTarget.map(HLSPlaylist.LowLatency.init(partTarget:))),
            targets: targets)
        publisher.withLock { $0 = made }
    }

    func publishInit(_ bytes: Data) {
        publisher.withLock { $0 }?.submitInit(bytes)
    }

    func publishSegment(sequence: Int, duration: MediaTime, date: Date, followsDiscontinuity: Bool, bytes: Data) {
        counters.withLock { $0.produced += 1; $0.bytes += bytes.count; $0.seconds += duration.seconds }
        publisher.withLock { $0 }?.submitSegment(sequence: sequence, duration: duration, programDateTime: date,
                                                            followsDiscontinuity: followsDiscontinuity, bytes: bytes)
    }

    func publishPart(_ info: PublishQueue.PartInfo, bytes: Data) {
        publisher.withLock { $0 }?.submitPart(info, bytes: bytes)
    }

    /// Numbers for the status line: the slowest target's.
    func snapshot() -> (published: Int, produced: Int, backlog: Int, bitRate: Double, failedAttempts: Int) {
        let c = counters.withLock { $0 }
        let status = publisher.withLock { $0 }?.status ?? []
        let published = status.map(\.stats.published).min() ?? 0
        let backlog = status.map(\.stats.backlog).max() ?? 0
        let failed = status.map(\.stats.failedAttempts).reduce(0, +)
        return (published, c.produced, backlog, c.seconds > 0 ? Double(c.bytes * 8) / c.seconds : 0, failed)
    }

    /// Drains every target and reports.
    func finish() async -> (published: Int, produced: Int, targets: [String], error: String?) {
        let produced = counters.withLock { $0.produced }
        guard let publisher = publisher.withLock({ $0 }) else {
            return (0, produced, [], "the publisher could not start (spool folder \(settings.spoolDirectory.path))")
        }
        let report = await publisher.finish()
        let published = report.targets.map(\.stats.published).min() ?? 0
        var lines = report.targets.map(\.description)
        lines += report.problems
        if report.spoolKept { lines.append("unpublished segments are kept in \(report.spoolDirectory.path)") }
        return (published, produced, lines, report.isComplete ? nil : "not every segment reached every target")
    }
}
