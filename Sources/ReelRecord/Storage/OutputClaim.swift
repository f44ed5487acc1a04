#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ReelCore
import ReelMedia
import ReelRuntime

/// The recording's claim on its output path (the rules are ``RecordingOutput``'s): a
/// placeholder created exclusively at start, so a second recording with the same `--output` is
/// refused at once instead of failing after an hour, and the identity checks that let the
/// finish and `reel recover` replace only their own placeholder and take only their own video.
enum OutputClaim {
    /// The name was taken (by a file, or by a thumbnail or face track of that name).
    struct Taken: Error, CustomStringConvertible {
        /// The path that exists.
        var path: String
        var description: String { "\(path) already exists; choose another --output (Reel never replaces a file)" }
    }

    /// Creates `path` as `id`'s placeholder, exclusively, synced with its folder (``DurableFile``). Throws
    /// ``Taken`` when the name or its thumbnail or face track exists.
    static func claim(_ path: String, id: UUID) throws {
        for taken in [RecordingFinisher.thumbnailPath(for: path), RecordingFinisher.faceTrackPath(for: path)]
        where FileManager.default.fileExists(atPath: taken) {
            throw Taken(path: taken)
        }
        // Never over an existing name (renameat2 NOREPLACE): the placeholder appears whole or not at all.
        do {
            try DurableFile.write(Data(RecordingOutput.placeholderText(id: id).utf8), to: path, ifExists: .fail)
        } catch where error.step == .place && error.code == EEXIST {
            throw Taken(path: path)
        } catch {
            throw FileError(error)
        }
    }

    /// Claims `path`, or when `numbered` and it is taken, the first free of `NAME-2.mp4`,
    /// `NAME-3.mp4` …; returns the path claimed.
    static func claimFirstFree(_ path: String, id: UUID, numbered: Bool) throws -> String {
        let last = numbered ? RecordingOutput.candidateLimit : 1
        for number in 1...last {
            let candidate = RecordingOutput.candidate(path, number: number)
            do {
                try claim(candidate, id: id)
                return candidate
            } catch is Taken where number < last {
                continue
            }
        }
        throw Taken(path: path)  // not reached: the last attempt throws
    }

    /// What `path` holds, for session `id`.
    static func occupant(of path: String, id: UUID) -> RecordingOutput.Occupant {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let sidecars = [RecordingFinisher.thumbnailPath(for: path), RecordingFinisher.faceTrackPath(for: path)]
            return sidecars.contains { FileManager.default.fileExists(atPath: $0) } ? .other : .nothing
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return .other }
        let placeholderSize = RecordingOutput.placeholderText(id: id).utf8.count
        if info.st_size == placeholderSize {
            return isPlaceholder(path, id: id) ? .ownPlaceholder : .other
        }
        guard let tags = try? MP4Remuxer.tags(of: path) else { return .other }
        return tags[RecordingOutput.stampTag] == RecordingOutput.videoStamp(id: id) ? .ownVideo : .other
    }

    /// Whether `path` is `id`'s placeholder (read, compared).
    static func isPlaceholder(_ path: String, id: UUID) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: 4096)) ?? Data()
        return RecordingOutput.isPlaceholder(bytes, of: id)
    }

    /// Removes `path` if it is `id`'s placeholder (a recording that ends with nothing to place,
    /// or a start that fails after the claim); anything else there stays.
    static func release(_ path: String, id: UUID) {
        guard isPlaceholder(path, id: id) else { return }
        unlink(path)
        try? FileIO.syncFolder(FileIO.folder(of: path))
    }

    /// Releases `id`'s placeholders at `path` and its numbered names, as far as names exist.
    static func releaseAll(_ path: String, id: UUID) {
        for number in 1...RecordingOutput.candidateLimit {
            let candidate = RecordingOutput.candidate(path, number: number)
            guard FileManager.default.fileExists(atPath: candidate) else { return }
            release(candidate, id: id)
        }
    }
}
