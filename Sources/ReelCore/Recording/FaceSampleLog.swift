import Foundation

/// The face samples of a recording in progress as an append-only log (`faces.log` in the work
/// folder): the recorder appends the samples of each fragment and syncs the
/// log when it cuts the fragment, so the face track reaches the disk as often as the video
/// (a crash loses at most the last 2 s of both), where the checkpoint's copy is up to 30 s old.
///
/// Text, one line each: a header `reel-face-log 1`, then one sample per line as eight whole
/// numbers, `time segment kind x y width height subject`, in ``FaceTrack``'s units (time in
/// 1/600 s of video time, the box in 1/10000 of the picture). A crash can leave the last line
/// cut short: ``decode(_:)`` drops it (and anything after a damaged line) and says how much.
public enum FaceSampleLog {
    /// The format this Reel writes.
    public static let currentVersion = 1
    /// The first line.
    public static var header: Data { Data("reel-face-log \(currentVersion)\n".utf8) }

    /// A log that cannot be used at all.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// What is wrong.
        public var description: String
    }

    /// What a log holds.
    public struct Contents: Sendable, Equatable {
        /// The whole samples, in order.
        public var samples: [FaceTrackSample]
        /// Bytes at the end that were not a whole sample (a line cut by a crash, or damage).
        public var ignoredBytes: Int
    }

    /// The line for `sample` (quantized as ``FaceTrack`` stores it).
    public static func line(_ sample: FaceTrackSample) -> Data {
        let s = FaceTrack.quantized(sample)
        let scale = Double(FaceTrack.boxScale)
        let numbers: [Int64] = [s.time.converted(to: FaceTrack.timescale).value, Int64(s.segment), Int64(s.kind.rawValue),
                                Int64((s.box.x * scale).rounded()), Int64((s.box.y * scale).rounded()),
                                Int64((s.box.width * scale).rounded()), Int64((s.box.height * scale).rounded()), Int64(s.subject)]
        return Data((numbers.map(String.init).joined(separator: " ") + "\n").utf8)
    }

    /// Reads a log. An empty file is an empty log (created, nothing synced yet); a file that is
    /// not a face log, or one a newer Reel wrote, is an ``Error``.
    public static func decode(_ data: Data) throws(Error) -> Contents {
        guard !data.isEmpty else { return Contents(samples: [], ignoredBytes: 0) }
        let bytes = [UInt8](data)
        guard let headerEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            guard Data("reel-face-log ".utf8).starts(with: bytes) || bytes.starts(with: Data("reel-face-log ".utf8)) else {
                throw Error(description: "not a Reel face log")
            }
            return Contents(samples: [], ignoredBytes: bytes.count)  // the header itself was cut
        }
        let header = String(decoding: bytes[..<headerEnd], as: UTF8.self).split(separator: " ")
        guard header.count == 2, header[0] == "reel-face-log", let version = Int(header[1]) else {
            throw Error(description: "not a Reel face log")
        }
        guard version <= currentVersion else {
            throw Error(description: "face log version \(version) was written by a newer Reel (this one reads \(currentVersion)); update Reel")
        }
        var samples: [FaceTrackSample] = []
        var start = headerEnd + 1
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")),
                  let sample = sample(String(decoding: bytes[start..<end], as: UTF8.self)) else { break }
            samples.append(sample)
            start = end + 1
        }
        return Contents(samples: samples, ignoredBytes: bytes.count - start)
    }

    /// One line's sample, or nil when it is not eight valid numbers.
    private static func sample(_ line: String) -> FaceTrackSample? {
        let numbers = line.split(separator: " ").compactMap { Int64($0) }
        guard numbers.count == 8, numbers.count == line.split(separator: " ").count,
              let kind = FaceTrackSample.Kind(rawValue: Int(numbers[2])),
              numbers[1] >= 0, numbers[5] >= 0, numbers[6] >= 0, numbers[7] >= 0 else { return nil }
        let scale = Double(FaceTrack.boxScale)
        return FaceTrackSample(time: MediaTime(value: numbers[0], timescale: FaceTrack.timescale), segment: Int(numbers[1]), kind: kind,
                               box: NormalizedRect(x: Double(numbers[3]) / scale, y: Double(numbers[4]) / scale,
                                                   width: Double(numbers[5]) / scale, height: Double(numbers[6]) / scale),
                               subject: Int(numbers[7]))
    }
}
