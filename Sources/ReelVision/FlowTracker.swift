import CVision
import Foundation
import ReelCore

/// The cinematic camera's tracking between detections (C++ in CVision, `flow.cpp`): each box
/// moved by the median optical flow (pyramidal Lucas-Kanade) of the corners inside it, from the
/// previous picture given to the tracker to this one, at most 320 pixels wide. A box whose
/// points cannot be followed stays where it was, as does every box on the first picture.
///
/// One picture at a time, from one thread.
public final class FlowTracker: @unchecked Sendable {
    private let handle: OpaquePointer

    /// A tracker.
    public init() throws(BokehError) {
        var opened: OpaquePointer?
        do {
            try cvisionCall { cvision_flow_open(&opened, $0, $1) }
        } catch {
            throw .failed("\(error)")
        }
        guard let opened else { throw .failed("no tracker") }
        handle = opened
    }

    deinit { cvision_flow_free(handle) }

    /// `boxes` moved from the previous picture to `picture`.
    public func track(_ picture: DetectorPicture, boxes: [NormalizedRect]) throws(BokehError) -> [NormalizedRect] {
        if let problem = picture.problem() { throw .invalidInput(problem) }
        var values = boxes.flatMap { [Float($0.x), Float($0.y), Float($0.width), Float($0.height)] }
        do {
            try cvisionCall { message, size in
                withCPicture(picture) { c in
                    values.withUnsafeMutableBufferPointer { cvision_flow_track(handle, c, $0.baseAddress, Int32(boxes.count), message, size) }
                }
            }
        } catch {
            throw .failed("tracking between detections: \(error)")
        }
        return boxes.indices.map { i in
            NormalizedRect(x: Double(values[i * 4]), y: Double(values[i * 4 + 1]), width: boxes[i].width, height: boxes[i].height)
        }
    }
}
