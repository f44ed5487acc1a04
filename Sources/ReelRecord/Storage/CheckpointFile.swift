import Foundation
import ReelCore

/// A recording's checkpoint on disk: `checkpoint.json` beside the video in progress, replaced
/// atomically (``DurableFile``: temporary file, fsync, rename, folder fsync), so a reader after any crash finds
/// a whole checkpoint: the previous one or the new one.
public enum CheckpointFile {
    /// The name inside a recording's work folder.
    public static let name = "checkpoint.json"

    /// A checkpoint that cannot be read, naming the file.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// The file.
        public var path: String
        /// What is wrong.
        public var reason: String
        public var description: String { "checkpoint \(path): \(reason)" }
    }

    /// Writes `checkpoint` to `path` atomically.
    public static func write(_ checkpoint: RecordingCheckpoint, to path: String) throws {
        try FileIO.writeAtomically(checkpoint.jsonData(), to: path)
    }

    /// Reads the checkpoint at `path`; a missing, unreadable, damaged or newer one is an
    /// ``Error`` that says which and what to do.
    public static func read(at path: String) throws(Error) -> RecordingCheckpoint {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let code = (error as NSError).code
            throw Error(path: path, reason: code == NSFileReadNoSuchFileError ? "there is no such file" : "cannot be read (\(error.localizedDescription))")
        }
        do {
            return try RecordingCheckpoint.decode(json: data)
        } catch {
            throw Error(path: path, reason: error.description)
        }
    }
}
