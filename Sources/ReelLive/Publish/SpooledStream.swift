import Foundation
import ReelCore
import ReelHLS

/// The spool of a stream that did not finish publishing: a `reel live` that was killed (power
/// cut, SIGKILL) or ended while a target was down. `reel publish ID` publishes it through an
/// ``HLSPublisher`` like a live run (init, segments, a playlist listing only uploaded contiguous
/// segments), then the playlist with ENDLIST; the spool is removed only when every target
/// acknowledged everything.
///
/// An ABR ladder's spool holds one such spool per rung (`{id}/{rung}/`) and the multivariant
/// playlist (`{id}/playlist.m3u8`): each rung is published like a stream of its own, then the
/// multivariant playlist. A ladder whose rungs were all published but whose last multivariant
/// playlist was not (the origin went away at the very end) leaves that file alone: it is a
/// spool too, with no rung.
public struct SpooledStream: Sendable, Hashable {
    /// The stream id (the spool folder's name, or its parent's for a rung).
    public let streamID: String
    /// The rung whose spool this is; nil for a stream's.
    public let rung: String?
    /// `…/reel/spool/{id}` (`…/{id}/{rung}` for a rung).
    public let directory: URL
    /// Sequence numbers of the segment files in `seg/`, ascending (a ladder's: its first rung's).
    public let segmentFiles: [Int]
    /// A ladder's rungs still to publish, by name (empty for one rendition, and for a ladder
    /// whose rungs were all published).
    public let rungs: [SpooledStream]
    /// Whether this is an ABR ladder's spool: rung folders, or a multivariant playlist.
    public let isLadder: Bool

    /// The spool in `directory`; nil when it holds no init segment and no segment file, no
    /// rung folder that does, and no multivariant playlist.
    public init?(directory: URL) {
        if let own = Self.files(in: directory) {
            segmentFiles = own
            rungs = []
            isLadder = false
        } else {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            rungs = names.sorted().filter(StreamLayout.isValidRungName).compactMap { name in
                let folder = directory.appendingPathComponent(name)
                return Self.files(in: folder).map { SpooledStream(rung: name, directory: folder, segmentFiles: $0) }
            }
            segmentFiles = rungs.max(by: { $0.segmentFiles.count < $1.segmentFiles.count })?.segmentFiles ?? []
            isLadder = !rungs.isEmpty || Self.holdsMultivariant(directory)
            guard isLadder else { return nil }
        }
        self.directory = directory
        streamID = directory.lastPathComponent
        rung = nil
    }

    private init(rung: String, directory: URL, segmentFiles: [Int]) {
        streamID = directory.deletingLastPathComponent().lastPathComponent
        self.rung = rung
        self.directory = directory
        self.segmentFiles = segmentFiles
        rungs = []
        isLadder = false
    }

    /// Whether `folder` holds a multivariant playlist that names variants (read by ReelHLS).
    private static func holdsMultivariant(_ folder: URL) -> Bool {
        guard let text = FileManager.default.contents(atPath: folder.appendingPathComponent(StreamLayout.playlistName).path) else { return false }
        return (try? MultivariantPlaylist(parsing: String(decoding: text, as: UTF8.self)))?.variants.isEmpty == false
    }

    /// The segment files of the spool in `folder`; nil when it has neither init nor segments.
    private static func files(in folder: URL) -> [Int]? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("seg").path)) ?? []
        let segments = names.compactMap { HLSPlaylist.segmentSequence(uri: "seg/" + $0) }.filter { $0 > 0 }.sorted()
        let hasInit = FileManager.default.fileExists(atPath: folder.appendingPathComponent(StreamLayout.initURI).path)
        return hasInit || !segments.isEmpty ? segments : nil
    }

    /// The file in a spool that records the live run's sliding window (segments listed), when
    /// it had one.
    public static let windowFileName = "window.txt"

    /// The sliding window the live run had (`--window`, in segments), as its spool records it;
    /// nil when it listed every segment.
    public var recordedWindow: Int? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(Self.windowFileName).path),
              let value = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), value >= 1 else {
            return nil
        }
        return value
    }

    /// The layout this spool publishes to: the stream's, or the rung's.
    public var layout: StreamLayout {
        get throws { try StreamLayout(streamID: streamID, rung: rung) }
    }

    /// The spools under `root` that wait: not held by a running reel, with something in them, by id.
    public static func waiting(in root: URL) -> [SpooledStream] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().compactMap { name in
            guard LiveSettings.isValidStreamID(name) else { return nil }
            let folder = root.appendingPathComponent(name)
            return SpooledStream(directory: folder).flatMap { $0.isInUse ? nil : $0 }
        }
    }

    /// Whether a running reel (a live stream, another `reel publish`) holds this spool, or one
    /// of its rungs', now.
    public var isInUse: Bool { SpoolLock.isHeld(directory) || rungs.contains(where: \.isInUse) }

    /// A ladder's multivariant playlist as spooled; nil for one rendition, or when the run ended
    /// before every rung had a segment (then there is none to publish).
    public var multivariantPlaylist: Data? {
        !isLadder ? nil : FileManager.default.contents(atPath: directory.appendingPathComponent(StreamLayout.playlistName).path)
    }

    /// After every rung was published: puts the multivariant playlist on every target, and
    /// removes it and the stream's spool folder when all took it and nothing else is left.
    /// Returns a line for each target that did not take it.
    public func publishMultivariant(to targets: [any PublishTarget]) async -> [String] {
        guard let text = multivariantPlaylist else { return [] }
        let path = try! StreamLayout(streamID: streamID).playlistPath
        var problems: [String] = []
        for target in targets {
            do {
                try await target.put(path: path, body: text, contentType: StreamLayout.contentType(forPath: path))
            } catch {
                problems.append("\(target.name): the multivariant playlist was not published: \(ErrorSentence.reason(error))")
            }
        }
        if problems.isEmpty {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(StreamLayout.playlistName))
            if (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty == true {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        return problems
    }

    /// What to publish, from the spool's playlist and files.
    public func recovery(fallbackTargetDuration: Int = 2) -> SpoolRecovery {
        let playlist = try? String(contentsOf: directory.appendingPathComponent(StreamLayout.playlistName), encoding: .utf8)
        let first = directory.appendingPathComponent(StreamLayout.segmentURI(sequence: segmentFiles.first ?? 1))
        let date = (try? FileManager.default.attributesOfItem(atPath: first.path)[.modificationDate] as? Date) ?? Date()
        return SpoolRecovery(playlistText: playlist, segmentFiles: segmentFiles, fallbackTargetDuration: fallbackTargetDuration,
                             firstSegmentDate: date)
    }

    /// Publishes the spool to `targets` and reports; the publisher removes the spool when every
    /// target got everything. `drainTimeout` defaults to 60 s plus 5 s per segment; `window`
    /// lists only that many of the newest segments (the live run's `--window`).
    public func publish(to targets: [any PublishTarget], plan: SpoolRecovery, window: Int? = nil,
                        drainTimeout: Duration? = nil) async throws -> HLSPublisher.Report {
        guard let initBytes = FileManager.default.contents(atPath: directory.appendingPathComponent(StreamLayout.initURI).path) else {
            throw Error.noInitSegment(directory.path)
        }
        precondition(!isLadder, "a ladder's spool is published rung by rung")
        let settings = HLSPublisher.Settings(layout: try layout, targetDuration: plan.targetDuration,
                                             spoolDirectory: directory,
                                             drainTimeout: drainTimeout ?? .seconds(60 + 5 * plan.segments.count), window: window)
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
