import Foundation
import ReelCore

/// Measures the uplink before a stream starts by uploading a few hundred KiB of random bytes to
/// the stream's segment 0 (`seg/000000.m4s`), then deletes that file again (an origin, a bucket
/// or a CDN must hold the stream's files and nothing else). Media sequences start at 1, so no
/// playlist ever lists that file: even while it exists, or where the origin refuses the DELETE
/// (then ``Measurement/leftBehind`` says so, for a warning), no player asks for it, and an
/// origin that lists streams by their playlist or init segment (Reel's) does not show a stream
/// that never started.
///
/// It doubles as a check of the origin: a refused connection, a wrong token or a server that
/// does not accept PUT fails here, before anything is captured, with a message that says what
/// to fix.
public struct UplinkProbe: Sendable {
    /// Bytes to upload; 384 KiB unless told.
    public var byteCount: Int

    /// A probe uploading `byteCount` random bytes.
    public init(byteCount: Int = 384 * 1024) {
        precondition(byteCount > 0, "the probe must upload something")
        self.byteCount = byteCount
    }

    /// What the probe measured.
    public struct Measurement: Sendable, Hashable, CustomStringConvertible {
        /// Bytes uploaded.
        public var bytes: Int
        /// Time from the start of the PUT to its answer.
        public var elapsed: Duration
        /// `bytes × 8 / elapsed`: a lower bound of the uplink, since it includes the request's
        /// round trip.
        public var bitsPerSecond: Double
        /// Why the probe's upload is still on the target (its DELETE failed), nil once removed.
        public var leftBehind: String?

        /// E.g. `384 KiB in 0.120 s: 26.214 Mbit/s`.
        public var description: String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return "\(bytes / 1024) KiB in \(seconds.formatted3) s: \((bitsPerSecond / 1_000_000).formatted3) Mbit/s"
        }
    }

    /// Why the probe failed.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The test upload failed; `reason` is the target's explanation.
        case uploadFailed(target: String, path: String, reason: String, isRetryable: Bool)

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .uploadFailed(let target, let path, let reason, _):
                "The uplink test could not upload to \(target) (\(path)), so the stream was not started. \(reason)"
            }
        }
    }

    /// The path the probe writes: segment 0 of the stream, which no playlist lists.
    public static func path(in layout: StreamLayout) -> String { layout.segmentPath(sequence: 0) }

    /// PUTs the random bytes to ``path(in:)`` on `target`, deletes them again and returns the
    /// measured rate (the DELETE is not timed).
    public func measure(target: any PublishTarget, layout: StreamLayout) async throws -> Measurement {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: byteCount)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                var word = generator.next() as UInt64
                let count = min(8, buffer.count - offset)
                withUnsafeBytes(of: &word) { buffer.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: count) }
                offset += count
            }
        }
        let body = Data(bytes)
        let clock = ContinuousClock()
        let started = clock.now
        do {
            try await target.put(path: Self.path(in: layout), body: body, contentType: StreamLayout.contentType(forPath: Self.path(in: layout)))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let retryable = (error as? any PublishTargetError)?.isRetryable ?? true
            throw Error.uploadFailed(target: target.name, path: Self.path(in: layout), reason: ErrorSentence.reason(error), isRetryable: retryable)
        }
        let elapsed = clock.now - started
        let seconds = max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 1e-6)
        var leftBehind: String?
        do {
            try await target.delete(path: Self.path(in: layout))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            leftBehind = ErrorSentence.reason(error)
        }
        return Measurement(bytes: body.count, elapsed: elapsed, bitsPerSecond: Double(body.count) * 8 / seconds, leftBehind: leftBehind)
    }
}
