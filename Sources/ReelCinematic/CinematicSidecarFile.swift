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

    /// Ends the file with the identity of its video (``CinematicSidecar/VideoIdentity``, when the
    /// video is complete), flushes and closes it.
    public func close(video identity: CinematicSidecar.VideoIdentity? = nil) throws {
        if let identity { try handle.write(contentsOf: Data(CinematicSidecar.encode(identity))) }
        try handle.synchronize()
        try handle.close()
    }

    /// The identity of the video at `path`: its size and the sample of its ends, with the
    /// pictures and the last picture's time the writer counted.
    public static func identity(ofVideo path: String, pictures: Int, ticks: Int64) throws -> CinematicSidecar.VideoIdentity {
        let sampled = try VideoSample(path: path)
        return CinematicSidecar.VideoIdentity(pictures: pictures, ticks: ticks, bytes: sampled.bytes, sample: sampled.sample)
    }
}

/// A video file's size and the hash of its ends (``CinematicSidecar/sample(head:tail:)``): cheap
/// to take from any size of file.
public struct VideoSample: Equatable {
    /// The file's size.
    public let bytes: Int64
    /// The hash of its first and last ``CinematicSidecar/VideoIdentity/sampledBytes``.
    public let sample: String

    /// Reads the ends of `path`.
    public init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RefocusError("\(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        let length = UInt64(CinematicSidecar.VideoIdentity.sampledBytes)
        try handle.seek(toOffset: 0)
        let head = [UInt8](try handle.read(upToCount: Int(min(size, length))) ?? Data())
        try handle.seek(toOffset: size > length ? size - length : 0)
        let tail = [UInt8](try handle.read(upToCount: Int(min(size, length))) ?? Data())
        bytes = Int64(size)
        sample = CinematicSidecar.sample(head: head, tail: tail)
    }
}

/// An editable recording's sidecar, read whole: the records decoded, each layer map kept
/// run-length encoded (a few kilobytes a picture) and decoded when it is asked for.
public struct CinematicSidecarFile: Sendable {
    /// The header.
    public let header: CinematicSidecar.Header
    /// A record and its layer map, encoded, per picture, in order.
    public let records: [(record: CinematicSidecar.Record, cells: ArraySlice<UInt8>)]
    /// The video it was written with (nil: it names none, being cut short or older).
    public let identity: CinematicSidecar.VideoIdentity?
    /// Where it is.
    public let path: String

    /// Reads the sidecar of `video` (`video.cinematic`), with a clear error when it is missing
    /// or is not one.
    public init(video: String) throws {
        path = CinematicSidecarWriter.path(forVideo: video)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RefocusError("\(path) is missing: only a recording made with `reel cinematic --editable` can be refocused")
        }
        let decoded = try CinematicSidecar.decodeKeepingCells([UInt8](data))
        header = decoded.header
        records = decoded.records.map { (record: $0.0, cells: $0.1) }
        identity = decoded.identity
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
