import Foundation
import ReelCore

/// Writes an editable recording's sidecar (``CinematicSidecar``) as the pictures are written:
/// created new (never over another file), a record appended per picture, flushed to the disk
/// every second of pictures and at the end, so a crash keeps what the video keeps.
public final class CinematicSidecarWriter {
    /// Where the sidecar is: the video's path plus ".cinematic".
    public static func path(forVideo video: String) -> String { video + ".cinematic" }

    /// The file.
    public let path: String
    private let handle: FileHandle
    private var sinceSync = 0

    /// Creates `path` with `header` (an error if it exists).
    public init(path: String, header: CinematicSidecar.Header) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: path])
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(CinematicSidecar.encode(header)), attributes: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        self.path = path
        self.handle = handle
        try handle.seekToEnd()
    }

    /// Appends the record of a picture shown at `time` in the video.
    public func append(_ frame: CinematicFrame, at time: MediaTime) throws {
        let record = CinematicSidecar.Record(
            ticks: time.converted(to: 90_000).value, subjects: frame.subjects.map(CinematicSidecar.Subject.init),
            mode: frame.decision.mode, target: CinematicSidecar.text(of: frame.decision.target), wanted: frame.decision.dioptres,
            focal: frame.focalDioptres, fNumber: frame.aperture.fNumber, lowLight: frame.lowLight)
        try handle.write(contentsOf: Data(CinematicSidecar.encode(record, layers: frame.layers)))
        sinceSync += 1
        if sinceSync >= 30 {
            try handle.synchronize()
            sinceSync = 0
        }
    }

    /// Flushes and closes the file.
    public func close() throws {
        try handle.synchronize()
        try handle.close()
    }
}

/// An editable recording's sidecar, read whole: the records decoded, each layer map kept
/// run-length encoded (a few kilobytes a picture) and decoded when it is asked for.
public struct CinematicSidecarFile: Sendable {
    /// The header.
    public let header: CinematicSidecar.Header
    /// A record and its layer map, encoded, per picture, in order.
    public let records: [(record: CinematicSidecar.Record, cells: ArraySlice<UInt8>)]

    /// Reads the sidecar of `video` (`video.cinematic`), with a clear error when it is missing
    /// or is not one.
    public init(video: String) throws {
        let path = CinematicSidecarWriter.path(forVideo: video)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RefocusError("\(path) is missing: only a recording made with `reel cinematic --editable` can be refocused")
        }
        let decoded = try CinematicSidecar.decodeKeepingCells([UInt8](data))
        header = decoded.header
        records = decoded.records.map { (record: $0.0, cells: $0.1) }
    }

    /// The layer map of picture `index`.
    public func layers(at index: Int) throws -> LayerMap {
        guard let map = LayerMap(runLengthEncoded: records[index].cells, width: header.cellsWidth, height: header.cellsHeight) else {
            throw RefocusError("the sidecar's layer map \(index + 1) is damaged")
        }
        return map
    }
}

/// Why a refocus cannot be done, in words for the user.
public struct RefocusError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// A refocus stopped before its end (nothing written).
    public static let stopped = RefocusError("the refocus was stopped; no file was written")
}
