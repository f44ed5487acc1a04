/// Which capture source to open, parsed from the `--source` and `--audio` arguments.
///
/// - `test[:WxH[@FPS]]`: the synthetic pattern and a 440 Hz tone (default 1280x720@30).
/// - `file:PATH`: anything FFmpeg reads, delivered at real-time pace (or as fast as the
///   consumers take it with `--fast`).
/// - `v4l2:/dev/videoN`: a V4L2 camera, with the microphone named by ``AudioDeviceSpec``.
public enum SourceSpec: Sendable, Equatable, CustomStringConvertible {
    /// The synthetic source.
    case test(width: Int, height: Int, framesPerSecond: Int)
    /// A media file (or URL) read by FFmpeg.
    case file(path: String)
    /// A V4L2 camera device and an optional microphone.
    case camera(device: String, audio: AudioDeviceSpec)

    /// A source argument that could not be understood.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// The argument as given.
        public var argument: String
        /// What is wrong with it.
        public var reason: String
        /// Whether it is about the microphone (`--audio`) rather than the source.
        public var concernsAudio = false

        public var description: String {
            concernsAudio
                ? "invalid microphone '\(argument)': \(reason). Use alsa:NAME, pulse:NAME or none, with a v4l2 camera."
                : "invalid source '\(argument)': \(reason). Use test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN."
        }

        /// What a usage error says after "expected": the forms, then what is wrong, e.g.
        /// `test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN ('nope' is an unknown kind of source)`.
        public var expected: String {
            concernsAudio
                ? "alsa:NAME, pulse:NAME or none, with a v4l2 camera (\(reason))"
                : "test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN (\(reason))"
        }
    }

    /// Parses a `--source` argument; `audio` is the `--audio` argument (cameras only).
    public init(parsing argument: String, audio: String? = nil) throws {
        if argument == "test" || argument.hasPrefix("test:") {
            self = try SourceSpec.parseTest(argument)
        } else if argument.hasPrefix("file:") {
            let path = String(argument.dropFirst("file:".count))
            guard !path.isEmpty else { throw Error(argument: argument, reason: "the file path is empty") }
            self = .file(path: path)
        } else if argument.hasPrefix("v4l2:") {
            let device = String(argument.dropFirst("v4l2:".count))
            guard device.hasPrefix("/") else {
                throw Error(argument: argument, reason: "the camera must be a device path such as /dev/video0")
            }
            self = .camera(device: device, audio: try AudioDeviceSpec(parsing: audio ?? "none"))
        } else {
            throw Error(argument: argument, reason: "'\(argument)' is an unknown kind of source")
        }
        if let audio {
            if case .camera = self {} else {
                throw Error(argument: audio, reason: "--audio applies to v4l2 cameras only, not to \(argument)", concernsAudio: true)
            }
        }
    }

    private static func parseTest(_ argument: String) throws -> SourceSpec {
        var (width, height, fps) = (1280, 720, 30)
        let rest = argument.dropFirst("test".count)
        if !rest.isEmpty {
            let body = rest.dropFirst()  // the ':'
            let parts = body.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw Error(argument: argument, reason: "a test source takes one size and one rate, test:WxH@FPS") }
            let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]) else {
                throw Error(argument: argument, reason: "the size must look like 1280x720")
            }
            guard (16...7680).contains(w), (16...4320).contains(h), w % 2 == 0, h % 2 == 0 else {
                throw Error(argument: argument, reason: "width and height must be even and between 16x16 and 7680x4320")
            }
            (width, height) = (w, h)
            if parts.count == 2 {
                guard let f = Int(parts[1]), (1...120).contains(f) else {
                    throw Error(argument: argument, reason: "the frame rate must be a whole number from 1 to 120")
                }
                fps = f
            }
        }
        return .test(width: width, height: height, framesPerSecond: fps)
    }

    /// The device this source holds exclusively while it runs (a camera's path); nil for a
    /// file or the test source, which any number of recordings can read.
    public var exclusiveDevice: String? {
        if case let .camera(device, _) = self { return device }
        return nil
    }

    public var description: String {
        switch self {
        case let .test(w, h, fps): "test:\(w)x\(h)@\(fps)"
        case let .file(path): "file:\(path)"
        case let .camera(device, audio): "v4l2:\(device) (audio \(audio))"
        }
    }
}

/// The microphone for a camera source: `alsa:NAME`, `pulse:NAME` or `none`.
public enum AudioDeviceSpec: Sendable, Equatable, CustomStringConvertible {
    /// No audio track.
    case none
    /// An ALSA device, e.g. `default` or `hw:1,0`.
    case alsa(String)
    /// A PulseAudio (or PipeWire-Pulse) source, e.g. `default`.
    case pulse(String)

    /// Parses `alsa:NAME`, `pulse:NAME` or `none`.
    public init(parsing argument: String) throws {
        if argument == "none" { self = .none; return }
        for (prefix, make) in [("alsa:", AudioDeviceSpec.alsa), ("pulse:", AudioDeviceSpec.pulse)] where argument.hasPrefix(prefix) {
            let name = String(argument.dropFirst(prefix.count))
            guard !name.isEmpty else { break }
            self = make(name)
            return
        }
        throw SourceSpec.Error(argument: argument, reason: "'\(argument)' is none of these", concernsAudio: true)
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .alsa(let name): "alsa:\(name)"
        case .pulse(let name): "pulse:\(name)"
        }
    }
}
