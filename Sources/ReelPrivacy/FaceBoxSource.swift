import Foundation
import ReelCore
import ReelMedia
import ReelVision

/// Gives each exported picture the face boxes it must cover, in picture order. A stored track
/// answers at once; detection while exporting holds pictures back until the next detection,
/// so pictures between two detections get boxes interpolated between them (the interpolation
/// within a segment of docs/behaviour.md §1, Face tracker) instead of the last box only.
public protocol FaceBoxSource: AnyObject {
    /// Takes the next picture; calls `emit` for every picture whose boxes are now known, in
    /// order (none, this one, or several held back before it).
    func push(_ picture: VideoFrame, emit: (VideoFrame, [FaceBox]) throws -> Void) throws
    /// Emits every picture still held back (the end of the video).
    func finish(emit: (VideoFrame, [FaceBox]) throws -> Void) throws
}

/// A session's stored track (single subject, as recorded): boxes interpolated per segment.
public final class StoredTrackBoxes: FaceBoxSource {
    private let timeline: FaceTrackTimeline

    public init(track: FaceTrack) {
        timeline = FaceTrackTimeline(track)
    }

    public func push(_ picture: VideoFrame, emit: (VideoFrame, [FaceBox]) throws -> Void) throws {
        try emit(picture, timeline.boxes(at: picture.captureTime))
    }

    public func finish(emit: (VideoFrame, [FaceBox]) throws -> Void) throws {}
}

/// Nothing to cover (`--privacy none`).
public final class NoBoxes: FaceBoxSource {
    /// Nothing to cover.
    public init() {}

    public func push(_ picture: VideoFrame, emit: (VideoFrame, [FaceBox]) throws -> Void) throws { try emit(picture, []) }
    public func finish(emit: (VideoFrame, [FaceBox]) throws -> Void) throws {}
}
