import Foundation
import ReelCore
import ReelRuntime

/// Publishes an ABR ladder's multivariant playlist (`streams/{id}/playlist.m3u8`) to every
/// target, beside the rungs' own publishers.
///
/// The rungs report what they produce (``initSegment(rung:bytes:)``, ``segment(rung:bytes:duration:)``);
/// a ``MultivariantSchedule`` decides when a version is due. A target gets a version only once
/// every rung's media playlist is committed there (`rungsListed`), so a player never finds a
/// rung that is not there; a failed PUT is tried again after the ``RetryPolicy``'s delays, and
/// only the newest version is ever sent. Every version is also written to the spool folder, so
/// the stream's playlist survives a crash with its segments.
///
/// One task polls its state four times a second: the file changes a few times a stream, and
/// a quarter second is nothing against the segment duration players wait for anyway.
final class MultivariantPublisher: Sendable {
    /// The rung publishers' view the task needs: whether every rung's playlist is committed
    /// on target `index` (the targets' order).
    typealias RungsListed = @Sendable (_ target: Int) -> Bool

    private struct Shared {
        var schedule: MultivariantSchedule
        /// The newest version due, and a number that grows with each.
        var wanted: (version: Int, text: Data)?
        var finishing = false
    }

    private let shared: Locked<Shared>
    private let loop: Task<[String], Never>
    private let spoolFile: URL

    /// Starts publishing `layout`'s multivariant playlist to `targets` as `schedule` makes
    /// versions due, with `retryPolicy` between failed attempts.
    init(layout: StreamLayout, schedule: MultivariantSchedule, targets: [any PublishTarget], spoolDirectory: URL,
         retryPolicy: RetryPolicy = .default, rungsListed: @escaping RungsListed) {
        let shared = Locked(Shared(schedule: schedule))
        let spoolFile = spoolDirectory.appendingPathComponent(StreamLayout.playlistName)
        self.shared = shared
        self.spoolFile = spoolFile
        let path = layout.stream.playlistPath
        loop = Task {
            await Self.run(path: path, targets: targets, retryPolicy: retryPolicy, shared: shared, rungsListed: rungsListed)
        }
    }

    deinit {
        loop.cancel()
    }

    /// Rung `index` produced its init segment.
    func initSegment(rung index: Int, bytes: Data) {
        update { $0.initSegment(rung: index, codecs: CodecString.codecs(ofInitSegment: bytes)) }
    }

    /// Rung `index` produced a media segment.
    func segment(rung index: Int, bytes: Int, duration: MediaTime) {
        update { $0.segment(rung: index, bytes: bytes, duration: duration) }
    }

    private func update(_ change: (inout MultivariantSchedule) -> Void) {
        let due: Data? = shared.withLock { state in
            change(&state.schedule)
            guard !state.finishing, let playlist = state.schedule.due() else { return nil }
            let text = Data(playlist.rendered().utf8)
            state.wanted = ((state.wanted?.version ?? 0) + 1, text)
            return text
        }
        if let due { spool(due) }
    }

    /// The rungs are finished: publishes the final version (exact bit rates) where every rung
    /// is listed, waiting at most `drainTimeout`; returns what did not work, one line each.
    func finish(drainTimeout: Duration) async -> [String] {
        let final: Data? = shared.withLock { state in
            state.finishing = true
            guard let playlist = state.schedule.final else { return nil }
            let text = Data(playlist.rendered().utf8)
            if text != state.wanted?.text { state.wanted = ((state.wanted?.version ?? 0) + 1, text) }
            return text
        }
        if let final { spool(final) }
        let deadline = Task {
            try? await Task.sleep(for: drainTimeout)
            loop.cancel()
        }
        let problems = await loop.value
        deadline.cancel()
        return final == nil ? ["no rung produced a segment, so there is no multivariant playlist"] + problems : problems
    }

    /// Removes the spooled copy (when every rung's spool was removed: everything is published).
    func removeSpool() {
        try? FileManager.default.removeItem(at: spoolFile)
        let folder = spoolFile.deletingLastPathComponent()
        if (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    private func spool(_ text: Data) {
        try? FileManager.default.createDirectory(at: spoolFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? text.write(to: spoolFile, options: .atomic)
    }

    /// What the task keeps per target.
    private struct Lane {
        var delivered = 0
        var failures = 0
        var nextAttempt = ContinuousClock.now
        var lastFailure: String?
        var fatal: String?
    }

    /// Until finishing and every target has the last version (or cannot get it, or the task
    /// is cancelled): sends the newest version where it is due. Returns the problems.
    private static func run(path: String, targets: [any PublishTarget], retryPolicy: RetryPolicy, shared: Locked<Shared>,
                            rungsListed: @escaping RungsListed) async -> [String] {
        var lanes = Array(repeating: Lane(), count: targets.count)
        while !Task.isCancelled {
            let (wanted, finishing) = shared.withLock { ($0.wanted, $0.finishing) }
            if let wanted {
                for index in targets.indices where lanes[index].fatal == nil && lanes[index].delivered < wanted.version
                    && ContinuousClock.now >= lanes[index].nextAttempt && rungsListed(index) {
                    await put(wanted, to: targets[index], path: path, lane: &lanes[index], retryPolicy: retryPolicy)
                }
            }
            // Once finishing, the rungs are done: a target without every rung listed never will have.
            let settled = lanes.indices.allSatisfy { index in
                lanes[index].fatal != nil || lanes[index].delivered == wanted?.version || (finishing && !rungsListed(index))
            }
            if finishing && (settled || wanted == nil) { break }
            try? await Task.sleep(for: .milliseconds(250))
        }
        let version = shared.withLock { $0.wanted?.version }
        return targets.indices.compactMap { index in
            let lane = lanes[index]
            if let fatal = lane.fatal { return "\(targets[index].name): the multivariant playlist was refused: \(fatal)" }
            guard let version, lane.delivered < version else { return nil }
            if lane.delivered == 0 && !rungsListed(index) {
                return "\(targets[index].name): no multivariant playlist, since not every rung's playlist got there"
            }
            return "\(targets[index].name): the last multivariant playlist was not published"
                + (lane.lastFailure.map { " (\($0))" } ?? "")
        }
    }

    private static func put(_ wanted: (version: Int, text: Data), to target: any PublishTarget, path: String, lane: inout Lane,
                            retryPolicy: RetryPolicy) async {
        do {
            try await target.put(path: path, body: wanted.text, contentType: StreamLayout.contentType(forPath: path))
            lane.delivered = wanted.version
            lane.failures = 0
        } catch let error as PublishTargetError where !error.isRetryable {
            lane.fatal = error.description
        } catch {
            lane.failures += 1
            lane.lastFailure = ErrorSentence.reason(error)
            let delay = retryPolicy.delay(afterFailures: lane.failures)
            lane.nextAttempt = ContinuousClock.now + .nanoseconds(Int64(delay.seconds * 1e9))
        }
    }
}
