import CFFmpeg
import Foundation
import ReelCore
import Synchronization

/// A source whose pictures have the overlay camera's frame shape, portrait unless told
/// (docs/behaviour.md §4: "pixels are always portrait"): each picture of the other shape is
/// turned a quarter (``ReelCore/OverlayFrameShape``, ``ReelCore/CaptureRotation``) on the
/// source's own thread, before any consumer of the fan-out sees it. The rule is applied to
/// every picture, so a source that changes size mid-stream is turned from its first changed
/// picture on. Sound passes untouched.
public final class PortraitSource: CaptureSource, @unchecked Sendable {
    /// The source turned.
    public let inner: any CaptureSource
    /// The shape its pictures are given.
    public let shape: OverlayFrameShape
    private let converter = Mutex<PictureConverter?>(nil)

    /// `inner`, delivering pictures of `shape` (portrait unless told).
    public init(_ inner: any CaptureSource, shape: OverlayFrameShape = .portrait) {
        self.inner = inner
        self.shape = shape
    }

    /// The inner source's format, in the shape.
    public var format: CaptureFormat {
        var format = inner.format
        let turned = shape.outputSize(for: VideoDimensions(width: format.width, height: format.height))
        format.width = turned.width
        format.height = turned.height
        return format
    }

    public var name: String { inner.name }

    public func run(_ deliver: (CaptureSample) throws -> Void) throws {
        try inner.run { sample in
            guard case let .video(frame) = sample else { return try deliver(sample) }
            let rotation = shape.rotation(for: VideoDimensions(width: frame.width, height: frame.height))
            try deliver(rotation == .none ? sample : .video(try turned(frame, rotation)))
        }
    }

    public func stop() { inner.stop() }

    /// `frame` turned a quarter clockwise (or anticlockwise), as a new yuv420p picture (other
    /// formats are made yuv420p at their own size first).
    func turned(_ frame: VideoFrame, _ rotation: CaptureRotation = .clockwise) throws -> VideoFrame {
        let source: VideoFrame
        if frame.avFrame.pointee.format == AV_PIX_FMT_YUV420P.rawValue {
            source = frame
        } else {
            source = try converter.withLock { converter in
                if converter == nil || converter!.width != frame.width || converter!.height != frame.height {
                    converter = PictureConverter(width: frame.width, height: frame.height)
                }
                return try converter!.convert(frame)
            }
        }
        let width = source.width, height = source.height
        let out = try VideoFrame.allocate(width: height, height: width, format: AV_PIX_FMT_YUV420P)
        let s = source.avFrame.pointee, d = out.pointee
        let clockwise = rotation != .anticlockwise
        Self.turn(s.data.0!, Int(s.linesize.0), width, height, into: d.data.0!, Int(d.linesize.0), clockwise: clockwise)
        Self.turn(s.data.1!, Int(s.linesize.1), (width + 1) / 2, (height + 1) / 2, into: d.data.1!, Int(d.linesize.1), clockwise: clockwise)
        Self.turn(s.data.2!, Int(s.linesize.2), (width + 1) / 2, (height + 1) / 2, into: d.data.2!, Int(d.linesize.2), clockwise: clockwise)
        out.pointee.color_range = s.color_range
        out.pointee.colorspace = s.colorspace
        return VideoFrame(taking: out, captureTime: frame.captureTime)
    }

    /// One plane of `width` × `height` turned a quarter clockwise: source (x, y) goes to
    /// (height − 1 − y, x); anticlockwise, to (y, width − 1 − x).
    static func turn(_ src: UnsafeMutablePointer<UInt8>, _ srcStride: Int, _ width: Int, _ height: Int,
                     into dst: UnsafeMutablePointer<UInt8>, _ dstStride: Int, clockwise: Bool = true) {
        for y in 0..<height {
            let row = src + y * srcStride
            if clockwise {
                let column = height - 1 - y
                for x in 0..<width { dst[x * dstStride + column] = row[x] }
            } else {
                for x in 0..<width { dst[(width - 1 - x) * dstStride + y] = row[x] }
            }
        }
    }
}

/// A source that can be switched to another while it runs (the overlay camera's lens switch):
/// one stream for the consumers, every source inside a ``PortraitSource`` of one shape, so the turn is in
/// place before the new source's first picture (docs/behaviour.md §4: "switching lenses must
/// re-apply the 90° before the new input delivers frames").
public final class SourceSwitcher: CaptureSource, @unchecked Sendable {
    private struct State {
        var current: PortraitSource
        var next: PortraitSource?
        var stopped = false
    }

    private let open: @Sendable (SourceSpec) throws -> any CaptureSource
    private let state: Mutex<State>
    /// The shape every source's pictures are given.
    public let shape: OverlayFrameShape

    /// Starts with `initial`, opened (and so checked) now; `open` opens each source, whose
    /// pictures are given `shape` (portrait unless told).
    public init(initial: SourceSpec, shape: OverlayFrameShape = .portrait,
                open: @escaping @Sendable (SourceSpec) throws -> any CaptureSource = { try CaptureSources.open($0) }) throws {
        self.open = open
        self.shape = shape
        state = Mutex(State(current: PortraitSource(try open(initial), shape: shape)))
    }

    /// The current source's format (in the shape).
    public var format: CaptureFormat { state.withLock { $0.current.format } }

    public var name: String { state.withLock { $0.current.name } }

    /// Switches to `spec`: it is opened here (an error leaves the current source running), then
    /// the current one is asked to stop and ``run(_:)`` goes on with the new one.
    public func switchTo(_ spec: SourceSpec) throws {
        let next = PortraitSource(try open(spec), shape: shape)
        let previous = state.withLock { state -> PortraitSource? in
            guard !state.stopped else { return nil }
            state.next = next
            return state.current
        }
        previous?.stop()
    }

    public func run(_ deliver: (CaptureSample) throws -> Void) throws {
        while true {
            let source = state.withLock { state -> PortraitSource? in
                if state.stopped { return nil }
                if let next = state.next {
                    state.current = next
                    state.next = nil
                }
                return state.current
            }
            guard let source else { return }
            try source.run(deliver)
            // A source ends because it was switched away from (a next one waits), stopped, or
            // ran out by itself (then the switcher ends too).
            let switched = state.withLock { !$0.stopped && $0.next != nil }
            if !switched { return }
        }
    }

    public func stop() {
        let current = state.withLock { state -> PortraitSource in
            state.stopped = true
            return state.current
        }
        current.stop()
    }
}
