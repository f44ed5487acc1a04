import Foundation
import ReelCore
@testable import ReelLive
import ReelMedia
import ReelPrivacy
import ReelRuntime
import ReelVision
import Testing

/// The privacy gate with a detector that fails: from then on only covered pictures leave.
@Suite("Live privacy gate: a failing detector")
struct LivePrivacyGateTests {
    /// Fails at its first detection (a model that cannot run, the network's failure).
    final class FailingDetector: FaceDetector, @unchecked Sendable {
        let name = "failing"
        private let calls = Locked(0)
        func detect(_ picture: DetectorPicture) throws -> [Detection] {
            let call = calls.withLock { $0 += 1; return $0 }
            throw CenterFaceDetector.Error.detectionFailed("the test's detector fails (call \(call))")
        }
    }

    @Test("no detection ever made: every picture leaves covered whole, none is lost, and the failure is said once")
    func failing() throws {
        let failures = Locked<[String]>([])
        let gate = LivePrivacyGate(detector: FailingDetector(), covers: try FaceCovers(), width: 320, height: 180, framesPerSecond: 30) { reason in
            failures.withLock { $0.append(reason) }
        }
        let source = TestPatternSource(width: 320, height: 180, framesPerSecond: 30, realTime: false)
        var first: MediaTime?
        var left: [(seconds: Double, grey: Bool)] = []
        func collect(_ sample: CaptureSample) throws {
            guard case .video(let picture) = sample else { return }
            let grey = try picture.withYUVPicture { yuv in
                (0..<yuv.height).allSatisfy { y in (0..<yuv.width).allSatisfy { x in yuv.y[y * yuv.yStride + x] == 128 } }
            }
            left.append(((picture.captureTime - first!).seconds, grey))
        }
        try source.run { sample in
            if first == nil { first = sample.captureTime }
            if (sample.captureTime - first!).seconds >= 3 { source.stop(); return }
            try gate.handle(sample, emit: collect)
        }
        try gate.finish(emit: collect)
        #expect(left.count == 90, "every picture leaves")
        #expect(left.allSatisfy { $0.grey }, "pictures not covered whole at \(left.filter { !$0.grey }.map(\.seconds))")
        #expect(gate.failure?.contains("the test's detector fails") == true)
        #expect(failures.withLock { $0.count } == 1)
        #expect(gate.counts.failed && gate.counts.whole == 90)
    }
}
