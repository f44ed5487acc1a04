import ReelRuntime
import Foundation
import ReelTestSupport
import ReelCore
import ReelLive
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Deterministic stand-ins for what the HLS writer produces, and a temporary folder per test.
enum PublishFixtures {
    static let firstFrame = Date(timeIntervalSince1970: 1_796_006_591.123)
    static let segmentDuration = MediaTime(value: 180_180, timescale: 90_000)  // 2.002 s

    /// Recognisable bytes for the init segment.
    static var initBytes: Data { Data("ftyp-moov synthetic init for tests".utf8) + Data(repeating: 0x49, count: 2000) }

    /// Bytes of segment `sequence`: a header naming it, then a pattern that differs per segment.
    static func segmentBytes(_ sequence: Int, size: Int = 48 * 1024) -> Data {
        var data = Data("synthetic segment \(sequence)\n".utf8)
        data.reserveCapacity(size)
        var state = UInt32(truncatingIfNeeded: sequence) &* 2_654_435_761
        while data.count < size {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            data.append(UInt8(truncatingIfNeeded: state))
        }
        return data
    }

    static func programDateTime(_ sequence: Int) -> Date {
        firstFrame.addingTimeInterval(Double(sequence - 1) * segmentDuration.seconds)
    }

    /// The playlist a target must end with after `count` segments.
    static func finalPlaylist(segments count: Int, targetDuration: Int = 2) -> HLSPlaylist {
        HLSPlaylist(
            targetDuration: targetDuration,
            segments: (1...count).map { .init(sequence: $0, duration: segmentDuration, programDateTime: programDateTime($0)) },
            isFinished: true
        )
    }

    static func submit(_ sequence: Int, to publisher: HLSPublisher) {
        publisher.submitSegment(sequence: sequence, duration: segmentDuration, programDateTime: programDateTime(sequence), bytes: segmentBytes(sequence))
    }

    /// A fresh folder under the system temp folder; remove it with `FileManager` when done.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The segment URIs a playlist lists, in order.
    static func listedSegments(in playlist: String) -> [String] {
        playlist.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }
}

/// A flag one task sets and another polls.
final class StopFlag: Sendable {
    private let state = Locked(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}

/// A loopback TCP port that accepts connections (the kernel completes the handshake) but never
/// reads or answers: an origin that hangs.
final class SilentListener: Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        let (fd, port) = try Loopback.boundSocket()
        guard listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw NginxOrigin.Failure.didNotStart("could not open a silent listener: errno \(code)")
        }
        self.fd = fd
        self.port = port
    }

    deinit { close(fd) }
}
