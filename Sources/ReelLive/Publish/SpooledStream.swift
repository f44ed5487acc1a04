import Foundation
import ReelCore

/// The spool of a stream that did not finish publishing: a `reel live` that was killed (power
/// cut, SIGKILL) or ended while a target was down. `reel publish ID` publishes it through an
/// ``HLSPublisher`` like a live run (init, segments, a playlist listing only uploaded contiguous
/// segments), then the playlist with ENDLIST; the spool is removed only when every target
/// acknowledged everything.
public struct SpooledStream: Sendable, Hashable {
    /// The stream id (the spool folder's name).
    public let streamID: String
    /// `…/reel/spool/{id}`.
    public let directory: URL
    /// Sequence numbers of the segment files in `seg/`, ascending.
    public let segmentFiles: [Int]

    /// The spool in `directory`; nil when it holds no init segment and no segment file.
    public init?(directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("seg").path)) ?? []
        segmentFiles = names.compactMap { HLSPlaylist.segmentSequence(uri: "seg/" + $0) }.filter { $0 > 0 }.sorted()
        let hasInit = FileManager.default.fileExists(atPath: directory.appendingPathComponent(StreamLayout.initURI).path)
        guard hasInit || !segmentFiles.isEmpty else { return nil }
        self.directory = directory
        streamID = directory.lastPathComponent
    }

    /// The spools under `root` that wait: not held by a running reel, with something in them, by id.
    public static func waiting(in root: URL) -> [SpooledStream] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().compactMap { name in
            guard LiveSettings.isValidStreamID(name) else { return nil }
            let folder = root.appendingPathComponent(name)
            return SpoolLock.isHeld(folder) ? nil : SpooledStream(directory: folder)
        }
    }

    /// Whether a running reel (a live stream, another `reel publish`) holds this spool now.
    public var isInUse: Bool { SpoolLock.isHeld(directory) }

    /// What to publish, from the spool's playlist and files.
    public func recovery(fallbackTargetDuration: Int = 2) -> SpoolRecovery {
        let playlist = try? String(contentsOf: directory.appendingPathComponent(StreamLayout.playlistName), encoding: .utf8)
        let first = directory.appendingPathComponent(StreamLayout.segmentURI(sequence: segmentFiles.first ?? 1))
        let date = (try? FileManager.default.attributesOfItem(atPath: first.path)[.modificationDate] as? Date) ?? Date()
        return SpoolRecovery(playlistText: playlist, segmentFiles: segmentFiles, fallbackTargetDuration: fallbackTargetDuration,
                             firstSegmentDate: date)
    }

    /// Publishes the spool to `targets` and reports; the publisher removes the spool when every
    /// target got everything. `drainTimeout` defaults to 60 s plus 5 s per segment.
    public func publish(to targets: [any PublishTarget], plan: SpoolRecovery, drainTimeout: Duration? = nil) async throws -> HLSPublisher.Report {
        guard let initBytes = FileManager.default.contents(atPath: directory.appendingPathComponent(StreamLayout.initURI).path) else {
            throw Error.noInitSegment(directory.path)
        }
        let settings = HLSPublisher.Settings(layout: try StreamLayout(streamID: streamID), targetDuration: plan.targetDuration,
                                             spoolDirectory: directory,
                                             drainTimeout: drainTimeout ?? .seconds(60 + 5 * plan.segments.count))
        let publisher = try HLSPublisher(settings: settings, targets: targets)
        publisher.submitInit(initBytes)
        for segment in plan.segments {
            let bytes = try Data(contentsOf: directory.appendingPathComponent(segment.uri))
            publisher.submitSegment(sequence: segment.sequence, duration: segment.duration, programDateTime: segment.programDateTime,
                                    followsDiscontinuity: segment.followsDiscontinuity, bytes: bytes)
            // At most a few segments in memory at once: wait until the publisher has taken them in.
            while (publisher.status.map(\.stats.received).min() ?? 0) < segment.sequence - 4 {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        return await publisher.finish()
    }

    /// Why a spool cannot be published.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The spool has segments but no init segment: players cannot decode them.
        case noInitSegment(String)

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .noInitSegment(let path):
                "The spool \(path) has no init.mp4, so its segments cannot be played; nothing was published and the spool is kept."
            }
        }
    }
}
