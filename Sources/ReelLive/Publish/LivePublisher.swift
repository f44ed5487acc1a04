import ReelRuntime
import Foundation
import ReelCore
import Synchronization

/// Connects a live session's HLS branch to the ``HLSPublisher``: builds the targets from the
/// settings (an origin or a bucket, and/or a local folder), checks the origin before the start, measures
/// the uplink for `--quality auto`, and keeps the numbers for the status line.
///
/// With an ABR ladder each rung is a ``RungSink`` with its own ``HLSPublisher`` (its layout one
/// folder below the stream, its spool one folder below the stream's), and a
/// ``MultivariantPublisher`` publishes the playlist naming them; one rendition is one
/// ``RungSink`` with the stream's own layout and no multivariant playlist.
final class LivePublisher: Sendable {
    /// Where one rendition's files go: the HLS branch's sink for it.
    final class RungSink: HLSSegmentSink, Sendable {
        /// The rung's name; nil for a stream of one rendition.
        let name: String?
        let layout: StreamLayout
        let spoolDirectory: URL
        private let index: Int
        private let multivariant: MultivariantPublisher?
        fileprivate let publisher = Locked<HLSPublisher?>(nil)
        fileprivate let counters = Locked<(produced: Int, bytes: Int, seconds: Double)>((0, 0, 0))

        fileprivate init(name: String?, layout: StreamLayout, spoolDirectory: URL, index: Int, multivariant: MultivariantPublisher?) {
            self.name = name
            self.layout = layout
            self.spoolDirectory = spoolDirectory
            self.index = index
            self.multivariant = multivariant
        }

        func publishInit(_ bytes: Data) {
            multivariant?.initSegment(rung: index, bytes: bytes)
            publisher.withLock { $0 }?.submitInit(bytes)
        }

        func publishSegment(sequence: Int, duration: MediaTime, date: Date, followsDiscontinuity: Bool, bytes: Data) {
            counters.withLock { $0.produced += 1; $0.bytes += bytes.count; $0.seconds += duration.seconds }
            publisher.withLock { $0 }?.submitSegment(sequence: sequence, duration: duration, programDateTime: date,
                                                     followsDiscontinuity: followsDiscontinuity, bytes: bytes)
            // After the segment is queued: the multivariant playlist waits for its listing anyway.
            multivariant?.segment(rung: index, bytes: bytes.count, duration: duration)
        }

        func publishPart(_ info: PublishQueue.PartInfo, bytes: Data) {
            publisher.withLock { $0 }?.submitPart(info, bytes: bytes)
        }

        /// Whether this rung's playlist, with at least one segment, is committed on target `index`.
        func isListed(onTarget index: Int) -> Bool {
            guard let status = publisher.withLock({ $0 })?.status, index < status.count else { return false }
            return status[index].stats.committed > 0
        }
    }

    private let settings: LiveSettings
    private let layout: StreamLayout
    private let targets: [any PublishTarget]
    /// The HTTP origin or the bucket.
    private let origin: (any RemotePublishTarget)?
    private let reporter: LiveReporter
    private let multivariant = Locked<MultivariantPublisher?>(nil)
    /// The renditions, highest first, once ``makeSinks(framesPerSecond:)`` made them.
    private let started = Locked<[RungSink]>([])

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

