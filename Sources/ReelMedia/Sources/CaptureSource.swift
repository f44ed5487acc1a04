import ReelCore

/// What a source will deliver, known once it is open.
public struct CaptureFormat: Sendable, Equatable {
    /// Picture size and nominal frame rate.
    public var width: Int, height: Int, framesPerSecond: Double
    /// Audio sample rate and channel count, or nil when the source has no audio.
    public var audio: (sampleRate: Int, channels: Int)? {
        get { audioRate.map { ($0, audioChannels) } }
        set { audioRate = newValue?.sampleRate; audioChannels = newValue?.channels ?? 0 }
    }
    private var audioRate: Int?
    private var audioChannels = 0

    /// A format with optional audio.
    public init(width: Int, height: Int, framesPerSecond: Double, audio: (sampleRate: Int, channels: Int)?) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.audio = audio
    }

    /// The nominal duration of one frame.
    public var frameDuration: MediaTime {
        MediaTime(seconds: 1 / max(framesPerSecond, 1), timescale: 90_000)
    }
}

/// A capture source: a camera, a file played as a camera, or the synthetic pattern.
///
/// A source is opened (and so validated) before the run starts; ``run(_:)`` then blocks the
/// calling thread, handing samples to `deliver` in capture order until the source ends,
/// ``stop()`` is called, or it fails (thrown as ``CaptureError``).
public protocol CaptureSource: AnyObject, Sendable {
    /// What the source delivers.
    var format: CaptureFormat { get }
    /// A human description, e.g. "test pattern 1280x720@30".
    var name: String { get }
    /// Delivers samples until the end, a stop, or a failure.
    func run(_ deliver: (CaptureSample) throws -> Void) throws
    /// Asks a running source to end after the current sample; safe from any thread.
    func stop()
}

/// Why a source could not start or could not go on.
public struct CaptureError: Error, CustomStringConvertible, Sendable {
    /// The source, as the user named it.
    public var source: String
    /// What happened and what to do.
    public var reason: String
    public var description: String { "source \(source): \(reason)" }
}

/// Opens the source a ``SourceSpec`` names.
public enum CaptureSources {
    /// Opens `spec`; `realTime` paces files like a camera (false: as fast as consumers take it).
    public static func open(_ spec: SourceSpec, realTime: Bool = true) throws -> any CaptureSource {
        switch spec {
        case let .test(width, height, fps):
            return TestPatternSource(width: width, height: height, framesPerSecond: fps, realTime: realTime)
        case let .file(path):
            return try FileSource(path: path, realTime: realTime)
        case let .camera(device, audio):
            return try CameraSource(device: device, audio: audio)
        }
    }
}
