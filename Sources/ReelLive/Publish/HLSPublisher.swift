import Foundation
import ReelCore
import Synchronization

/// Publishes a live HLS stream — the init segment, then media segments as the writer cuts
/// them — to one or more targets (an HTTP origin, a local folder), each with its own
/// ``ReelCore/PublishQueue``, so a dead origin never holds back the local folder.
///
/// The writer hands over bytes with ``submitInit(_:)`` and ``submitSegment(sequence:duration:programDateTime:followsDiscontinuity:bytes:)``:
/// both return at once (the bytes are queued in memory, never waiting for I/O). The publisher
/// first spools every file to ``Settings/spoolDirectory`` (fsync'ed, with a playlist of
/// everything spooled), then uploads from the spool, so neither an origin outage nor a crash
/// loses a segment. ``finish()`` drains: it waits until every target has every segment and the
/// playlist with ENDLIST, or until the drain timeout, and reports per target what was and was
/// not published. The spool is removed only when every target got everything.
///
/// All state lives in one task that handles events in order (writer input, upload results,
/// timers); uploads run as child tasks of it.
public final class HLSPublisher: Sendable {
    /// How to publish.
    public struct Settings: Sendable {
        /// Paths of the stream's files on every target.
        public var layout: StreamLayout
        /// EXT-X-TARGETDURATION, fixed for the stream.
        public var targetDuration: Int
        /// Folder for the local copy of every file before upload (created if missing).
        /// The spool has the layout of a stream folder: `init.mp4`, `playlist.m3u8`, `seg/`.
        public var spoolDirectory: URL
        /// Segment PUTs in flight at once, per target.
        public var maxSegmentUploadsInFlight: Int
        /// Waits between attempts of a failed PUT.
        public var retryPolicy: RetryPolicy
        /// How long ``HLSPublisher/finish()`` waits for the targets to catch up.
        public var drainTimeout: Duration
        /// Keep the spool even when every target got everything.
        public var keepsSpoolWhenComplete: Bool
        /// LL-HLS: parts published as their own files and listed in the playlist; nil for
        /// regular HLS. The spool keeps a regular playlist either way.
        public var lowLatency: HLSPlaylist.LowLatency?
        /// A sliding window: the targets' playlist lists at most this many of the newest
        /// segments; nil lists every segment (EVENT). The spool keeps the whole playlist.
        public var window: Int?

        /// Settings with 3 segment uploads in flight, the default retry policy and a 60 s drain timeout.
        public init(
            layout: StreamLayout,
            targetDuration: Int,
            spoolDirectory: URL,
            maxSegmentUploadsInFlight: Int = 3,
            retryPolicy: RetryPolicy = .default,
            drainTimeout: Duration = .seconds(60),
            keepsSpoolWhenComplete: Bool = false,
            lowLatency: HLSPlaylist.LowLatency? = nil,
            window: Int? = nil
        ) {
            self.layout = layout
            self.targetDuration = targetDuration
            self.spoolDirectory = spoolDirectory
            self.maxSegmentUploadsInFlight = maxSegmentUploadsInFlight
            self.retryPolicy = retryPolicy
            self.drainTimeout = drainTimeout
            self.keepsSpoolWhenComplete = keepsSpoolWhenComplete
            self.lowLatency = lowLatency
            self.window = window
        }
    }

    /// Why a publisher could not be made.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// No target was given.
        case noTargets
        /// The spool folder could not be created.
        case spoolUnavailable(path: String, reason: String)
        /// Another running publisher (a `reel live` or `reel publish` of the same stream id) holds the spool.
        case spoolInUse(path: String)

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .noTargets:
                "Nothing to publish to: give an origin URL, an output folder, or both."
            case .spoolUnavailable(let path, let reason):
                "Cannot use \(path) as the publishing spool: \(reason). Choose a writable folder with free space."
            case .spoolInUse(let path):
                "Another reel is publishing from the spool \(path) right now (the same stream id): wait for it to end, or pick another --stream-id."
            }
        }
    }

    /// The settings the publisher runs with.
    public let settings: Settings
    /// The targets, in the order given.
    public let targetNames: [String]

    private let input: AsyncStream<PublishLoop.Event>.Continuation
    private let board: PublishLoop.StatusBoard
    private let loop: Task<Report, Never>

    /// Starts a publisher for `targets`; nothing is uploaded before ``submitInit(_:)``.
    public init(settings: Settings, targets: [any PublishTarget]) throws {
        guard !targets.isEmpty else { throw Error.noTargets }
        do {
            try FileManager.default.createDirectory(at: settings.spoolDirectory, withIntermediateDirectories: true)
        } catch {
            throw Error.spoolUnavailable(path: settings.spoolDirectory.path, reason: ErrorSentence.reason(error))
        }
        let lock: SpoolLock
        do {
            guard let taken = try SpoolLock.take(settings.spoolDirectory) else { throw Error.spoolInUse(path: settings.spoolDirectory.path) }
            lock = taken
        } catch let error as Error {
            throw error
        } catch {
            throw Error.spoolUnavailable(path: settings.spoolDirectory.path, reason: ErrorSentence.reason(error))
        }
        self.settings = settings
        targetNames = targets.map(\.name)
        let (events, input) = AsyncStream.makeStream(of: PublishLoop.Event.self, bufferingPolicy: .unbounded)
        let board = PublishLoop.StatusBoard(targets: targets.map(\.name))
        self.input = input
        self.board = board
        loop = Task {
            var loop = PublishLoop(settings: settings, targets: targets, post: input, board: board)
            let report = await loop.run(events: events)
            withExtendedLifetime(lock) {}  // held until the spool is settled
            return report
        }
    }

    deinit {
        input.finish()
    }

    /// Hands over the init segment. Returns at once.
    public func submitInit(_ bytes: Data) {
        input.yield(.initBytes(bytes))
    }

    /// Hands over media segment `sequence` (1, 2, 3, … without gaps): its real duration, the
    /// wall-clock time of its first frame, and its bytes. Returns at once.
    public func submitSegment(sequence: Int, duration: MediaTime, programDateTime: Date, followsDiscontinuity: Bool = false,
                              bytes: Data) {
        input.yield(.segment(sequence: sequence, duration: duration, programDateTime: programDateTime,
                             followsDiscontinuity: followsDiscontinuity, bytes: bytes))
    }

    /// LL-HLS: hands over the next part of the segment in progress; the segment itself
    /// follows with ``submitSegment(sequence:duration:programDateTime:followsDiscontinuity:bytes:)``
    /// after its last part. Returns at once. Ignored unless ``Settings/lowLatency`` is set.
    public func submitPart(_ info: PublishQueue.PartInfo, bytes: Data) {
        guard settings.lowLatency != nil else { return }
        input.yield(.part(info, bytes: bytes))
    }

    /// Live counters per target, for a status line. Safe to read from any thread.
    public var status: [TargetStatus] { board.current }

    /// No more segments: waits until every target has everything and the ENDLIST playlist,
    /// or until ``Settings/drainTimeout``, then reports.
    public func finish() async -> Report {
        await finish(drainTimeout: settings.drainTimeout)
    }

    /// ``finish()`` with a drain timeout for this call. Cancelling the caller stops draining
    /// and reports at once.
    public func finish(drainTimeout: Duration) async -> Report {
        input.yield(.finish(drainTimeout: drainTimeout))
        let loop = self.loop
        return await withTaskCancellationHandler {
            await loop.value
        } onCancel: {
            loop.cancel()
        }
    }
}