    /// Whether the stream's playlist or init segment is on `target`, or a rung's of the ladder
    /// asked for (a run killed before its first multivariant playlist leaves only those).
    private func streamExists(on target: any PublishTarget) async throws -> Bool {
        do {
            if try await target.fileExists(path: layout.playlistPath) { return true }
            for rung in settings.ladder?.rungs ?? [] where try await target.fileExists(path: try layout.rung(rung.name).initPath) {
                return true
            }
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

    /// The sinks the HLS branch encodes for, highest rung first: one per rung of the ladder
    /// (and the multivariant playlist's publisher, started), or one for the stream. Nothing is
    /// published before ``start(targetDuration:partTarget:)``.
    func makeSinks(framesPerSecond: Double) throws -> [RungSink] {
        guard let ladder = settings.ladder else {
            let sinks = [RungSink(name: nil, layout: layout, spoolDirectory: settings.spoolDirectory, index: 0, multivariant: nil)]
            started.withLock { $0 = sinks }
            return sinks
        }
        let rungs = ladder.oriented(settings.landscape ? .landscape : .portrait)
        var layouts: [StreamLayout] = []
        for rung in rungs { layouts.append(try layout.rung(rung.name)) }
        let schedule = MultivariantSchedule(
            rungs: zip(rungs, layouts).map { .init(uri: $1.playlistURIFromStream, size: $0.size) },
            framesPerSecond: framesPerSecond, segmentInterval: MediaTime(seconds: settings.segmentSeconds, timescale: 90_000),
            firstVersionAfter: settings.partSeconds == nil ? 3 : 1)
        let listed = started
        let multivariant = MultivariantPublisher(layout: layout, schedule: schedule, targets: targets,
                                                 spoolDirectory: settings.spoolDirectory) { target in
            let sinks = listed.withLock { $0 }
            return !sinks.isEmpty && sinks.allSatisfy { $0.isListed(onTarget: target) }
        }
        self.multivariant.withLock { $0 = multivariant }
        let sinks = zip(rungs, layouts).enumerated().map { index, pair in
            RungSink(name: pair.0.name, layout: pair.1, spoolDirectory: settings.spoolDirectory.appendingPathComponent(pair.0.name),
                     index: index, multivariant: multivariant)
        }
        started.withLock { $0 = sinks }
        return sinks
    }

    /// Starts publishing every sink with the stream's fixed target duration, and with LL-HLS
    /// parts of at most `partTarget` when given.
    func start(targetDuration: Int, partTarget: MediaTime?) throws {
        let sinks = started.withLock { $0 }
        for sink in sinks {
            // A ladder's rungs report on each other (EXT-X-RENDITION-REPORT).
            let others = sinks.compactMap { $0.name == sink.name ? nil : $0.name.map { "../\($0)/\(StreamLayout.playlistName)" } }
            let lowLatency = partTarget.map { HLSPlaylist.LowLatency(partTarget: $0, renditionReports: others) }
            let made = try HLSPublisher(
                settings: HLSPublisher.Settings(layout: sink.layout, targetDuration: targetDuration, spoolDirectory: sink.spoolDirectory,
                                                lowLatency: lowLatency, window: settings.windowSegments),
                targets: targets)
            sink.publisher.withLock { $0 = made }
        }
    }

    /// Numbers for the status line: the slowest target's of the slowest rung; bit rate and
    /// segments produced of all rungs together.
    func snapshot() -> (published: Int, produced: Int, backlog: Int, bitRate: Double, failedAttempts: Int) {
        let sinks = started.withLock { $0 }
        let counts = sinks.map { $0.counters.withLock { $0 } }
        let status = sinks.flatMap { $0.publisher.withLock { $0 }?.status ?? [] }
        let published = status.map(\.stats.published).min() ?? 0
        let backlog = status.map(\.stats.backlog).max() ?? 0
        let failed = status.map(\.stats.failedAttempts).reduce(0, +)
        let seconds = counts.map(\.seconds).max() ?? 0
        let bytes = counts.map(\.bytes).reduce(0, +)
        return (published, counts.map(\.produced).min() ?? 0, backlog, seconds > 0 ? Double(bytes * 8) / seconds : 0, failed)
    }

    /// Drains every target of every rung, then publishes the final multivariant playlist, and reports.
    func finish() async -> (published: Int, produced: Int, targets: [String], error: String?) {
        let sinks = started.withLock { $0 }
        let produced = sinks.map { $0.counters.withLock { $0.produced } }.min() ?? 0
        let publishers = sinks.compactMap { $0.publisher.withLock { $0 } }
        guard !publishers.isEmpty, publishers.count == sinks.count else {
            return (0, produced, [], "the publisher could not start (spool folder \(settings.spoolDirectory.path))")
        }
        var published = Int.max, lines: [String] = [], complete = true
        // The rungs drain together: each has the whole drain timeout.
        let reports = await withTaskGroup(of: (Int, HLSPublisher.Report).self) { group in
            for (index, publisher) in publishers.enumerated() { group.addTask { (index, await publisher.finish()) } }
            var collected: [(Int, HLSPublisher.Report)] = []
            for await report in group { collected.append(report) }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
        for (sink, report) in zip(sinks, reports) {
            published = min(published, report.targets.map(\.stats.published).min() ?? 0)
            let prefix = sink.name.map { "\($0): " } ?? ""
            lines += report.targets.map { prefix + $0.description }
            lines += report.problems.map { prefix + $0 }
            if report.spoolKept { lines.append("\(prefix)unpublished segments are kept in \(report.spoolDirectory.path)") }
            complete = complete && report.isComplete
        }
        if let multivariant = multivariant.withLock({ $0 }) {
            let problems = await multivariant.finish(drainTimeout: .seconds(10))
            lines += problems
            if !problems.isEmpty { lines.append("the multivariant playlist is kept in \(settings.spoolDirectory.path)") }
            if problems.isEmpty && complete { multivariant.removeSpool() }
            complete = complete && problems.isEmpty
        }
        return (published == .max ? 0 : published, produced, lines, complete ? nil : "not everything reached every target")
    }
}
